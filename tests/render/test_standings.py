"""The league standings: an image a phone can read, a text table within one Discord message whose columns line
up, alt text, in English, Polish and the pseudo-locale."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageChops

from i18n import PSEUDO, unmarked_words
from render.alt import ALT_TEXT_LIMIT
from render.common import COLOURS, drawable_text, font
from render.standings import (
    IMAGE_ROWS,
    MESSAGE_LIMIT,
    NAME_COLUMNS,
    TEXT_PX,
    WIDTH,
    StandingRow,
    StandingsView,
    _layout,
    display_width,
    standings_alt_text,
    standings_image,
    standings_png,
    standings_text,
)
from tests.render.pixels import drawn_texts

#: names as Discord users pick them: 32 characters, Polish letters, emoji, a would-be code fence
NAMES = (
    "alice",
    "Bartłomiej Żółkiewski-Łęczycki32",
    "🐉 Smok Wawelski z Krakowa 🐉!",
    "```zamknięcie bloku",
    "Źdźbło ąęłńóśźż",
    "bob",
    "carol",
)


def row(rank: int, name: str, *, byes: int = 0, dropped: bool = False) -> StandingRow:
    """A row whose numbers follow from its rank, each different, with halves and quarters in the tie-breaks."""
    return StandingRow(
        rank=rank,
        name=name,
        points=max(0.0, 4.5 - 0.5 * rank),
        buchholz=40.25 - 0.75 * rank,
        sonneborn_berger=25.5 - 0.5 * rank,
        wins=max(0, 4 - rank // 2),
        games=4 - byes,
        byes=byes,
        dropped=dropped,
    )


def league(players: int, *, round: int = 2, rounds: int = 3, byes: bool = True) -> StandingsView:
    """A Swiss league of ``players``: every third player had a bye (when ``byes``), the fifth dropped out."""
    rows = tuple(
        row(
            rank,
            NAMES[rank - 1] if rank <= len(NAMES) else f"Zbigniew Wąsowicz-Grzybowski {rank:02}",
            byes=1 if byes and rank % 3 == 0 else 0,
            dropped=rank == 5,
        )
        for rank in range(1, players + 1)
    )
    return StandingsView("Babylone Swiss league #3", round, rounds, rows)


def table_lines(text: str) -> list[str]:
    """The lines of the text table's code block."""
    inside = text.split("```")
    assert len(inside) == 3, "one code block, opened and closed once"
    return inside[1].strip("\n").split("\n")


# ---- the image --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [7, 16])
def test_the_image_is_phone_sized_draws_every_row_and_is_not_blank(players: int) -> None:
    view = league(players)
    with drawn_texts() as texts:
        image = standings_image(view)
    assert image.width == WIDTH
    assert 300 < image.height < 1300
    blank = Image.new("RGB", image.size, COLOURS["background"])
    assert ImageChops.difference(image.convert("RGB"), blank).getbbox() is not None
    assert "Babylone Swiss league #3" in texts and "Round 2 of 3" in texts
    for standing in view.rows:
        assert str(standing.rank) in texts
        assert any(text.startswith(drawable_text(standing.name)[:4]) for text in texts), standing.name


def test_the_png_is_the_image() -> None:
    view = league(7)
    decoded = Image.open(io.BytesIO(standings_png(view))).convert("RGB")
    assert decoded.size == standings_image(view).size


def test_long_names_are_cut_to_the_name_column_and_emoji_left_out() -> None:
    view = league(7)
    with drawn_texts() as texts:
        standings_image(view)
    layout = _layout(view, view.rows, "en")
    cut = [text for text in texts if text.endswith("...") or text.endswith("... *")]
    assert any(text.startswith("Bartłomiej") for text in cut) and any(text.startswith("Smok") for text in cut)
    for text in cut:
        assert font(TEXT_PX).getlength(text) <= layout.name_width + 1
    assert not any("🐉" in text for text in texts)


def test_a_dropped_player_is_marked_and_greyed() -> None:
    view = league(7)
    with drawn_texts() as texts:
        image = standings_image(view)
    assert [text for text in texts if text.endswith(" *")] == ["Źdźbło ąęłńóśźż *"]
    assert any("* left the league" in text for text in texts)
    assert COLOURS["muted"] in {colour for _, colour in image.getcolors(1 << 16) or []}


def test_forty_rows_keep_the_top_of_the_table_and_say_how_many_more() -> None:
    many, twenty = league(40), league(IMAGE_ROWS)
    with drawn_texts() as texts:
        image = standings_image(many)
    assert "… 20 more players" in texts
    assert image.height <= standings_image(twenty).height + 60 < 1400
    assert str(IMAGE_ROWS) in texts and str(IMAGE_ROWS + 1) not in texts


def test_byes_have_a_column_only_when_someone_had_one() -> None:
    with drawn_texts() as texts:
        standings_image(league(8, byes=False))
    assert "Bye" not in texts and "W/G" in texts
    assert "Bye" not in table_lines(standings_text(league(8, byes=False)))[0]


def test_the_last_round_says_final_standings() -> None:
    view = league(7, round=3, rounds=3)
    assert "Final standings after 3 rounds" in standings_text(view)
    assert standings_alt_text(view).startswith("Babylone Swiss league #3, Final standings after 3 rounds")


def test_polish_headings_and_numbers() -> None:
    view = league(7)
    with drawn_texts() as texts:
        standings_image(view, "pl")
    assert {"Gracz", "Pkt", "Buch", "SB", "W/P", "Pauza", "Runda 2 z 3"} <= set(texts)
    assert "3,5" in texts and "39,5" in texts  # 4.5 - 0.5 points, 40.25 - 0.75 Buchholz: Polish decimals
    text = standings_text(view, "pl")
    assert table_lines(text)[0].split() == ["#", "Gracz", "Pkt", "Buch", "SB", "W/P", "Pauza"]
    assert "W/P: wygrane/partie" in text and "poza ligą" in text
    with drawn_texts() as texts:
        standings_image(league(40), "pl")
    assert "… i jeszcze 20 graczy" in texts


# ---- the text table ---------------------------------------------------------------------------------------------
def columns_of(line: str, starts: list[int]) -> list[str]:
    """``line`` cut at display columns ``starts``."""
    cells: list[str] = []
    current, used, edges = "", 0, [*starts[1:], 10**6]
    for char in line:
        if used >= edges[len(cells)]:
            cells.append(current)
            current = ""
        current += char
        used += display_width(char)
    return [*cells, current]


@pytest.mark.parametrize("players", [7, 16, 40, 60])
def test_the_text_table_fits_a_message_and_its_columns_line_up(players: int) -> None:
    view = league(players)
    text = standings_text(view)
    assert len(text.encode("utf-16-le")) // 2 <= MESSAGE_LIMIT
    lines = table_lines(text)
    heading, rows = lines[0], [line for line in lines[1:] if not line.startswith("…")]
    assert len({display_width(line) for line in lines if not line.startswith("…")}) == 1, "every line as wide"
    # the rank, the name and each number start where the heading's column does
    name_start = heading.index("Player")
    number_edges = [match.end() for match in re.finditer(r"\S+", heading)][2:]
    for line, standing in zip(rows, view.rows, strict=False):
        rank, rest = line[: name_start - 1], line[name_start - 1 :]
        assert rank.strip() == str(standing.rank)
        name = columns_of(rest[1:], [0, NAME_COLUMNS])[0]
        assert display_width(name) == NAME_COLUMNS
        shown = name.rstrip().rstrip("*").rstrip()
        plain = standing.name.replace("`", "'")
        assert plain.startswith(shown.rstrip("…")), (shown, plain)
        numbers = re.findall(r"\S+", columns_of(line, [0, name_start + NAME_COLUMNS])[1])
        ends = [m.end() for m in re.finditer(r"\S+", columns_of(line, [0, name_start + NAME_COLUMNS])[1])]
        assert [name_start + NAME_COLUMNS + end for end in ends] == number_edges
        assert numbers[:2] == [f"{standing.points:g}", f"{standing.buchholz + 1e-9:.1f}"]
    kept = len(rows)
    assert kept == players or lines[-1] == f"… {players - kept} more players"


def test_names_cannot_break_out_of_the_code_block() -> None:
    text = standings_text(league(7))
    assert text.count("```") == 2 and "'''zamknięcie" in text


def test_the_text_table_counts_wide_characters_twice() -> None:
    assert display_width("🐉") == 2 and display_width("żółć") == 4 and display_width("e\u0301") == 1
    line = next(line for line in table_lines(standings_text(league(7))) if "Smok" in line)
    assert display_width(line) == display_width(table_lines(standings_text(league(7)))[0])


# ---- alt text and the pseudo-locale -----------------------------------------------------------------------------
def test_the_alt_text_names_the_top_three_and_counts_the_players() -> None:
    view = league(16)
    alt = standings_alt_text(view)
    assert len(alt) <= ALT_TEXT_LIMIT
    assert alt.startswith("Babylone Swiss league #3, Round 2 of 3: 16 players.")
    places = [alt.index(f"{rank}. {view.rows[rank - 1].name}") for rank in (1, 2, 3)]
    assert places == sorted(places)
    assert "1. alice: 4 pts, Buchholz 39.5, Sonneborn-Berger 25.0, won 4 of 4." in alt
    assert view.rows[3].name not in alt


def test_the_pseudo_locale_leaves_no_english_outside_the_catalog() -> None:
    view = league(40)
    words = re.findall(r"[A-Za-z]{2,}", " ".join([view.title, *(standing.name for standing in view.rows)]))
    allowed = [word[:end] for word in words for end in range(2, len(word) + 1)]  # a cut name ends mid-word
    for text in (standings_text(view, PSEUDO), standings_alt_text(view, PSEUDO)):
        assert not unmarked_words(text, allowed), text
    with drawn_texts() as texts:
        standings_image(view, PSEUDO)
    assert not unmarked_words(" ".join(texts), allowed)


def test_a_huge_title_and_field_still_fit_one_message() -> None:
    crowd = league(300)
    view = StandingsView("🏆 *liga* " * 300, crowd.round, crowd.rounds, crowd.rows)
    text = standings_text(view)
    assert len(text.encode("utf-16-le")) // 2 <= MESSAGE_LIMIT
    assert text.startswith("**🏆 \\*liga\\*") and "… " in table_lines(text)[-1]
    with drawn_texts() as texts:
        image = standings_image(view)
    assert image.height < 1400 and "… 280 more players" in texts
