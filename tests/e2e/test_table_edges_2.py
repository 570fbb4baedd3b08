"""Issue 42, part 3 (the rest): more edges of a table through the fake Discord. A game in its own thread (who
may join, post, click and see; the thread archived or deleted), floods of replay step buttons, PRINCIPES' Taxes
and answer-ahead buttons of an earlier Round, and 4,000-character ``/ahead`` texts."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.discord import replays
from bot.hosting.turns import DECLINED
from rules.engine.standing import AHEAD, OFFERED
from tests.e2e import test_answers_ahead as ahead
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.test_flows import latest_with_components, started
from tests.e2e.test_play import play_turn


async def _thread_game(table: Table, fake: FakeDiscord, alice: FakeUser, bob: FakeUser) -> int:
    """alice opens a Babylone game in a thread; bob joins with the thread's lobby button; alice starts it there
    (seats in the order given: alice first)."""
    await table.slash(alice, "game new", game="babylone", options="first=1", thread=True)
    (thread,) = [int(c["id"]) for c in fake.channels.values() if c["type"] == 11]
    (lobby,) = fake.channel_messages(thread)
    joined = await table.press(bob, lobby, "Join")
    assert "You joined" in table.reply_text(joined) or not table.reply_text(joined), table.reply_text(joined)
    await table.slash(alice, "game start", thread, order="given")
    return thread


async def test_in_a_thread_only_the_players_act_and_the_game_stays_there(
    table: Table, fake: FakeDiscord
) -> None:
    """bob joins through the thread's lobby; the game's messages go to the thread; carol, who is not seated,
    gets a sentence only she sees for a click on the thread's select and for ``/move`` there, and nothing
    changes, in the thread or the parent channel; alice's own ``/move`` typed in the parent channel plays in the
    thread."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    thread = await _thread_game(table, fake, alice, bob)
    assert table.turn_of([alice, bob], thread) is alice
    turn = latest_with_components(fake.channel_messages(thread))
    assert turn.selects() and turn.channel_id == thread
    select = turn.selects()[0]
    before = [m.content for m in fake.channel_messages(thread)]
    log = await table.running.host.log(str(thread), 50)
    clicked = await table.click(carol, turn, select["custom_id"], [select["options"][0]["value"]])
    (answer,) = fake.replies(clicked)
    assert answer.ephemeral and answer.visible_to == carol.id, answer.content
    moved = await table.slash(carol, "move", thread, notation=select["options"][0]["value"])
    (answer,) = fake.replies(moved)
    assert answer.ephemeral and answer.visible_to == carol.id and "Done" not in answer.content, answer.content
    outside = await table.slash(carol, "move", notation=select["options"][0]["value"])  # the parent channel
    assert "Done" not in table.reply_text(outside), table.reply_text(outside)
    assert [m.content for m in fake.channel_messages(thread)] == before
    assert await table.running.host.log(str(thread), 50) == log
    assert table.turn_of([alice, bob], thread) is alice
    # a player's /move typed in the parent channel (no game there) is her own game's move: it lands in the thread
    mine = await table.slash(alice, "move", notation=select["options"][0]["value"])
    (answer,) = fake.replies(mine)
    assert answer.ephemeral and answer.content.startswith("Done"), answer.content
    assert table.turn_of([alice, bob], thread) is bob
    await play_turn(table, bob, 1, thread)
    assert table.turn_of([alice, bob], thread) is alice
    # the parent channel holds the pointer only: no board, no turn, no mention
    general = fake.channel_messages(fake.general)
    assert len(general) == 1 and "opened in" in general[0].content and not general[0].files
    assert not table.running.unexpected_errors


async def test_a_game_thread_archived_then_deleted(table: Table, fake: FakeDiscord) -> None:
    """A thread that archives itself (7 days without a message) is unarchived by the game's next message; a
    thread deleted pauses its game, its players hear by DM, and ``/game resume`` in the channel continues it."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    thread = await _thread_game(table, fake, alice, bob)
    await fake.archive_thread(thread)
    await table.running.wait_idle()
    await play_turn(table, alice, 0, thread)
    assert not fake.channels[thread]["thread_metadata"]["archived"]
    assert table.turn_of([alice, bob], thread) is bob
    await fake.archive_thread(thread)
    await table.running.wait_idle()
    await fake.delete_channel(thread)
    await fake.wait_for(lambda: any("is gone" in m.content for m in fake.dm_messages(bob)), timeout=5)
    await table.running.wait_idle()
    for user in (alice, bob):
        assert any("paused" in m.content for m in fake.dm_messages(user)), user.name
    await table.slash(bob, "game resume")
    await table.slash(alice, "game resume")
    assert table.turn_of([alice, bob]) is bob
    await play_turn(table, bob, 1)
    assert table.turn_of([alice, bob]) is alice
    assert not table.running.unexpected_errors


async def test_a_locked_archived_thread_pauses_its_game(table: Table, fake: FakeDiscord) -> None:
    """A moderator archives and locks the game's thread: the bot can no longer post there, so the game pauses
    and its players hear by DM (as for a deleted channel), instead of retrying the post for ever."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    thread = await _thread_game(table, fake, alice, bob)
    await fake.archive_thread(thread, locked=True)
    await table.running.wait_idle()
    choices = await fake.autocomplete(alice, "move", "notation", thread)
    await table.slash(alice, "move", thread, notation=choices[0]["value"])
    await fake.wait_for(lambda: any("paused" in m.content for m in fake.dm_messages(bob)), timeout=5)
    await table.running.wait_idle()
    for user in (alice, bob):
        assert any("is gone or no longer reachable" in m.content for m in fake.dm_messages(user)), user.name
    refused = [r for r in fake.requests if r.channel_id == thread and r.status == 400]
    assert len(refused) == 1, refused  # one refused post, not a retry every 30 s
    await table.slash(bob, "game resume")
    await table.slash(alice, "game resume")
    assert table.turn_of([alice, bob]) is bob
    assert not table.running.unexpected_errors


@pytest.mark.parametrize("draw_s", [0.0, 0.4])
async def test_a_flood_of_replay_step_clicks_is_answered_and_ends_on_one_step(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, draw_s: float
) -> None:
    """40 clicks at once on the same "Next" button of an ephemeral step-through, then 20 on buttons of steps it
    no longer shows: every click is answered within 2.5 s (the fixture checks), nothing fails, and the message
    ends on one step whose buttons agree with its text. ``draw_s``: each step's board takes that long to replay
    and draw (a long game), so the clicks queue for the drawing threads and are deferred in time."""
    if draw_s:
        real_show = replays._show

        def slow_show(*args: Any) -> Any:
            time.sleep(draw_s)
            return real_show(*args)

        monkeypatch.setattr(replays, "_show", slow_show)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await started(table, alice, bob)
    turns = 0
    while (player := table.turn_of([alice, bob])) is not None and turns < 300:
        await play_turn(table, player, turns)
        turns += 1
    assert turns >= 6
    record = await table.slash(bob, "game replay", game=game_id, step=3)
    (steps,) = fake.replies(record)
    assert steps.ephemeral and "action 3 of" in steps.content, steps.content
    next_id = steps.button("Next ▶")["custom_id"]
    stale = [b["custom_id"] for b in steps.buttons() if not b.get("disabled")]
    flood = [await fake.click(bob, steps, next_id) for _ in range(40)]
    await asyncio.gather(*(table.settle(click) for click in flood))
    await table.running.wait_idle()
    assert all(click.responded.is_set() for click in flood)
    assert "action 4 of" in fake.messages[steps.id].content, fake.messages[steps.id].content
    old = [await fake.click_forged(bob, custom_id, channel_id=fake.general) for custom_id in stale * 5]
    await asyncio.gather(*(table.settle(click) for click in old))
    for click in old:
        (answer,) = fake.replies(click)
        assert answer.ephemeral and answer.content.startswith(f"**Babylone #{game_id}**"), answer.content
    shown = fake.messages[steps.id]
    index = int(shown.content.split("action ", 1)[1].split(" ", 1)[0])
    assert shown.button("Next ▶")["custom_id"] == f"pt:r:{game_id}:{index + 1}:n"
    assert shown.button("◀ Back")["custom_id"] == f"pt:r:{game_id}:{index - 1}:b"
    assert [name for name, _ in shown.files] == [f"replay-{game_id}-{index}.png"]
    assert not table.running.unexpected_errors


async def test_4000_character_ahead_texts_get_a_short_sentence_and_store_nothing(
    table: Table, fake: FakeDiscord
) -> None:
    """``/ahead``'s answers option is capped at 300 characters, but a client (or a forged interaction) may send
    more: 4,000 characters of one word, of many comma-separated answers, or of "collect" padded, each get a short
    sentence (well under Discord's 2,000) and no answer is stored."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = fake.replies(await table.slash(alice, "game new", game="principes"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    players = ahead.Players(table, game_id, alice, bob)
    texts = (
        ("Scouts " * 600)[:4000],
        ("collect, " * 500)[:4000],
        "collect " + "x" * 3992,
        "ask" * 1333 + "!",
    )
    for sealed in (False, True):
        if sealed:  # a plan with Taxes: /ahead now reads its texts as answers to the plan's Taxes choice
            await players.play_until(lambda user, prompt: user is bob and prompt.kind == "plan")
            done = await table.slash(bob, "move", notation="plan assembly building taxes")
            assert table.reply_text(done).startswith("Done"), table.reply_text(done)
            assert "Taxes" in table.reply_text(await table.slash(bob, "ahead"))
        for text in texts:
            record = await table.slash(bob, "ahead", answers=text)
            (answer,) = fake.replies(record)
            assert answer.ephemeral and 0 < len(answer.content) <= 400, answer.content[:300]
            assert answer.content.rstrip().endswith((".", ")")), answer.content[:300]
    listed = table.reply_text(await table.slash(bob, "ahead"))
    assert "Answered ahead" not in listed and "Your answer given ahead:" not in listed, listed
    rows = await table.running.host.store.fetchall("SELECT * FROM standing_orders")
    # a turn offered ahead is remembered by a mark (``bot.hosting.turns``: offered, declined), which is no answer;
    # the recommended orders a game begins with are topics' rows, not answers given ahead
    ahead_rows = [row for row in rows if row["topic"].startswith(AHEAD)]
    stored = [dict(row) for row in ahead_rows if row["choice"] not in (OFFERED, DECLINED)]
    assert not stored, stored
    assert not table.running.unexpected_errors


async def test_round_1_taxes_and_ahead_buttons_change_nothing_in_round_2(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice keeps the DMs of Round 1: the offer to answer her plan's Taxes choice ahead, the Taxes decision's own
    buttons, and the offer to answer Release to Home ahead. In Round 2, with a new plan holding Taxes again, each
    old click gets a sentence only she sees and changes nothing: no answer given ahead for Round 2, her Round 2
    Taxes decision still open, the game's log as it was."""
    game_id, alice, bob = await ahead.seeded_principes(table, fake, monkeypatch)
    players = ahead.Players(table, game_id, alice, bob)
    host = table.running.host

    await players.play_until(lambda user, prompt: user is alice and prompt.kind == "plan")
    await table.slash(alice, "move", notation=ahead.ALICE_PLAN)
    offer = ahead._offer(fake, alice, "your plan has your Taxes action (Action III)")
    taxes = await players.play_until(lambda user, prompt: user is alice and prompt.kind == "taxes")
    (taxes_dm,) = [
        m for m in fake.dm_messages(alice) if m.custom_ids() and taxes.decision_id in str(m.custom_ids())
    ]
    # what her client showed (a phone that has not refreshed may still show it once the DM lost its buttons)
    taxes_ids = taxes_dm.custom_ids()
    await table.slash(alice, "move", notation=ahead._script(taxes, ahead.ALICE_PLAN))
    assert not taxes_dm.custom_ids(), "the answered Taxes decision's DM loses its buttons"
    await players.play_until(lambda user, prompt: user is bob and prompt.kind == "release")
    release = ahead._offer(fake, alice, "coming to you after the players before you: Release")
    plan = await players.play_until(lambda user, prompt: user is alice and prompt.kind == "plan")
    assert plan.decision_id != taxes.decision_id
    await table.slash(alice, "move", notation=ahead.ALICE_PLAN)
    offer_2 = ahead._offer(fake, alice, "your plan has your Taxes action (Action III)")
    assert offer_2.id != offer.id

    async def refused(message: FakeMessage | None, custom_id: str) -> str:
        """A click on ``message``'s button, or (None) on a button of a DM it has lost since."""
        log = await host.log(str(fake.general), 200)
        prompt = await host.prompt_of(game_id, str(alice.id))
        if message is None:
            record = await fake.click_forged(alice, custom_id)
            await table.settle(record)
        else:
            record = await table.click(alice, message, custom_id)
        (answer,) = fake.replies(record)
        assert answer.ephemeral and answer.visible_to == alice.id, answer.content
        assert await host.log(str(fake.general), 200) == log
        assert await host.prompt_of(game_id, str(alice.id)) == prompt
        # nothing stored ahead, whatever is upcoming
        given = table.reply_text(await table.slash(alice, "ahead"))
        assert "No answer given ahead" in given or "Nothing to answer ahead now" in given, given
        return answer.content

    for button in offer.buttons():
        assert "no longer upcoming" in await refused(offer, button["custom_id"])
    for button in release.buttons():
        assert "no longer upcoming" in await refused(release, button["custom_id"])
    assert taxes_ids
    for custom_id in taxes_ids:
        assert "no longer" in (await refused(None, custom_id)).lower()
    taxes_2 = await players.play_until(lambda user, prompt: user is alice and prompt.kind == "taxes")
    assert taxes_2.decision_id != taxes.decision_id
    for custom_id in taxes_ids:  # the Round 1 Taxes buttons, now that a Taxes decision is open again
        assert "no longer" in (await refused(None, custom_id)).lower()
    assert (await host.prompt_of(game_id, str(alice.id))).decision_id == taxes_2.decision_id  # type: ignore[union-attr]
    assert not table.running.unexpected_errors
