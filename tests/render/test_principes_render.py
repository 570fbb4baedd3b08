"""PRINCIPES board image: the CLI's render path, sizes, font sizes, private variant, region crops, the asset."""

from __future__ import annotations

import copy
import importlib.util
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import render
import render.principes as board
from render.common import MIN_TEXT_PX, encode_png
from rules.engine import Rng, get_game
from rules.principes.data import PRINCIPALITIES, catalog
from tests.render.pixels import drawn_texts

ROOT = Path(__file__).resolve().parents[2]


def views(players: int = 4, seat: int | None = None, seed: int = 1) -> dict:
    """The path the ``python -m bot render`` CLI takes: registry, setup, view."""
    game = get_game("principes", include_unplayable=True)
    state = game.setup(players, {}, Rng.for_event(seed, 0))
    return game.view(state, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_render_path_works_and_the_png_is_small(players: int) -> None:
    image = render.render_view("principes", views(players))
    assert image.width <= 1600
    png = encode_png(image)
    assert len(png) < 1_000_000
    assert Image.open(io.BytesIO(png)).size == image.size


def test_every_text_is_at_least_16_px(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[int] = []
    real_font = board.font

    def recording_font(size: int = 20):  # type: ignore[no-untyped-def]
        used.append(size)
        return real_font(size)

    monkeypatch.setattr(board, "font", recording_font)
    board.clear_caches()  # draw everything again, the static layer too, with the recording font
    try:
        board.render(views(4, seat=0))
        board.render_region(views(4), "masovia")
    finally:
        board.clear_caches()
    assert used and min(used) >= MIN_TEXT_PX
    assert min(board.TEXT_SIZES.values()) >= MIN_TEXT_PX


def test_the_private_view_adds_the_hand() -> None:
    public = views(4)
    private = views(4, seat=2)
    assert board.render(public).tobytes() != board.render(private).tobytes()
    # the public image does not depend on what is in the hands
    game = get_game("principes", include_unplayable=True)
    state = game.setup(4, {}, Rng.for_event(1, 0))
    state["players"]["PMA"]["hand"].reverse()
    assert board.render(game.view(state, None)).tobytes() == board.render(public).tobytes()


def test_state_changes_show_on_the_board() -> None:
    game = get_game("principes", include_unplayable=True)
    state = game.setup(4, {}, Rng.for_event(1, 0))
    before = board.render(game.view(state, None))
    state["lands"]["lancicia"]["units"]["SIL"] = {"knight": 2, "footman": 1}
    state["lands"]["vratislavia"]["cities"]["vratislavia"] = "capital"
    state["lands"]["legnecium"]["building"] = "abbey"
    state["history"]["revealed"] = "H04"
    state["players"]["SIL"]["progress"]["green"] = ["G1a"]
    after = board.render(game.view(state, None))
    assert before.size == after.size and before.tobytes() != after.tobytes()


def test_a_cached_map_layer_draws_the_same_board() -> None:
    """The map layer is reused by what the map shows: a board drawn over a cached layer (after another board
    with the same map and another panel) is the very image drawn from nothing, and a changed map is redrawn."""
    game = get_game("principes", include_unplayable=True)
    state = game.setup(4, {}, Rng.for_event(1, 0))
    public, private = game.view(state, None), game.view(state, 1)
    board.MAP_LAYERS.clear()
    from_nothing = board.render(private).tobytes()
    board.MAP_LAYERS.clear()
    board.render(public)  # leaves its map layer cached
    assert board.render(private).tobytes() == from_nothing
    state["lands"]["lancicia"]["units"]["SIL"] = {"knight": 2}
    moved = game.view(state, 1)
    board.MAP_LAYERS.clear()
    moved_from_nothing = board.render(moved).tobytes()
    board.render(public)
    assert board.render(moved).tobytes() == moved_from_nothing != from_nothing


def test_land_patches_give_the_pixels_of_drawing_every_land() -> None:
    """Each land is pasted from a patch drawn once per thing it shows: the map is the very image drawing every
    land gives, over positions of a played game (units, Cities, buildings, Division tokens, Invaders)."""
    from rules.engine.playout import play

    game = get_game("principes")
    frames = [
        (board._full_frame(), True),
        (board._region_frame("SIL"), False),
        (board._region_frame("MAS"), False),
    ]
    seen = 0
    for moves in (0, 120, 240, 360):
        view = game.view(play(game, 4, 5, stop_after=moves).state, None)
        for frame, legend in frames:
            patched, patched_draw = board.palette_canvas(board._palette_base(frame, legend))
            board._draw_map_state(patched_draw, view, frame, legend)
            drawn, drawn_draw = board.palette_canvas(board._palette_base(frame, legend))
            board._draw_map_state(drawn_draw, view, frame, legend, patches=False)
            assert patched.tobytes() == drawn.tobytes(), f"{frame.key} after {moves} moves"
        seen += sum(bool(land["units"]) for land in view["lands"].values())
    assert seen > 40
    assert len(board.LAND_PATCHES) > 0


def test_the_board_is_drawn_on_the_fixed_palette() -> None:
    image = board.render(views(4, seat=0))
    assert image.mode == "P"
    assert image.getpalette() == board.to_palette(Image.new("RGB", (1, 1))).getpalette()


@pytest.mark.parametrize("region", ["silesia", "Masovia", "POLONIA MAIOR", "polonia  minor"])
def test_region_crops_are_larger(region: str) -> None:
    image = render.render_view("principes", views(4), region)
    assert image.width <= 1600
    code = board.REGION_NAMES[" ".join(region.lower().split())]
    lands = catalog().principality_lands(code)
    assert board.region_lands(code) > set(lands)
    assert board._region_frame(code).scale > 1.2  # drawn larger than on the full board
    assert len(encode_png(image)) < 1_000_000


def test_unknown_region_is_refused_with_a_sentence() -> None:
    with pytest.raises(render.RenderError, match="no region 'bavaria'"):
        render.render_view("principes", views(4), "bavaria")


def _load_map_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "make_principes_map", ROOT / "scripts" / "make_principes_map.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_map_asset_is_what_the_script_builds() -> None:
    script = _load_map_script()
    built = script.build_geometry(json.loads(script.MAP.read_text(encoding="utf-8")))
    committed = json.loads(board.GEOMETRY_FILE.read_text(encoding="utf-8"))
    assert built == committed


def test_the_drawn_map_agrees_with_the_borders() -> None:
    geometry = board.geometry()
    data = catalog()
    assert set(geometry["lands"]) == set(data.lands)
    assert geometry["missing_borders"] == []  # every border of the data is a shared edge on the picture
    touching = {tuple(pair.split("|")) for pair in geometry["touching"]}
    borders = {tuple(sorted(pair)) for pair in data.map["borders"]}
    assert borders <= touching
    assert {tuple(pair.split("|")) for pair in geometry["impassable"]} == touching - borders
    for land, record in geometry["lands"].items():
        neighbours = {near for near in record["across"] if near}
        assert neighbours <= {b if a == land else a for a, b in touching if land in (a, b)}


def test_the_warm_up_draws_every_games_opening_board() -> None:
    board._palette_base.cache_clear()
    assert render.warm_up() == render.rendered_games()
    assert board._palette_base.cache_info().currsize == 1  # the board a first /board asks for is ready


def test_panel_sections_give_the_pixels_of_drawing_the_panel() -> None:
    """Each panel section is pasted from its drawing for the same inputs: over a played game, with sections
    cached from the boards before, every board (public and each seat's) is the very image drawing the whole
    panel gives, so a section's inputs hold everything it draws."""
    from rules.engine.playout import play

    game = get_game("principes")
    frame = board._full_frame()
    base = board._palette_base(frame, True)
    panel = base.crop((frame.width + 8, 0, base.width, base.height))
    assert len(panel.getcolors() or []) == 1  # the panel the sections are pasted on is flat
    board.PANEL_SECTIONS.clear()
    for moves in range(0, 480, 40):
        state = play(game, 4, 8, stop_after=moves).state
        for seat in (None, 0, 3):
            view = game.view(state, seat)
            pasted, pasted_draw = board.palette_canvas(base)
            board._draw_panel(pasted_draw, view, frame.width + 16)
            drawn, drawn_draw = board.palette_canvas(base)
            board._draw_panel(drawn_draw, view, frame.width + 16, sections=False)
            assert pasted.tobytes() == drawn.tobytes(), f"seat {seat} after {moves} moves"
    assert len(board.PANEL_SECTIONS) > 10


def test_every_principality_code_on_the_board_is_the_notations() -> None:
    """Units, the legend, the panel and the turn order write a principality as `/move` text and stored games
    do (PMA, MAS, PMI, SIL; the notation reads them in any case), never the box's two-letter codes."""
    other_codes = {catalog().factions[code]["code"] for code in PRINCIPALITIES} - set(PRINCIPALITIES)
    assert other_codes  # GP, MA, LP, SI: what the board used to draw
    board.clear_caches()
    game = get_game("principes", include_unplayable=True)
    state = game.setup(4, {}, Rng.for_event(1, 0))
    for code in PRINCIPALITIES:  # every principality's units on the map, some off it
        state["lands"]["lancicia"]["units"][code] = {"knight": 1}
    with drawn_texts() as texts:
        board.render(game.view(state, 0))
        board.render_region(game.view(state, None), "silesia")
    board.clear_caches()
    tokens = {token for text in texts for token in re.split(r"[^A-Za-z]+", text)}
    assert not tokens & other_codes, f"drawn: {sorted(tokens & other_codes)}"
    assert set(PRINCIPALITIES) <= tokens


def _empty_view() -> dict:
    game = get_game("principes", include_unplayable=True)
    state = game.setup(4, {}, Rng.for_event(1, 0))
    for land in state["lands"].values():
        land["units"] = {}
    return game.view(state, None)


def _loads(land: str) -> list[dict[str, dict[str, int]]]:
    """One or two figures, as nine land-states in ten with units hold in self-play: the land's own, with a
    count, or an invader's beside them."""
    group = catalog().lands[land]["principality"]
    own = group if group in PRINCIPALITIES else "SIL"
    return [
        {own: {"footman": 1}},
        {own: {"prince": 1}},
        {own: {"knight": 2, "footman": 1}},
        {own: {"prince": 1}, "MON": {"knight": 1}},
    ]


def test_one_or_two_figures_leave_every_land_name_readable() -> None:
    """Whatever one or two figures a land holds, the names of every land show the very pixels they show on
    an empty board: units never crowd a name (a footman sat on Premet's). Three or four figures, or two with
    two-digit counts, do not fit the smallest lands without covering a name (the README says so)."""
    frame = board._full_frame()
    empty = _empty_view()
    base, base_draw = board.palette_canvas(board._palette_base(frame, True))
    board._draw_map_state(base_draw, empty, frame, True, patches=False)
    labels = {land: tuple(round(v) for v in board.label_box(frame, land)) for land in catalog().lands}
    crowded = []
    for land in catalog().lands:
        for units in _loads(land):
            view = copy.deepcopy(empty)
            view["lands"][land]["units"] = units
            image, draw = board.palette_canvas(board._palette_base(frame, True))
            board._draw_map_state(draw, view, frame, True, patches=False)
            for other, box in labels.items():
                if image.crop(box).tobytes() != base.crop(box).tobytes():
                    crowded.append(f"{units} on {land} cover {other}'s name")
    assert not crowded, "\n".join(crowded)


def test_no_off_map_tag_covers_a_land_name() -> None:
    frame = board._full_frame()
    geometry = board.geometry()
    for area, gates in geometry["gates"].items():
        for land, (x, y) in gates.items():
            tag = (x - 15, y - 10, x + 15, y + 10)
            for other in catalog().lands:
                label = board.label_box(frame, other)
                overlap = tag[0] < label[2] and label[0] < tag[2] and tag[1] < label[3] and label[1] < tag[3]
                assert not overlap, f"the {area} tag on {land} covers {other}'s name"


_coordinate = st.floats(-80, 80, allow_nan=False).map(lambda value: round(value * 4) / 4)


@st.composite
def _boxes(draw: st.DrawFn, most: int) -> list[tuple[float, float, float, float]]:
    corners = draw(
        st.lists(st.tuples(_coordinate, _coordinate, _coordinate, _coordinate), min_size=1, max_size=most)
    )
    return [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in corners]


@settings(max_examples=200, deadline=None)
@given(layout=_boxes(4), obstacles=_boxes(6), origin=st.tuples(_coordinate, _coordinate))
def test_the_grid_of_overlapping_shifts_agrees_with_testing_each_shift(
    layout: list[tuple[float, float, float, float]],
    obstacles: list[tuple[float, float, float, float]],
    origin: tuple[float, float],
) -> None:
    """The figures' placement skips the shifts the narrowed rectangles mark and tests box by box only those
    the widened ones mark: a shift marked surely overlaps, an unmarked one is surely clear (touching edges,
    which the quarter-unit coordinates make common, do not overlap)."""
    surely = board._overlapping_shifts(layout, obstacles, origin, board.SHIFT_MARGIN)
    maybe = board._overlapping_shifts(layout, obstacles, origin, -board.SHIFT_MARGIN)
    for row, dy in enumerate(board._SHIFTS_Y):
        for column, dx in enumerate(board._SHIFTS_X):
            x, y = origin[0] + dx, origin[1] + dy
            clear = board._clear([(b[0] + x, b[1] + y, b[2] + x, b[3] + y) for b in layout], obstacles)
            if surely[row] >> column & 1:
                assert not clear, (dx, dy)
            if not maybe[row] >> column & 1:
                assert clear, (dx, dy)


def test_a_lands_outline_holds_the_points_a_ray_cast_finds_inside() -> None:
    """``_Room.inside`` counts the crossings of a point's line found once per line; it agrees with casting a
    ray from each point (the map script's test), on a grid over every land (edges and corners included)."""
    ray_cast = _load_map_script().inside
    for land in catalog().lands:
        room = board._Room(land, 1)
        xs = [x for x, _ in room.polygon]
        ys = [y for _, y in room.polygon]
        points = [
            (x, y)
            for x in range(int(min(xs)) - 2, int(max(xs)) + 3, 3)
            for y in [*range(int(min(ys)) - 2, int(max(ys)) + 3, 3), *ys]
        ]
        assert [room.inside(point) for point in points] == [ray_cast(point, room.polygon) for point in points]
