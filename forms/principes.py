"""PRINCIPES's guided forms: the sealed plan, Movement, the choice lists of an action, and the battle windows.

A form never invents an action: every control only narrows the decision's own legal list (``ctx.choices``), and
everything it shows comes from the seat's own view. Decision kinds not listed in :attr:`PrincipesForm.kinds`
(consent, Councils, Neighbours, kinds added later) keep the generic buttons and selects; every prompt can still
be answered with ``/move``.

Drafts (the ``state`` each component carries) are short texts:

- plan: the actions picked so far, as digits into ``ACTIONS`` (``"035"`` = Progress, Assembly, Politics)
- movement: ``""`` or ``"p<page>"`` (pick a unit group), ``"s<unit>.<land>"`` (pick that group's destination)
- choice lists and battle windows: ``"<page>"`` (which selects are shown; a select adds ``".<row>"``, so that
  no two components share a custom_id)
- any kind, once an action is picked: ``"=<action>"``, or ``"#<index>"`` into the decision's choices when the
  action is too long for a custom_id (sent at once: a step of an unsealed action needs no summary, and
  Movement's own ``undo`` takes a move back)

Every word shown is in the reader's language: the form's own words through ``FormContext.t`` (catalog context
``form``), the texts the rules write (a choice's label, a card's or a land's name, a faction) through ``localize``
(the rules' own catalog entries read them), and the refusals are plain catalog entries, localised when answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast
from urllib.parse import quote

from i18n import localize, ntranslate
from rules.principes.play.battle import swords_and_shields
from rules.principes.play.common import ACTION_TITLES, ACTIONS, ROMAN, name
from rules.principes.play.labels import describe_action
from rules.principes.play.naming import place_label
from rules.principes.schema import Battle, PView

from .base import (
    BACK,
    Form,
    FormButton,
    FormContext,
    FormError,
    FormItem,
    FormOption,
    FormPage,
    FormSelect,
    Style,
)
from .base import FORM as FORM_CONTEXT
from .labels import BUTTON_LABEL, OPTION_DESCRIPTION, OPTION_LABEL, distinct_labels, fit

SELECT_SIZE = 25
ROWS = 5
BUTTONS_PER_ROW = 5
#: a picked choice's draft starts with one of these (see ``_token``); a short one may go into a custom_id
PICKED = "=#"
SHORT_TOKEN = 40
PICK, NOW, PLAN_ADD, PLAN_UNDO, GROUP, DESTINATION = "c", "now", "a", "u", "g", "to"
#: choice-list kinds: the actions of the Round whose options are long lists
LIST_KINDS = frozenset({"building", "politics", "progress"})
#: card windows of a battle: the same lists, headed by both sides' swords and shields
WINDOW_KINDS = frozenset({"before_battle", "extra_cards"})
PLACEHOLDERS = {
    "build": "Build…",
    "found": "Found a City…",
    "take": "Take a card…",
    "exchange": "Exchange a card…",
    "return": "Return a card…",
    "draw": "Draw…",
    "play": "Play a card's text…",
    "neighbour": "Move a Neighbour with a card…",
    "as": "Use the action as another…",
    "before": "Play a Battle card before the battle…",
    "extra": "Play a Battle card for an extra sword or shield…",
    "move": "Move…",
    "ask": "Ask passage through…",
    "sell": "Discard a card for 1 gold…",
}
#: a select of a verb without a placeholder of its own: the verb as typed (notation)
OTHER_VERB = "Choose `{text}`…"
#: the units' names as the form shows them (the notation's words)
UNITS = {"knight": "Knight", "footman": "Footman", "prince": "Prince"}
DAMAGED = "This form's draft is damaged; use the latest message or /move."


class PrincipesForm(Form):
    kinds = frozenset({"plan", "movement"}) | LIST_KINDS | WINDOW_KINDS
    inline_kinds = kinds
    review_after = frozenset({PLAN_ADD})
    send_after = frozenset({PICK, NOW, DESTINATION})
    entry_label = "Guided form…"

    def start(self, ctx: FormContext) -> str:
        return "" if ctx.kind in ("plan", "movement") else "0"

    def page(self, ctx: FormContext, state: str) -> FormPage:
        if ctx.kind == "plan":
            return _plan_page(ctx, state)
        if ctx.kind == "movement":
            return _movement_page(ctx, state)
        return _list_page(ctx, state)

    def change(self, ctx: FormContext, op: str, state: str, value: str | None) -> str:
        if op == PICK and value is not None:
            return _picked(ctx, value)
        if op == NOW:
            return _picked(ctx, state)
        if ctx.kind == "plan" and op in (PLAN_ADD, PLAN_UNDO):
            return _plan_change(ctx, op, state, value)
        if ctx.kind == "movement" and op in (GROUP, DESTINATION) and value is not None:
            return _movement_change(ctx, op, state, value)
        raise FormError("That control does not belong to this decision.")

    def action(self, ctx: FormContext, state: str) -> str | None:
        if state[:1] in PICKED:
            return _resolve(ctx, state)
        if ctx.kind == "plan" and len(state) == 3:
            candidate = "plan " + " ".join(_plan_words(state))
            return candidate if candidate in ctx.choices else None
        return None

    def summary(self, ctx: FormContext, state: str) -> str:
        action = self.action(ctx, state)
        return _label(ctx, action) + "." if action else ctx.t("Not complete yet.")


# ---------------------------------------------------------------------------------------------- shared parts
def _token(ctx: FormContext, index: int, room: int = 100) -> str:
    """How a component names a choice: ``=<action>`` when it fits, else ``#<index>`` into the choices. The
    action itself is preferred: a free action (a card sold) may change the list while the decision stays open,
    and an action text still means what the player saw, or nothing."""
    action = ctx.choices[index]
    return f"={action}" if len(quote(action, safe="")) + 1 <= room else f"#{index}"


def _resolve(ctx: FormContext, token: str) -> str | None:
    if token.startswith("="):
        return token[1:] if token[1:] in ctx.choices else None
    if token.startswith("#") and token[1:].isdigit() and int(token[1:]) < len(ctx.choices):
        return ctx.choices[int(token[1:])]
    return None


def _picked(ctx: FormContext, token: str) -> str:
    action = _resolve(ctx, token)
    if action is None:
        raise FormError("That choice is not open any more; use the latest message or /move.")
    return _token(ctx, ctx.choices.index(action), room=SHORT_TOKEN)


def _label(ctx: FormContext, action: str) -> str:
    """A choice's label as the rules write it (``describe_action``), in the reader's language."""
    return _rules_text(ctx, describe_action(_view(ctx), action))


def _rules_text(ctx: FormContext, text: str) -> str:
    """A text the rules write in canonical English (a label, a land's, card's or faction's name), localised by the
    rules' own catalog entries; Latin land and principality names stay as they are."""
    return localize(text, ctx.language)


def _land(ctx: FormContext, land: str) -> str:
    """A land's (or an off-map area's) name in the reader's language; an unknown code as it is."""
    return _rules_text(ctx, place_label(land))


def _unit(ctx: FormContext, unit: str) -> str:
    return ctx.t(UNITS[unit]) if unit in UNITS else unit


def _n(ctx: FormContext, singular: str, plural: str, n: int, **params: object) -> str:
    """A form's words with a count, in the reader's language and its plural forms."""
    return ntranslate(ctx.language, singular, plural, n, context=FORM_CONTEXT, **params)


def _options(ctx: FormContext, indexes: tuple[int, ...]) -> list[FormOption]:
    """Choices as a select's options: each sentence (whole words, no two alike: ``distinct_labels``), with the
    notation (what ``/move`` takes) beneath."""
    actions = [ctx.choices[index] for index in indexes]
    labels = distinct_labels([_label(ctx, action) for action in actions], OPTION_LABEL, actions)
    return [
        FormOption(label=label, value=_token(ctx, index), description=fit(action, OPTION_DESCRIPTION))
        for index, action, label in zip(indexes, actions, labels, strict=True)
    ]


def _now_button(ctx: FormContext, index: int, row: int, label: str | None = None) -> FormButton:
    """A button that sends choice ``index`` at once: it carries the action itself, or its index when the action
    does not fit the front-end's room for a draft (see ``_token``)."""
    action = ctx.choices[index]
    style: Style = "secondary" if action in ("done", "pass", "undo") else "primary"
    shown = _label(ctx, action) if label is None else label
    return ctx.button(shown, NOW, f"={action}", style=style, row=row, short_state=f"#{index}")


@dataclass(frozen=True)
class Chunk:
    """Up to 25 choices of one verb, shown as one select."""

    verb: str
    indexes: tuple[int, ...]
    part: int
    parts: int


def _chunks(ctx: FormContext, indexes: list[int]) -> list[Chunk]:
    by_verb: dict[str, list[int]] = {}
    for index in indexes:
        by_verb.setdefault(ctx.choices[index].split()[0], []).append(index)
    chunks = []
    for verb, group in by_verb.items():
        parts = -(-len(group) // SELECT_SIZE)
        for part in range(parts):
            chunks.append(
                Chunk(verb, tuple(group[part * SELECT_SIZE : (part + 1) * SELECT_SIZE]), part, parts)
            )
    return chunks


def _chunk_select(ctx: FormContext, state: str, chunk: Chunk, row: int) -> FormSelect:
    """The select of one chunk; its draft carries the row too, since two components may not share an id."""
    verb = PLACEHOLDERS.get(chunk.verb)
    placeholder = ctx.t(verb) if verb else ctx.t(OTHER_VERB, text=chunk.verb)
    if chunk.parts > 1:
        placeholder = ctx.t("{text} ({n} of {n2})", text=placeholder, n=chunk.part + 1, n2=chunk.parts)
    options = _options(ctx, chunk.indexes)
    return ctx.select(PICK, f"{state}.{row}", options, placeholder, row=row)


def _page_number(state: str) -> int:
    state = state.split(".")[0]  # a select's draft ends with its row
    if not state.isdigit():
        raise FormError(DAMAGED)
    return int(state)


# ---------------------------------------------------------------------------------------------- choice lists
def _list_page(ctx: FormContext, state: str) -> FormPage:
    """Single-word answers (done, pass, collect…) as buttons on the last row, the others as selects by verb,
    paged when they need more rows; a card window starts with a row showing both sides' strength."""
    page = _page_number(state)
    items: list[FormItem] = []
    text = [_kind_heading(ctx)]
    first_row = 0
    if ctx.kind in WINDOW_KINDS:
        strength = _battle_strength(ctx)
        if strength:
            text.append(" · ".join(strength))
            items += [
                ctx.button(line, "info", side, disabled=True, row=0)
                for side, line in zip("AD", strength, strict=True)
            ]
            first_row = 1
    singles = [i for i, action in enumerate(ctx.choices) if " " not in action][: BUTTONS_PER_ROW - 1]
    others = [i for i in range(len(ctx.choices)) if i not in singles]
    if len(ctx.choices) <= BUTTONS_PER_ROW - 1 and all(len(_label(ctx, a)) <= 80 for a in ctx.choices):
        singles, others = list(range(len(ctx.choices))), []  # a short list reads best as buttons
    chunks = _chunks(ctx, others)
    per_page = ROWS - 1 - first_row
    pages = max(1, -(-len(chunks) // per_page))
    page %= pages
    for row, chunk in enumerate(chunks[page * per_page : (page + 1) * per_page], start=first_row):
        items.append(_chunk_select(ctx, state, chunk, row))
    actions = [ctx.choices[index] for index in singles]
    labels = distinct_labels([_label(ctx, action) for action in actions], BUTTON_LABEL, actions)
    items += [_now_button(ctx, index, ROWS - 1, label) for index, label in zip(singles, labels, strict=True)]
    if pages > 1:
        items.append(
            ctx.button(
                ctx.t("More choices ({n}/{n2})…", n=page + 1, n2=pages),
                BACK,
                str((page + 1) % pages),
                row=ROWS - 1,
            )
        )
    text.append(ctx.t("Pick one; it is sent at once. `/move` takes the same notation."))
    return FormPage("\n".join(text), items)


def _kind_heading(ctx: FormContext) -> str:
    if ctx.kind in LIST_KINDS:
        count = len(ctx.choices)
        title = ctx.t(ACTION_TITLES[ctx.kind])
        return _n(
            ctx,
            "**{action}**: {n} choice open now.",
            "**{action}**: {n} choices open now.",
            count,
            action=title,
        )
    battle = _battle(ctx)
    where = _land(ctx, battle["land"]) if battle else "?"
    if ctx.kind == "before_battle":
        return ctx.t("**Battle in {land}**: card window (before the battle).", land=where)
    return ctx.t("**Battle in {land}**: card window (extra sword or shield).", land=where)


def _view(ctx: FormContext) -> PView:
    """The seat's view, which PRINCIPES built (it reaches the forms as the host's plain JSON)."""
    return cast(PView, ctx.view)


def _battle(ctx: FormContext) -> Battle | None:
    battle = (ctx.view.get("play") or {}).get("battle")
    return cast(Battle, battle) if isinstance(battle, dict) else None


def _battle_strength(ctx: FormContext) -> list[str]:
    """Each side's swords and shields as they stand now (units, dice, cards and fortifications counted)."""
    battle = _battle(ctx)
    if battle is None:
        return []
    lines = []
    for side, role in (
        ("A", "Attacker {faction}: {n} swords, {n2} shields"),
        ("D", "Defender {faction}: {n} swords, {n2} shields"),
    ):
        swords, shields = swords_and_shields(_view(ctx), battle, side)
        faction = _rules_text(ctx, name(battle["sides"][side]))
        lines.append(ctx.t(role, faction=faction, n=swords, n2=shields))
    return lines


# ---------------------------------------------------------------------------------------------- plan
def _plan_words(state: str) -> list[str]:
    if not all(char.isdigit() and int(char) < len(ACTIONS) for char in state):
        raise FormError(DAMAGED)
    return [ACTIONS[int(char)] for char in state]


def _plan_next(ctx: FormContext, state: str) -> list[str]:
    """The actions that may take the next place: a legal plan must still start with the picks so far."""
    head = " ".join(["plan", *_plan_words(state)])
    found = []
    for action in ctx.choices:
        if action.startswith(head + " "):
            word = action[len(head) + 1 :].split()[0]
            if word not in found:
                found.append(word)
    return found


def _plan_change(ctx: FormContext, op: str, state: str, value: str | None) -> str:
    if op == PLAN_UNDO:
        return state[:-1]
    if len(state) >= len(ROMAN) or value not in _plan_next(ctx, state):
        raise FormError("That action cannot take this place in your plan.")
    return state + str(ACTIONS.index(value))


def _plan_page(ctx: FormContext, state: str) -> FormPage:
    picked = _plan_words(state)
    items: list[FormItem] = []
    if len(picked) < len(ROMAN):
        place = ROMAN[len(picked)]
        options = [
            FormOption(label=fit(f"{place}: {ctx.t(ACTION_TITLES[word])}", OPTION_LABEL), value=word)
            for word in _plan_next(ctx, state)
        ]
        if options:
            items.append(ctx.select(PLAN_ADD, state, options, ctx.t("Action {step}…", step=place)))
    items.append(ctx.button(ctx.t("Undo last pick"), PLAN_UNDO, state, disabled=not picked, row=1))
    items.append(ctx.review_button(state, len(picked) == len(ROMAN), row=1))
    so_far = ", ".join(f"{ROMAN[i]} {ctx.t(ACTION_TITLES[w])}" for i, w in enumerate(picked))
    you = ctx.view.get("you") or {}
    cards = len(you.get("hand") or [])
    text = "\n".join(
        (
            ctx.t(
                "**Round {round}: your plan.** Pick your three actions in the order you will perform them. "
                "So far: {text}.",
                round=ctx.view.get("round", "?"),
                text=so_far or ctx.t("nothing yet"),
            ),
            _n(
                ctx,
                "Your hand holds {n} card. The plan is sealed: the table sees only its commit until every plan "
                "is in.",
                "Your hand holds {n} cards. The plan is sealed: the table sees only its commit until every plan "
                "is in.",
                cards,
            ),
        )
    )
    return FormPage(text, items)


# ---------------------------------------------------------------------------------------------- movement
def _groups(ctx: FormContext) -> list[tuple[str, str]]:
    """(unit type, land) of the pieces that can still move, in the order the legal moves list them."""
    found: list[tuple[str, str]] = []
    for action in ctx.choices:
        words = action.split()
        if words[0] == "move" and len(words) == 4 and (words[1], words[2]) not in found:
            found.append((words[1], words[2]))
    return found


def _group_of(ctx: FormContext, text: str) -> tuple[str, str]:
    """A group named ``<unit>.<land>`` (by name, not position: the list may change while the decision is open)."""
    unit, _, land = text.partition(".")
    if (unit, land) not in _groups(ctx):
        raise FormError("Those units cannot move any more; use the latest message or /move.")
    return unit, land


def _movement_change(ctx: FormContext, op: str, state: str, value: str) -> str:
    if op == GROUP:
        unit, land = _group_of(ctx, value)
        return f"s{unit}.{land}"
    if not state.startswith("s"):
        raise FormError("Pick the units to move first.")
    unit, land = _group_of(ctx, state[1:])
    action = f"move {unit} {land} {value}"
    if action not in ctx.choices:
        raise FormError(f"Those units cannot reach {place_label(value)} now.")
    return _token(ctx, ctx.choices.index(action), room=SHORT_TOKEN)


def _pieces_words(ctx: FormContext, unit: str, land: str) -> str:
    pieces = (((ctx.view.get("play") or {}).get("action") or {}).get("pieces")) or []
    able = [p for p in pieces if p.get("type") == unit and p.get("at") == land and p.get("mp", 0) > 0]
    if not able:
        return ""
    points = max(p["mp"] for p in able)
    return _n(
        ctx,
        "{n2} able to move, up to {n} point left",
        "{n2} able to move, up to {n} points left",
        points,
        n2=len(able),
    )


def _movement_page(ctx: FormContext, state: str) -> FormPage:
    groups = _groups(ctx)
    items: list[FormItem] = []
    text = [ctx.t("**Movement**: pick a group of units, then where it goes (one border per step).")]
    if state.startswith("s"):
        unit, land = _group_of(ctx, state[1:])
        text.append(
            ctx.t(
                "Moving: {unit} from {land}. Pick the destination.",
                unit=_unit(ctx, unit),
                land=_land(ctx, land),
            )
        )
        items.append(_destination_select(ctx, state, unit, land))
        items.append(ctx.button(ctx.t("Other units…"), BACK, "", row=3))
    else:
        page = int(state[1:]) if state.startswith("p") and state[1:].isdigit() else 0
        pages = max(1, -(-len(groups) // SELECT_SIZE))
        page %= pages
        shown = groups[page * SELECT_SIZE : (page + 1) * SELECT_SIZE]
        if shown:
            options = [
                FormOption(
                    label=fit(
                        ctx.t("{unit} in {land}", unit=_unit(ctx, unit), land=_land(ctx, land)), OPTION_LABEL
                    ),
                    value=f"{unit}.{land}",
                    description=fit(_pieces_words(ctx, unit, land), OPTION_DESCRIPTION) or None,
                )
                for unit, land in shown
            ]
            items.append(ctx.select(GROUP, state, options, ctx.t("Units to move…"), row=1))
        else:
            text.append(ctx.t("No unit can move any more."))
        if pages > 1:
            items.append(
                ctx.button(
                    ctx.t("More units ({n}/{n2})…", n=page + 1, n2=pages),
                    BACK,
                    f"p{(page + 1) % pages}",
                    row=3,
                )
            )
    asks = [i for i, action in enumerate(ctx.choices) if action.startswith("ask ")]
    if asks:
        items.append(_chunk_select(ctx, state, Chunk("ask", tuple(asks[:SELECT_SIZE]), 0, 1), row=2))
    for word in ("undo", "done"):
        if word in ctx.choices:
            items.append(_now_button(ctx, ctx.choices.index(word), row=4))
    moved = len(((ctx.view.get("play") or {}).get("action") or {}).get("log") or [])
    text.append(
        ctx.t(
            "Moves so far: {n}. Entering foreign units stops a unit unless their owner lets it pass.", n=moved
        )
    )
    return FormPage("\n".join(text), items)


def _destination_select(ctx: FormContext, state: str, unit: str, land: str) -> FormSelect:
    mine = (ctx.view.get("you") or {}).get("principality")
    options = []
    for action in ctx.choices:
        words = action.split()
        if words[:3] != ["move", unit, land] or len(words) != 4:
            continue
        there = (ctx.view.get("lands") or {}).get(words[3], {}).get("units", {})
        foreign = [
            _rules_text(ctx, name(f)) for f, units in there.items() if f != mine and any(units.values())
        ]
        note = (
            ctx.t("units of {faction} stand there", faction=", ".join(foreign))
            if foreign
            else ctx.t("no foreign units there")
        )
        options.append(
            FormOption(
                label=fit(_land(ctx, words[3]), OPTION_LABEL),
                value=words[3],
                description=fit(note, OPTION_DESCRIPTION),
            )
        )
    return ctx.select(DESTINATION, state, options, ctx.t("Destination…"), row=1)


FORM = PrincipesForm()
