"""The Prince's images: drawn from views only, so fog and hidden Princes never reach a picture."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import common, render_png, render_view
from render import the_prince as board
from render.common import COLOURS
from render.the_prince import HEIGHT, WIDTH
from rules.engine import Rng, State
from rules.engine.playout import play
from rules.the_prince import GAME
from rules.the_prince.board import AREA, TILES, is_land, landing_tiles, on_ring, parse_tile


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
                bottom = image.crop((0, HEIGHT - 6, WIDTH, HEIGHT))
                assert len(bottom.getcolors() or []) == 1, "the panel runs off the image"
        seen_phases.add(state["phase"])
        pending = GAME.pending(state)
        if not pending:
            break
        seat = min(pending)
        action = rng.choice(GAME.legal_actions(state, seat))
        state = GAME.apply(state, seat, action, Rng.for_event(11, count)).state
    assert seen_phases >= {"landing", "explore", "hide", "plan", "over"}


def _sent(view: dict) -> Image.Image:
    """The image as players get it: encoded and decoded."""
    return Image.open(io.BytesIO(render_png("the-prince", view))).convert("RGB")


def test_the_landing_image_shows_the_water_ring_and_frames_where_the_prince_may_land() -> None:
    state = play(GAME, 2, 4, stop_after=0).state
    assert state["phase"] == "landing"
    for seat in (0, 1):
        image = _sent(GAME.view(state, seat))
        for index in range(TILES):
            left, top, right, bottom = (int(v) for v in board._cell_box(index))
            middle = ((left + right) // 2, (top + bottom) // 2)
            if on_ring(index):
                assert image.getpixel(middle) == COLOURS["water"], f"ring tile {index} is not water"
            framed = image.getpixel((left + 5, (top + bottom) // 2)) == COLOURS["highlight"]
            assert framed == (index in landing_tiles(state["tiles"], seat)), f"tile {index} for seat {seat}"


def _adjacent_battle() -> State:
    """Both sides' castles packed on neighbouring tiles, attacks both ways between neighbours, a Guard, a hidden
    Prince: where arrows and their numbers used to cover castles and the Prince marker."""
    state = _first_state(7, lambda s: s["last_battle"] is not None and s["result"] is None)
    state = GAME.copy_state(state)
    tiles = (["d5", "e5", "d6", "e6", "d7"], ["f5", "f6", "e7", "f7", "e4"])
    for owner in (0, 1):
        for castle, place in zip(state["castles"][owner], tiles[owner], strict=True):
            castle.update(tile=parse_tile(place), alive=True, damage=0)
    pairs = [
        (0, 2, 1),
        (0, 4, 2),
        (0, 5, 3),
        (0, 1, 5),
        (0, 3, 4),
        (1, 1, 2),
        (1, 2, 4),
        (1, 3, 5),
        (1, 4, 3),
        (1, 5, 1),
    ]
    state["last_battle"]["attacks"] = [
        {"seat": seat, "from": source, "to": target, "offence": 10 + source, "stopped": source == 5}
        for seat, source, target in pairs
    ]
    state["guard"] = [4, 2]
    state["hidden"] = [4, 1]
    return state


def _marker_parts(view: dict, seat: int | None) -> list[tuple[tuple[int, int, int, int], bool]]:
    """The computed boxes of every castle (its body and three towers), the Guard badges and the Prince marker
    of a view, each with whether the shape is round (the marker is a disc in its box)."""
    parts = []
    for castle in view["castles"]:
        left, top, right, bottom = (int(v) for v in board.castle_box(parse_tile(castle["tile"])))
        parts.append(((left, top + 7, right, bottom), False))
        parts += [((left + tower, top, left + tower + 8, top + 7), False) for tower in (0, 10, 20)]
    guards = ["e6", "f6"]  # both Guards are public in phase 2
    parts += [(tuple(int(v) for v in board.guard_box(parse_tile(tile))), False) for tile in guards]
    if seat is not None:
        prince = tuple(int(v) for v in board.prince_box(parse_tile(("e6", "f5")[seat])))
        parts.append((prince, True))
    return parts  # type: ignore[return-value]


def _same_inside(
    first: Image.Image, second: Image.Image, box: tuple[int, int, int, int], round_: bool
) -> bool:
    mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0 if round_ else 255)
    if round_:
        ImageDraw.Draw(mask).ellipse((1, 1, mask.width - 2, mask.height - 2), fill=255)
    difference = ImageChops.difference(first.crop(box), second.crop(box)).convert("L")
    return ImageChops.multiply(difference.point(lambda v: 255 if v else 0), mask).getbbox() is None


def test_attack_arrows_and_their_numbers_cover_no_castle_guard_or_prince() -> None:
    """The computed boxes of every castle, Guard badge and Prince marker show the very pixels with and without
    the last battle's arrows and numbers."""
    state = _adjacent_battle()
    quiet = GAME.copy_state(state)
    quiet["last_battle"] = dict(quiet["last_battle"], attacks=[])
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        with_arrows, without = _sent(view), _sent(GAME.view(quiet, seat))
        assert not _same(with_arrows, without), "the attacks are drawn"
        for box, round_ in _marker_parts(view, seat):
            assert _same_inside(with_arrows, without, box, round_), f"{box} covered in seat {seat}'s view"


def test_every_text_is_legible_on_a_phone() -> None:
    """Scaled to a phone's 400 px width, no text is under 9 px: the board and its panel read without zooming
    (the 1124 px wide landscape image shrank its 16-18 px text to 6 px)."""
    sizes: list[int] = []
    real_font = common.font

    def recording_font(size: int = 20):  # type: ignore[no-untyped-def]
        sizes.append(size)
        return real_font(size)

    state = _adjacent_battle()
    board._terrain_layer.cache_clear()
    board._resource_sprite.cache_clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(common, "font", recording_font)
        patch.setattr(board, "font", recording_font)
        for seat in (None, 0):
            render_view("the-prince", GAME.view(state, seat))
    board._terrain_layer.cache_clear()
    board._resource_sprite.cache_clear()
    assert sizes and min(sizes) * 400 / WIDTH >= 9
