"""Issue 23, PRINCIPES' components: every Prince's name, note and text, every card's and tile's title and text,
every faction, off-map area and History icon has a Polish entry, and the labels naming a card or tile with its
id (``rules/principes/play/naming.py``) read with no English word left in the pseudo-locale."""

from __future__ import annotations

import pytest

from i18n import PSEUDO, localize, template, translate, unmarked_words
from rules.principes.data import catalog, instances
from rules.principes.play.history import ICON_TITLES
from rules.principes.play.naming import card_label, hand_label

#: the notation inside a label stays as typed: ids such as ``pma-1a``, ``br1a`` or ``gr2b``
IDS = {"pma", "mas", "pmi", "sil", "br", "gr"}
#: names Polish writes as English does
_SAME_IN_POLISH = {"Władysław Odonic", "Przemysł I", "Przemysł II", "Siemowit I", "Te Deum"}


def _readable() -> list[str]:
    """Every name and text of a component a person reads."""
    data = catalog()
    found = []
    for record in data.kinds.values():
        found += [str(record[key]) for key in ("name", "note", "title", "text") if record.get(key)]
    found += [
        str(faction["name"]) for faction in data.factions.values() if faction["group"] != "principality"
    ]
    found += [str(area["name"]) for area in data.offmap.values()]
    found += list(ICON_TITLES.values())
    return sorted(set(found))


@pytest.mark.parametrize("text", _readable())
def test_every_component_text_has_a_polish_entry(text: str) -> None:
    assert template().get(text) is not None, f"no catalog entry for {text!r}"
    polish = translate("pl", text)
    assert polish and (polish != text or text in _SAME_IN_POLISH), text
    assert localize(text, "pl") == polish
    assert not unmarked_words(localize(text, PSEUDO))


def test_every_label_reads_in_the_pseudo_locale() -> None:
    data = catalog()
    labels = [card_label(instance) for record in data.kinds.values() for instance in instances(record)]
    labels += [
        hand_label(instance)
        for record in data.kinds.values()
        if record["deck"] in ("court", "battle", "neighbour")
        for instance in instances(record)
    ]
    left = {label: words for label in labels if (words := unmarked_words(localize(label, PSEUDO), IDS))}
    assert len(labels) > 150 and not left, list(left.items())[:5]


@pytest.mark.parametrize(
    ("label", "polish"),
    [
        ("Truce of God (Treuga Dei; c12a)", "Rozejm Boży (Treuga Dei; c12a)"),
        ("Kingdom of Hungary (partial; n06)", "Królestwo Węgier (część sił; n06)"),
        ("German Marches (full; n01)", "Marchie Niemieckie (pełne siły; n01)"),
        ("Scouts (b07a)", "Zwiadowcy (b07a)"),
        ("Bolesław the Chaste (PMI-2)", "Bolesław Wstydliwy (PMI-2)"),
        ("Battle: Hired Knights (b04a) [sword]", "Bitwa: Najemni rycerze (b04a) [miecz]"),
        (
            "Court: Chronicle of Master Vincent (c13b) [either]",
            "Dwór: Kronika mistrza Wincentego (c13b) [Lud/Duchowieństwo]",
        ),
    ],
)
def test_labels_read_in_polish(label: str, polish: str) -> None:
    assert not unmarked_words(localize(label, PSEUDO), IDS)
    assert localize(label, "pl") == polish
