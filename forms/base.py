"""Guided forms: a decision composed over several clicks, reviewed, then sealed like any ``/move``.

A game registers a :class:`Form` for the decision kinds a flat list of choices serves badly (a battle plan with a
split, a target and an order per castle). The form keeps no state in memory: every button and select carries the
whole draft (its ``state``), so a form survives a restart and two open copies cannot disturb each other.

A page (:class:`FormPage`) is a neutral description: its text, and buttons and selects as small frozen
dataclasses, each with the operation it triggers (``op``) and the draft it carries (``state``). The front-end
turns a page into its own components (``bot.discord.forms`` into Discord's, with the custom_ids it documents)
and calls back into the form with the operation, the draft and a select's pick. Operations:

- ``open`` (the "Plan…" button of a prompt), ``rev`` (show the summary), ``back`` (edit again),
  ``seal`` (send the composed notation to the host): handled by the front-end itself
- any other: an operation the game's form defines, answered by :meth:`Form.change`

Languages: a form's words (its pages, labels, placeholders and option descriptions) are in the reader's language,
``FormContext.language``; a form translates them with ``FormContext.t`` (catalog context ``form``). Its refusals
(:class:`FormError`) are plain catalog entries, localised like every other refusal when they are answered.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from i18n import DEFAULT, localize, translate_in

#: operations the front-end handles; a form's own operations must use other names
OPEN, REVIEW, BACK, SEAL = "open", "rev", "back", "seal"
#: catalog context of a form's words
FORM = "form"
INCOMPLETE = "The form is not complete yet: fill in every part first."

#: how a button looks: the front-end maps each word to its own styles
Style = Literal["primary", "secondary", "success", "danger"]


class FormError(Exception):
    """A form refuses a click (a pick no longer open, a damaged draft): ``str(error)`` is the sentence to show,
    answered like the host's own refusals."""


@dataclass(frozen=True)
class FormButton:
    """A button: a click runs ``op`` on ``state``."""

    label: str
    op: str
    state: str
    style: Style = "secondary"
    disabled: bool = False
    row: int | None = None
    #: the draft carried instead when ``state`` does not fit the front-end's room for it (a choice by its index
    #: into the decision's list rather than by its text)
    short_state: str | None = None


@dataclass(frozen=True)
class FormOption:
    """One option of a select: a pick runs the select's ``op`` with ``value``."""

    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class FormSelect:
    """A select: its pick is the value of the operation ``op`` on ``state``."""

    op: str
    state: str
    options: tuple[FormOption, ...]
    placeholder: str
    row: int | None = None


FormItem = FormButton | FormSelect


@dataclass
class FormPage:
    """One screen of a form: the message text and its components (at most five rows)."""

    content: str
    items: list[FormItem] = field(default_factory=list)

    def buttons(self) -> list[FormButton]:
        return [item for item in self.items if isinstance(item, FormButton)]

    def selects(self) -> list[FormSelect]:
        return [item for item in self.items if isinstance(item, FormSelect)]


class _Choice(Protocol):
    @property
    def action(self) -> str: ...


class Decision(Protocol):
    """What a form needs of a decision (the host's ``Prompt`` is one)."""

    @property
    def game_id(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def decision_id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def sealed(self) -> bool: ...
    @property
    def choices(self) -> Iterable[_Choice]: ...


@dataclass(frozen=True)
class FormContext:
    """What a form sees: the decision, the legal actions listed for it and the seat's own view (never more)."""

    game_id: int
    seat: int
    decision_id: str
    kind: str
    sealed: bool
    choices: tuple[str, ...]
    view: dict[str, Any]
    #: the reader's language: every word the form shows is in it
    language: str = DEFAULT

    @classmethod
    def of(cls, decision: Decision, view: dict[str, Any], language: str = DEFAULT) -> FormContext:
        choices = tuple(choice.action for choice in decision.choices)
        return cls(
            decision.game_id,
            decision.seat,
            decision.decision_id,
            decision.kind,
            decision.sealed,
            choices,
            view,
            language,
        )

    def t(self, msgid: str, /, **params: object) -> str:
        """A form's words (``msgid``, an English template) in the reader's language."""
        return translate_in(FORM, self.language, msgid, **params)

    def localized(self, text: str) -> str:
        """A text the rules or the host wrote in canonical English (a move's description), in the reader's
        language."""
        return localize(text, self.language)

    def button(
        self,
        label: str,
        op: str,
        state: str,
        *,
        style: Style = "secondary",
        disabled: bool = False,
        row: int | None = None,
        short_state: str | None = None,
    ) -> FormButton:
        return FormButton(label, op, state, style, disabled, row, short_state)

    def select(
        self,
        op: str,
        state: str,
        options: Iterable[FormOption],
        placeholder: str,
        row: int | None = None,
    ) -> FormSelect:
        return FormSelect(op, state, tuple(options), placeholder, row)

    def review_button(self, state: str, ready: bool, row: int | None = None) -> FormButton:
        """The button every editing page ends with: on to the summary, once the draft is complete."""
        return self.button(self.t("Review…"), REVIEW, state, style="primary", disabled=not ready, row=row)


class Form(ABC):
    """A game's guided entry for some decision kinds (see the module docstring for the life of a form)."""

    #: decision kinds this form composes
    kinds: frozenset[str] = frozenset()
    #: kinds whose DM prompt opens directly on the form (the others get a "Plan…" button beside the choices)
    inline_kinds: frozenset[str] = frozenset()
    #: operations after which the summary shows at once, once the draft is complete (a single pick needs no
    #: "Review…" click)
    review_after: frozenset[str] = frozenset()
    #: operations after which a complete draft of an unsealed decision is sent at once (one step of a
    #: multi-step action, such as a single move, needs no summary: the game's own undo takes it back)
    send_after: frozenset[str] = frozenset()
    entry_label = "Plan…"

    @abstractmethod
    def start(self, ctx: FormContext) -> str:
        """The initial draft."""

    @abstractmethod
    def page(self, ctx: FormContext, state: str) -> FormPage:
        """The editing screen for a draft."""

    @abstractmethod
    def change(self, ctx: FormContext, op: str, state: str, value: str | None) -> str:
        """The draft after the form's own operation ``op`` (``value`` is a select's pick); FormError if bad."""

    @abstractmethod
    def action(self, ctx: FormContext, state: str) -> str | None:
        """The notation the draft composes, or None while it is incomplete."""

    @abstractmethod
    def summary(self, ctx: FormContext, state: str) -> str:
        """The draft in sentences, shown before sealing."""

    def choice_label(self, language: str, action: str) -> tuple[str, str] | None:
        """A short label for ``action`` (one of this game's choices, in a select or ``/move``'s list) when the
        rules' sentence for it does not fit a component, with the option's description, in ``language``. The
        label must say all the choice does (so two choices never read alike) within 100 characters; None
        keeps the rules' sentence, fitted (``forms.labels``)."""
        return None


#: forms by game key; filled by ``forms`` (the package) from the registry
FORMS: dict[str, Form] = {}


def short_label(game_key: str | None, action: str, language: str = DEFAULT) -> tuple[str, str] | None:
    """The game's own short label and description for a choice (``Form.choice_label``), or None."""
    form = FORMS.get(game_key or "")
    return form.choice_label(language, action) if form is not None else None


def form_for(game_key: str | None, kind: str) -> Form | None:
    form = FORMS.get(game_key or "")
    return form if form is not None and kind in form.kinds else None


def first_page(game_key: str | None, ctx: FormContext) -> FormPage | None:
    """The form's first page when the decision (``ctx.kind``) opens directly on it, else None."""
    form = form_for(game_key, ctx.kind)
    if form is None or ctx.kind not in form.inline_kinds:
        return None
    return form.page(ctx, form.start(ctx))


def entry_button(game_key: str | None, ctx: FormContext) -> FormButton | None:
    """The "Plan…" button that opens the form in a new message, for a decision that has one."""
    form = form_for(game_key, ctx.kind)
    if form is None:
        return None
    return ctx.button(ctx.t(form.entry_label), OPEN, "", style="success")


def review_page(form: Form, ctx: FormContext, state: str) -> FormPage:
    """The summary of a complete draft, with its Seal (or Send) and Change buttons."""
    action = form.action(ctx, state)
    if action is None:
        raise FormError(INCOMPLETE)
    lines = [
        ctx.t("**Check before sealing.**" if ctx.sealed else "**Check before sending.**"),
        form.summary(ctx, state),
        ctx.t("Notation: `{action}`", action=action),
        ctx.t("Once sent it cannot be changed; a sealed choice shows only its commit in the channel."),
    ]
    return FormPage(
        "\n".join(lines),
        [
            ctx.button(ctx.t("Seal" if ctx.sealed else "Send"), SEAL, state, style="success"),
            ctx.button(ctx.t("Change"), BACK, state),
        ],
    )
