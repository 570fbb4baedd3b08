"""Issue 23, PRINCIPES' first slice: everything ``/rules principes`` shows (the introduction with the table of
contents, every section alone and ``all``, the options' help, the card-window option) leaves no English word
unmarked in the pseudo-locale, and reads in Polish."""

from __future__ import annotations

import re

import pytest

from bot.host import Host
from i18n import PSEUDO, unmarked_words

#: words typed as such in every language, outside the translated notes: the game's title, its option names
#: (``maior_prince`` and ``gold_supply`` read as two words each) and values (``principalities`` takes principality
#: codes such as ``pma-mas``) and its AI levels, as in the other games' /rules checks
ALLOWED = {
    "PRINCIPES",
    "principalities",
    "standard",
    "random",
    "pma",
    "mas",
    "pmi",
    "sil",
    "strong",
    "basic",
    "expert",
}
ALLOWED |= {"neutrals", "passive", "active", "maior", "prince", "spindleshanks", "odonic", "gold", "supply"}
ALLOWED |= {"unlimited", "limited", "elimination", "on", "off"}
#: notation in backticks (a section's key, an option's value) is typed the same in every language
CODE = re.compile(r"`[^`]*`")
SECTIONS = [None, "all", *(key for key, _title in Host.rules_sections("principes"))]


def test_the_rules_notes_have_sections() -> None:
    assert len(SECTIONS) > 10


@pytest.mark.parametrize("section", SECTIONS)
def test_rules_principes_is_fully_marked_in_the_pseudo_locale(section: str | None) -> None:
    text = Host.rules_text("principes", section, PSEUDO)  # built for the reader, as /rules builds it
    unmarked = unmarked_words(CODE.sub(" ", text), ALLOWED)
    assert not unmarked, f"English left unmarked in /rules principes {section or ''}: {unmarked[:20]}"


def test_rules_principes_reads_in_polish() -> None:
    polish = Host.rules_text("principes", None, "pl")
    assert "Sekcje" in polish and "dzielnice" in polish and "Poziomy SI" in polish
    battles = Host.rules_text("principes", "battles", "pl")
    assert battles.startswith("**Bitwy**") and "obrońca" in battles
    # the notation stays canonical inside the Polish text (in backticks: what a player types)
    assert "`done`" in Host.rules_text("principes", "round", "pl")
