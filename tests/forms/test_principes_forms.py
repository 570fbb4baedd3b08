"""PRINCIPES's DM forms page by page, on real game states: they only ever narrow the decision's legal list.

(The whole game through the fake Discord is ``tests/e2e/test_principes_play.py``; these check each page quickly,
and that the Discord components made of it stay within Discord's limits.)
"""

from __future__ import annotations

import discord
import pytest

from bot.discord.forms import form_view
from forms import FORMS, FormButton, FormContext, FormError, FormPage, FormSelect, form_for
from rules.engine import Rng, State
from rules.principes import GAME
from tests.rules.principes.scenario import new_state, open_action, seat, to_plans

FORM = FORMS["principes"]


def context(state: State, code: str, choices: list[str] | None = None) -> FormContext:
    number = seat(state, code)
    decision = GAME.pending(state)[number]
    legal = [a for a in GAME.legal_actions(state, number) if not GAME.is_free(state, number, a)]
    return FormContext(
        1,
        number,
        decision.id,
        decision.kind,
        decision.sealed,
        tuple(choices or legal),
        GAME.view(state, number),
    )


def selects(page: FormPage) -> list[FormSelect]:
    return page.selects()


def buttons(page: FormPage) -> list[FormButton]:
    return page.buttons()


def check_discord_limits(ctx: FormContext, page: FormPage) -> None:
    """What Discord refuses: duplicate custom_ids, more than 25 options, more than five rows."""
    view = form_view(
        ctx, page
    )  # discord.py itself checks the rows (at most five, five buttons or one select each)
    ids = [item.custom_id for item in view.children if isinstance(item, discord.ui.DynamicItem)]
    assert len(ids) == len(page.items) == len(set(ids)), ids
    assert all(1 <= len(select.options) <= 25 for select in selects(page))


def picked_actions(ctx: FormContext, page: FormPage) -> set[str]:
    """Every action a select option or a button of the page sends, through the form's own operations."""
    found = set()
    for select in selects(page):
        for option in select.options:
            if select.op == "c":
                action = FORM.action(ctx, FORM.change(ctx, select.op, "0", option.value))
                assert action is not None
                found.add(action)
    for button in buttons(page):
        if button.op == "now":
            action = FORM.action(ctx, FORM.change(ctx, button.op, button.state, None))
            assert action is not None
            found.add(action)
            # the draft a button carries when its action does not fit the custom_id sends the same action
            assert button.short_state is None or FORM.action(ctx, button.short_state) == action
    return found


def planning_state() -> State:
    state = new_state(2)
    first = next(iter(GAME.pending(state)))
    return to_plans(GAME.apply(state, first, "direction cw", Rng.for_event(1, 1)).state)


def test_the_plan_offers_only_legal_continuations_and_reviews_when_complete() -> None:
    ctx = context(planning_state(), "PMA")
    assert ctx.kind == "plan" and ctx.sealed
    draft = FORM.start(ctx)
    picked: list[str] = []
    for word in ("movement", "politics", "building"):
        page = FORM.page(ctx, draft)
        check_discord_limits(ctx, page)
        offered = [option.value for option in selects(page)[0].options]
        assert word in offered and not set(offered) & set(picked)  # an action takes one place only
        assert FORM.action(ctx, draft) is None
        draft = FORM.change(ctx, "a", draft, word)
        picked.append(word)
    assert FORM.action(ctx, draft) == "plan movement politics building" in ctx.choices
    assert FORM.summary(ctx, draft) == "Plan: I Movement, II Politics, III Building."
    with pytest.raises(FormError):
        FORM.change(ctx, "a", draft[:2], "politics")  # already the second action
    assert FORM.change(ctx, "u", draft, None) == draft[:2]


@pytest.mark.parametrize("kind", ["building", "politics", "progress"])
def test_action_lists_are_selects_of_legal_choices_and_a_done_button(kind: str) -> None:
    ctx = context(open_action(new_state(2), "PMA", kind), "PMA")
    page = FORM.page(ctx, FORM.start(ctx))
    check_discord_limits(ctx, page)
    assert picked_actions(ctx, page) == set(
        ctx.choices
    )  # all of them, nothing else (one page is enough here)
    assert "done" in {FORM.action(ctx, b.state) for b in buttons(page)}


def test_long_lists_page_beyond_what_one_message_holds() -> None:
    state = open_action(new_state(2), "PMA", "building")
    legal = context(state, "PMA").choices
    many = [f"build castle land{n}" for n in range(130)] + list(legal)
    ctx = context(state, "PMA", many)
    seen: set[str] = set()
    draft = FORM.start(ctx)
    for _ in range(5):
        page = FORM.page(ctx, draft)
        check_discord_limits(ctx, page)
        seen |= picked_actions(ctx, page)
        more = [b for b in buttons(page) if b.label and b.label.startswith("More choices")]
        assert more
        draft = more[0].state
    assert seen == set(many)


def test_movement_is_a_unit_group_then_a_reachable_destination() -> None:
    ctx = context(open_action(new_state(2), "PMA", "movement"), "PMA")
    page = FORM.page(ctx, FORM.start(ctx))
    check_discord_limits(ctx, page)
    first = selects(page)[0].options[0]
    draft = FORM.change(ctx, "g", "", first.value)
    page = FORM.page(ctx, draft)
    check_discord_limits(ctx, page)
    destinations = selects(page)[0]
    moves = {FORM.action(ctx, FORM.change(ctx, "to", draft, option.value)) for option in destinations.options}
    unit, land = str(next(iter(moves))).split()[1:3]
    assert first.label.startswith(f"{unit.title()} in ")
    expected = {a for a in ctx.choices if a.startswith(f"move {unit} {land} ")}
    assert moves == expected and expected
    with pytest.raises(FormError):
        FORM.change(ctx, "to", draft, "ruthenia")  # not a neighbour: the form never invents a move
    assert "Other units…" in [b.label for b in buttons(page)]


def test_unknown_kinds_keep_the_generic_buttons() -> None:
    assert form_for("principes", "consent") is None
    assert form_for("principes", "a_kind_added_later") is None
    assert form_for("principes", "before_battle") is FORM


def test_a_pick_names_its_action_so_a_changed_list_cannot_turn_it_into_another() -> None:
    state = open_action(new_state(2), "PMA", "politics")
    before = context(state, "PMA")
    option = selects(FORM.page(before, FORM.start(before)))[0].options[1]
    after = context(
        state, "PMA", [a for a in before.choices if a != before.choices[0]]
    )  # a card sold meanwhile
    assert FORM.action(after, FORM.change(after, "c", "0", option.value)) == option.description
    gone = context(state, "PMA", [a for a in before.choices if a != option.description])
    with pytest.raises(FormError):
        FORM.change(gone, "c", "0", option.value)
