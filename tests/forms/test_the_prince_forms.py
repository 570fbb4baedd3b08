"""The Prince's forms page by page (``forms.the_prince``): a battle plan's draft, a turn's pages, and that the
Discord components made of them keep their custom_ids within Discord's limit. (A whole battle entered through the
DM forms against the fake Discord is ``tests/e2e/test_the_prince_forms.py``.)"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.forms import form_view
from forms import FormContext, FormError, FormPage
from forms.the_prince import ThePrinceForm


def plan_context(bonus: int = 3, game_id: int = 9_999_999_999) -> FormContext:
    """A battle-plan decision as a seat's view shows it: five castles a side, the enemy Guard in castle 2."""
    castles = [
        {
            "seat": seat,
            "number": n,
            "tile": f"{'bh'[seat]}{n + 2}",
            "alive": not (seat == 1 and n == 5),
            "damage": 0,
            "offence": 2,
            "defence": 4,
            "bonus": bonus,
        }
        for seat in (0, 1)
        for n in range(1, 6)
    ]
    view = {"castles": castles, "guards": [1, 2], "battle": 15}
    return FormContext(game_id, 0, "b15b", "plan", True, ("1+0 2+0 3+0 4+0 5+0",), view)


def components(ctx: FormContext, page: FormPage) -> list[Any]:
    """The discord.py components (Button / Select) of a form page, as the bot posts them."""
    return [item.item for item in form_view(ctx, page).children]  # type: ignore[attr-defined]


def component(ctx: FormContext, page: FormPage, op: str) -> Any:
    return next(c for c in components(ctx, page) if c.custom_id.split(":")[5] == op)


def test_a_plan_draft_keeps_split_targets_and_order_within_a_custom_id() -> None:
    form, ctx = ThePrinceForm(), plan_context()
    state = form.start(ctx)
    assert form.action(ctx, state) == "1+0 2+0 3+0 4+0 5+0"
    state = form.change(ctx, "t", state, "2")  # castle 1 attacks enemy castle 2 (their Guard)
    state = form.change(ctx, "f", state, "4")
    state = form.change(ctx, "g", state, "3")
    state = form.change(ctx, "t", state, "1")
    state = form.change(ctx, "up", state, None)  # castle 4 now strikes first
    assert form.action(ctx, state) == "4+3>1 1+0>2 2+0 3+0 5+0"
    state = form.change(ctx, "t", state, "0")  # castle 4 holds again and leaves the attack order
    assert form.action(ctx, state) == "1+0>2 2+0 3+0 4+3 5+0"
    page = form.page(ctx, state)
    custom_ids = [c.custom_id for c in components(ctx, page)]
    assert all(len(custom_id) <= 100 for custom_id in custom_ids)
    targets = component(ctx, page, "t")
    labels = [option.label for option in targets.options]
    assert labels[0] == "Hold (no attack)" and len(labels) == 5  # enemy castle 5 is destroyed: not a target
    assert "Guard" in next(o.description for o in targets.options if o.value == "2")


def test_a_plan_refuses_moves_that_make_no_sense() -> None:
    form, ctx = ThePrinceForm(), plan_context()
    state = form.start(ctx)
    with pytest.raises(FormError, match="attack order"):
        form.change(ctx, "up", state, None)  # a holding castle has no place in the attack order
    with pytest.raises(FormError, match="damaged"):
        form.change(ctx, "g", "1xyz", "1")
    assert form.action(ctx, form.change(ctx, "g", state, "9")) == "1+3 2+0 3+0 4+0 5+0"  # capped at its gold


def test_more_gold_than_a_select_holds_is_offered_in_even_steps() -> None:
    form, ctx = ThePrinceForm(), plan_context(bonus=27)
    page = form.page(ctx, form.start(ctx))
    values = [int(option.value) for option in component(ctx, page, "g").options]
    assert len(values) == 25 and values[0] == 0 and values[-1] == 27 and values == sorted(values)


def test_a_turn_form_pages_the_sites_and_requires_a_legal_combination() -> None:
    tiles = [f"tile:{c}{r}:plains:gold1" for c in "bcdefg" for r in range(2, 9)]
    sites = [token.split(":")[1] for token in tiles]
    choices = ("stay", "n", *(f"{d} build {s}" for d in ("stay", "n") for s in sites))
    view = {"tiles": tiles, "princes": ["prince:0@d5"], "castles": [], "turn": 7}
    ctx = FormContext(1, 0, "t7", "explore", True, choices, view)
    form = ThePrinceForm()
    state = form.change(ctx, "dn", form.start(ctx), None)
    page = form.page(ctx, state)
    disabled = {c.label for c in components(ctx, page) if getattr(c, "disabled", False)}
    assert "↗ ne" in disabled and "↑ n" not in disabled
    first_page = [o.value for o in component(ctx, page, "b").options]
    assert first_page[0] == "-" and len(first_page) == 25
    second = form.page(ctx, form.change(ctx, "more", state, None))
    assert {o.value for o in component(ctx, second, "b").options} - {"-"} == set(sites) - set(first_page)
    assert form.action(ctx, state) == "n"
    assert form.action(ctx, form.change(ctx, "b", state, sites[0])) == f"n build {sites[0]}"
    with pytest.raises(FormError):
        form.change(ctx, "dne", state, None)  # not a direction open to the Prince
