"""The animated replay: the GIF writer's frames are exactly the images given (growing, shrinking, unchanged), the
frames are the public boards of the game's steps with their captions, and the file adapts to its budget."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.host import Actor, Host
from bot.replay import GameLog, LoggedEvent, ReplayError, Step, animate, frame_plan, steps, walk
from render import render_view
from render.alt import name_seats
from render.common import COLOURS
from render.replay import captioned, encode_gif, frame_count, on_palette
from rules.engine import ReplayRng, State, available_games, get_game


def _frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of a GIF as the viewer composes it (RGB), with its duration."""
    found = []
    with Image.open(io.BytesIO(data)) as image:
        for index in range(image.n_frames):
            image.seek(index)
            found.append((image.convert("RGB"), int(image.info.get("duration", 0))))
    return found


def _board(width: int, height: int, mark: int) -> Image.Image:
    image = Image.new("RGB", (width, height), COLOURS["background"])
    draw = ImageDraw.Draw(image)
    draw.rectangle((10 + 7 * mark, 10, 30 + 7 * mark, 40), fill=COLOURS["red"])
    draw.text((5, height - 30), f"step {mark}", fill=COLOURS["ink"])
    return image


def _canvas(size: tuple[int, int]) -> Image.Image:
    """An empty canvas in the background colour as the fixed palette holds it."""
    background = on_palette(Image.new("RGB", (1, 1), COLOURS["background"])).convert("RGB").getpixel((0, 0))
    return Image.new("RGB", size, background)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def test_every_frame_is_the_image_given_on_a_canvas_as_large_as_the_largest() -> None:
    """Frames grow and shrink (a Babylone board grows with its tallest stack); uncovered parts show the
    background colour, and a frame identical to the one before lengthens it instead of adding one."""
    sizes = [(200, 120), (200, 120), (260, 180), (180, 100), (180, 100)]
    images = [_board(width, height, mark) for mark, (width, height) in enumerate(sizes)]
    images[4] = images[3].copy()
    data = encode_gif([(image, 500) for image in images])
    frames = _frames(data)
    assert len(frames) == frame_count(data) == 4 and frames[0][0].size == (260, 180)
    for (frame, duration), image, expected_ms in zip(frames, images, (500, 500, 500, 1000), strict=False):
        canvas = _canvas((260, 180))
        canvas.paste(on_palette(image).convert("RGB"), (0, 0))
        assert _same(frame, canvas) and duration == expected_ms


def _finished_log(key: str, seats: list[str], options: dict[str, str] | None = None) -> GameLog:
    async def play() -> dict[str, Any]:
        host = await Host.open(":memory:")
        try:
            director = Actor("1", "director")
            info = await host.create_game("g", "c", director, key, options or {}, seat_creator=False, seed=5)
            for level in seats:
                await host.add_ai("c", director, level)
            await host.start("c", director, order="given")
            return json.loads(json.dumps(await host.export_game(info.game_id)))
        finally:
            await host.close()

    return GameLog.from_export(asyncio.run(play()))


def test_the_frames_are_the_captioned_public_boards_of_each_step() -> None:
    log = _finished_log("babylone", ["perfect", "random"])
    animation = animate(log)
    assert animation.granularity == "action" and animation.frames == len(log.events) + 1
    frames = _frames(animation.data)
    for step, view in walk(log):
        expected = captioned(render_view("babylone", view), f"{log.title} · {step.title}", step.line)
        canvas = _canvas(frames[0][0].size)
        canvas.paste(expected.convert("RGB"), (0, 0))
        assert _same(frames[step.index][0], canvas), f"frame {step.index}"
    assert frames[0][1] == 2000 and frames[-1][1] == 6000
    assert steps(log)[-1].line.startswith("Game over: AI ")


def test_a_hidden_information_game_replays_public_views_and_public_log_lines_only() -> None:
    log = _finished_log("the-prince", ["strategist", "random"])
    for step, view, state, event in _walked(log):
        if event is not None:
            named = " ".join(name_seats(line, log.seat_names) for line in event.lines)
            assert "{seat:" not in step.line
            assert step.line in (named, f"{log.seat_names[event.seat or 0]} acts.") or (
                step.index == step.total
            )
        assert view == {**get_game(log.kind).view(state, None), "seat_names": list(log.seat_names)}


def _walked(log: GameLog) -> Iterator[tuple[Step, dict[str, Any], State, LoggedEvent | None]]:
    """Each step of ``walk(log)`` with the state the rules reach by applying the log's events up to it (and the
    step's event; None at the setup)."""
    game = get_game(log.kind)
    state = game.setup(log.num_players, log.options, ReplayRng(log.setup_draws))
    events = iter(log.events)
    for step, view in walk(log):
        event = next(events) if step.index else None
        if event is not None:
            state = game.apply(state, event.seat or 0, event.action, ReplayRng(event.draws)).state
        yield step, view, state, event


@pytest.mark.parametrize("key", available_games())
def test_every_game_replays_its_public_boards(key: str) -> None:
    players, level = get_game(key).quick_game()
    log = _finished_log(key, [level] * players)
    game = get_game(key)
    state = None
    for _step, view, state, _event in _walked(log):
        assert view == {**game.view(state, None), "seat_names": list(log.seat_names)}
    assert state is not None and game.outcome(state).finished
    opening = dataclasses.replace(log, events=log.events[:OPENING_EVENTS])  # drawn: the first events only
    animation = animate(opening)
    assert animation.granularity == "action" and animation.frames == len(opening.events) + 1
    assert frame_count(animation.data) == animation.frames


#: the events of a game whose replay the every-game test draws (each frame is a whole board)
OPENING_EVENTS = 12


def test_the_replay_gets_coarser_until_it_fits_its_budget() -> None:
    log = _finished_log("babylone", ["random", "random", "random"])
    every = animate(log)
    all_steps = steps(log)
    turns = frame_plan(all_steps, "turn")
    assert 2 < len(turns) <= len(all_steps)
    smaller = animate(log, budget=len(every.data) - 1)
    assert len(smaller.data) <= len(every.data) - 1 and smaller.granularity == "turn"
    assert smaller.frames < every.frames and frame_count(smaller.data) <= smaller.frames
    tiny = animate(log, budget=len(every.data) // 2)
    assert len(tiny.data) <= len(every.data) // 2 and tiny.thinned >= 1
    with pytest.raises(ReplayError, match="Even two frames"):
        animate(log, budget=1000)


def test_a_malformed_export_is_refused_in_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="not a Princes' Table game export"):
        GameLog.from_export({"format": "something else"})
