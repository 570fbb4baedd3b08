"""A league's standings: an image a phone can read, a monospace text table for a message, and alt text.

The view is built by the league service (``bot/leagues/service.py``) from ``bot.leagues.standings`` with
display names; everything here is pure: a view in, an image or a text out. The image and the table show the
same columns with the same numbers: rank, name, points, Buchholz, Sonneborn-Berger, wins/games and, when any
player had one, byes. Points are written as decimals ("2.5", never "2½"): a shared win of a 3-player pod scores
a third, which no fraction glyph writes. Numbers follow the reader's language (2,5 in Polish).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

from i18n import DEFAULT, LANGUAGES, language_of, ntranslate

from .alt import ALT_TEXT_LIMIT, compose
from .common import COLOURS, IMAGE, drawable_text, encode_png, fit_text, font, new_canvas, tint
from .common import image_words as _t


@dataclass(frozen=True)
class StandingRow:
    rank: int
    #: the player's display name (untrusted: any length, any characters)
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    #: games played (a bye is not a game)
    games: int
    byes: int
    dropped: bool


@dataclass(frozen=True)
class StandingsView:
    #: the league's name ("Babylone Swiss league #3")
    title: str
    #: rounds played so far
    round: int
    #: rounds in all
    rounds: int
    #: best first
    rows: tuple[StandingRow, ...]


# ---- numbers and words ------------------------------------------------------------------------------------------
def _number_locale(locale: str | None) -> str:
    """The Babel locale that writes numbers for ``locale``'s readers (the pseudo-locale writes English ones)."""
    language = language_of(locale)
    return language if language in LANGUAGES else DEFAULT


def points_text(points: float, locale: str | None = None) -> str:
    """League points: whole numbers bare ("3"), else up to two decimals ("2.5", "1.33")."""
    return format_decimal(points, format="0.##", locale=_number_locale(locale))


def tie_break_text(value: float, locale: str | None = None) -> str:
    """A tie-break score to one decimal ("6.0", "12.5"), halves rounded up as a reader rounds them (8.25 is
    8.3: Babel alone rounds half to even)."""
    rounded = Decimal(repr(value)).quantize(Decimal("0.1"), ROUND_HALF_UP)
    return format_decimal(rounded, format="0.0", locale=_number_locale(locale))


@dataclass(frozen=True)
class Column:
    """A numeric column of the table: its heading (a catalog entry of the context "image") and its cell."""

    heading: str
    cell: Callable[[StandingRow, str | None], str]


# Headings are short so that the name keeps most of a phone's width; the legend under the table spells them out.
# Polish: "Pkt" (punkty), "W/P" (wygrane/partie), "Pauza" (a bye, as Polish chess tournaments call it).
NUMBER_COLUMNS = (
    Column("Pts", lambda row, locale: points_text(row.points, locale)),
    Column("Buch", lambda row, locale: tie_break_text(row.buchholz, locale)),
    Column("SB", lambda row, locale: tie_break_text(row.sonneborn_berger, locale)),
    Column("W/G", lambda row, locale: f"{row.wins}/{row.games}"),
)
BYE_COLUMN = Column("Bye", lambda row, locale: str(row.byes))
#: what marks a player who left the league (withdrew or was dropped), in the text table and the image
DROPPED_MARK = "*"


def columns(view: StandingsView) -> tuple[Column, ...]:
    """The numeric columns of ``view``: byes only when someone had one (a round robin of an even field has none)."""
    return NUMBER_COLUMNS + ((BYE_COLUMN,) if any(row.byes for row in view.rows) else ())


def round_line(view: StandingsView, locale: str | None) -> str:
    """ "Round 3 of 5" under the title; "Final standings after 5 rounds" once every round is played."""
    if view.rounds > 0 and view.round >= view.rounds:
        return ntranslate(
            locale,
            "Final standings after {n} round",
            "Final standings after {n} rounds",
            view.rounds,
            context=IMAGE,
        )
    return _t(locale, "Round {round} of {rounds}", round=view.round, rounds=view.rounds)


def legend(view: StandingsView, locale: str | None) -> list[str]:
    """What the short headings and the mark mean, one item each."""
    items = [
        _t(locale, "Buch: Buchholz"),
        _t(locale, "SB: Sonneborn-Berger"),
        _t(locale, "W/G: wins/games"),
    ]
    if BYE_COLUMN in columns(view):
        items.append(_t(locale, "Bye: rounds without a game, scored as a win"))
    if any(row.dropped for row in view.rows):
        items.append(_t(locale, "{mark} left the league", mark=DROPPED_MARK))
    return items


def more_line(count: int, locale: str | None) -> str:
    return ntranslate(locale, "… {n} more player", "… {n} more players", count, context=IMAGE)


# ---- the image --------------------------------------------------------------------------------------------------
#: the image's width: a phone shows it about 390 px wide, so text of TEXT_PX reads at some 15 px there
WIDTH = 720
TEXT_PX = 28
TITLE_PX = 36
#: the legend under the table: secondary, a little smaller (13 px on a phone)
LEGEND_PX = 24
MARGIN = 18
ROW_HEIGHT = 46
#: space between two columns
GAP = 18
#: rows the image shows at most; the rest are counted in a last line (the text table and /league standings
#: in full say who they are)
IMAGE_ROWS = 20


@dataclass(frozen=True)
class _Layout:
    """Where the columns' right edges fall (numbers are right-aligned) and how wide the name may be."""

    rank_right: int
    name_left: int
    name_width: int
    rights: tuple[int, ...]


def _layout(view: StandingsView, shown: Sequence[StandingRow], locale: str | None) -> _Layout:
    face = font(TEXT_PX)
    rank_width = max(face.getlength(str(row.rank)) for row in shown) if shown else face.getlength("#")
    rank_width = max(rank_width, face.getlength("#"))
    rights: list[int] = []
    right = WIDTH - MARGIN
    for column in reversed(columns(view)):
        cells = [_t(locale, column.heading), *(column.cell(row, locale) for row in shown)]
        rights.insert(0, right)
        right -= int(max(face.getlength(cell) for cell in cells)) + GAP
    name_left = MARGIN + int(rank_width) + GAP
    return _Layout(MARGIN + int(rank_width), name_left, right - name_left, tuple(rights))


def _wrapped(items: Sequence[str], width: float, size: int) -> list[str]:
    """``items`` joined by " · " into lines no wider than ``width`` (an item wider than a line stands alone)."""
    lines: list[str] = []
    for item in items:
        joined = f"{lines[-1]} · {item}" if lines else item
        if lines and font(size).getlength(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(item)
    return lines


def standings_image(view: StandingsView, language: str = "en") -> Image.Image:
    """The table: title and round over column headings, then the best ``IMAGE_ROWS`` rows (every other row
    shaded, players who left greyed and marked), a line counting the rows left out, and the legend."""
    locale = language
    shown = view.rows[:IMAGE_ROWS]
    hidden = len(view.rows) - len(shown)
    layout = _layout(view, shown, locale)
    legend_lines = _wrapped(legend(view, locale), WIDTH - 2 * MARGIN, LEGEND_PX)
    header = MARGIN + TITLE_PX + 12 + TEXT_PX + 16
    height = header + ROW_HEIGHT * (len(shown) + 1 + (1 if hidden else 0)) + 12
    height += len(legend_lines) * (LEGEND_PX + 6) + MARGIN
    image, draw = new_canvas(WIDTH, height)
    top = _draw_title(draw, view, locale)
    top = _draw_headings(draw, view, layout, top, locale)
    for index, row in enumerate(shown):
        _draw_row(draw, view, layout, row, top + index * ROW_HEIGHT, index % 2 == 1, locale)
    top += len(shown) * ROW_HEIGHT
    if hidden:
        middle = top + ROW_HEIGHT // 2
        more = more_line(hidden, locale)
        draw.text((layout.name_left, middle), more, font=font(TEXT_PX), fill=COLOURS["muted"], anchor="lm")
        top += ROW_HEIGHT
    top += 12
    for line in legend_lines:
        draw.text((MARGIN, top), line, font=font(LEGEND_PX), fill=COLOURS["muted"])
        top += LEGEND_PX + 6
    return image


def _draw_title(draw: ImageDraw.ImageDraw, view: StandingsView, locale: str | None) -> int:
    """The league's name (cut to the width) and the round line; returns where the headings start."""
    title, size = fit_text(
        drawable_text(_one_line(view.title)), WIDTH - 2 * MARGIN, TITLE_PX, min_size=TEXT_PX
    )
    draw.text((MARGIN, MARGIN), title, font=font(size), fill=COLOURS["ink"])
    below = MARGIN + TITLE_PX + 12
    draw.text((MARGIN, below), round_line(view, locale), font=font(TEXT_PX), fill=COLOURS["muted"])
    return below + TEXT_PX + 16


def _draw_line(
    draw: ImageDraw.ImageDraw,
    layout: _Layout,
    top: int,
    cells: tuple[str, str, Sequence[str]],
    fill: tuple[int, int, int],
) -> None:
    """One line of the table at ``top``: the rank right-aligned, the name, then the numbers right-aligned."""
    rank, name, numbers = cells
    middle = top + ROW_HEIGHT // 2
    draw.text((layout.rank_right, middle), rank, font=font(TEXT_PX), fill=fill, anchor="rm")
    draw.text((layout.name_left, middle), name, font=font(TEXT_PX), fill=fill, anchor="lm")
    for number, right in zip(numbers, layout.rights, strict=True):
        draw.text((right, middle), number, font=font(TEXT_PX), fill=fill, anchor="rm")


def _draw_headings(
    draw: ImageDraw.ImageDraw, view: StandingsView, layout: _Layout, top: int, locale: str | None
) -> int:
    draw.rectangle((0, top, WIDTH, top + ROW_HEIGHT), fill=COLOURS["panel"])
    headings = [_t(locale, column.heading) for column in columns(view)]
    _draw_line(draw, layout, top, ("#", _t(locale, "Player"), headings), COLOURS["ink"])
    draw.line((0, top + ROW_HEIGHT, WIDTH, top + ROW_HEIGHT), fill=COLOURS["grid"], width=2)
    return top + ROW_HEIGHT


def _draw_row(
    draw: ImageDraw.ImageDraw,
    view: StandingsView,
    layout: _Layout,
    row: StandingRow,
    top: int,
    shaded: bool,
    locale: str | None,
) -> None:
    """A player's line: shaded when ``shaded``, greyed and marked when the player left the league; a name too
    long for its column cut with "..."."""
    if shaded:
        draw.rectangle((0, top, WIDTH, top + ROW_HEIGHT - 1), fill=tint("sand"))
    mark = f" {DROPPED_MARK}" if row.dropped else ""
    room = layout.name_width - font(TEXT_PX).getlength(mark)
    name, _ = fit_text(drawable_text(_one_line(row.name)), room, TEXT_PX, min_size=TEXT_PX)
    numbers = [column.cell(row, locale) for column in columns(view)]
    fill = COLOURS["muted" if row.dropped else "ink"]
    _draw_line(draw, layout, top, (str(row.rank), name + mark, numbers), fill)


def _one_line(name: str) -> str:
    """A display name as one line of printable characters (a name is untrusted: no line breaks, no controls)."""
    return "".join(
        " " if char.isspace() else char for char in name if unicodedata.category(char) != "Cc"
    ).strip()


def standings_png(view: StandingsView, language: str = "en") -> bytes:
    """``standings_image`` as PNG bytes (slow enough to run in a worker thread, like the boards)."""
    return encode_png(standings_image(view, language))


# ---- the text table ---------------------------------------------------------------------------------------------
#: Discord's limit on a message's length
MESSAGE_LIMIT = 2000
#: display columns a name takes in the text table (longer names are cut with "…")
NAME_COLUMNS = 16
#: display columns of the league's name over the text table (a name is untrusted: it must not crowd the table out)
TITLE_COLUMNS = 100
FENCE = "```"


def char_width(char: str) -> int:
    """The columns ``char`` takes in a monospace font: 2 for wide East Asian characters and emoji, 0 for
    combining marks, joiners and variation selectors, else 1."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(char_width(char) for char in text)


def fit_columns(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` display columns (ending in "…" when cut), padded to exactly ``width``."""
    if display_width(text) > width:
        kept, used = "", 0
        for char in text:
            if used + char_width(char) > width - 1:
                break
            kept, used = kept + char, used + char_width(char)
        text = kept.rstrip() + "…"
    return text + " " * (width - display_width(text))


def _plain_name(name: str) -> str:
    """A name as the code block shows it: one line, and no backtick, which could close the block early."""
    return _one_line(name).replace("`", "'")


def _table_lines(view: StandingsView, rows: Sequence[StandingRow], locale: str | None) -> list[str]:
    """The heading line and one line per row, every column padded to its widest cell."""
    cols = columns(view)
    headings = [_t(locale, column.heading) for column in cols]
    cells = [[column.cell(row, locale) for column in cols] for row in rows]
    widths = [
        max(display_width(text) for text in (heading, *(line[i] for line in cells)))
        for i, heading in enumerate(headings)
    ]
    rank_width = max([1, *(len(str(row.rank)) for row in rows)])

    def line(rank: str, name: str, values: Sequence[str]) -> str:
        numbers = " ".join(
            " " * (width - display_width(value)) + value for value, width in zip(values, widths, strict=True)
        )
        return f"{rank:>{rank_width}} {fit_columns(name, NAME_COLUMNS)} {numbers}".rstrip()

    lines = [line("#", _t(locale, "Player"), headings)]
    for row, values in zip(rows, cells, strict=True):
        mark = DROPPED_MARK if row.dropped else ""
        name = fit_columns(_plain_name(row.name), NAME_COLUMNS - len(mark)).rstrip() + mark
        lines.append(line(str(row.rank), name, values))
    return lines


def _markdown_escaped(text: str) -> str:
    """A league's name as plain words in a Discord message (its ``*`` or ``_`` would format the line)."""
    return re.sub(r"([\\*_~`|>\[\]])", r"\\\1", text)


def _message_length(text: str) -> int:
    """Discord's count of a message's characters, taken as UTF-16 code units: never less than its count."""
    return len(text.encode("utf-16-le")) // 2


def standings_text(view: StandingsView, language: str = "en") -> str:
    """The table in a code block under the title and round line, within Discord's 2,000 characters: the best
    rows that fit, then "… N more players" for the rest."""
    locale = language
    title = fit_columns(_one_line(view.title), TITLE_COLUMNS).rstrip()
    head = [f"**{_markdown_escaped(title)}** · {round_line(view, locale)}", FENCE]
    tail = [FENCE, _markdown_escaped(" · ".join(legend(view, locale)))]

    def message(kept: int) -> str:
        lines = _table_lines(view, view.rows[:kept], locale)
        if kept < len(view.rows):
            lines.append(more_line(len(view.rows) - kept, locale))
        return "\n".join([*head, *lines, *tail])

    # the most rows that fit, by bisection: fewer rows never make a longer message
    fits, too_many = 0, len(view.rows) + 1
    while too_many - fits > 1:
        middle = (fits + too_many) // 2
        if _message_length(message(middle)) <= MESSAGE_LIMIT:
            fits = middle
        else:
            too_many = middle
    return message(fits)


# ---- alt text ---------------------------------------------------------------------------------------------------
def standings_alt_text(view: StandingsView, language: str = "en") -> str:
    """For screen readers: the league, the round and how many players, then one sentence for each of the
    top three."""
    locale = language
    sentences = [
        ntranslate(
            locale,
            "{title}, {status}: {n} player.",
            "{title}, {status}: {n} players.",
            len(view.rows),
            context=IMAGE,
            title=_one_line(view.title),
            status=round_line(view, locale),
        )
    ]
    for row in view.rows[:3]:
        sentences.append(
            _t(
                locale,
                "{rank}. {name}{mark}: {points} pts, Buchholz {buchholz}, Sonneborn-Berger {sb}, won {wins} of {games}.",
                rank=row.rank,
                name=_one_line(row.name),
                mark=f" ({_t(locale, 'left the league')})" if row.dropped else "",
                points=points_text(row.points, locale),
                buchholz=tie_break_text(row.buchholz, locale),
                sb=tie_break_text(row.sonneborn_berger, locale),
                wins=row.wins,
                games=row.games,
            )
        )
    return compose(sentences, ALT_TEXT_LIMIT)


__all__ = [
    "StandingRow",
    "StandingsView",
    "standings_alt_text",
    "standings_image",
    "standings_png",
    "standings_text",
]
