"""The Prince's images: drawn from views only, so fog and hidden Princes never reach a picture."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from render import render_png, render_view
from render.the_prince import HEIGHT, WIDTH
from rules.engine import Rng, State
from rules.engine.playout import play
from rules.the_prince import GAME
from rules.the_prince.board import AREA, TILES, is_land, parse_tile


def _strategist(game, view, seat, legal, rng):  # noqa: ANN001, ANN202 - the playout chooser signature
    return game.choose_action(view, seat, legal, "strategist", rng)


def _first_state(seed: int, condition) -> State:  # noqa: ANN001 - a predicate on states
    """The first state of a seeded strategist-vs-random game that satisfies ``condition``."""
    for stop in range(400):
        state = play(GAME, 2, seed, choosers={0: _strategist}, stop_after=stop).state
        if condition(state):
            return state
    raise AssertionError("the game never reached the wanted position")


def _same(first: Image.Image, second: Image.Image) -> bool:
    return ImageChops.difference(first.convert("RGB"), second.convert("RGB")).getbbox() is None


def test_public_image_in_phase_one_shows_no_terrain_and_no_positions() -> None:
    state = _first_state(3, lambda s: s["phase"] == "explore" and s["turn"] >= 4)
    image = render_view("the-prince", GAME.view(state, None))
    moved = GAME.copy_state(state)
    moved["prince"] = [AREA[moved["prince"][0]][0], AREA[moved["prince"][1]][-1]]
    for index in range(TILES):
        if is_land(moved["tiles"], index):
            moved["tiles"][index] = ["mountains", "iron", 3]
    assert _same(image, render_view("the-prince", GAME.view(moved, None)))
    built = GAME.copy_state(state)
    built["castles"][0].append({"tile": parse_tile("e5"), "damage": 0, "alive": True})
    assert not _same(image, render_view("the-prince", GAME.view(built, None))), "castle counts are shown"


def test_a_seat_image_shows_only_what_that_seat_has_seen() -> None:
    state = _first_state(5, lambda s: s["phase"] == "explore" and s["turn"] >= 5)
    for seat in (0, 1):
        image = render_view("the-prince", GAME.view(state, seat))
        assert image.size == (WIDTH, HEIGHT)
        fogged = GAME.copy_state(state)
        for index in range(TILES):
            if not state["seen"][seat][index] and is_land(state["tiles"], index):
                fogged["tiles"][index] = (
                    ["hills", "stone", 3] if state["tiles"][index][0] != "hills" else ["plains", "", 0]
                )
        assert _same(image, render_view("the-prince", GAME.view(fogged, seat)))
        assert not _same(image, render_view("the-prince", GAME.view(state, 1 - seat)))


def test_battle_image_shows_castles_guards_and_attacks_but_not_the_enemy_prince() -> None:
    state = _first_state(7, lambda s: s["last_battle"] is not None and s["result"] is None)
    public = render_view("the-prince", GAME.view(state, None))
    hidden = state["hidden"][1]
    assert hidden is not None
    for number, castle in enumerate(state["castles"][1], 1):
        if castle["alive"] and number != hidden:
            elsewhere = GAME.copy_state(state)
            elsewhere["hidden"][1] = number
            assert _same(
                render_view("the-prince", GAME.view(elsewhere, 0)),
                render_view("the-prince", GAME.view(state, 0)),
            )
    no_arrows = GAME.copy_state(state)
    no_arrows["last_battle"] = None
    assert not _same(public, render_view("the-prince", GAME.view(no_arrows, None))), "attacks are drawn"


def test_every_phase_renders_to_a_small_png() -> None:
    seen_phases = set()
    state = play(GAME, 2, 11, choosers={0: _strategist}, stop_after=0).state
    rng = random.Random(11)
    for count in range(10_000):
        if state["phase"] not in seen_phases or count % 5 == 0:  # every phase, and now and then between
            for seat in (None, 0, 1):
                data = render_png("the-prince", GAME.view(state, seat))
                image = Image.open(io.BytesIO(data))
                assert image.size == (WIDTH, HEIGHT) and WIDTH <= 1600 and len(data) < 1_000_000
        seen_phases.add(state["phase"])
        pending = GAME.pending(state)
        if not pending:
            break
        seat = min(pending)
        action = rng.choice(GAME.legal_actions(state, seat))
        state = GAME.apply(state, seat, action, Rng.for_event(11, count)).state
    assert seen_phases >= {"landing", "explore", "hide", "plan", "over"}
