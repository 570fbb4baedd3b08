"""Issue 43: ``/rules`` entirely in the reader's language. For every game, its page (contents or whole notes),
``all`` and every section, the list of games and the section autocomplete, rendered exactly as the cog sends them
(``page_embeds`` of the host's ``rules_page``, ``section_choices`` of ``rules_sections``): in the pseudo-locale
no English word is left unmarked, and in Polish no run of four English words from the catalog or from the
English page remains (a page used to be cut into messages before it was read, and a section's entry, read only
whole, came out half English: "Karta payable when it is played, else it nie działa")."""

from __future__ import annotations

import pytest

from bot.discord.cogs.info import page_embeds, section_choices
from bot.host import Host
from bot.hosting.rules_pages import notes_sections
from bot.models import HostError
from i18n import DEFAULT, PSEUDO, localize, template
from rules.engine import get_game
from tests.i18n.rules_reading import GAMES, allowed_words, english_left, requests, unmarked


def sent(game: str | None, section: str | None, language: str) -> list[str]:
    """What ``/rules`` sends: each message's embed title and description."""
    embeds = page_embeds(Host.rules_page(game, section, language))
    return [f"{embed.title}\n{embed.description}" for embed in embeds]


def choices(key: str, language: str, typed: str = "") -> list[str]:
    """The section autocomplete's names for a game, as sent."""
    return [choice.name for choice in section_choices(Host.rules_sections(key, language), typed, language)]


@pytest.mark.parametrize("key", GAMES)
def test_every_rules_page_of_a_game_is_marked_in_the_pseudo_locale(key: str) -> None:
    found = {}
    for section in requests(key):
        for message in sent(key, section, PSEUDO):
            if words := unmarked(message, allowed_words()):
                found[(section, message[:200])] = words
    names = choices(key, PSEUDO)
    if words := unmarked("\n".join(names), allowed_words(key)):
        found[("autocomplete", "\n".join(names)[:200])] = words
    assert not found, found


@pytest.mark.parametrize("key", GAMES)
def test_every_rules_page_of_a_game_reads_polish(key: str) -> None:
    found = {}
    for section in requests(key):
        english = "\n".join(sent(key, section, DEFAULT))
        for message in sent(key, section, "pl"):
            if left := english_left(message, english):
                found[(section, message[:120])] = left
    polish, english_names = choices(key, "pl"), choices(key, DEFAULT)
    assert len(polish) == len(english_names) >= 1
    if left := english_left("\n".join(polish), "\n".join(english_names)):
        found[("autocomplete", "")] = left
    assert not found, found


def test_the_list_of_games_reads_the_readers_language() -> None:
    for message in sent(None, None, PSEUDO):
        assert not unmarked(message, allowed_words()), message
    polish = "\n".join(sent(None, None, "pl"))
    assert polish.startswith("Gry\nGry: `principes` (PRINCIPES)") and "/zasady" in polish, polish
    assert not english_left(polish, "\n".join(sent(None, None, DEFAULT)))


def test_section_titles_and_the_frame_have_polish_entries() -> None:
    """Short pieces no run of four words would catch: each section title, the embed titles, "every section"."""
    ids = {str(message.id) for message in template() if not message.context}
    for key in GAMES:
        _intro, sections = notes_sections(get_game(key, include_unplayable=True).rules_notes)
        english = dict(Host.rules_sections(key))
        polish = dict(Host.rules_sections(key, "pl"))
        for section, title, _body in sections:
            assert title in ids and polish[section] != english[section] == title, (key, title)
    for title in ("Games", "every section"):
        assert title in ids
    page = Host.rules_page("babylone", None, "pl")
    assert page.title == "Uwagi do zasad: Babylone"


def test_a_section_read_whole_in_polish_even_when_cut_into_messages() -> None:
    """PRINCIPES' ``all`` is longer than a message: each part is cut from the page read whole, and each part is
    titled with its number."""
    polish = sent("principes", "all", "pl")
    assert len(polish) > 1
    assert all(
        f"({number}/{len(polish)})" in message.split("\n")[0] for number, message in enumerate(polish, 1)
    )
    joined = "\n".join(polish)
    assert "nie działa" in joined and "payable" not in joined
    assert all(
        len(embed.description or "") <= 4096
        for embed in page_embeds(Host.rules_page("principes", "all", "pl"))
    )


def test_the_section_autocomplete_matches_the_readers_titles() -> None:
    assert [name.split(":")[0] for name in choices("principes", DEFAULT, "batt")] == ["battles", "cards"]
    polish = choices("principes", "pl", "bitw")
    assert {name.split(":")[0] for name in polish} == {"battles", "cards"}, polish
    assert choices("principes", "pl", "")[0] == "all: wszystkie sekcje"


def test_an_unknown_section_is_refused_in_a_sentence_the_catalog_reads() -> None:
    for key, wanted in (("principes", "atlantis"), ("babylone", "battles")):
        with pytest.raises(HostError) as refused:
            Host.rules_page(key, wanted, "pl")
        text = str(refused.value)
        assert not unmarked(localize(text, PSEUDO), allowed_words() | {"atlantis", "battles"}), text
        assert not english_left(localize(text, "pl"), text), localize(text, "pl")
