"""Issue 23, PRINCIPES' board images: every word drawn on sampled boards of a self-played game (public views,
seats' views with their hand, the last board) and their alt text leave no English word unmarked in the
pseudo-locale, and the Polish alt text is Polish. Only names stay: players', principalities', the Latin lands'
and gords', the title PRINCIPES and the card ids the notation uses."""

from __future__ import annotations

import asyncio
import re
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from i18n import CLOSE, OPEN, PSEUDO, localize, unmarked_words
from render import alt_text, principes, render_view
from render.alt import reason
from render.principes_text import view_changes
from rules.principes.data import catalog
from tests.i18n.drawing import record_drawn_text
from tests.i18n.principes_play import NAMES, play_principes

#: a card or tile id as the notation writes it (``c2b``, ``b07a``, ``n01``)
CARD_ID = re.compile(r"\b[a-z]{1,2}\d{2}[a-z]?\b|\b[a-z]\d[a-z]?\b", re.IGNORECASE)


@cache
def _names() -> frozenset[str]:
    """The words of the names that stay as they are: players', principalities', lands', gords', Mare Balticum."""
    data = catalog()
    names = [*NAMES, "PRINCIPES", "Princeps", "Mare Balticum", "I II III"]
    names += [str(data.map["principalities"][code]["name"]) for code in data.map["principalities"]]
    for land in data.lands.values():
        names += [str(land["name"]), str(land["short"]), *(str(gord["name"]) for gord in land["gords"])]
    words = {word for name in names for word in re.findall(r"[A-Za-z]{2,}", principes.plain(name))}
    words |= {word for name in names for word in re.findall(r"[A-Za-z]{2,}", name)}
    # the principality and faction codes figures and the order line write (PMA, MAS, GM...)
    words |= {principes.faction_code(code) for code in data.factions}
    return frozenset(words)


def _unmarked(text: str) -> list[str]:
    return unmarked_words(CARD_ID.sub(" ", text), _names())


def _without_reason(text: str, view: dict[str, Any]) -> str:
    """The alt text without the result's reason: a rules message, which the rules' own checks cover."""
    result = (view.get("play") or {}).get("result") or {}
    if not result.get("reason"):
        return text
    why = localize(reason(view, result["reason"]) + ".", PSEUDO)
    return text.replace(why.removesuffix(CLOSE).removesuffix("."), " ")


@cache
def _titles() -> tuple[str, ...]:
    """Cards', tiles' and Princes' titles, longest first: the components' own entries read them."""
    found = {str(record.get("title") or record.get("name") or "") for record in catalog().kinds.values()}
    return tuple(sorted((title for title in found if title), key=len, reverse=True))


def _without_titles(text: str) -> str:
    for title in _titles():
        text = text.replace(title, " ")
    return text


def _closed(texts: list[str]) -> list[str]:
    """The texts drawn one after another, each with the pseudo-locale's markers it continues or leaves open
    closed: a translated text wrapped over several lines (a History card's), or cut with "..." to fit."""
    closed, inside = [], False
    for text in texts:
        text = (OPEN if inside else "") + text
        inside = text.rfind(OPEN) > text.rfind(CLOSE)
        closed.append(text + CLOSE if inside else text)
        if text.endswith("..." + CLOSE) or text.endswith("..."):
            inside = False
    return closed


@cache
def _views(tmp: str) -> list[dict[str, Any]]:
    played = asyncio.run(play_principes(Path(tmp) / "images.sqlite", 3, 2))
    return played.views


def _sample(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """About a dozen boards across the game: public ones, seats' views with a hand, and the last."""
    public = [view for view in views if "you" not in view]
    private = [view for view in views if view.get("you", {}).get("hand")]
    sample = public[:: max(1, len(public) // 6)][:6] + private[:: max(1, len(private) // 5)][:5]
    return [*sample, views[-1]]


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return _views(str(tmp_path_factory.mktemp("principes-images")))


def test_the_words_on_principes_boards_are_marked_in_the_pseudo_locale(
    views: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record_drawn_text(monkeypatch)
    sample = _sample(views)
    assert any("you" in view for view in sample) and any("you" not in view for view in sample)
    words: dict[str, list[str]] = {}
    try:
        for view in sample:
            principes.clear_caches()  # every text drawn afresh, so that the recording sees it
            drawn.clear()
            localised = {**view, "locale": PSEUDO}
            render_view("principes", localised)
            render_view("principes", localised, "silesia")
            for text in [*_closed(drawn), _without_reason(alt_text("principes", localised), view)]:
                if found := _unmarked(text):
                    words[text] = found
    finally:
        principes.clear_caches()
    assert drawn and not words, f"English left unmarked on the images: {list(words.items())[:12]}"


def test_the_polish_alt_text_is_polish(views: list[dict[str, Any]]) -> None:
    last = views[-1]
    assert alt_text("principes", {**last, "locale": "pl"}) != alt_text("principes", last)
    private = [view for view in views if view.get("you", {}).get("hand")]
    polish = alt_text("principes", {**private[-1], "locale": "pl"})
    assert "Twoja ręka: " in polish and "Twój plan: " in polish, polish


def test_a_seats_own_changes_are_marked_in_the_pseudo_locale(views: list[dict[str, Any]]) -> None:
    """The catch-up digest's lines on the seat's own changes, read back by the catalog at delivery."""
    lines = []
    for seat in {view["you"]["principality"] for view in views if "you" in view}:
        own = [view for view in views if view.get("you", {}).get("principality") == seat]
        lines += [line for before, after in pairwise(own) for line in view_changes(before, after)]
        lines += view_changes(own[0], own[-1])
    assert any(line.startswith("Your hand") for line in lines)
    words = {
        line: found for line in lines if (found := _unmarked(_without_titles(localize(f"• {line}", PSEUDO))))
    }
    assert not words, f"English left unmarked in the digest: {list(words.items())[:12]}"
    polish = [localize(f"• {line}", "pl") for line in lines]
    assert all(
        line.startswith(("• Twoj", "• Twoi", "• Twój", "• Odpadasz", "• Now", "• Znik")) for line in polish
    ), [line for line in polish if not line.startswith("• Tw")][:5]
