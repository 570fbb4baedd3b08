"""Guided forms: a decision composed over several clicks, reviewed, then sealed like any ``/move``.

A game registers a :class:`Form` for the decision kinds a flat list of choices serves badly (a battle plan with a
split, a target and an order per castle). The form keeps no state in memory: every button and select carries the
whole draft in its custom_id, so a form survives a restart and two open copies cannot disturb each other.

custom_id layout (``FORM_IDS``, one ``IdFormat`` each, ``bot.discord.custom_ids``: fields percent-quoted,
<= 100 chars): ``pt:f:<game>:<seat>:<decision>:<op>:<state>`` for a button, ``pt:g:...`` (same fields) for a select

- ``<op>``: ``open`` (the "Plan…" button of a prompt), ``rev`` (show the summary), ``back`` (edit again),
  ``seal`` (send the composed notation to the host), or an operation the game's form defines
- ``<state>``: the form's draft, in a compact text of the form's own making

Every click first checks that the decision is still open for the clicker and not sealed yet, so a stale form
(the game moved on) is refused with a sentence and nothing changes.

Languages: a form's words (its pages, labels, placeholders and option descriptions) are in the reader's language,
``FormContext.language`` (``reader_language`` for a click, the player's language for a DM prompt); a form
translates them with ``FormContext.t`` (catalog context ``form``). Its refusals (``HostError``) are plain
catalog entries, localised like every other refusal when they are answered.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.models import HostError, Prompt
from i18n import DEFAULT, localize, translate_in

from ..common import (
    Handled,
    Interaction,
    actor_of,
    ai_plays,
    bot_of,
    check_place,
    check_seat_exists,
    reader_language,
    rebuilt,
    send,
    within_ack,
)
from ..custom_ids import CUSTOM_ID as CUSTOM_ID  # the limit a form measures its state against
from ..custom_ids import GAME, SEAT, TEXT, IdFormat
from ..labels import BUTTON_LABEL, PLACEHOLDER, fit

_FIELDS = (("game_id", GAME), ("seat", SEAT), ("decision_id", TEXT), ("op", TEXT), ("state", TEXT))
#: the custom_id layouts of a form's items by kind: ``f`` a button, ``g`` a select
FORM_IDS = {"f": IdFormat("pt:f", _FIELDS), "g": IdFormat("pt:g", _FIELDS)}
#: operations the generic part handles; a form's own operations must use other names
OPEN, REVIEW, BACK, SEAL = "open", "rev", "back", "seal"
#: catalog context of a form's words
FORM = "form"
STALE = "This form answers a decision that is no longer open: the game has moved on. Use the latest message."


def form_custom_id(kind: str, game_id: int, seat: int, decision_id: str, op: str, state: str) -> str:
    """``kind`` is ``f`` (button) or ``g`` (select). A form's state is designed to fit; ``ValueError`` when it does
    not (a new form's bug)."""
    return FORM_IDS[kind].build(game_id=game_id, seat=seat, decision_id=decision_id, op=op, state=state)


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
    def of(cls, prompt: Prompt, view: dict[str, Any], language: str = DEFAULT) -> FormContext:
        choices = tuple(choice.action for choice in prompt.choices)
        return cls(
            prompt.game_id,
            prompt.seat,
            prompt.decision_id,
            prompt.kind,
            prompt.sealed,
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
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> FormButton:
        return FormButton(self.game_id, self.seat, self.decision_id, op, state, label, style, disabled, row)

    def select(
        self,
        op: str,
        state: str,
        options: list[discord.SelectOption],
        placeholder: str,
        row: int | None = None,
    ) -> FormSelect:
        return FormSelect(self.game_id, self.seat, self.decision_id, op, state, options, placeholder, row)

    def review_button(self, state: str, ready: bool, row: int | None = None) -> FormButton:
        """The button every editing page ends with: on to the summary, once the draft is complete."""
        return self.button(
            self.t("Review…"), REVIEW, state, style=discord.ButtonStyle.primary, disabled=not ready, row=row
        )


@dataclass
class FormPage:
    """One screen of a form: the message text and its components (at most five rows)."""

    content: str
    items: list[discord.ui.Item[Any]] = field(default_factory=list)

    def as_view(self) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for item in self.items:
            view.add_item(item)
        return view


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
        """The draft after the form's own operation ``op`` (``value`` is a select's pick); HostError if bad."""

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
        keeps the rules' sentence, fitted (``bot.discord.labels``)."""
        return None


#: forms by game key; filled by ``bot.discord.forms``
FORMS: dict[str, Form] = {}


def short_label(game_key: str | None, action: str, language: str = DEFAULT) -> tuple[str, str] | None:
    """The game's own short label and description for a choice (``Form.choice_label``), or None."""
    form = FORMS.get(game_key or "")
    return form.choice_label(language, action) if form is not None else None


def form_for(game_key: str | None, kind: str) -> Form | None:
    form = FORMS.get(game_key or "")
    return form if form is not None and kind in form.kinds else None


def inline_page(
    game_key: str | None, prompt: Prompt, seat_view: dict[str, Any] | None, language: str = DEFAULT
) -> FormPage | None:
    """The form's first page when the decision opens directly on it (the seat's view must be at hand), in the
    reader's ``language``."""
    form = form_for(game_key, prompt.kind)
    if form is None or prompt.expiry_id or seat_view is None or prompt.kind not in form.inline_kinds:
        return None
    ctx = FormContext.of(prompt, seat_view, language)
    return form.page(ctx, form.start(ctx))


def open_button(game_key: str | None, prompt: Prompt, language: str = DEFAULT) -> FormButton | None:
    """The "Plan…" button that opens the form in a new message, for a decision that has one."""
    form = form_for(game_key, prompt.kind)
    if form is None or prompt.expiry_id:
        return None
    ctx = FormContext.of(prompt, {}, language)
    return ctx.button(ctx.t(form.entry_label), OPEN, "", style=discord.ButtonStyle.success)


# ---------------------------------------------------------------------------------------------- handling
async def _context(
    interaction: Interaction, game_id: int, seat: int, decision_id: str
) -> tuple[Form, FormContext]:
    """Check the click is the seat holder's, for the decision still open and not yet sealed; load the view."""
    host = bot_of(interaction).host
    user_id = str(interaction.user.id)
    info = await host.game_info(game_id)
    check_seat_exists(info, seat)
    check_place(interaction, info)
    mine = info.seat_of(user_id)
    if mine is None:
        raise HostError("You are not playing in this game.")
    if mine.seat != seat:
        raise HostError(f"This form is for {info.seats[seat].name}, not for you.")
    if info.status == "paused":
        raise HostError("The game is paused; the form works again once it resumes.")
    prompt = await host.prompt_of(game_id, user_id)
    if prompt is None or prompt.decision_id != decision_id:
        raise HostError(STALE)
    if prompt.sealed and await host.has_sealed(game_id, user_id):
        raise HostError("You have already sealed this decision; a sealed choice cannot be changed.")
    form = form_for(info.key, prompt.kind)
    if form is None:
        raise HostError(STALE)
    # one active game per channel: the hand of the game's channel is this game's view for this seat
    snapshot = await host.hand(info.channel_id, actor_of(interaction))
    return form, FormContext.of(prompt, snapshot.view, await reader_language(interaction))


def review_page(form: Form, ctx: FormContext, state: str) -> FormPage:
    action = form.action(ctx, state)
    if action is None:
        raise HostError("The form is not complete yet: fill in every part first.")
    lines = [
        ctx.t("**Check before sealing.**" if ctx.sealed else "**Check before sending.**"),
        form.summary(ctx, state),
        ctx.t("Notation: `{action}`", action=action),
        ctx.t("Once sent it cannot be changed; a sealed choice shows only its commit in the channel."),
    ]
    return FormPage(
        "\n".join(lines),
        [
            ctx.button(
                ctx.t("Seal" if ctx.sealed else "Send"), SEAL, state, style=discord.ButtonStyle.success
            ),
            ctx.button(ctx.t("Change"), BACK, state),
        ],
    )


async def _show(interaction: Interaction, page: FormPage) -> None:
    """Replace the clicked message's text and components by ``page``."""
    view = page.as_view() if page.items else None  # no items: the form is done, its components go
    if interaction.response.is_done():
        await interaction.edit_original_response(content=page.content, view=view)
    else:
        await interaction.response.edit_message(content=page.content, view=view)
    if view is not None:
        view.stop()  # dynamic items dispatch by custom_id; the view object need not stay in memory


async def _seal(interaction: Interaction, form: Form, ctx: FormContext, state: str) -> None:
    """Send the composed notation through the host, exactly like ``/move`` with the decision's id."""
    action = form.action(ctx, state)
    if action is None:
        raise HostError("The form is not complete yet: fill in every part first.")
    bot = bot_of(interaction)
    at_once = await ai_plays(interaction, ctx.game_id)  # the AI answers before the host returns
    work = bot.host.act(ctx.game_id, actor_of(interaction), action, ctx.decision_id)
    deliveries = await within_ack(interaction, work, update=True, at_once=at_once)
    done_msgid = "Sealed: {summary}" if ctx.sealed else "Sent: {summary}"
    done = FormPage(f"{ctx.t(done_msgid, summary=form.summary(ctx, state))}\n`{action}`")
    await bot.sender.deliver_while(deliveries, _show(interaction, done))


UNREADABLE_DRAFT = (
    "This form's draft cannot be read (it may come from an older version of the bot, or it was altered). "
    "Nothing was sent: open the form again from the latest message."
)


async def handle_form(
    interaction: Interaction,
    game_id: int,
    seat: int,
    decision_id: str,
    op: str,
    state: str,
    value: str | None,
) -> None:
    form, ctx = await _context(interaction, game_id, seat, decision_id)
    try:
        await _handle_form_op(interaction, form, ctx, op, state, value)
    except (ValueError, KeyError, IndexError, TypeError) as error:
        # the draft and the pick come from the custom_id and the select: untrusted text the form parses
        raise HostError(UNREADABLE_DRAFT) from error


async def _handle_form_op(
    interaction: Interaction, form: Form, ctx: FormContext, op: str, state: str, value: str | None
) -> None:
    if op == OPEN:
        page = form.page(ctx, form.start(ctx))
        view = page.as_view()
        await send(interaction, page.content or ctx.t("Compose your choice:"), ephemeral=True, view=view)
        view.stop()
    elif op == SEAL:
        await _seal(interaction, form, ctx, state)
    elif op == REVIEW:
        await _show(interaction, review_page(form, ctx, state))
    elif op == BACK:
        await _show(interaction, form.page(ctx, state))
    else:
        state = form.change(ctx, op, state, value)
        complete = form.action(ctx, state) is not None
        if complete and op in form.send_after and not ctx.sealed:
            await _seal(interaction, form, ctx, state)
            return
        shown = (
            review_page(form, ctx, state) if complete and op in form.review_after else form.page(ctx, state)
        )
        await _show(interaction, shown)


# ---------------------------------------------------------------------------------------------- items
class FormButton(Handled, discord.ui.DynamicItem[Any], template=FORM_IDS["f"].template):
    """A form's button."""

    def __init__(
        self,
        game_id: int,
        seat: int,
        decision_id: str,
        op: str,
        state: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.game_id, self.seat, self.decision_id, self.op, self.state = game_id, seat, decision_id, op, state
        super().__init__(
            discord.ui.Button(
                label=fit(label, BUTTON_LABEL) or op,
                style=style,
                disabled=disabled,
                custom_id=form_custom_id("f", game_id, seat, decision_id, op, state),
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FormButton:
        return rebuilt(cls, item, lambda: FORM_IDS["f"].parse(match))

    async def handle(self, interaction: Interaction) -> None:
        await handle_form(interaction, self.game_id, self.seat, self.decision_id, self.op, self.state, None)


class FormSelect(Handled, discord.ui.DynamicItem[Any], template=FORM_IDS["g"].template):
    """A form's select: its pick is the operation's value."""

    def __init__(
        self,
        game_id: int,
        seat: int,
        decision_id: str,
        op: str,
        state: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.game_id, self.seat, self.decision_id, self.op, self.state = game_id, seat, decision_id, op, state
        super().__init__(
            discord.ui.Select(
                custom_id=form_custom_id("g", game_id, seat, decision_id, op, state),
                placeholder=fit(placeholder or "", PLACEHOLDER) or None,
                options=(options or [discord.SelectOption(label="-", value="-")])[:25],
                min_values=1,
                max_values=1,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FormSelect:
        return rebuilt(cls, item, lambda: FORM_IDS["g"].parse(match))

    async def handle(self, interaction: Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        if not values:
            raise HostError("Pick one of the options.")
        await handle_form(
            interaction, self.game_id, self.seat, self.decision_id, self.op, self.state, str(values[0])
        )


#: registered at start-up with the other dynamic items
FORM_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (FormButton, FormSelect)
