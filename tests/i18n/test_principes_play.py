"""Issue 23, PRINCIPES: self-played games through the Host leave no English word unmarked in the pseudo-locale
(every delivery with its prompt and button labels, each player's /hand, refusals, /log and /game status), and
read in Polish. The board images and the guided DM forms have their own tests (``test_principes_images.py``,
``test_principes_forms.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from i18n import PSEUDO, localize, unmarked_words
from rules.principes.data import DATA_DIR
from tests.i18n.principes_play import NAMES, WRONG, play_principes


def _names() -> set[str]:
    """The words of the map's Latin names (lands, gords, principalities): proper names, the same in every
    language, as on the board."""
    board = json.loads((DATA_DIR / "map.json").read_text(encoding="utf-8"))
    names = {land["name"] for land in board["lands"]} | {p["name"] for p in board["principalities"].values()}
    names |= {gord["name"] for land in board["lands"] for gord in land["gords"]}
    return {word for name in names for word in name.split()}


#: players' names, the title, the Latin names, and what a player types as such: the notation's words quoted in
#: prompts and refusals (``done``, ``move``...), option names and values, card ids, AI levels
ALLOWED = {*NAMES, "PRINCIPES", WRONG, *_names()}
ALLOWED |= {"principalities", "standard", "neutrals", "passive", "maior", "prince", "spindleshanks"}
ALLOWED |= {"gold", "supply", "unlimited", "elimination", "on", "basic", "strong", "sealed", "choices", "txt"}
GAMES = [(2, 1), (3, 2), (4, 3), (4, 4)]
#: what is data, not words: a sealed choice's commit (hex digits), notation quoted as typed (`found becz`), the
#: seed's scheme in /log, and a Prince's card id (``PMA-2a``)
DATA = re.compile(r"\b[0-9a-f]{64}\b|`[^`]*`|hmac-sha256|sha256-mt19937|\b(?i:pma|mas|pmi|sil)-\d[ab]\b")


@pytest.mark.parametrize(("players", "seed"), GAMES)
async def test_a_self_played_principes_game_is_fully_marked_in_the_pseudo_locale(
    tmp_path: Path, players: int, seed: int
) -> None:
    played = await play_principes(tmp_path / "db.sqlite", players, seed)
    assert len(played.texts) > 1000 and "is over" in played.texts[-1]
    unmarked: dict[str, list[str]] = {}
    for text in played.texts:
        for line in text.split("\n"):
            if words := unmarked_words(DATA.sub(" ", localize(line, PSEUDO)), ALLOWED):
                unmarked.setdefault(line, words)
    assert not unmarked, f"{len(unmarked)} lines with English left unmarked: {list(unmarked.items())[:10]}"


async def test_a_principes_game_reads_in_polish(tmp_path: Path) -> None:
    played = await play_principes(tmp_path / "db.sqlite", 2, 1)
    polish = "\n".join(localize(text, "pl") for text in played.texts)
    for words in ("Karta Historii", "Rycerz", "złoto", "Runda", "wygrywa", "Zbiórka"):
        assert words in polish, words
