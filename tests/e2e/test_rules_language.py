"""Issue 43 end to end: ``/rules`` (every game, its page, ``all`` and each section, the list of games, the section
autocomplete) and ``/help``, asked through the real discord.py client by a reader whose client speaks the
pseudo-locale ``qps`` and by one whose client speaks Polish: every embed title and text and every autocomplete
name reads only the reader's language (``tests/i18n/test_rules_pages.py`` says what may stay as it is)."""

from __future__ import annotations

from typing import Any

from i18n import PSEUDO
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.i18n.rules_reading import GAMES, allowed_words, english_left, requests, unmarked


def shown(table: Table, record: Any) -> list[str]:
    """Each message of an answer as a reader sees it: its content, then its embeds' titles and texts."""
    return [message.text() for message in table.fake.replies(record)]


async def answers(table: Table, user: FakeUser, game: str | None, section: str | None) -> list[str]:
    options = {key: value for key, value in (("game", game), ("section", section)) if value}
    record = await table.slash(user, "rules", **options)
    texts = shown(table, record)
    assert texts, (game, section)
    return texts


async def test_rules_and_help_read_only_the_readers_language(table: Table, fake: FakeDiscord) -> None:
    qps, polish, english = (
        fake.add_user("ola", locale=PSEUDO),
        fake.add_user("jan", locale="pl"),
        fake.add_user("bob"),
    )
    unmarked_found: dict[tuple[str | None, str | None], list[str]] = {}
    left: dict[tuple[str | None, str | None], list[str]] = {}
    for game in [None, *GAMES]:
        for section in requests(game) if game else [None]:
            for text in await answers(table, qps, game, section):
                if words := unmarked(text, allowed_words()):
                    unmarked_found[(game, section)] = words
            said = "\n".join(await answers(table, english, game, section))
            for text in await answers(table, polish, game, section):
                if found := english_left(text, said):
                    left[(game, section)] = found
        if game:
            names = [c["name"] for c in await fake.autocomplete(qps, "rules", "section", game=game)]
            if words := unmarked("\n".join(names), allowed_words(game)):
                unmarked_found[(game, "autocomplete")] = words
            names = [c["name"] for c in await fake.autocomplete(polish, "rules", "section", game=game)]
            said = [c["name"] for c in await fake.autocomplete(english, "rules", "section", game=game)]
            if found := english_left("\n".join(names), "\n".join(said)):
                left[(game, "autocomplete")] = found
    assert not unmarked_found, unmarked_found
    assert not left, left

    help_qps = "\n".join(shown(table, await table.slash(qps, "help")))
    assert not unmarked(help_qps, allowed_words()), unmarked(help_qps, allowed_words())
    help_pl = "\n".join(shown(table, await table.slash(polish, "help")))
    help_en = "\n".join(shown(table, await table.slash(english, "help")))
    assert not english_left(help_pl, help_en), english_left(help_pl, help_en)
    assert "`/zasady` — Uwagi do zasad gry" in help_pl and "`/gra nowa` — " in help_pl, help_pl
    assert "`/rules` — A game's rules notes" in help_en
