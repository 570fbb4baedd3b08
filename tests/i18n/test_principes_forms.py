"""Issue 23: PRINCIPES' guided DM forms (the sealed plan, Movement, the choice lists of Building, Politics and
Progress, the battle card windows) leave no English word of their own unmarked in the pseudo-locale, and read in
Polish.

Built for the decisions of a self-played game (``play_principes``): every form kind, its first draft, its other
pages (a Movement group's destinations, a long list's further pages, a plan half picked) and a completed draft
with its review page: the text, button labels, select placeholders, option labels and descriptions. Then the
form's refusals, and the button that opens a form.

Only the form's own words are checked here. What the rules write (a choice's label from ``describe_action``, a
land's, card's or faction's name) is other catalog entries' job (the rules' messages and the components): the
form must only hand it to ``localize``, so the test replaces the form module's ``localize`` with one that marks
the whole text in the pseudo-locale. A rules text shown without going through ``localize`` stays unmarked and
fails the test; one that went through it is marked whatever the rules' entries cover. Notation stays as typed: a
select option's description that is the choice itself, text in backticks (``/move``, the review's notation), and
the plan's places ``I``, ``II``, ``III``. A refusal may quote a land's (Latin) name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import forms.principes as principes_form
from bot.discord.forms import open_button
from bot.models import Prompt
from forms import FormContext, FormError, FormPage, form_for, review_page
from i18n import CLOSE, OPEN, PSEUDO, language_of, localize, unmarked_words
from rules.principes.data import catalog
from tests.i18n.principes_play import play_principes

#: every decision kind with a guided form
KINDS = {"plan", "movement", "building", "politics", "progress", "before_battle", "extra_cards"}
#: the plan's places, as the notation's summary writes them
ALLOWED = {"II", "III"}
CODE = re.compile(r"`[^`]*`")


def _marked(text: str, locale: str | None) -> str:
    """``localize`` as the test sees it: a rules text is wholly marked in the pseudo-locale."""
    return f"{OPEN}{text}{CLOSE}" if language_of(locale) == PSEUDO and text else localize(text, locale)


def _words(ctx: FormContext, page: FormPage) -> list[str]:
    """The words a page shows: its text, and each component's label, placeholder, options and descriptions (a
    description that is the choice's notation left out)."""
    texts = [page.content]
    for item in page.items:
        inner = getattr(item, "item", item)
        texts += [str(getattr(inner, "label", None) or ""), str(getattr(inner, "placeholder", None) or "")]
        for option in getattr(inner, "options", []):
            texts.append(option.label)
            if option.description not in ctx.choices:
                texts.append(option.description or "")
    return [text for text in texts if text]


def _drafts(ctx: FormContext) -> list[str]:
    """The form's first draft, its other pages, and a complete draft (the first legal choice, picked: such a
    draft has no editing page, only its review)."""
    form = principes_form.FORM
    drafts = [form.start(ctx)]
    if ctx.kind == "plan":
        words = ctx.choices[0].split()[1:]
        digits = "".join(str(principes_form.ACTIONS.index(word)) for word in words)
        return drafts + [digits[:1], digits[:2], digits]
    if ctx.kind == "movement":
        groups = principes_form._groups(ctx)
        drafts += ["p1"] + ([f"s{groups[0][0]}.{groups[0][1]}"] if groups else [])
    else:
        drafts += ["1", "2"]
    return drafts + [form.change(ctx, "c", drafts[0], "=" + ctx.choices[0])]


def _refusals(ctx: FormContext) -> list[str]:
    """What the form answers to controls that no longer fit the decision (localised when answered)."""
    form = principes_form.FORM
    tries: list[tuple[str, str, str | None]] = [("zz", "", None), ("c", "0", "=banana")]
    if ctx.kind == "plan":
        tries.append(("a", "", "banana"))
    if ctx.kind == "movement":
        tries += [("g", "", "knight.banana"), ("to", "", "posnania")]
        groups = principes_form._groups(ctx)
        if groups:
            unit, land = groups[0]
            tries.append(("to", f"s{unit}.{land}", land))  # no unit moves to where it stands
    found = []
    for op, state, value in tries:
        with pytest.raises(FormError) as refused:
            form.change(ctx, op, state, value)
        found.append(str(refused.value))
    if ctx.kind not in ("plan", "movement"):
        with pytest.raises(FormError) as refused:
            form.page(ctx, "x")
        found.append(str(refused.value))
    return found


async def test_principes_forms_are_fully_marked_in_the_pseudo_locale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = await play_principes(tmp_path / "forms.sqlite", 3, 5)
    monkeypatch.setattr(principes_form, "localize", _marked)
    unmarked: dict[str, list[str]] = {}
    refusals: set[str] = set()
    kinds: set[str] = set()
    for prompt, view in played.decisions:
        form = form_for("principes", prompt.kind)
        if form is None or not prompt.choices:
            continue
        kinds.add(prompt.kind)
        ctx = FormContext.of(prompt, view, PSEUDO)
        texts: list[str] = []
        for draft in _drafts(ctx):
            if draft[:1] not in principes_form.PICKED:  # a picked choice is reviewed (or sent), not edited
                texts += _words(ctx, form.page(ctx, draft))
            if form.action(ctx, draft) is not None:
                texts += _words(ctx, review_page(form, ctx, draft))
        button = open_button("principes", prompt, PSEUDO)
        assert button is not None
        texts.append(str(button.item.label))
        refusals.update(_refusals(ctx))
        for text in texts:
            if found := unmarked_words(CODE.sub(" ", text), ALLOWED):
                unmarked[text] = found
    assert kinds == KINDS, kinds
    assert not unmarked, f"English left unmarked on the forms: {list(unmarked.items())[:8]}"
    assert len(refusals) >= 7, refusals
    lands = {word for record in catalog().lands.values() for word in str(record["name"]).split()}
    refused = {text: words for text in refusals if (words := unmarked_words(localize(text, PSEUDO), lands))}
    assert not refused, f"Refusals left unmarked: {refused}"


def _first(played: Any, kind: str) -> tuple[Prompt, dict[str, Any]]:
    return next((prompt, view) for prompt, view in played.decisions if prompt.kind == kind)


async def test_principes_forms_read_in_polish(tmp_path: Path) -> None:
    played = await play_principes(tmp_path / "forms.sqlite", 2, 1)
    form = principes_form.FORM
    pages = {}
    for kind in ("plan", "movement", "building"):
        prompt, view = _first(played, kind)
        english, polish = (
            form.page(ctx, form.start(ctx))
            for ctx in (FormContext.of(prompt, view, lang) for lang in ("en", "pl"))
        )
        assert polish.content != english.content
        pages[kind] = polish
    assert "twój plan" in pages["plan"].content and "Akcja I…" in _words(
        FormContext.of(*_first(played, "plan"), "pl"), pages["plan"]
    )
    assert pages["movement"].content.startswith("**Ruch**")
    assert pages["building"].content.startswith("**Budowa**") and "`/ruch`" in pages["building"].content
    prompt, view = _first(played, "plan")
    ctx = FormContext.of(prompt, view, "pl")
    words = prompt.choices[0].action.split()[1:]
    draft = "".join(str(principes_form.ACTIONS.index(word)) for word in words)
    assert review_page(form, ctx, draft).content.startswith("**Sprawdź")
