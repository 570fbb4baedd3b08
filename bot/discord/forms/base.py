"""A guided form (``forms``) on Discord: its pages as components, and the clicks on them dispatched back to it.

The form itself (``forms.<package>``) describes each page neutrally; this module gives every button and select a
custom_id that carries the whole draft, so a form survives a restart and two open copies cannot disturb each
other.

custom_id layout (``FORM_IDS``, one ``IdFormat`` each, ``bot.discord.custom_ids``: fields percent-quoted,
<= 100 chars): ``pt:f:<game>:<seat>:<decision>:<op>:<state>`` for a button, ``pt:g:...`` (same fields) for a select

- ``<op>``: ``open`` (the "Plan…" button of a prompt), ``rev`` (show the summary), ``back`` (edit again),
  ``seal`` (send the composed notation to the host), or an operation the game's form defines
- ``<state>``: the form's draft, in a compact text of the form's own making

Every click first checks that the decision is still open for the clicker and not sealed yet, so a stale form
(the game moved on) is refused with a sentence and nothing changes. A form's refusals (``FormError``) are answered
like the host's (``user_sentence``).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.models import HostError, Prompt
from forms import FormButton, FormContext, FormItem, FormPage, entry_button, first_page, form_for
from forms.base import BACK, INCOMPLETE, OPEN, REVIEW, SEAL, Form, Style, review_page
from forms.labels import BUTTON_LABEL, PLACEHOLDER, fit
from i18n import DEFAULT

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
from ..custom_ids import GAME, SEAT, TEXT, IdFormat

_FIELDS = (("game_id", GAME), ("seat", SEAT), ("decision_id", TEXT), ("op", TEXT), ("state", TEXT))
#: the custom_id layouts of a form's items by kind: ``f`` a button, ``g`` a select
FORM_IDS = {"f": IdFormat("pt:f", _FIELDS), "g": IdFormat("pt:g", _FIELDS)}
STALE = "This form answers a decision that is no longer open: the game has moved on. Use the latest message."
#: a form's button styles as Discord draws them
STYLES: dict[Style, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def form_custom_id(kind: str, game_id: int, seat: int, decision_id: str, op: str, state: str) -> str:
    """``kind`` is ``f`` (button) or ``g`` (select). A form's state is designed to fit; ``ValueError`` when it does
    not (a new form's bug)."""
    return FORM_IDS[kind].build(game_id=game_id, seat=seat, decision_id=decision_id, op=op, state=state)


def _button_state(ctx: FormContext, button: FormButton) -> str:
    """The draft the button carries: its ``state``, or its ``short_state`` when the state does not fit the id."""
    if button.short_state is None:
        return button.state
    ids = {"game_id": ctx.game_id, "seat": ctx.seat, "decision_id": ctx.decision_id, "op": button.op}
    return button.state if FORM_IDS["f"].fits(**ids, state=button.state) else button.short_state


def form_item(ctx: FormContext, item: FormItem) -> discord.ui.DynamicItem[Any]:
    """A form's button or select as the Discord component that answers it."""
    ids = (ctx.game_id, ctx.seat, ctx.decision_id, item.op)
    if isinstance(item, FormButton):
        style = STYLES[item.style]
        return FormButtonItem(*ids, _button_state(ctx, item), item.label, style, item.disabled, item.row)
    options = [
        discord.SelectOption(
            label=option.label, value=option.value, description=option.description, default=option.default
        )
        for option in item.options
    ]
    return FormSelectItem(*ids, item.state, options, item.placeholder, item.row)


def form_view(ctx: FormContext, page: FormPage) -> discord.ui.View:
    """A form's page as a message's components."""
    view = discord.ui.View(timeout=None)
    for item in page.items:
        view.add_item(form_item(ctx, item))
    return view


def inline_page(
    game_key: str | None, prompt: Prompt, seat_view: dict[str, Any] | None, language: str = DEFAULT
) -> tuple[FormContext, FormPage] | None:
    """The form's first page when the decision opens directly on it (the seat's view must be at hand), in the
    reader's ``language``, with the context its components need."""
    if prompt.expiry_id or seat_view is None:
        return None
    ctx = FormContext.of(prompt, seat_view, language)
    page = first_page(game_key, ctx)
    return (ctx, page) if page is not None else None


def open_button(
    game_key: str | None, prompt: Prompt, language: str = DEFAULT
) -> discord.ui.DynamicItem[Any] | None:
    """The "Plan…" button that opens the form in a new message, for a decision that has one."""
    if prompt.expiry_id:
        return None
    ctx = FormContext.of(prompt, {}, language)
    button = entry_button(game_key, ctx)
    return form_item(ctx, button) if button is not None else None


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


async def _show(interaction: Interaction, ctx: FormContext, page: FormPage) -> None:
    """Replace the clicked message's text and components by ``page``."""
    view = form_view(ctx, page) if page.items else None  # no items: the form is done, its components go
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
        raise HostError(INCOMPLETE)
    bot = bot_of(interaction)
    at_once = await ai_plays(interaction, ctx.game_id)  # the AI answers before the host returns
    work = bot.host.act(ctx.game_id, actor_of(interaction), action, ctx.decision_id)
    deliveries = await within_ack(interaction, work, update=True, at_once=at_once)
    done_msgid = "Sealed: {summary}" if ctx.sealed else "Sent: {summary}"
    done = FormPage(f"{ctx.t(done_msgid, summary=form.summary(ctx, state))}\n`{action}`")
    await bot.sender.deliver_while(deliveries, _show(interaction, ctx, done))


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
        view = form_view(ctx, page)
        await send(interaction, page.content or ctx.t("Compose your choice:"), ephemeral=True, view=view)
        view.stop()
    elif op == SEAL:
        await _seal(interaction, form, ctx, state)
    elif op == REVIEW:
        await _show(interaction, ctx, review_page(form, ctx, state))
    elif op == BACK:
        await _show(interaction, ctx, form.page(ctx, state))
    else:
        state = form.change(ctx, op, state, value)
        complete = form.action(ctx, state) is not None
        if complete and op in form.send_after and not ctx.sealed:
            await _seal(interaction, form, ctx, state)
            return
        shown = (
            review_page(form, ctx, state) if complete and op in form.review_after else form.page(ctx, state)
        )
        await _show(interaction, ctx, shown)


# ---------------------------------------------------------------------------------------------- items
class FormButtonItem(Handled, discord.ui.DynamicItem[Any], template=FORM_IDS["f"].template):
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
    ) -> FormButtonItem:
        return rebuilt(cls, item, lambda: FORM_IDS["f"].parse(match))

    async def handle(self, interaction: Interaction) -> None:
        await handle_form(interaction, self.game_id, self.seat, self.decision_id, self.op, self.state, None)


class FormSelectItem(Handled, discord.ui.DynamicItem[Any], template=FORM_IDS["g"].template):
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
    ) -> FormSelectItem:
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
FORM_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (FormButtonItem, FormSelectItem)
