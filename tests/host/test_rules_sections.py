"""``/rules`` for a game whose notes have sections (PRINCIPES): the contents first, then one section at a time."""

from __future__ import annotations

import pytest

from bot.host import Host, HostError
from bot.hosting.queries import notes_sections
from rules.principes import GAME


def test_principes_rules_open_on_a_table_of_contents() -> None:
    text = Host.rules_text("principes")
    assert "Sections (/rules `principes` with a section, or `all`):" in text
    assert "- `movement`: Movement, passage, the Clergy penalty and destruction" in text
    assert "Options:" in text and "AI levels:" in text
    assert "The defender has 1 shield per gord" not in text  # the sections themselves wait to be asked for
    assert len(text) < 4096  # one Discord embed


def test_a_section_shows_alone_and_every_section_fits_a_message() -> None:
    text = Host.rules_text("principes", "Battles")
    assert text.startswith("**Battles**\nThe defender has 1 shield per gord")
    assert "Options:" not in text
    _intro, sections = notes_sections(GAME.rules_notes)
    assert len(sections) >= 10
    assert all(len(f"**{title}**\n{body}") <= 4096 for _key, title, body in sections)


def test_all_shows_every_section_and_an_unknown_one_lists_them() -> None:
    everything = Host.rules_text("principes", "all")
    assert all(f"**{title}**" in everything for _key, title in Host.rules_sections("principes"))
    with pytest.raises(HostError, match="no section 'atlantis' .*`battles`"):
        Host.rules_text("principes", "atlantis")
    assert Host.rules_sections("nope") == [] and Host.rules_sections(None) == []


def test_a_game_without_sections_reads_as_before() -> None:
    text = Host.rules_text("babylone")
    assert "Sections" not in text and "Options:" in text
    with pytest.raises(HostError, match="no section"):
        Host.rules_text("babylone", "battles")
