"""What a reader of the pseudo-locale ``qps`` was shown, checked for English (issue 43): the check the
pseudo-locale end-to-end tests share.

``qps`` wraps each translated literal in ``⟦…⟧``; ``unmarked_words`` lists the English left outside. The fake
Discord records everything it was shown (``FakeDiscord.shown``). What may stay as it is: players' names, the
games' titles (proper names), the notation a player types (inside backticks, as every message sets it; an option
described by its own value, an autocomplete choice named by its value, the value before an autocomplete name's
colon), ids, a file's extension, Roman numerals, and PRINCIPES' Latin land and principality names (the game's
proper names in every language).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from i18n import PSEUDO, unmarked_words
from rules.engine.registry import available_games, get_game
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, Shown

#: what is the same in every language: code spans (notation and ids, as messages set them), PRINCIPES' card and
#: tile ids ("(c08b)"), Roman numerals (Periods, actions)
CODE = re.compile(r"`[^`]*`|\b[a-z]{1,2}\d{1,2}[a-z]?\b|\b[IVX]+\b")
#: where the fake Discord files what a player types: an option's own value as its description, an autocomplete
#: choice named by its value
NOTATION = ("option notation", "autocomplete value")
MAP = Path(__file__).resolve().parents[2] / "rules" / "principes" / "data" / "map.json"


def titles() -> list[str]:
    """The games' titles (proper names, the same in every language), the longest first."""
    return sorted((get_game(key).title for key in available_games()), key=len, reverse=True)


def latin_names() -> set[str]:
    """PRINCIPES' lands and principalities: their Latin names are the game's proper names in every language."""
    data = json.loads(MAP.read_text(encoding="utf-8"))
    names = {str(land[field]) for land in data["lands"] for field in ("id", "name", "short")}
    names |= {str(principality["name"]) for principality in data["principalities"].values()}
    return {word for name in names for word in re.findall(r"[A-Za-z]{2,}", name)}


def unlocalised(
    shown: Iterable[Shown], allowed: Iterable[str], notation: Iterable[str] = ()
) -> list[tuple[str, str, list[str]]]:
    """(where, the text, its English words) for every piece of text shown that has English outside the markers,
    but for the ``allowed`` words (players' names...) and the games' titles. An option's description may be the ``notation`` it sends (what a player would type: the same in every
    language)."""
    keep, typed = set(allowed), set(notation)
    found = []
    for item in shown:
        for where, text in item.texts:
            if where in NOTATION or (where == "option description" and text in typed):
                continue
            if where == "file":  # a file's extension is no word
                text = text.rsplit(".", 1)[0]
            if where == "autocomplete":  # "consent: Consent to passage": the value typed, then its meaning
                text = re.sub(r"^[a-z0-9_-]+: ", "", text)
            read = CODE.sub(" ", text)
            for title in titles():  # a title as a whole: its words alone ("The", "of") are English
                read = read.replace(title, " ")
            words = unmarked_words(read, keep)
            if words:
                found.append((where, text, words))
    return found


def report(found: list[tuple[str, str, list[str]]]) -> str:
    distinct = {(where, text): words for where, text, words in found}
    lines = [f"{len(distinct)} distinct texts left English:"]
    lines += [
        f"- [{where}] {text[:300]!r}: {words[:8]}" for (where, text), words in list(distinct.items())[:400]
    ]
    return "\n".join(lines)


async def speak_pseudo(table: Table, fake: FakeDiscord, *names: str) -> list[FakeUser]:
    """Users whose clients speak ``qps`` on a server whose public language is ``qps`` (``/game language`` offers
    only real languages, so the test sets the server's choice where the command stores it)."""
    users = [fake.add_user(name, locale=PSEUDO) for name in names]
    await table.running.host.games.put_setting("guild_settings", str(fake.guild_id), "language", PSEUDO)
    return users


def lobby_button(message: FakeMessage, op: str) -> str:
    return next(i for i in message.custom_ids() if i.startswith("pt:l:") and i.endswith(f":{op}"))
