"""The host service driven as a front-end would: lobby, play, errors, undo, restart, votes."""

from __future__ import annotations

import json

import pytest

from bot.host import Host, HostError
from bot.models import Actor
from rules.engine import get_game
from tests.conftest import ALICE, BOB, CAROL, MOD

CHANNEL = "chan-1"


async def _started_babylone(host: Host, **options: str) -> int:
    info = await host.create_game(
        "guild", CHANNEL, ALICE, "babylone", {"first": "1", "posts": "every-move", **options}
    )
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    return info.game_id


async def _pending_actor(host: Host, game_id: int):
    info = await host.game_info(game_id)
    user = info.pending_users[0]
    return ALICE if user == ALICE.user_id else BOB


async def test_lobby_rules(host: Host) -> None:
    info = await host.create_game("guild", CHANNEL, ALICE, "babylone", {})
    with pytest.raises(HostError, match="already has a game"):
        await host.create_game("guild", CHANNEL, BOB, "babylone", {})
    with pytest.raises(HostError, match="already joined"):
        await host.join(CHANNEL, ALICE)
    with pytest.raises(HostError, match="at least 2"):
        await host.start(CHANNEL, ALICE)
    with pytest.raises(HostError, match="no option"):
        await host.create_game("guild", "other", ALICE, "babylone", {"colour": "red"})
    with pytest.raises(HostError, match="no game 'chess'"):
        await host.create_game("guild", "other", ALICE, "chess", {})
    with pytest.raises(HostError, match="between 1 hour and 7 days"):
        await host.create_game("guild", "other", ALICE, "babylone", {}, deadline_hours=200)
    await host.join(CHANNEL, BOB)
    await host.leave(CHANNEL, BOB)
    info = await host.add_ai(CHANNEL, ALICE, "perfect")
    assert [seat.label for seat in info.seats] == ["alice", "AI perfect"]
    assert "Babylone" in info.lobby_text()


async def test_a_whole_game_against_the_ai(host: Host) -> None:
    await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1"})
    await host.add_ai(CHANNEL, ALICE, "easy")
    deliveries = await host.start(CHANNEL, ALICE, order="given")
    game_id = deliveries[0].game_id
    # the default posts=card: the line that pings, then the live card (board and the buttons of the moment),
    # which the front-end posts again under the line once it has sunk (issue 47)
    line, card = deliveries[0], deliveries[1]
    assert card.kind == "public" and card.view is not None and card.edit_key == "card" and not card.mentions
    assert card.keep_in_reach
    assert card.prompt is not None and len(card.prompt.choices) == 132
    assert line.kind == "public" and line.view is None and line.mentions == [ALICE.user_id]
    for _ in range(20):
        info = await host.game_info(game_id)
        if info.status == "finished":
            break
        choices = await host.suggestions(game_id, ALICE.user_id, "")
        prompt = await host.prompt_of(game_id, ALICE.user_id)
        deliveries = await host.act(game_id, ALICE, choices[0].action, prompt.decision_id)
        assert [d.edit_key for d in deliveries if d.view is not None][:1] == ["card"]  # edited, not reposted
    info = await host.game_info(game_id)
    assert info.status == "finished" and info.result is not None
    result = [d for d in deliveries if "Game over" in d.text]
    assert result and result[-1].view is not None and result[-1].edit_key is None  # the result: its own post
    assert await host.replay_state(game_id) == (await host.games.load(game_id)).state
    assert "wins" in await host.log(CHANNEL)


async def test_bad_input_is_a_sentence_and_stores_nothing(host: Host) -> None:
    game_id = await _started_babylone(host)
    version = (await host.games.row(game_id))["version"]
    with pytest.raises(HostError, match="two stack numbers"):
        await host.act(game_id, ALICE, "hello")
    with pytest.raises(HostError, match="no stack 13"):
        await host.act(game_id, ALICE, "13>1")
    with pytest.raises(HostError, match="not your turn"):
        await host.act(game_id, BOB, "1>2")
    with pytest.raises(HostError, match="not playing"):
        await host.act(game_id, CAROL, "1>2")
    assert (await host.games.row(game_id))["version"] == version
    assert len(await host.store.events(game_id)) == 1


async def test_stale_or_doubled_click_applies_once(host: Host) -> None:
    game_id = await _started_babylone(host)
    prompt = await host.prompt_of(game_id, ALICE.user_id)
    action = prompt.choices[0].action
    await host.act(game_id, ALICE, action, prompt.decision_id)
    with pytest.raises(HostError):
        await host.act(game_id, ALICE, action, prompt.decision_id)
    bob_prompt = await host.prompt_of(game_id, BOB.user_id)
    await host.act(game_id, BOB, bob_prompt.choices[0].action, bob_prompt.decision_id)
    with pytest.raises(
        HostError, match="no longer open"
    ):  # alice's old button, now that it is her turn again
        await host.act(game_id, ALICE, prompt.choices[1].action, prompt.decision_id)
    assert len(await host.store.events(game_id)) == 3


async def test_undo_own_last_move_only(host: Host) -> None:
    game_id = await _started_babylone(host)
    prompt = await host.prompt_of(game_id, ALICE.user_id)
    with pytest.raises(HostError, match="nothing to undo"):
        await host.undo(CHANNEL, ALICE)
    await host.act(game_id, ALICE, prompt.choices[0].action)
    with pytest.raises(HostError, match="your own last move"):
        await host.undo(CHANNEL, BOB)
    await host.undo(CHANNEL, ALICE)
    assert (await host.game_info(game_id)).pending_users == [ALICE.user_id]
    await host.act(game_id, ALICE, prompt.choices[1].action)  # the next event takes a fresh number
    events = await host.store.events(game_id)
    assert [e.action for e in events[1:]] == [prompt.choices[1].action]
    assert await host.replay_state(game_id) == (await host.games.load(game_id)).state


async def test_crash_between_stored_and_delivered(database, clock) -> None:
    """The action is stored with its messages; a 'crash' before posting them delivers them after restart."""
    first = await Host.open(database, clock=clock)
    game_id = await _started_babylone(first)
    for delivery in await first.pending_deliveries():
        await first.mark_sent(delivery.id)
    prompt = await first.prompt_of(game_id, ALICE.user_id)
    returned = await first.act(game_id, ALICE, prompt.choices[0].action, prompt.decision_id)
    state = (await first.games.load(game_id)).state
    await first.close()  # the process dies here: nothing was posted

    second = await Host.open(database, clock=clock)
    try:
        unsent = await second.pending_deliveries()
        assert [d.text for d in unsent] == [d.text for d in returned]
        for delivery in unsent:
            await second.mark_sent(delivery.id)
        assert await second.pending_deliveries() == []
        assert (await second.games.load(game_id)).state == state  # no game effect lost
        with pytest.raises(HostError):  # nor doubled: the same click again is refused
            await second.act(game_id, ALICE, prompt.choices[0].action, prompt.decision_id)
        assert len(await second.store.events(game_id)) == 2
    finally:
        await second.close()


async def test_snapshots_and_reload_equal_replay(database, clock) -> None:
    first = await Host.open(database, clock=clock)
    await first.create_game("guild", CHANNEL, ALICE, "babylone", {"match": "best-of-3"})
    await first.add_ai(CHANNEL, ALICE, "easy")
    await first.add_ai(CHANNEL, ALICE, "easy")
    await first.leave(CHANNEL, ALICE)  # leaving empties the human seats: the lobby is abandoned
    assert await first.game_in_channel(CHANNEL) is None
    await first.create_game(
        None, CHANNEL, MOD, "babylone", {"match": "best-of-3"}, seat_creator=False, seed=5
    )
    await first.add_ai(CHANNEL, MOD, "easy")
    await first.add_ai(CHANNEL, MOD, "random")
    await first.start(CHANNEL, MOD)
    info = (await first.my_games(MOD.user_id)) or [await first.game_info(2)]
    game_id = info[0].game_id
    snapshots = await first.store.fetchall("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,))
    await first.close()
    assert len(snapshots) >= 2  # seq 0 and at least one every 25 events
    second = await Host.open(database, clock=clock)
    try:
        loaded = (await second.games.load(game_id)).state
        assert loaded == await second.replay_state(game_id)
        assert (await second.game_info(game_id)).status == "finished"
    finally:
        await second.close()


async def test_resign_abandon_sub_and_votes(host: Host) -> None:
    game_id = await _started_babylone(host)
    deliveries = await host.sub(CHANNEL, BOB, CAROL)
    assert "carol takes over seat 2" in deliveries[0].text
    with pytest.raises(HostError, match="Manage Channels"):
        await host.sub(CHANNEL, ALICE, BOB, seat=1)
    with pytest.raises(HostError, match="carol is playing"):  # a present player's seat is theirs to hand over
        await host.sub(CHANNEL, MOD, BOB, seat=1)
    await host.sub(CHANNEL, CAROL, BOB)
    with pytest.raises(HostError, match="no draw"):
        await host.offer_draw(CHANNEL, ALICE)
    first = await host.abandon(CHANNEL, ALICE)
    assert "Waiting for: bob" in first[0].text
    await host.pause(CHANNEL, ALICE)
    await host.pause(CHANNEL, BOB)
    assert (await host.game_info(game_id)).status == "paused"
    with pytest.raises(HostError, match="paused"):
        await host.act(game_id, ALICE, "1>2")
    await host.resume(CHANNEL, ALICE)
    await host.resume(CHANNEL, BOB)
    assert (await host.game_info(game_id)).status == "active"
    deliveries = await host.resign(CHANNEL, BOB)
    info = await host.game_info(game_id)
    assert info.status == "finished" and info.result["winners"] == [0]
    assert "alice wins" in deliveries[0].text


async def test_moderator_abandons_at_once(host: Host) -> None:
    game_id = await _started_babylone(host)
    await host.abandon(CHANNEL, MOD)
    assert (await host.game_info(game_id)).status == "abandoned"
    assert await host.game_in_channel(CHANNEL) is None


async def test_lost_channel_pauses_and_resumes_elsewhere(host: Host) -> None:
    game_id = await _started_babylone(host)
    deliveries = await host.channel_lost(CHANNEL)
    assert {d.user_id for d in deliveries} == {ALICE.user_id, BOB.user_id}
    assert all(d.kind == "private" for d in deliveries)
    assert (await host.game_info(game_id)).status == "paused"
    asked = await host.resume("chan-2", BOB, guild_id="guild")  # one player alone cannot move the game
    assert asked[0].channel_id == "chan-2" and "Waiting for: alice" in asked[0].text
    assert (await host.game_info(game_id)).status == "paused"
    await host.resume("chan-2", ALICE, guild_id="guild")
    info = await host.game_info(game_id)
    assert info.status == "active" and info.channel_id == "chan-2"


async def test_a_moderator_moves_a_lost_game_at_once(host: Host) -> None:
    game_id = await _started_babylone(host)
    await host.channel_lost(CHANNEL)
    with pytest.raises(HostError, match="no paused game of yours"):
        await host.resume("chan-2", MOD, guild_id="guild")  # a moderator who does not play it cannot find it
    await host.resume("chan-2", Actor(BOB.user_id, BOB.name, can_manage=True), guild_id="guild")
    info = await host.game_info(game_id)
    assert info.status == "active" and info.channel_id == "chan-2"


async def test_rules_text_lists_options(host: Host) -> None:
    text = host.rules_text("babylone")
    assert "second player always wins" in text and "`match`" in text
    assert "babylone" in host.rules_text(None)
    with pytest.raises(HostError):
        host.rules_text("nope")


async def test_turn_dms_setting(host: Host) -> None:
    await host.set_setting(BOB.user_id, "turn_dms", "on")
    assert (await host.get_settings(BOB.user_id))["turn_dms"] == "on"
    with pytest.raises(HostError):
        await host.set_setting(BOB.user_id, "colour", "red")
    game_id = await _started_babylone(host)
    prompt = await host.prompt_of(game_id, ALICE.user_id)
    deliveries = await host.act(game_id, ALICE, prompt.choices[0].action)
    private = [d for d in deliveries if d.kind == "private"]
    assert [d.user_id for d in private] == [BOB.user_id] and private[0].prompt is not None


def test_game_options_stored_resolved() -> None:
    game = get_game("babylone")
    assert game.resolve_options({}) == {"first": "random", "match": "single"}
    assert json.loads(json.dumps(game.resolve_options({"match": "BEST-OF-3"})))["match"] == "best-of-3"


async def test_remembered_messages_are_replaced(host: Host) -> None:
    game_id = await _started_babylone(host)
    await host.remember_message(game_id, "status", "chan", "1")
    await host.remember_message(game_id, "status", "chan", "2")
    assert await host.find_message(game_id, "status") == ("chan", "2")
    assert await host.find_message(game_id, "lobby") is None


async def test_the_live_card_counts_the_messages_posted_below_it(host: Host) -> None:
    """Issue 47: each new message of the game marked sent in the card's channel counts once; the card posted
    again (remembered anew) starts from 0 in the same transaction."""
    game_id = await _started_babylone(host)
    await host.remember_message(game_id, "card", "chan", "10")
    assert await host.find_card(game_id) == ("chan", "10", 0)
    choices = await host.suggestions(game_id, ALICE.user_id, "")
    prompt = await host.prompt_of(game_id, ALICE.user_id)
    await host.act(game_id, ALICE, choices[0].action, prompt.decision_id)
    pending = [d.id for d in await host.pending_deliveries()]
    assert len(pending) >= 2
    await host.mark_sent(pending[0], (game_id, "chan"))
    await host.mark_sent(pending[0], (game_id, "chan"))  # posted again after a crash: counted once
    await host.mark_sent(pending[1], (game_id, "elsewhere"))  # another channel: not below the card
    assert await host.find_card(game_id) == ("chan", "10", 1)
    await host.remember_message(game_id, "card", "chan", "11")
    assert await host.find_card(game_id) == ("chan", "11", 0)


async def test_steps_of_a_turn_edit_one_status_message_then_the_board_posts(host: Host) -> None:
    """Pharaoh: each step of a turn edits the turn's status message; the turn's end edits it a last time
    (its lines stay, its "Now:" line and buttons go) and posts the board without repeating those lines."""
    info = await host.create_game("guild", "pharaoh-chan", ALICE, "pharaoh", {"posts": "every-move"}, seed=7)
    await host.join("pharaoh-chan", BOB)
    await host.start("pharaoh-chan", ALICE, order="given")
    game_id = info.game_id
    for _ in range(40):  # find a turn with at least one step before its end
        game = await host.game_info(game_id)
        actor = ALICE if game.pending_users == [ALICE.user_id] else BOB
        choices = [c.action for c in await host.suggestions(game_id, actor.user_id, "", limit=200)]
        steps = [a for a in choices if a != "end"]
        if not steps:
            await host.act(game_id, actor, "end")
            continue
        deliveries = await host.act(game_id, actor, steps[0])
        public = [d for d in deliveries if d.kind == "public"]
        if (await host.game_info(game_id)).pending_users != [actor.user_id]:
            continue  # that step ended the turn
        assert len(public) == 1 and public[0].view is None and public[0].edit_key.startswith("status:")
        key, step_text = public[0].edit_key, public[0].text.splitlines()[0]
        ended = await host.act(game_id, actor, "end")
        closing, board = [d for d in ended if d.kind == "public"][:2]
        assert closing.edit_key == key and closing.text == step_text and closing.prompt is None
        assert board.view is not None and board.edit_key is None
        assert step_text not in board.text  # the new message does not repeat the turn's steps
        return
    pytest.fail("no turn with a step before its end in 40 tries")


async def test_card_window_deadline_is_a_lobby_option(host: Host) -> None:
    info = await host.create_game("guild", "w1", ALICE, "babylone", {"window": "0.5"})
    row = await host.games.row(info.game_id)
    assert row["window_seconds"] == 1800 and "window" not in info.options
    default = await host.create_game("guild", "w2", ALICE, "babylone", {}, deadline_hours=1)
    assert (await host.games.row(default.game_id))["window_seconds"] == 3600
    with pytest.raises(HostError, match="up to the decision deadline"):
        await host.create_game("guild", "w3", ALICE, "babylone", {"window": "30"})
    with pytest.raises(HostError, match="number of hours"):
        await host.create_game("guild", "w3", ALICE, "babylone", {"window": "soon"})
