"""Issue 43: the DM components built for one reader (an answer-ahead offer's select, a The Prince form's
options) and the turn digest's stand-in marks are in the reader's language; a label is fitted to Discord's limit
once translated (a translation may be longer than the English). The pseudo-locale ``qps`` marks every translated
word ``⟦...⟧`` and lengthens every label, so an English word left over or a label cut before its translation
shows. (The whole flows, through the fake Discord: ``tests/e2e/test_forms_pseudo.py``.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.digest import Digest, Group, Step, digest_text
from bot.discord.components import ahead_items
from bot.discord.forms import form_view
from bot.models import AHEAD_KIND, Choice, Prompt
from forms import FormContext, FormPage
from forms.labels import BUTTON_LABEL, OPTION_DESCRIPTION, OPTION_LABEL, PLACEHOLDER
from forms.the_prince import ThePrinceForm
from i18n import PSEUDO, localize, unmarked_words
from tests.forms.test_the_prince_forms import plan_context


def _items(ctx: FormContext, page: FormPage) -> list[Any]:
    """The discord.py components (Button / Select) of a form page, as the bot posts them."""
    return [item.item for item in form_view(ctx, page).children]  # type: ignore[attr-defined]


def _within_limits(item: Any) -> None:
    if isinstance(item, discord.ui.Select):
        assert item.placeholder is None or len(item.placeholder) <= PLACEHOLDER, item.placeholder
        for option in item.options:
            assert len(option.label) <= OPTION_LABEL, option.label
            assert option.description is None or len(option.description) <= OPTION_DESCRIPTION
    else:
        assert item.label is None or len(item.label) <= BUTTON_LABEL, item.label


@pytest.mark.parametrize("language", [PSEUDO, "pl"])
def test_an_answer_ahead_select_speaks_the_readers_language(language: str) -> None:
    """Many answers ahead make one select: its placeholder is the bot's own word, in the reader's language."""
    answers = [Choice(f"found land{n}", localize(f"Found a City on land{n}", language)) for n in range(30)]
    prompt = Prompt(1, 0, "r1-urbanization", AHEAD_KIND, "Urbanization", False, [*answers, Choice("ask", "")])
    [select] = ahead_items(prompt, language)
    inner = select.item  # type: ignore[attr-defined]
    assert isinstance(inner, discord.ui.Select) and len(inner.options) == 25
    _within_limits(inner)
    placeholder = str(inner.placeholder)
    if language == PSEUDO:
        assert placeholder.startswith("⟦") and not unmarked_words(placeholder), placeholder
    else:
        assert placeholder == "Odpowiedz zawczasu…"
    assert ahead_items(prompt)[0].item.placeholder == "Answer ahead…"  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", [PSEUDO, "pl"])
def test_a_the_prince_plan_forms_labels_fit_once_translated(language: str) -> None:
    form = ThePrinceForm()
    ctx = replace(plan_context(bonus=30), language=language)
    state = form.start(ctx)
    for draft in (state, form.change(ctx, "t", state, "1"), form.change(ctx, "f", state, "2")):
        for item in _items(ctx, form.page(ctx, draft)):
            _within_limits(item)
            if language == PSEUDO and isinstance(item, discord.ui.Select):
                texts = [str(item.placeholder), *(o.label for o in item.options)]
                texts += [o.description or "" for o in item.options]
                assert not [t for t in texts if unmarked_words(t)], texts


def _digest(by: list[str]) -> Digest:
    lines = [
        ("alice moves stack 1 (1 high, red top) onto stack 2.",),
        ("alice moves stack 3 (1 high, blue top) onto stack 4.",),
    ]
    steps = tuple(
        Step(index, text, who, shown=text) for index, (text, who) in enumerate(zip(lines, by, strict=True))
    )
    return Digest("babylone", 1, "bob", 3, (Group(0, "alice", steps),), {}, {}, ())


@pytest.mark.parametrize(
    "by", [["the AI", "the AI"], ["the deadline", "the deadline"], ["the AI", "the deadline"]]
)
def test_the_digests_stand_in_marks_speak_the_readers_language(by: list[str]) -> None:
    """A player's events the AI or a deadline played for them are marked so in the turn digest (the group's
    header, else each line): the marks are read back by the catalog like the rest of the digest."""
    text = digest_text(_digest(by))
    assert "played by" in text or "(the AI)" in text
    pseudo = localize(text, PSEUDO)
    assert not unmarked_words(pseudo, ["alice"]), pseudo
    polish = localize(text, "pl")
    assert "SI" in polish if "the AI" in by else "termin" in polish
    assert "played" not in polish and "the AI" not in polish and "deadline" not in polish, polish
