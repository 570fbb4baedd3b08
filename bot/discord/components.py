"""Buttons and selects that survive restarts: ``DynamicItem``s whose custom_id says everything needed.

custom_id layouts (each declared once below as an ``IdFormat``, ``bot.discord.custom_ids``: text fields are
percent-quoted, so a ``:`` inside a decision id cannot split them; <= 100 chars):

- ``pt:c:<game>:<seat>:<decision>:<choice>`` a choice button; ``<choice>`` is the action text, or ``#<index>``
  into the prompt's choices when the text does not fit
- ``pt:s:<game>:<seat>:<decision>:<page>``   a select of choices (values are action texts or ``#<index>``)
- ``pt:m:<game>:<seat>:<decision>:<page>``   "More choices": the next page of selects, ephemerally
- ``pt:l:<game>:<op>``                       lobby Join / Leave / Start
- ``pt:x:<game>:<expiry>:<choice>``          after a missed deadline: claim / wait / ai
- ``pt:h:<game>``                            "Open my hand" (the fallback when a DM could not be delivered)
- ``pt:a:<game>:<seat>:<slot>:<choice>``     an answer given ahead for the upcoming decision of ``<slot>``
- ``pt:b:<game>:<seat>:<slot>``              the same as a select (values are action texts)
- ``pt:f:...`` / ``pt:g:...``                a guided form's button / select (see ``bot.discord.forms``)
- ``pt:r:...`` / ``pt:j:...``                a replay's step buttons / jump select (see ``bot.discord.replays``)
- ``pt:lg:<league>:join``                   a league's sign-up Join (see ``bot.discord.league_button``)

A button carries the id of the decision it answers, not the game's version, so someone else's free action does
not invalidate it; the host refuses a stale or doubled click and nothing is applied twice.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.hosting.lobby import lobby_message
from bot.hosting.turns import read_step_slot
from bot.models import AHEAD_KIND, Choice, GameInfo, HostError, Prompt
from forms import short_label
from forms.labels import OPTION_DESCRIPTION, OPTION_LABEL, PLACEHOLDER, distinct_labels, fit, fit_with_rest
from i18n import DEFAULT, localize, translate
from rules.engine.standing import ASK

from .common import (
    Handled,
    Interaction,
    actor_of,
    ai_seated,
    board_file,
    bot_of,
    channel_key,
    check_place,
    check_seat_exists,
    clip,
    digest_files,
    localized_prompt,
    reader_language,
    rebuilt,
    send,
    within_ack,
)
from .custom_ids import GAME, PAGE, SEAT, TEXT, IdFormat, one_of, quoted
from .forms import FORM_ITEMS, form_view, inline_page, open_button
from .league_button import LEAGUE_ITEMS
from .replays import REPLAY_ITEMS

BUTTONS_AT_MOST = 5
BUTTON_LABEL = 80
SELECT_SIZE = 25
SELECTS_PER_MESSAGE = 4  # the fifth row holds the "More choices" button
#: every custom_id of ours starts with it (a click on one that no item reads is answered: ``PrincesBot``)
CUSTOM_ID_PREFIX = "pt:"
#: the custom_id layouts of this module's items, named as the items' attributes (the module docstring lists them)
_FOR_A_SEAT = (("game_id", GAME), ("seat", SEAT))
_PAGED = (*_FOR_A_SEAT, ("decision_id", TEXT), ("page", PAGE))
CHOICE_BUTTON_ID = IdFormat("pt:c", (*_FOR_A_SEAT, ("decision_id", TEXT), ("token", TEXT)))
CHOICE_SELECT_ID = IdFormat("pt:s", _PAGED)
MORE_CHOICES_ID = IdFormat("pt:m", _PAGED)
LOBBY_BUTTON_ID = IdFormat("pt:l", (("game_id", GAME), ("op", one_of("join", "leave", "start"))))
EXPIRY_BUTTON_ID = IdFormat(
    "pt:x", (("game_id", GAME), ("expiry_id", TEXT), ("choice", one_of("claim", "wait", "ai")))
)
HAND_BUTTON_ID = IdFormat("pt:h", (("game_id", GAME),))
AHEAD_BUTTON_ID = IdFormat("pt:a", (*_FOR_A_SEAT, ("slot", TEXT), ("action", TEXT)))
AHEAD_SELECT_ID = IdFormat("pt:b", (*_FOR_A_SEAT, ("slot", TEXT)))


# ---------------------------------------------------------------------------------------------- choices
def choice_token(prompt: Prompt, index: int, room: int) -> str:
    """What a component carries for choice ``index``: the action itself when it fits, else its index."""
    action = prompt.choices[index].action
    return action if len(quoted(action)) <= room and not action.startswith("#") else f"#{index}"


async def require_seat(interaction: Interaction, game_id: int, seat: int) -> None:
    """Choices offered to one seat may be used only by whoever holds it now, in the game's channel or a DM."""
    check_seat(interaction, await bot_of(interaction).host.game_info(game_id), seat)


def check_seat(interaction: Interaction, info: GameInfo, seat: int) -> None:
    """``require_seat`` for a game read already."""
    check_seat_exists(info, seat)
    check_place(interaction, info)
    mine = info.seat_of(str(interaction.user.id))
    if mine is None:
        raise HostError("You are not playing in this game.")
    if mine.seat != seat:
        raise HostError(f"These choices are for {info.seats[seat].name}, not for you.")


def resolve_choice(prompt: Prompt | None, decision_id: str, token: str) -> str:
    """Turn a choice token back into the action text (``prompt``: the clicker's open decision)."""
    if not token.startswith("#"):
        return token
    digits = token[1:]  # an index into the prompt's list: ASCII digits only ("#-1" is no index)
    if not (digits.isascii() and digits.isdigit()):
        raise HostError(f"That choice ({token[:20]!r}) is not on the list: pick from the latest message.")
    if prompt is None or prompt.decision_id != decision_id:
        raise HostError("That choice is no longer open: the game has moved on. Use the latest message.")
    index = int(digits)
    if index >= len(prompt.choices):
        count = len(prompt.choices)  # the catalog's plural entry reads the count back (one form per number)
        listed = f"{count} choice" if count == 1 else f"{count} choices"
        raise HostError(f"That choice is not on the list ({listed}): use the latest message.")
    return prompt.choices[index].action


async def play_choice(
    interaction: Interaction, game_id: int, seat: int, decision_id: str, token: str
) -> None:
    """Apply a clicked choice; on success the clicked message loses its components (the decision is made), and
    a private prompt (a DM, an ephemeral answer) says what was sent, as the guided forms do."""
    bot = bot_of(interaction)
    # the game, the clicker's decision and language in one host call; it notes the client's locale too
    clicked = await bot.host.click_context(game_id, str(interaction.user.id), str(interaction.locale))
    check_seat(interaction, clicked.info, seat)
    prompt = clicked.prompt
    action = resolve_choice(prompt, decision_id, token)
    chosen = next((c for c in prompt.choices if c.action == action), None) if prompt else None
    sealed = bool(prompt and prompt.sealed)
    at_once = ai_seated(clicked.info)  # the AI answers before the host returns
    deliveries = await within_ack(
        interaction,
        bot.host.act(game_id, actor_of(interaction), action, decision_id),
        update=True,
        at_once=at_once,
    )
    # the whole label, in the player's language: an option may have shown a short one (issue 46)
    said = f"{'Sealed' if sealed else 'Sent'}: {chosen.label if chosen else action} (`{action}`)"
    said = localize(said, clicked.language)
    await bot.sender.deliver_while(deliveries, retire_components(interaction, said))


async def retire_components(interaction: Interaction, said: str | None = None) -> None:
    """Remove the components of the message a click came from (a made decision needs no buttons). A private
    message also gets ``said`` under its text: the player sees what was sent, not just buttons vanishing."""
    message = interaction.message
    private = interaction.guild_id is None or bool(message and message.flags.ephemeral)
    extra: dict[str, Any] = {}
    if said and private and message is not None:
        extra["content"] = clip(f"{message.content}\n\n**{said}**" if message.content else f"**{said}**")
    if interaction.response.is_done():
        await interaction.edit_original_response(view=None, **extra)
    else:
        await interaction.response.edit_message(view=None, **extra)


class ChoiceButton(Handled, discord.ui.DynamicItem[Any], template=CHOICE_BUTTON_ID.template):
    def __init__(self, game_id: int, seat: int, decision_id: str, token: str, label: str = "") -> None:
        self.game_id, self.seat, self.decision_id, self.token = game_id, seat, decision_id, token
        super().__init__(
            discord.ui.Button(
                label=fit(label, BUTTON_LABEL) or token,
                style=discord.ButtonStyle.primary,
                custom_id=CHOICE_BUTTON_ID.build(
                    game_id=game_id, seat=seat, decision_id=decision_id, token=token
                ),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceButton:
        return rebuilt(cls, item, lambda: CHOICE_BUTTON_ID.parse(match))

    notes_locale = False  # ``play_choice`` reads the clicker's settings and notes it there

    async def handle(self, interaction: Interaction) -> None:
        await play_choice(interaction, self.game_id, self.seat, self.decision_id, self.token)


class ChoiceSelect(Handled, discord.ui.DynamicItem[Any], template=CHOICE_SELECT_ID.template):
    def __init__(
        self,
        game_id: int,
        seat: int,
        decision_id: str,
        page: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        self.game_id, self.seat, self.decision_id, self.page = game_id, seat, decision_id, page
        super().__init__(
            discord.ui.Select(
                custom_id=CHOICE_SELECT_ID.build(
                    game_id=game_id, seat=seat, decision_id=decision_id, page=page
                ),
                placeholder=fit(placeholder, PLACEHOLDER) if placeholder else None,  # once translated
                options=options or [discord.SelectOption(label="-", value="-")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceSelect:
        return rebuilt(cls, item, lambda: CHOICE_SELECT_ID.parse(match))

    notes_locale = False  # ``play_choice`` reads the clicker's settings and notes it there

    async def handle(self, interaction: Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        if not values:
            raise HostError("Pick one of the choices.")
        await play_choice(interaction, self.game_id, self.seat, self.decision_id, str(values[0]))


class MoreChoices(Handled, discord.ui.DynamicItem[Any], template=MORE_CHOICES_ID.template):
    def __init__(self, game_id: int, seat: int, decision_id: str, page: int, language: str = DEFAULT) -> None:
        self.game_id, self.seat, self.decision_id, self.page = game_id, seat, decision_id, page
        super().__init__(
            discord.ui.Button(
                label=fit(localize("More choices…", language), BUTTON_LABEL),
                style=discord.ButtonStyle.secondary,
                custom_id=MORE_CHOICES_ID.build(
                    game_id=game_id, seat=seat, decision_id=decision_id, page=page
                ),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoreChoices:
        return rebuilt(cls, item, lambda: MORE_CHOICES_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        await require_seat(interaction, self.game_id, self.seat)
        prompt = await bot_of(interaction).host.prompt_of(self.game_id, str(interaction.user.id))
        if prompt is None or prompt.decision_id != self.decision_id:
            raise HostError("That choice is no longer open: the game has moved on. Use the latest message.")
        first = self.page * SELECT_SIZE * SELECTS_PER_MESSAGE
        if self.page < 1 or first >= len(prompt.choices):  # "More choices" shows the pages after the first
            raise HostError(f"There is no page {self.page + 1} of choices for this decision.")
        language = await reader_language(interaction)
        game_key = (await bot_of(interaction).host.game_info(self.game_id)).key
        view = prompt_view(
            localized_prompt(prompt, language) or prompt,
            first_page=self.page,
            game_key=game_key,
            language=language,
        )
        await send(
            interaction,
            f"Choices {first + 1}–{min(len(prompt.choices), first + 100)} of {len(prompt.choices)}:",
            ephemeral=True,
            view=view,
        )
        if view is not None:
            view.stop()


def prompt_view(
    prompt: Prompt,
    first_page: int = 0,
    game_key: str | None = None,
    seat_view: dict[str, Any] | None = None,
    language: str = DEFAULT,
) -> discord.ui.View | None:
    """Components for a prompt: a few buttons, or selects of 25 (four per message, then "More choices").
    ``prompt`` is already in the reader's ``language`` (``localized_prompt``); the bot's own labels follow it.

    When the game has a guided form for this decision kind (``forms``), the prompt opens on the
    form (given the seat's own ``seat_view``) or carries a "Plan…" button that opens it beside the choices.
    """
    if prompt.expiry_id:
        return expiry_view(prompt)
    if prompt.kind == AHEAD_KIND:
        return ahead_view(prompt, language)
    if first_page == 0 and (inline := inline_page(game_key, prompt, seat_view, language)) is not None:
        return form_view(*inline)  # the form's first page stands in for the list of choices
    view = _choices_view(prompt, first_page, language, game_key)
    button = open_button(game_key, prompt, language) if first_page == 0 else None
    if button is not None:
        view = view or discord.ui.View(timeout=None)
        view.add_item(button)
    return view


def form_text(
    prompt: Prompt | None, game_key: str | None, seat_view: dict[str, Any] | None, language: str = DEFAULT
) -> str | None:
    """The text of the form's first page when ``prompt_view`` opens the decision on it: a DM shows it under
    the game's line, so the first message reads like the pages each click brings (None without a form), in the
    reader's ``language``."""
    if prompt is None or prompt.expiry_id or prompt.kind == AHEAD_KIND:
        return None
    inline = inline_page(game_key, prompt, seat_view, language)
    return inline[1].content if inline is not None else None


def _choices_view(
    prompt: Prompt, first_page: int, language: str = DEFAULT, game_key: str | None = None
) -> discord.ui.View | None:
    choices = prompt.choices
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    if len(choices) <= BUTTONS_AT_MOST and all(len(c.label) <= BUTTON_LABEL for c in choices):
        room = CHOICE_BUTTON_ID.room(game_id=prompt.game_id, seat=prompt.seat, decision_id=prompt.decision_id)
        # two choices the rules describe alike (a tax collected with or without an option) show their notation
        labels = distinct_labels([c.label for c in choices], BUTTON_LABEL, [c.action for c in choices])
        for index, label in enumerate(labels):
            token = choice_token(prompt, index, room)
            view.add_item(ChoiceButton(prompt.game_id, prompt.seat, prompt.decision_id, token, label))
        return view
    start_group = first_page * SELECTS_PER_MESSAGE
    for group in range(start_group, start_group + SELECTS_PER_MESSAGE):
        start = group * SELECT_SIZE
        page = choices[start : start + SELECT_SIZE]
        if not page:
            break
        options = [
            discord.SelectOption(label=label, value=choice_token(prompt, start + i, 100), description=note)
            for i, (label, note) in enumerate(choice_options(page, language, game_key))
        ]
        placeholder = _placeholder(page, start, len(choices), language)
        view.add_item(
            ChoiceSelect(prompt.game_id, prompt.seat, prompt.decision_id, group, options, placeholder)
        )
    if len(choices) > (first_page + 1) * SELECT_SIZE * SELECTS_PER_MESSAGE:
        view.add_item(MoreChoices(prompt.game_id, prompt.seat, prompt.decision_id, first_page + 1, language))
    return view


def _placeholder(page: list[Choice], start: int, total: int, language: str = DEFAULT) -> str:
    if total <= SELECT_SIZE:
        return localize("Choose…", language)
    return fit(f"{start + 1}–{start + len(page)}: {page[0].action} … {page[-1].action}", PLACEHOLDER)


def choice_options(
    choices: list[Choice], language: str = DEFAULT, game_key: str | None = None
) -> list[tuple[str, str | None]]:
    """The label and description of each choice of one select (issue 46: whole words, no two alike): the
    game's own short label where it has one (``Form.choice_label``: a long battle plan), else the
    choice's label, fitted; a label that had to be cut continues in its description, and labels that then read
    alike are told apart by their notation. ``choices``' labels are already in ``language``; the whole label
    is also in the message once the choice is made (``play_choice``)."""
    short = [short_label(game_key, c.action, language) for c in choices]
    labels = distinct_labels(
        [found[0] if found else c.label for c, found in zip(choices, short, strict=True)],
        OPTION_LABEL,
        notes=[c.action for c in choices],
    )
    descriptions = [
        found[1] or None if found else fit_with_rest(c.label, OPTION_LABEL, OPTION_DESCRIPTION)[1]
        for c, found in zip(choices, short, strict=True)
    ]
    return list(zip(labels, descriptions, strict=True))


# ---------------------------------------------------------------------------------------------- lobby
class LobbyButton(Handled, discord.ui.DynamicItem[Any], template=LOBBY_BUTTON_ID.template):
    STYLES = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, game_id: int, op: str, language: str = DEFAULT) -> None:
        self.game_id, self.op = game_id, op
        label = fit(localize(op.capitalize(), language), BUTTON_LABEL)
        custom_id = LOBBY_BUTTON_ID.build(game_id=game_id, op=op)
        super().__init__(discord.ui.Button(label=label, style=self.STYLES[op], custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return rebuilt(cls, item, lambda: LOBBY_BUTTON_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        current = await bot.host.game_in_channel(channel_key(interaction))
        if current is None or current.game_id != self.game_id or current.status != "lobby":
            raise HostError("This lobby is closed.")
        actor = actor_of(interaction)
        if self.op == "start":
            work = bot.host.start(channel_key(interaction), actor)
            # an AI seat may play the first turns before the host returns: acknowledged at once then
            deliveries = await within_ack(interaction, work, update=True, at_once=ai_seated(current))
            info = await bot.host.game_info(self.game_id)
            language = await bot.host.guild_language(info.guild_id)
            await edit_clicked(interaction, localize(lobby_message(info), language), None)
            await bot.sender.deliver(deliveries)
            return
        method = bot.host.join if self.op == "join" else bot.host.leave
        info = await within_ack(interaction, method(channel_key(interaction), actor), update=True)
        language = await bot.host.guild_language(info.guild_id)
        await edit_clicked(interaction, localize(lobby_message(info), language), lobby_view(info, language))
        if self.op == "join":
            await bot.sender.check_dm_reach(interaction, info)


async def edit_clicked(interaction: Interaction, content: str, view: discord.ui.View | None) -> None:
    """Update the message whose component was clicked (as the response, or after a defer)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=view)
    else:
        await interaction.response.edit_message(content=content, view=view)
    if view is not None:
        view.stop()


def lobby_view(info: GameInfo, language: str = DEFAULT) -> discord.ui.View | None:
    if info.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start"):
        view.add_item(LobbyButton(info.game_id, op, language))
    return view


# ---------------------------------------------------------------------------------------------- deadlines
class ExpiryButton(Handled, discord.ui.DynamicItem[Any], template=EXPIRY_BUTTON_ID.template):
    def __init__(self, game_id: int, expiry_id: str, choice: str, label: str = "") -> None:
        self.game_id, self.expiry_id, self.choice = game_id, expiry_id, choice
        style = discord.ButtonStyle.danger if choice == "claim" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=fit(label, BUTTON_LABEL) or choice,
                style=style,
                custom_id=EXPIRY_BUTTON_ID.build(game_id=game_id, expiry_id=expiry_id, choice=choice),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ExpiryButton:
        return rebuilt(cls, item, lambda: EXPIRY_BUTTON_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        info = await bot.host.game_info(self.game_id)
        check_place(interaction, info)
        at_once = self.choice == "ai" or ai_seated(info)  # the AI may play on once the offer is answered
        work = bot.host.answer_expiry(self.game_id, actor_of(interaction), self.expiry_id, self.choice)
        deliveries = await within_ack(interaction, work, update=True, at_once=at_once)
        await retire_components(interaction)
        await bot.sender.deliver(deliveries)


def expiry_view(prompt: Prompt) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for choice in prompt.choices:
        if choice.action in ("claim", "wait", "ai") and prompt.expiry_id:
            view.add_item(ExpiryButton(prompt.game_id, prompt.expiry_id, choice.action, choice.label))
    return view


# ---------------------------------------------------------------------------------------------- private view
class HandButton(Handled, discord.ui.DynamicItem[Any], template=HAND_BUTTON_ID.template):
    #: the label (a catalog entry), in the language of the channel it is posted to
    LABEL = "Open my hand"

    def __init__(self, game_id: int, language: str = DEFAULT) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=localize(self.LABEL, language),
                style=discord.ButtonStyle.primary,
                custom_id=HAND_BUTTON_ID.build(game_id=game_id),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return rebuilt(cls, item, lambda: HAND_BUTTON_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        await show_hand(interaction, self.game_id, catch_up=True)


async def show_hand(interaction: Interaction, game_id: int, catch_up: bool = False) -> None:
    """The caller's private view, image and open decision, ephemerally (never to the channel)."""
    bot = bot_of(interaction)
    info = await bot.host.game_info(game_id)
    check_place(interaction, info)
    if catch_up and not interaction.response.is_done():
        # the button of closed DMs: the turn's catch-up digest comes first, as it would by DM; replaying and
        # drawing it may take longer than Discord's 3 s for a first answer, so say "thinking" at once
        await interaction.response.defer(ephemeral=True, thinking=True)
    snapshot = await within_ack(interaction, bot.host.hand(info.channel_id, actor_of(interaction)))
    if catch_up:
        await _catch_up_first(interaction, info)
    prompt = await bot.host.prompt_of(game_id, str(interaction.user.id))
    if prompt is not None and prompt.sealed and await bot.host.has_sealed(game_id, str(interaction.user.id)):
        prompt = None  # the choice is sealed: the hand's text says so, and nothing is left to pick
    language = await reader_language(interaction)
    form = form_text(prompt, snapshot.game_key, snapshot.view, language)
    prompt = localized_prompt(prompt, language)
    view = (
        prompt_view(prompt, game_key=snapshot.game_key, seat_view=snapshot.view, language=language)
        if prompt
        else None
    )
    await send(
        interaction,
        clip(f"{snapshot.text}\n\n{form}") if form else snapshot.text,
        ephemeral=True,
        view=view,
        file=await board_file(snapshot.game_key, snapshot.view, name="hand.png", language=language),
    )
    if view is not None:
        view.stop()


async def _catch_up_first(interaction: Interaction, info: GameInfo) -> None:
    seat = next((s.seat for s in info.seats if s.user_id == str(interaction.user.id)), None)
    caught = await bot_of(interaction).host.turn_digest(info.game_id, seat) if seat is not None else None
    if caught is None or caught.before is None or caught.after is None:
        return
    language = await reader_language(interaction)
    files = await digest_files(caught.game_key, caught.before, caught.after, language)
    await send(interaction, caught.text, files=files)


def hand_view(game_id: int, language: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id, language))
    return view


# ---------------------------------------------------------------------------------------------- answers ahead
async def answer_ahead(interaction: Interaction, game_id: int, seat: int, slot: str, action: str) -> None:
    """Keep the clicked answer for the seat's upcoming decision (the host refuses a slot that is no longer
    upcoming, or an action that does not answer it); the message keeps its buttons, so another click changes
    the answer until the decision comes. Only the clicker sees the answer."""
    await require_seat(interaction, game_id, seat)
    host = bot_of(interaction).host
    said = await within_ack(interaction, host.answer_ahead_slot(game_id, actor_of(interaction), slot, action))
    view = None
    if read_step_slot(slot) is not None and action != ASK:  # a turn answered step by step: the next step
        step = await host.turn_step_prompt(game_id, actor_of(interaction))
        language = await reader_language(interaction)
        view = ahead_view(localized_prompt(step, language) or step, language) if step is not None else None
        if step is not None:
            said = f"{said}\n\n{step.text}"
    await send(interaction, said, ephemeral=True, view=view)


class AheadButton(Handled, discord.ui.DynamicItem[Any], template=AHEAD_BUTTON_ID.template):
    def __init__(self, game_id: int, seat: int, slot: str, action: str, label: str = "") -> None:
        self.game_id, self.seat, self.slot, self.action = game_id, seat, slot, action
        ask = action == "ask"
        super().__init__(
            discord.ui.Button(
                label=fit(label, BUTTON_LABEL) or action,
                style=discord.ButtonStyle.secondary if ask else discord.ButtonStyle.primary,
                custom_id=AHEAD_BUTTON_ID.build(game_id=game_id, seat=seat, slot=slot, action=action),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AheadButton:
        return rebuilt(cls, item, lambda: AHEAD_BUTTON_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        await answer_ahead(interaction, self.game_id, self.seat, self.slot, self.action)


class AheadSelect(Handled, discord.ui.DynamicItem[Any], template=AHEAD_SELECT_ID.template):
    #: the select's placeholder (a catalog entry), in the reader's language
    PLACEHOLDER = "Answer ahead…"

    def __init__(
        self,
        game_id: int,
        seat: int,
        slot: str,
        options: list[discord.SelectOption] | None = None,
        language: str = DEFAULT,
    ) -> None:
        self.game_id, self.seat, self.slot = game_id, seat, slot
        super().__init__(
            discord.ui.Select(
                custom_id=AHEAD_SELECT_ID.build(game_id=game_id, seat=seat, slot=slot),
                placeholder=fit(translate(language, self.PLACEHOLDER), PLACEHOLDER),
                options=options or [discord.SelectOption(label="-", value="-")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AheadSelect:
        return rebuilt(cls, item, lambda: AHEAD_SELECT_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        if not values:
            raise HostError("Pick one of the answers.")
        await answer_ahead(interaction, self.game_id, self.seat, self.slot, str(values[0]))


def ahead_view(prompt: Prompt, language: str = DEFAULT) -> discord.ui.View | None:
    """An answer-ahead offer's components (``ahead_items``), or None when there are none; ``prompt`` is already
    in the reader's ``language`` (``localized_prompt``), the bot's own words follow it."""
    return ahead_prompts_view([prompt], language)


def ahead_prompts_view(prompts: list[Prompt], language: str = DEFAULT) -> discord.ui.View | None:
    """The components of several answer-ahead offers in one message (``/ahead``: a queued turn and what a sealed
    plan implies), each offer on rows of its own; ``prompts`` are already in the reader's ``language``."""
    view = discord.ui.View(timeout=None)
    row = 0
    for prompt in prompts:
        items = ahead_items(prompt, language)
        if not items or row >= 5:
            continue
        for item in items:
            item.row = row
            view.add_item(item)
        row += 1
    return view if view.children else None


def ahead_items(prompt: Prompt, language: str = DEFAULT) -> list[discord.ui.Item[Any]]:
    """An answer-ahead offer's components: a button per answer when they are few and fit in a custom_id, else
    one select of at most 25 (the first answers, and "ask me then"); the message's text names ``/ahead``, which
    takes any answer. None when even the select's id would not fit. The labels are the prompt's (already in
    the reader's ``language``), fitted once translated; the select's placeholder is in ``language`` too."""
    game_id, seat, slot = prompt.game_id, prompt.seat, prompt.decision_id
    choices = [c for c in prompt.choices if len(c.action) <= 100]
    if (
        choices
        and len(choices) <= BUTTONS_AT_MOST
        and all(AHEAD_BUTTON_ID.fits(game_id=game_id, seat=seat, slot=slot, action=c.action) for c in choices)
    ):
        labels = distinct_labels(
            [c.label or c.action for c in choices], BUTTON_LABEL, [c.action for c in choices]
        )
        return [
            AheadButton(game_id, seat, slot, c.action, label)
            for c, label in zip(choices, labels, strict=True)
        ]
    if not choices or not AHEAD_SELECT_ID.fits(game_id=game_id, seat=seat, slot=slot):
        return []
    if len(choices) > SELECT_SIZE:  # the first answers and the last choice ("ask me then")
        choices = [*choices[: SELECT_SIZE - 1], choices[-1]]
    labels = distinct_labels(
        [c.label or c.action for c in choices], OPTION_LABEL, [c.action for c in choices]
    )
    options = [
        discord.SelectOption(label=label, value=c.action, description=c.action)
        for c, label in zip(choices, labels, strict=True)
    ]
    return [AheadSelect(game_id, seat, slot, options, language)]


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ChoiceButton,
    ChoiceSelect,
    MoreChoices,
    LobbyButton,
    ExpiryButton,
    HandButton,
    AheadButton,
    AheadSelect,
    *FORM_ITEMS,
    *REPLAY_ITEMS,
    *LEAGUE_ITEMS,
)
