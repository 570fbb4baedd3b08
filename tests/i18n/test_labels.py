"""Issue 46: a label that does not fit its Discord limit says something whole, in English and in Polish.

``forms.labels`` (``fit``, ``distinct_labels``) checked as properties; then what a player sees: The Prince's
sample battle plans (five castles' orders, 224-293 characters as the rules write them, which cut at 100 read
alike) in the DM prompt's selects and in ``/move``'s autocomplete, The Prince's plan form, PRINCIPES' guided
forms and prompts over a self-played game, and every game's actions, which ``/move`` receives whole.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.cogs.play import move_choices
from bot.discord.components import choice_options, prompt_view
from bot.discord.forms import form_view
from bot.models import Choice, Prompt
from forms import FormContext, FormPage, form_for, review_page
from forms.labels import (
    BUTTON_LABEL,
    CHOICE_NAME,
    ELLIPSIS,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
    SEPARATORS,
    distinct_labels,
    fit,
)
from forms.the_prince import plan_label
from i18n import localize
from rules.engine import State, available_games, get_game
from rules.engine.playout import start, step
from rules.the_prince.battle import parse_plan
from tests.i18n.principes_play import play_principes

LANGUAGES = ("en", "pl")
WORDS = ["zamek", "złota", "atakuje", "wrogi", "castle", "gold", "attacks", "(1st);", "Mazovia", "—", "4→1"]
texts = st.one_of(
    st.text(max_size=240),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=30)), max_size=40).map(" ".join),
)


# ---------------------------------------------------------------------------------------------- properties
def _cuts_a_word(text: str, shown: str) -> bool:
    """Whether ``shown`` (a fitted ``text`` ending in "…") ends inside one of its words."""
    kept = shown[: -len(ELLIPSIS)]
    return bool(kept) and kept[-1].isalnum() and text[len(kept)].isalnum()


def _trimmed(text: str) -> str:
    while text and (text[-1].isspace() or text[-1] in SEPARATORS):
        text = text[:-1]
    return text


def _a_whole_word_fits(text: str, limit: int) -> bool:
    """Whether some words of ``text`` (up to a space, without trailing separators) fit before a "…"."""
    room = limit - len(ELLIPSIS)
    return any(text[i].isspace() and _trimmed(text[:i]) for i in range(1, room + 1))


@settings(max_examples=400, deadline=None)
@given(text=texts, limit=st.integers(min_value=1, max_value=150))
def test_fit_keeps_whole_words_within_the_limit(text: str, limit: int) -> None:
    shown = fit(text, limit)
    assert len(shown) <= limit
    if len(text) <= limit:
        assert shown == text
        return
    assert shown.endswith(ELLIPSIS)
    kept = shown[: -len(ELLIPSIS)]
    assert text.startswith(kept)
    if _a_whole_word_fits(text, limit):  # only a first word longer than the limit is ever cut
        assert not _cuts_a_word(text, shown), (text, shown)
        assert kept and not kept[-1].isspace() and kept[-1] not in SEPARATORS


@settings(max_examples=300, deadline=None)
@given(
    labels=st.lists(texts, max_size=25),
    limit=st.integers(min_value=6, max_value=150),
    noted=st.booleans(),
    data=st.data(),
)
def test_distinct_labels_fit_and_never_read_alike(
    labels: list[str], limit: int, noted: bool, data: Any
) -> None:
    notes = data.draw(st.lists(texts, min_size=len(labels), max_size=len(labels))) if noted else None
    shown = distinct_labels(labels, limit, notes)
    assert len(shown) == len(labels)
    assert all(len(label) <= limit for label in shown)
    assert len(set(shown)) == len(shown), shown  # distinct, even for labels alike (and so for distinct ones)
    if len({fit(label, limit) for label in labels}) == len(labels):
        assert shown == [fit(label, limit) for label in labels]  # nothing to tell apart: fitted only


def test_two_long_sentences_alike_in_their_first_hundred_characters_are_told_apart() -> None:
    head = "castle 4: 0 gold to offence, attacks enemy castle 1 (1st); castle 3: 3 gold to offence, attacks "
    labels = [head + "enemy castle 3 (2nd)", head + "enemy castle 5 (2nd)"]
    shown = distinct_labels(labels, 100, notes=["4+0>1 3+3>3", "4+0>1 3+3>5"])
    assert shown[0] != shown[1] and all(len(label) <= 100 for label in shown)
    assert shown[1].endswith(" · 4+0>1 3+3>5") and not _cuts_a_word(labels[1], shown[1].split(" · ")[0])


# ---------------------------------------------------------------------------------------------- The Prince
def _plan_position(seed: int) -> tuple[State, int]:
    """The first battle plan of a game both seats play as the strategist (a real position: five castles a side)."""
    game = get_game("the-prince")
    playout = start(game, 2, {}, seed)
    rng = random.Random(seed)
    while True:
        pending = game.pending(playout.state)
        seat = min(pending)
        if pending[seat].kind == "plan":
            return playout.state, seat
        legal = game.legal_actions(playout.state, seat)
        action = game.choose_action(game.view(playout.state, seat), seat, legal, "strategist", rng)
        step(game, playout, seat, action)


def _whole(label: str) -> bool:
    """A label that ends on a whole word: not cut at all (a plan's label needs no "…")."""
    return not label.endswith(ELLIPSIS)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [1, 5, 8])
def test_the_prince_battle_plans_read_whole_and_distinct(language: str, seed: int) -> None:
    game = get_game("the-prince")
    state, seat = _plan_position(seed)
    legal = game.legal_actions(state, seat)
    assert len(legal) > 25 and all(len(action) <= 100 for action in legal)
    described = [localize(game.describe(state, action), language) for action in legal]
    assert max(map(len, described)) > 200  # the rules' sentences: far past a label's 100 characters
    before = [label[:100] for label in described]
    assert len(set(before)) < len(before)  # cut at 100, two of these plans read the same (issue 46)

    choices = [Choice(action, label) for action, label in zip(legal, described, strict=True)]
    for page in (choices[:25], choices[25:50]):
        options = choice_options(page, language, "the-prince")
        labels = [label for label, _ in options]
        assert len(set(labels)) == len(labels), labels
        for (label, description), choice in zip(options, page, strict=True):
            assert len(label) <= OPTION_LABEL and _whole(label), label
            assert description is not None and len(description) <= OPTION_DESCRIPTION and _whole(description)
            assert description.endswith(choice.action)  # the notation /move takes, beneath
            assert label.count("→") == sum(o.target is not None for o in parse_plan(choice.action))

    # /move lists them by the same short labels, each sending its whole notation
    suggested = [Choice(action, f"{action} — {game.describe(state, action)}") for action in legal[:25]]
    listed = move_choices(suggested, language, "the-prince")
    names = [choice.name for choice in listed]
    assert len(set(names)) == len(names) == 25
    assert all(len(name) <= CHOICE_NAME and _whole(name) for name in names)
    assert [choice.value for choice in listed] == legal[:25]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_plan_label_fits_whole(language: str) -> None:
    """Five castles holding with two-digit gold: the longest plan a label must say."""
    orders = parse_plan("1+12 2+12 3+12 4+12 5+12")
    label = plan_label(language, orders)
    assert len(label) <= OPTION_LABEL and _whole(label) and label.count("12") == 5
    attacking = plan_label(language, parse_plan("1+12>1 2+12>2 3+12>3 4+12>4 5+12>5"))
    assert len(attacking) <= OPTION_LABEL and attacking.startswith(
        "1→1 (12 " if language == "en" else "1→1 (złoto 12)"
    )


def test_polish_plan_labels_read_polish() -> None:
    orders = parse_plan("4+0>1 3+3>3 2+4")
    assert plan_label("en", orders) == "4→1 (0 gold), 3→3 (3 gold), 2 holds (4 gold)"
    # the amount of gold as a label ("złoto 3"), so that no number needs a noun of its own form ("1 złoto", "3 złota")
    assert plan_label("pl", orders) == "4→1 (złoto 0), 3→3 (złoto 3), 2 broni (złoto 4)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_prince_dm_prompt_and_plan_form_fit_discord(language: str) -> None:
    game = get_game("the-prince")
    state, seat = _plan_position(1)
    legal = game.legal_actions(state, seat)
    labels = [localize(game.describe(state, action), language) for action in legal]
    prompt = Prompt(
        7, seat, "b1b", "plan", "Plan", True, [Choice(a, b) for a, b in zip(legal, labels, strict=True)]
    )
    view = prompt_view(prompt, game_key="the-prince", language=language)
    assert view is not None
    _check_components(list(view.children))
    form = form_for("the-prince", "plan")
    assert form is not None
    ctx = FormContext(7, seat, "b1b", "plan", True, tuple(legal), game.view(state, seat), language)
    draft = form.start(ctx)
    _check_components(_posted(ctx, form.page(ctx, draft)))
    _check_components(_posted(ctx, review_page(form, ctx, draft)))


# ---------------------------------------------------------------------------------------------- PRINCIPES
def _inner(item: Any) -> Any:
    return getattr(item, "item", item)


def _posted(ctx: FormContext, page: FormPage) -> list[Any]:
    """A form's page as the bot posts it: Discord components."""
    return list(form_view(ctx, page).children)


def _check_components(items: list[Any]) -> None:
    """Discord's limits, whole words and no two options alike in a select."""
    for item in map(_inner, items):
        if isinstance(item, discord.ui.Button):
            assert item.label is not None and len(item.label) <= BUTTON_LABEL, item.label
        if isinstance(item, discord.ui.Select):
            assert item.placeholder is None or len(item.placeholder) <= PLACEHOLDER
            labels = [option.label for option in item.options]
            assert len(set(labels)) == len(labels), labels
            for option in item.options:
                assert len(option.label) <= OPTION_LABEL and len(option.value) <= 100, option
                assert option.description is None or len(option.description) <= OPTION_DESCRIPTION, option


async def test_principes_forms_and_prompts_fit_discord_in_both_languages(tmp_path: Path) -> None:
    played = await play_principes(tmp_path / "labels.sqlite", 2, 1)
    checked = 0
    for prompt, view in played.decisions:
        for language in LANGUAGES:
            localized = Prompt(
                prompt.game_id,
                prompt.seat,
                prompt.decision_id,
                prompt.kind,
                prompt.text,
                prompt.sealed,
                [Choice(c.action, localize(c.label, language)) for c in prompt.choices],
            )
            shown = prompt_view(localized, game_key="principes", seat_view=view, language=language)
            if shown is not None:
                _check_components(list(shown.children))
            form = form_for("principes", prompt.kind)
            if form is not None and prompt.choices:
                ctx = FormContext.of(prompt, view, language)
                _check_components(_posted(ctx, form.page(ctx, form.start(ctx))))
            checked += 1
    assert checked > 100


def test_choices_the_rules_describe_alike_show_their_notation() -> None:
    """PRINCIPES' Taxes answers ``collect`` and ``collect clergy`` read alike when taxes cost nothing."""
    same = "Pobierz podatki (bez kosztu w Ludzie)"
    choices = [Choice("collect", same), Choice("collect clergy", same)]
    prompt = Prompt(3, 0, "t1", "taxes", "Taxes", False, choices)
    view = prompt_view(prompt, language="pl")
    assert view is not None
    labels = [_inner(item).label for item in view.children]
    assert labels == [f"{same} · collect", f"{same} · collect clergy"]


# ---------------------------------------------------------------------------------------------- /move values
@pytest.mark.parametrize("key", available_games())
def test_every_action_fits_an_autocomplete_value(key: str) -> None:
    """``/move`` receives an autocomplete choice's value (at most 100 characters) as the move: no game has an
    action longer, so none is ever cut into another move (nor left out of the list)."""
    game = get_game(key)
    longest = 0
    for seed in range(3):
        playout = start(game, 2, {}, seed)
        rng = random.Random(seed)
        for _ in range(400):
            pending = game.pending(playout.state)
            if not pending:
                break
            seat = min(pending)
            legal = game.legal_actions(playout.state, seat)
            longest = max(longest, *map(len, legal))
            step(game, playout, seat, rng.choice(legal))
    assert 0 < longest <= 100
