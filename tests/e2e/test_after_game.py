"""After the game, through the fake Discord: the result message with the rating changes, the animated replay and a
step-through; ``/game replay`` with progress; ``/stats`` and ``/leaderboard``; forged replay buttons refused."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.discord import replays
from bot.models import Actor
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.test_flows import started
from tests.e2e.test_play import play_turn


async def _finished(table: Table, alice: FakeUser, bob: FakeUser) -> tuple[int, FakeMessage]:
    """A 2-player Babylone game with a few moves, won by bob when alice resigns; its result message."""
    game_id = await started(table, alice, bob)
    for turn in range(3):
        await play_turn(table, alice if turn % 2 == 0 else bob, turn)
    await table.slash(alice, "game resign")
    (result,) = [m for m in table.fake.channel_messages(table.fake.general) if "Game over:" in m.content]
    return game_id, result


async def _forge(table: Table, user: FakeUser, custom_id: str, values: list[str] | None = None) -> str:
    """Click a component carrying ``custom_id`` (a hand-made one: discord.py only dispatches ids that are on the
    clicked message, so the test posts a message that carries it) and return the ephemeral answer."""
    view = discord.ui.View()
    if values is None:
        view.add_item(discord.ui.Button(label="forged", custom_id=custom_id))
    else:
        view.add_item(
            discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label=v) for v in values])
        )
    await table.running.get_partial_messageable(table.fake.general).send("forged", view=view)
    view.stop()
    message = table.fake.channel_messages(table.fake.general)[-1]
    record = await table.click(user, message, custom_id, values)
    (reply,) = table.fake.replies(record)
    assert reply.ephemeral and reply.visible_to == user.id
    return reply.content


async def test_the_result_comes_with_ratings_the_replay_and_a_step_through(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    game_id, result = await _finished(table, alice, bob)
    assert "Game over: bob wins. alice resigned." in result.content
    assert f"Ratings for Babylone #{game_id}: " in result.content and "bob 25.0 → 27.6" in result.content
    assert "Replay: 4 frames (one per completed action)." in result.content
    assert [name for name, _ in result.files] == [f"replay-{game_id}.gif"]  # a resignation shows no board
    assert result.files[-1][1].startswith(b"GIF89a")
    # carol, who did not play, steps through it: her own ephemeral message, the start first
    record = await table.press(carol, result, "Step through the game")
    (steps,) = fake.replies(record)
    shown = steps.edits  # its "thinking…" replaced by the first step, when the click was acknowledged at once
    assert steps.ephemeral and steps.visible_to == carol.id
    assert steps.content.startswith(f"**Babylone #{game_id}** · Round 1 · Start")
    assert [name for name, _ in steps.files] == [f"replay-{game_id}-0.png"]
    assert steps.files[0][1].startswith(b"\x89PNG")
    disabled = {b["label"]: b.get("disabled", False) for b in steps.buttons()}
    assert disabled == {"⏮ Start": True, "◀ Back": True, "Next ▶": False, "End ⏭": False}
    # on her ephemeral message each click edits it in place
    await table.press(carol, steps, "Next ▶")
    assert steps.edits == shown + 1 and "action 1 of 3" in steps.content
    assert [name for name, _ in steps.files] == [f"replay-{game_id}-1.png"]
    await table.press(carol, steps, "End ⏭")
    assert "action 3 of 3" in steps.content and "Game over: bob wins." in steps.content
    assert {b["label"]: b.get("disabled", False) for b in steps.buttons()}["Next ▶"] is True
    (jump,) = steps.selects()
    assert [o["label"] for o in jump["options"]][:2] == ["Start", "Action 1"]
    await table.click(carol, steps, jump["custom_id"], ["2"])
    assert "action 2 of 3" in steps.content and steps.edits == shown + 3
    assert not fake.dm_messages(carol)
    assert len([m for m in fake.channel_messages(fake.general) if m.id == steps.id]) == 0  # never public


async def test_a_polish_reader_steps_through_replays_and_verifies_in_polish(
    table: Table, fake: FakeDiscord
) -> None:
    """Issue 23: the step-through (its text, edited in place, its buttons and select), /game replay and /game
    verify read in the clicker's language; the channel's result stays in the server's (English)."""
    alice, bob, ola = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("ola", locale="pl")
    game_id, result = await _finished(table, alice, bob)
    assert "Replay: 4 frames (one per completed action)." in result.content
    record = await table.press(ola, result, "Step through the game")
    (steps,) = fake.replies(record)
    shown = steps.edits
    assert steps.content.startswith(f"**Babylone #{game_id}** · Runda 1 · Start\nBabylone: początek gry.")
    assert [b["label"] for b in steps.buttons()] == ["⏮ Start", "◀ Wstecz", "Dalej ▶", "Koniec ⏭"]
    await table.press(ola, steps, "Dalej ▶")
    assert steps.edits == shown + 1 and "akcja 1 z 3" in steps.content, steps.content
    await table.press(ola, steps, "Koniec ⏭")
    assert "akcja 3 z 3" in steps.content and "Koniec gry: wygrywa bob." in steps.content, steps.content
    (jump,) = steps.selects()
    assert [o["label"] for o in jump["options"]][:2] == ["Start", "Akcja 1"]
    assert jump["placeholder"] == "Przejdź do…"
    record = await table.slash(ola, "game replay")
    (reply,) = fake.replies(record)
    assert reply.content.startswith(
        f"Powtórka gry Babylone #{game_id}: 4 klatki (jedna na zakończoną akcję)."
    ), reply.content
    assert [b["label"] for b in reply.buttons()] == ["⏮ Start", "Dalej ▶", "Koniec ⏭"]
    verified = await table.slash(ola, "game verify")
    assert table.reply_text(verified).startswith(f"Zweryfikowano. Babylone #{game_id}: "), table.reply_text(
        verified
    )


async def test_replay_no_posts_the_result_without_a_replay(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob, options="first=1 rated=no replay=no")
    await table.slash(bob, "game resign")
    (result,) = [m for m in fake.channel_messages(fake.general) if "Game over:" in m.content]
    assert "is not rated: the table chose rated=no." in result.content
    assert not any(name.endswith(".gif") for name, _ in result.files) and not result.buttons()


async def test_game_replay_draws_with_progress_and_answers_the_asker_only(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    running = await table.slash(alice, "game replay")
    assert "There is no game" not in table.reply_text(running)
    assert "no finished game" in table.reply_text(running)
    game_id = await started(table, alice, bob)
    record = await table.slash(bob, "game replay")
    assert (
        f"Babylone #{game_id} is still being played: its replay opens once it is over."
        in table.reply_text(record)
    )
    await play_turn(table, alice, 0)
    await table.slash(bob, "game resign")
    replays.service_of(table.running)._done.clear()  # drawn again, slowly, to see the progress
    real_animate = replays.animate

    def slow_animate(game_log: Any, progress: Any, **options: Any) -> Any:
        def report(done: int, total: int) -> None:
            progress(done, total)
            if done == 1:
                import time

                time.sleep(0.5)

        return real_animate(game_log, report, **options)

    monkeypatch.setattr(replays, "animate", slow_animate)
    monkeypatch.setattr(replays, "PROGRESS_EVERY_S", 0.1)
    record = await table.slash(alice, "game replay")
    (reply,) = fake.replies(record)
    assert reply.ephemeral and reply.visible_to == alice.id and reply.edits >= 2
    assert reply.content.startswith(f"Replay of Babylone #{game_id}: 2 frames (one per completed action).")
    assert [name for name, _ in reply.files] == [f"replay-{game_id}.gif"]
    assert [b["label"] for b in reply.buttons()] == ["⏮ Start", "Next ▶", "End ⏭"]
    at_step = await table.slash(alice, "game replay", game=game_id, step=1)
    (board,) = fake.replies(at_step)
    assert (
        board.ephemeral
        and "action 1 of 1" in board.content
        and board.files[0][0] == f"replay-{game_id}-1.png"
    )


async def test_forged_replay_components_get_a_sentence(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id, result = await _finished(table, alice, bob)
    elsewhere = await table.running.host.create_game("another-guild", "999", Actor("5", "x"), "babylone")
    assert "has 3 steps; there is no step 4." in await _forge(table, bob, f"pt:r:{game_id}:4:n")
    assert f"There is no game #{2**62}." in await _forge(table, bob, f"pt:r:{2**62}:0:s")
    assert "There is no game #0." in await _forge(table, bob, "pt:r:0:0:s")
    text = await _forge(table, bob, f"pt:r:{elsewhere.game_id}:0:s")
    assert "never started" in text or f"no game #{elsewhere.game_id} on this server" in text
    assert "Pick one of the steps" in await _forge(table, bob, f"pt:j:{game_id}", ["-1"])
    assert "Pick one of the steps" in await _forge(table, bob, f"pt:j:{game_id}", ["１"])
    assert "has 3 steps" in await _forge(table, bob, f"pt:j:{game_id}", ["9999999"])
    live = await started(table, alice, bob, channel_id=await fake.create_channel("second"))
    assert "still being played" in await _forge(table, bob, f"pt:r:{live}:0:s")
    assert table.running.unexpected_errors == []


async def test_stats_and_leaderboard_answer_the_asker(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    await _finished(table, alice, bob)
    record = await table.slash(bob, "stats")
    (reply,) = fake.replies(record)
    assert reply.ephemeral and reply.visible_to == bob.id
    assert reply.content.startswith(
        "Statistics of **bob**:\n- **Babylone**: 1 game, 1 win (100%); rating 27.6 ± "
    )
    assert "#1 of 2" in reply.content and "favourite seat: second (1 game)" in reply.content
    assert "average answer time 0 s over 1 decisions" in reply.content
    about = await table.slash(carol, "stats", player=alice, game="babylone")
    assert "Statistics of **alice**" in table.reply_text(about) and "0 wins (0%)" in table.reply_text(about)
    nobody = await table.slash(carol, "stats")
    assert "carol has no finished game yet." in table.reply_text(nobody)
    principes = await table.slash(carol, "stats", game="principes")
    assert "No game of PRINCIPES has finished yet." in table.reply_text(principes)
    board = await table.slash(carol, "leaderboard", game="babylone")
    (reply,) = fake.replies(board)
    assert reply.ephemeral and reply.content.splitlines()[1:] == [
        line for line in reply.content.splitlines()[1:] if line[0].isdigit()
    ]
    assert reply.content.startswith("**Babylone leaderboard (this server)**")
    assert reply.content.splitlines()[1].startswith("1. bob — 27.6 ± ")
    world = await table.slash(carol, "leaderboard", game="pharaoh", scope="global")
    assert "No rated game of Pharaoh has finished yet." in table.reply_text(world)
    unknown = await table.slash(carol, "leaderboard", game="chess")
    assert "chess" in table.reply_text(unknown)
    await asyncio.sleep(0)


async def test_the_replay_is_drawn_in_a_worker_process_that_reports_its_frames(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay's seconds of drawing would hold the interpreter's lock in a thread (every command answered
    meanwhile waited for it): a process draws it, and the frames it has drawn reach the bot."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id, result = await _finished(table, alice, bob)
    assert [name for name, _ in result.files][-1] == f"replay-{game_id}.gif"
    worker = replays.ANIMATION_WORKER
    assert worker._workers is not None and worker._workers._pool is not None  # drawn in the process
    game_log = await replays.load_log(table.running.host.store, game_id)
    progress = [0, 0]
    loop_turns = 0

    def no_thread(*_args: Any) -> None:
        raise AssertionError("the replay was drawn in a thread")

    monkeypatch.setattr(asyncio, "to_thread", no_thread)
    drawing = asyncio.ensure_future(worker.draw(game_log, "en", progress))
    while not drawing.done():
        await asyncio.sleep(0.005)
        loop_turns += 1
    animation = await drawing
    assert progress == [animation.frames, animation.frames] == [4, 4]  # the start and the three moves
    assert loop_turns  # the loop ran while the process drew
