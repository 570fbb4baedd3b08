"""What a person reads: players named in every text (never "Seat N" nor a raw seat reference), the result of a
game that just ended, sealed choices shown as sealed, one line per step of a multi-step turn, /rules options."""

from __future__ import annotations

import random
import re

import pytest

from bot.host import Delivery, Host, HostError
from rules.engine import available_games, name_seats, plural, seat_ref
from rules.engine.text import listing
from tests.conftest import ALICE, BOB, CAROL

CHANNEL = "words"
#: a seat number where a name belongs, or a seat reference nobody replaced
UNNAMED = re.compile(r"\b[Ss]eat \d|\{seat:")
#: options that reach the texts a plain game of these skips (every available game is played, two players)
OPTIONS = {"babylone": {"first": "1", "match": "best-of-3"}}
MAX_ACTIONS = 4000


def test_seat_references_become_names() -> None:
    text = f"{seat_ref(1)} cannot move: {seat_ref(0)} wins round 1."
    assert name_seats(text, ["alice", "bob"]) == "bob cannot move: alice wins round 1."
    assert name_seats("Seat 1 moves stack 3 onto stack 5.", ["alice"]) == "Seat 1 moves stack 3 onto stack 5."
    assert name_seats(f"{seat_ref(2)} passes.", ["alice", "bob"]) == "seat 3 passes."  # no name known
    assert [plural(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert (
        listing(["a"]) == "a"
        and listing(["a", "b"]) == "a and b"
        and listing(["a", "b", "c"]) == "a, b and c"
    )


def _texts(delivery: Delivery) -> list[str]:
    texts = [delivery.text]
    if delivery.prompt is not None:
        texts += [delivery.prompt.text, *(choice.label for choice in delivery.prompt.choices)]
    return texts


async def _self_play(host: Host, key: str, options: dict[str, str], seed: int) -> list[str]:
    """Two people play ``key`` to its end with random legal choices; every text the host delivered or
    answered on the way (deliveries, prompts, status, board, hand, log, autocomplete)."""
    info = await host.create_game("guild", CHANNEL, ALICE, key, options, seed=seed)
    await host.join(CHANNEL, BOB)
    started = await host.start(CHANNEL, ALICE, order="given")
    texts = [text for delivery in started for text in _texts(delivery)]
    rng = random.Random(seed)
    for step in range(MAX_ACTIONS):
        game = await host.game_info(info.game_id)
        if game.status != "active":
            break
        waiting = [u for u in game.pending_users if not await host.has_sealed(info.game_id, u)]
        actor = ALICE if ALICE.user_id in waiting else BOB
        prompt = await host.prompt_of(info.game_id, actor.user_id)
        assert prompt is not None and prompt.choices, f"{key}: {actor.name} is awaited without a choice"
        for delivery in await host.act(info.game_id, actor, rng.choice(prompt.choices).action):
            texts += _texts(delivery)
        if step % 7 == 0:
            texts += [
                await host.status(CHANNEL),
                (await host.board(CHANNEL)).text,
                await host.log(CHANNEL, 5),
            ]
            texts.append((await host.hand(CHANNEL, actor)).text)
            texts += [c.label for c in await host.suggestions(info.game_id, actor.user_id, "", 200)]
    else:
        pytest.fail(f"{key} did not end in {MAX_ACTIONS} actions")
    texts += [await host.status(CHANNEL), (await host.board(CHANNEL)).text, await host.log(CHANNEL, 200)]
    return texts


@pytest.mark.whole_game
@pytest.mark.parametrize("key", available_games())
async def test_self_played_games_name_the_players_everywhere(key: str, tmp_path, clock) -> None:
    host = await Host.open(tmp_path / "words.sqlite3", clock=clock)
    try:
        texts = await _self_play(host, key, OPTIONS.get(key, {}), seed=11)
    finally:
        await host.close()
    unnamed = sorted({line for text in texts for line in text.splitlines() if UNNAMED.search(line)})
    assert not unnamed, f"{key}: {unnamed[:5]}"
    assert sum("alice" in text for text in texts) > 3
    if key != "principes":  # PRINCIPES names principalities in its log
        assert any(re.search(r"^\d+\. (alice|bob) ", text, re.MULTILINE) for text in texts), (
            "log lines name them"
        )


async def test_old_stored_texts_without_references_still_show(host: Host) -> None:
    game_id = await _started_babylone(host)
    await host.act(game_id, ALICE, "1>2")
    async with host.store.transaction() as db:  # a log line stored before seat references existed
        await db.execute(
            "UPDATE events SET log = ? WHERE game_id = ? AND seq = 1",
            ('[["move", "Seat 1 moves stack 1 onto stack 2."]]', game_id),
        )
    assert "1. Seat 1 moves stack 1 onto stack 2." in await host.log(CHANNEL)


# ---- a game that just ended ----------------------------------------------------------------------------------
async def _started_babylone(host: Host, **options: str) -> int:
    info = await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1", **options})
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    return info.game_id


async def _play_out(host: Host, game_id: int) -> list[Delivery]:
    deliveries: list[Delivery] = []
    while (info := await host.game_info(game_id)).status == "active":
        actor = ALICE if info.pending_users == [ALICE.user_id] else BOB
        move = (await host.suggestions(game_id, actor.user_id))[0].action
        deliveries += await host.act(game_id, actor, move)
    return deliveries


async def test_right_after_the_end_every_question_answers_with_the_result(host: Host) -> None:
    game_id = await _started_babylone(host)
    await _play_out(host, game_id)
    result = (await host.game_info(game_id)).result
    assert result is not None
    winner = ALICE.name if result["winners"] == [0] else BOB.name
    over = f"Babylone #{game_id} is over: {winner} wins."
    assert (await host.status(CHANNEL)).startswith(over)
    assert "Start another with /game new" in await host.status(CHANNEL)
    assert (await host.board(CHANNEL)).text.startswith(over)
    assert over in await host.log(CHANNEL)
    assert over in (await host.hand(CHANNEL, ALICE)).text
    with pytest.raises(HostError, match=re.escape(over)):
        await host.act(game_id, ALICE, "1>2")
    for command in (host.undo, host.resign):
        with pytest.raises(HostError, match=re.escape(over)):
            await command(CHANNEL, ALICE)
    # a DM has no channel: the user's last game answers
    assert (await host.no_game_text(None, BOB.user_id)).startswith(over)
    assert "no game in this channel" in await host.no_game_text("elsewhere")
    assert "not playing any game" in await host.no_game_text(None, CAROL.user_id)


async def test_a_reason_that_names_the_loser_is_said_once(host: Host) -> None:
    game_id = await _started_babylone(host)
    deliveries = await _play_out(host, game_id)
    last = [d for d in deliveries if d.kind == "public" and d.view is not None][-1]
    assert last.text.count("cannot move") == 1 and "Game over:" in last.text


# ---- sealed choices ------------------------------------------------------------------------------------------
async def test_a_sealed_seat_is_shown_as_waiting_and_offered_nothing(host: Host, sealed_game) -> None:
    info = await host.create_game("guild", CHANNEL, ALICE, sealed_game.key, {})
    for player in (BOB, CAROL):
        await host.join(CHANNEL, player)
    await host.start(CHANNEL, ALICE, order="given")
    assert await host.suggestions(info.game_id, ALICE.user_id)
    await host.act(info.game_id, ALICE, "pick 3")
    status = await host.status(CHANNEL)
    assert "alice: sealed (pick), waiting for bob and carol." in status
    assert "Now: alice" not in status and "Now: bob seals (pick)" in status
    assert await host.suggestions(info.game_id, ALICE.user_id) == []
    assert await host.suggestions(info.game_id, BOB.user_id)
    hand = (await host.hand(CHANNEL, ALICE)).text
    assert "You have sealed your choice (pick); waiting for bob and carol." in hand
    assert "Pick 1, 2 or 3" not in hand
    await host.act(info.game_id, CAROL, "pick 1")
    assert "alice and carol: sealed (pick), waiting for bob." in await host.status(CHANNEL)


async def test_principes_round_status_says_sealed_waiting(host: Host) -> None:
    info = await host.create_game("guild", CHANNEL, ALICE, "principes", {}, seed=5)
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    for _ in range(200):  # the first round's missions, then both seal their plans
        prompts = {a: await host.prompt_of(info.game_id, a.user_id) for a in (ALICE, BOB)}
        if all(p is not None and p.kind == "plan" for p in prompts.values()):
            break
        actor, prompt = next((a, p) for a, p in prompts.items() if p is not None)
        await host.act(info.game_id, actor, prompt.choices[0].action)
    else:
        pytest.fail("no plan decision in 200 actions")
    plan = [c.action for c in await host.suggestions(info.game_id, ALICE.user_id, "plan", 200)]
    assert plan
    deliveries = await host.act(info.game_id, ALICE, plan[0])
    status = [d for d in deliveries if (d.edit_key or "").startswith("round:")]
    assert len(status) == 1
    assert "alice: sealed (plan), waiting for bob." in status[0].text
    assert "Now: alice" not in status[0].text and "Now: bob seals (plan)" in status[0].text
    assert not [c for c in await host.suggestions(info.game_id, ALICE.user_id, "plan", 200)]


# ---- a multi-step turn ---------------------------------------------------------------------------------------
async def test_each_step_of_a_turn_adds_its_line_once(host: Host) -> None:
    """Pharaoh: the status message gains one line per step; the board at the turn's end repeats none."""
    info = await host.create_game("guild", CHANNEL, ALICE, "pharaoh", {}, seed=3)
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    for _ in range(60):
        game = await host.game_info(info.game_id)
        actor = ALICE if game.pending_users == [ALICE.user_id] else BOB
        steps = [
            c.action
            for c in await host.suggestions(info.game_id, actor.user_id, "", 200)
            if c.action != "end"
        ]
        if len(steps) < 2 or "1 of" in (await host.prompt_of(info.game_id, actor.user_id)).text:
            await host.act(info.game_id, actor, "end")
            continue
        first = await host.act(info.game_id, actor, steps[0])
        if (await host.game_info(info.game_id)).pending_users != [actor.user_id]:
            continue
        second_steps = [
            c.action
            for c in await host.suggestions(info.game_id, actor.user_id, "", 200)
            if c.action != "end"
        ]
        if not second_steps:
            continue
        second = await host.act(info.game_id, actor, second_steps[0])
        if (await host.game_info(info.game_id)).pending_users != [actor.user_id]:
            continue
        [edit_one], [edit_two] = first, second
        one, two = edit_one.text.splitlines(), edit_two.text.splitlines()
        assert edit_one.edit_key == edit_two.edit_key
        assert two[0] == one[0] and len(two) == len(one) + 1  # the second step added one line
        assert len(set(two)) == len(two)
        ended = await host.act(info.game_id, actor, "end")
        closing, board = [d for d in ended if d.kind == "public"][:2]
        assert closing.edit_key == edit_one.edit_key and closing.text.splitlines() == two[:-1]
        assert not any(line in board.text for line in two[:-1])
        return
    pytest.fail("no turn with two steps before its end in 60 tries")


# ---- rules text ----------------------------------------------------------------------------------------------
def test_rules_list_the_window_option_only_for_games_with_card_windows() -> None:
    assert "`window`" in Host.rules_text("principes")
    for key in ("babylone", "pharaoh", "game-of-princes", "the-prince"):
        assert "`window`" not in Host.rules_text(key), key
