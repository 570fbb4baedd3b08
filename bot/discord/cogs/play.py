"""Playing: ``/move`` (autocompleted from the caller's legal actions), ``/undo``, ``/board``, ``/hand``, ``/log``,
``/catchup``, ``/orders`` (standing orders: answers given in advance, only ever shown to their owner).

Answers to the caller are ephemeral from the first response, so a sealed or private choice typed in a channel is
never shown there; what the table should see (board, log, who is next) is posted by the sender.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.host import Host, HostError
from bot.models import Choice, Delivery
from forms import short_label
from forms.labels import CHOICE_NAME, distinct_labels
from i18n import localize

from ..app import PrincesBot
from ..common import (
    Interaction,
    actor_of,
    ai_plays,
    board_file,
    bot_of,
    chunks,
    digest_files,
    heavy,
    localized_prompt,
    reader_language,
    send,
    within_ack,
)
from ..components import ahead_prompts_view, show_hand
from ..where import caller_channel, caller_game, caller_game_id, on_caller_game

AUTOCOMPLETE_LIMIT = 25
#: Discord's longest autocomplete value: what ``/move`` receives, so it is never cut (a cut move is another one)
CHOICE_VALUE = 100


async def move_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's legal actions containing what they typed (25 at most); nothing when it is not their game."""
    bot = bot_of(interaction)
    game_id = getattr(interaction.namespace, "game", None)
    user_id = str(interaction.user.id)
    try:
        remembered = used = await caller_game_id(interaction, game_id)
        choices = await bot.host.suggestions(remembered, user_id, current, AUTOCOMPLETE_LIMIT)
        if not choices:  # perhaps a new game replaced the remembered one
            current_id = await caller_game_id(interaction, game_id, fresh=True)
            if current_id != remembered:
                choices = await bot.host.suggestions(current_id, user_id, current, AUTOCOMPLETE_LIMIT)
                used = current_id
        language = await bot.host.user_language(user_id, str(interaction.locale))
        game_key = (await bot.host.game_info(used)).key if choices else None
    except Exception:  # autocomplete must never fail loudly: an empty list says "nothing to play here"
        return []
    return move_choices(choices, language, game_key)


def move_choices(
    choices: list[Choice], language: str, game_key: str | None = None
) -> list[app_commands.Choice[str]]:
    """``/move``'s list: each value the action itself (no game's action is longer than Discord's 100
    characters, ``tests/i18n/test_labels.py``; one that were would be left out, never cut into another move),
    each name whole words and no two alike (issue 46): the game's own short label where it has one (a The
    Prince battle plan: ``Form.choice_label``), else the notation with the label in the player's language."""
    playable = [choice for choice in choices if len(choice.action) <= CHOICE_VALUE]
    names = []
    for choice in playable:
        short = short_label(game_key, choice.action, language)
        names.append(short[0] if short else _label(choice.action, choice.label, language))
    fitted = distinct_labels(names, CHOICE_NAME, [choice.action for choice in playable])
    return [
        app_commands.Choice(name=name, value=choice.action)
        for name, choice in zip(fitted, playable, strict=True)
    ]


def _label(action: str, label: str, language: str) -> str:
    """``action — description`` with the description in ``language`` (the notation before it stays)."""
    head = f"{action} — "
    if label.startswith(head):
        return head + localize(label[len(head) :], language)
    return localize(label, language)


async def _order_topics(interaction: Interaction) -> list[tuple[str, str, list[tuple[str, str]]]]:
    bot = bot_of(interaction)
    info = await caller_game(interaction, getattr(interaction.namespace, "game", None))
    return bot.host.order_topics(info.key)


async def _autocomplete_language(interaction: Interaction) -> str:
    """The language of an autocomplete list: the caller's (only they see it)."""
    return await bot_of(interaction).host.user_language(str(interaction.user.id), str(interaction.locale))


async def order_topic_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The standing-order topics of the caller's game, each title in the caller's language (the key, which the
    command takes, stays); what was typed is looked for in the key and in the title in either language."""
    typed = current.strip().lower()
    try:
        topics = await _order_topics(interaction)
        language = await _autocomplete_language(interaction)
    except Exception:  # autocomplete must never fail loudly: an empty list says "nothing here"
        return []
    shown = [
        (key, localize(title, language))
        for key, title, _choices in topics
        if typed in key or typed in title.lower() or typed in localize(title, language).lower()
    ]
    return keyed_choices(shown[:AUTOCOMPLETE_LIMIT])


async def order_choice_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The choices of the topic already given in the command, each described in the caller's language."""
    topic = getattr(interaction.namespace, "topic", None)
    typed = current.strip().lower()
    try:
        topics = await _order_topics(interaction)
        language = await _autocomplete_language(interaction)
    except Exception:
        return []
    choices = next((choices for key, _title, choices in topics if key == topic), [])
    shown = [
        (choice, localize(text, language))
        for choice, text in choices
        if typed in choice or typed in text.lower() or typed in localize(text, language).lower()
    ]
    return keyed_choices(shown[:AUTOCOMPLETE_LIMIT])


def keyed_choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """Autocomplete choices named ``key: title`` (whole words, no two alike; ``title`` already in the reader's
    language, so the name is fitted once translated), each sending its key."""
    names = distinct_labels(
        [f"{key}: {title}" for key, title in pairs], CHOICE_NAME, [key for key, _ in pairs]
    )
    return [app_commands.Choice(name=name, value=key) for name, (key, _) in zip(names, pairs, strict=True)]


class PlayCog(commands.Cog):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot

    @property
    def host(self) -> Host:
        return self.bot.host

    @app_commands.command(name="move", description="Make your move (start typing: it lists your legal moves)")
    @app_commands.describe(
        notation="your move in the game's notation; the list shows what is legal now",
        game="game number, when you play several and type this in a DM",
    )
    @app_commands.autocomplete(notation=move_autocomplete)
    async def move(self, interaction: Interaction, notation: str, game: int | None = None) -> None:
        actor = actor_of(interaction)

        async def play(game_id: int) -> list[Delivery]:
            at_once = await ai_plays(interaction, game_id)  # the AI answers before the host returns
            work = self.host.act(game_id, actor, notation)
            return await within_ack(interaction, work, ephemeral=True, at_once=at_once)

        deliveries = await on_caller_game(interaction, game, play)
        await self.bot.sender.deliver_while(deliveries, send(interaction, f"Done: `{notation.strip()}`."))

    @app_commands.command(name="undo", description="Take back your last move, where the game allows it")
    @app_commands.describe(game="game number, when you play several and type this in a DM")
    async def undo(self, interaction: Interaction, game: int | None = None) -> None:
        channel = await caller_channel(interaction, game)
        deliveries = await within_ack(interaction, self.host.undo(channel, actor_of(interaction)))
        await send(interaction, "Taken back.")
        await self.bot.sender.deliver(deliveries)

    @app_commands.command(name="board", description="Show the board (only to you)")
    @app_commands.describe(
        region="zoom on a part of the map, where the game has regions",
        game="game number, when you play several and type this in a DM",
    )
    async def board(
        self, interaction: Interaction, region: str | None = None, game: int | None = None
    ) -> None:
        channel = await caller_channel(interaction, game)
        snapshot = await within_ack(interaction, self.host.board(channel, region))
        # the image's words, its alt text and file name in the language of the one who asked
        language = await reader_language(interaction)
        file = await board_file(snapshot.game_key, snapshot.view, region, language=language)
        await send(interaction, snapshot.text, file=file)

    @app_commands.command(name="hand", description="Your private view and choices (only to you)")
    @app_commands.describe(game="game number, when you play several and type this in a DM")
    async def hand(self, interaction: Interaction, game: int | None = None) -> None:
        info = await caller_game(interaction, game)
        await show_hand(interaction, info.game_id)

    @app_commands.command(
        name="orders", description="Your standing orders: answers the host gives for you (only to you)"
    )
    @app_commands.describe(
        topic="what the order answers (a topic of the game's: /orders lists them); leave empty to list your orders",
        choice="the answer: ask (ask me, the default) or one the list offers",
        names="for the choices that take names (places, cards...), separated by commas",
        game="game number, when you play several and type this in a DM",
    )
    @app_commands.autocomplete(topic=order_topic_autocomplete, choice=order_choice_autocomplete)
    async def orders(
        self,
        interaction: Interaction,
        topic: str | None = None,
        choice: str | None = None,
        names: app_commands.Range[str, 0, 500] | None = None,
        game: int | None = None,
    ) -> None:
        channel = await caller_channel(interaction, game)
        actor = actor_of(interaction)
        if topic is None:
            text = await within_ack(interaction, self.host.orders_text(channel, actor))
        elif choice is None:
            raise HostError("Give the order's choice too (ask sets it back to asking you).")
        else:
            text = await within_ack(
                interaction, self.host.set_order(channel, actor, topic, choice, names or "")
            )
        for part in chunks(text):
            await send(interaction, part)

    @app_commands.command(
        name="ahead",
        description="Answer ahead: your own next turn step by step, a later turn, or what your plan implies",
    )
    @app_commands.describe(
        answers="your answer and up to 2 fallbacks, comma-separated; empty: list them",
        game="game number, when you play several and type this in a DM",
    )
    async def ahead(
        self,
        interaction: Interaction,
        answers: app_commands.Range[str, 0, 300] | None = None,
        game: int | None = None,
    ) -> None:
        channel = await caller_channel(interaction, game)
        actor = actor_of(interaction)
        view = None
        if answers:
            text = await within_ack(interaction, self.host.answer_ahead(channel, actor, answers))
        else:
            text = await within_ack(interaction, self.host.ahead_text(channel, actor))
            # the offers' buttons and select in the caller's language, as the answer's text (``send``)
            language = await reader_language(interaction)
            prompts = await self.host.ahead_prompts(channel, actor)
            offers = [localized_prompt(prompt, language) or prompt for prompt in prompts]
            view = ahead_prompts_view(offers, language)
        parts = chunks(text)
        for number, part in enumerate(parts):
            await send(interaction, part, view=view if number == len(parts) - 1 else None)
        if view is not None:
            view.stop()  # dynamic items dispatch by custom_id; the view object need not stay in memory

    @app_commands.command(name="log", description="What happened lately in the game (only to you)")
    @app_commands.describe(
        n="how many lines (default 20)", game="game number, when you play several and type this in a DM"
    )
    async def log(
        self, interaction: Interaction, n: app_commands.Range[int, 1, 200] = 20, game: int | None = None
    ) -> None:
        channel = await caller_channel(interaction, game)
        parts = chunks(await self.host.log(channel, n))
        for part in parts[-3:]:  # at most three messages, the most recent lines last
            await send(interaction, part)

    @heavy("catchup")  # replaying the game and drawing two boards: "thinking" at once, limited
    @app_commands.command(name="catchup", description="What happened since your last move (only to you)")
    @app_commands.describe(game="game number, when you play several and type this in a DM")
    async def catchup(self, interaction: Interaction, game: int | None = None) -> None:
        channel = await caller_channel(interaction, game)
        caught = await self.host.catchup(channel, actor_of(interaction))
        files = None
        if caught.before is not None and caught.after is not None:
            language = await reader_language(interaction)
            files = await digest_files(caught.game_key, caught.before, caught.after, language)
        await send(interaction, caught.text, files=files)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(PlayCog(bot))
