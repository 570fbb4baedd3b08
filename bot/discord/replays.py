"""Replays on Discord: the animated replay of a game that is over, and a step-through of its boards.

- ``/game replay`` answers the asker (ephemerally): "drawing frame k of n" while the frames are drawn in a worker
  process, then the animated GIF with the step-through buttons under it.
- A game's end posts its replay with the result (table option ``replay``, on by default): ``replay_post``.
- Step-through: a message with the board at one step, buttons to the start, one back, one on and the end, and a
  select to jump to a round (or, for games without rounds, to evenly spaced actions). On an ephemeral message a
  click edits it in place; on the public result message it opens the clicker's own ephemeral step-through.

custom_id layouts (``STEP_BUTTON_ID``, ``JUMP_SELECT_ID``, ``bot.discord.custom_ids``; every field is checked: a
custom_id is untrusted input):

- ``pt:r:<game>:<step>:<slot>``  a button showing step ``<step>``; ``<slot>`` (f, b, n, l, s) keeps the ids of
  one message's buttons distinct
- ``pt:j:<game>``                 the jump select; its values are step numbers
"""

from __future__ import annotations

import asyncio
import atexit
import io
import logging
import multiprocessing
import re
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.models import HostError
from bot.replay import (
    Animation,
    GameLog,
    Step,
    animate,
    board_at,
    draw_animation,
    load_log,
    rounds,
    share_progress,
    steps,
)
from bot.workers import Workers
from i18n import DEFAULT, localize, translate
from render import rendered_games

from .common import Handled, Interaction, bot_of, clip, file_name, reader_language, send, within_ack
from .custom_ids import IdFormat, digits, one_of

if TYPE_CHECKING:
    from .app import PrincesBot

log = logging.getLogger(__name__)

_GAME = ("game_id", digits(19))
STEP_BUTTON_ID = IdFormat("pt:r", (_GAME, ("step", digits(7)), ("slot", one_of("f", "b", "n", "l", "s"))))
JUMP_SELECT_ID = IdFormat("pt:j", (_GAME,))
#: how often the "drawing frame k of n" answer is edited while a replay is drawn, and how often the frames drawn
#: are read from the drawing process
PROGRESS_EVERY_S = 2.0
PROGRESS_POLL_S = 0.1
#: finished replays kept per process (a game that is over never changes), and their bytes at most
CACHE_ENTRIES = 8
CACHE_BYTES = 48 * 1024 * 1024
SELECT_OPTIONS = 25


class ReplayService:
    """One per bot: draws one animation at a time (it is CPU work) and keeps recent ones (one per game and
    language: the captions and the boards' words are in the reader's language)."""

    def __init__(self) -> None:
        self.drawing = asyncio.Lock()
        self._done: OrderedDict[tuple[int, str], Animation] = OrderedDict()

    def cached(self, game_id: int, language: str = DEFAULT) -> Animation | None:
        animation = self._done.get((game_id, language))
        if animation is not None:
            self._done.move_to_end((game_id, language))
        return animation

    def keep(self, game_id: int, animation: Animation, language: str = DEFAULT) -> None:
        self._done[(game_id, language)] = animation
        while len(self._done) > CACHE_ENTRIES or sum(len(a.data) for a in self._done.values()) > CACHE_BYTES:
            self._done.popitem(last=False)

    async def animation(
        self, bot: PrincesBot, game_id: int, progress: list[int] | None = None, language: str = DEFAULT
    ) -> Animation:
        """The game's animated replay in ``language``, drawn in a worker process (``progress`` gets [frames drawn,
        frames])."""
        found = self.cached(game_id, language)
        if found is not None:
            return found
        game_log = await load_log(bot.host.store, game_id)
        async with self.drawing:
            found = self.cached(game_id, language)
            if found is not None:
                return found

            animation = await ANIMATION_WORKER.draw(game_log, language, progress)
        self.keep(game_id, animation, language)
        return animation


class AnimationWorker:
    """The process that draws animated replays, one at a time (``bot.workers``: the seconds of Python work a
    replay takes, in a thread, made every command answered meanwhile wait), and what it has drawn so far."""

    def __init__(self) -> None:
        self._workers: Workers | None = None
        self._drawn: Any = None

    async def draw(self, game_log: GameLog, language: str, progress: list[int] | None) -> Animation:
        """``animate``'s animation of ``game_log`` in ``language``; ``progress`` gets [frames drawn, frames]."""
        if self._workers is None:
            self._drawn = multiprocessing.get_context("spawn").Array("i", 2)
            share_progress(self._drawn)  # a drawing that falls back to a thread reports here too
            self._workers = Workers(1, share_progress, (self._drawn,))
        self._drawn[:] = [0, 0]
        drawing = asyncio.ensure_future(self._workers.run(draw_animation, animate, game_log, language))
        while not drawing.done():
            await asyncio.wait({drawing}, timeout=PROGRESS_POLL_S)
            if progress is not None:  # read after each wait, the last one included: the final count arrives
                progress[:] = self._drawn[:]
        return drawing.result()

    def shutdown(self) -> None:
        if self._workers is not None:
            self._workers.shutdown()


#: one drawing process per bot process, started by the first replay
ANIMATION_WORKER = AnimationWorker()
atexit.register(ANIMATION_WORKER.shutdown)


_SERVICES: weakref.WeakKeyDictionary[Any, ReplayService] = weakref.WeakKeyDictionary()


def service_of(bot: PrincesBot) -> ReplayService:
    service = _SERVICES.get(bot)
    if service is None:
        service = _SERVICES[bot] = ReplayService()
    return service


# ---------------------------------------------------------------------------------------------- the game's end
async def replay_post(
    bot: PrincesBot, game_id: int, language: str = DEFAULT
) -> tuple[list[discord.File], discord.ui.View | None, str]:
    """What the result message adds when the table wants the replay: the GIF, a "Step through" button and a line
    saying what the frames are (the line in English: the sender localises it; the GIF and the button in
    ``language``, the channel's). Drawing must not cost the result its post: on failure, a line says so."""
    kind = await bot.host.game_kind(game_id)
    if kind is None or kind not in rendered_games():  # a game without pictures (test games)
        return [], None, ""
    try:
        animation = await service_of(bot).animation(bot, game_id, language=language)
    except Exception:  # the result goes out all the same; /game replay can try again
        log.exception("game %s: drawing the replay failed", game_id)
        return [], None, "The replay could not be drawn; /game replay may try again."
    view = discord.ui.View(timeout=None)
    view.add_item(StepButton(game_id, 0, "s", translate(language, "Step through the game")))
    line = f"Replay: {_frames(animation)} ({_per(animation)})."
    name = file_name(f"replay-{game_id}.gif", language)
    return [discord.File(io.BytesIO(animation.data), filename=name)], view, line


def replay_text(title: str, animation: Animation) -> str:
    """The answer to /game replay that comes with the animation (English: the caller localises it)."""
    return f"Replay of {title}: {_frames(animation)} ({_per(animation)}). Step through it with the buttons."


def _frames(animation: Animation) -> str:
    return f"{animation.frames} frame{'s' if animation.frames != 1 else ''}"


def _per(animation: Animation) -> str:
    return animation.describe().split("(", 1)[1].split(")", 1)[0]


# ---------------------------------------------------------------------------------------------- /game replay
async def answer_replay(interaction: Interaction, game_id: int, step: int | None) -> None:
    """``/game replay``: the step's board, or the animation drawn with progress shown, to the asker only."""
    bot = bot_of(interaction)
    if step is not None:
        await show_step(interaction, game_id, step, in_place=False)
        return
    service = service_of(bot)
    await log_here(interaction, game_id)  # refuses a game still being played, or another server's
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    language = await reader_language(interaction)
    progress = [0, 0]
    drawing = asyncio.ensure_future(service.animation(bot, game_id, progress, language))
    while True:
        done, _ = await asyncio.wait({drawing}, timeout=PROGRESS_EVERY_S)
        if done:
            break
        text = "Waiting for another replay to finish…"
        if progress[1]:
            text = f"Drawing the replay: frame {progress[0]} of {progress[1]}…"
        try:
            await interaction.edit_original_response(content=localize(text, language))
        except discord.HTTPException as error:  # progress is a courtesy: never fail the answer for it
            log.info("replay progress not shown (%s)", error)
    animation = drawing.result()
    game_log = await log_here(interaction, game_id)
    view = step_view(game_id, 0, await asyncio.to_thread(steps, game_log), first=True, language=language)
    text = replay_text(game_log.title, animation)
    file = discord.File(io.BytesIO(animation.data), filename=file_name(f"replay-{game_id}.gif", language))
    await interaction.edit_original_response(
        content=clip(localize(text, language)), attachments=[file], view=view
    )
    view.stop()


async def log_here(interaction: Interaction, game_id: int) -> GameLog:
    """The game's log, if it is over and was played on this server (its log is that server's, not the world's)."""
    game_log = await load_log(bot_of(interaction).host.store, game_id)
    guild = str(interaction.guild_id) if interaction.guild_id is not None else None
    if game_log.guild_id != guild:
        raise HostError(f"There is no game #{game_id} on this server.")
    return game_log


# ---------------------------------------------------------------------------------------------- step-through
@dataclass(frozen=True)
class Shown:
    step: Step
    png: bytes
    all_steps: list[Step]
    title: str


def _show(game_log: GameLog, index: int, language: str = DEFAULT) -> Shown:
    step, png, all_steps = board_at(game_log, index, language)
    return Shown(step, png, all_steps, game_log.title)


async def show_step(interaction: Interaction, game_id: int, index: int, in_place: bool) -> None:
    """The board at step ``index`` with the step-through components: the clicked ephemeral message edited in
    place, else a new answer to the clicker only; in the clicker's language."""
    language = await reader_language(interaction)

    async def work() -> Shown:
        game_log = await log_here(interaction, game_id)
        if index > len(game_log.events):
            raise HostError(f"{game_log.title} has {len(game_log.events)} steps; there is no step {index}.")
        return await asyncio.to_thread(_show, game_log, index, language)

    # a replay and a drawing, heavy under a flood of clicks: acknowledged at once (the acknowledgement policy)
    shown = await within_ack(interaction, work(), update=in_place, at_once=True)
    step = shown.step
    text = clip(step_text(shown.title, step, language))
    view = step_view(game_id, step.index, shown.all_steps, language=language)
    file = discord.File(
        io.BytesIO(shown.png), filename=file_name(f"replay-{game_id}-{step.index}.png", language)
    )
    try:
        if in_place:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, attachments=[file], view=view)
            else:
                await interaction.response.edit_message(content=text, attachments=[file], view=view)
        else:
            await send(interaction, text, ephemeral=True, file=file, view=view)
    finally:
        view.stop()


def step_text(title: str, step: Step, language: str = DEFAULT) -> str:
    """The step-through message: the game, where the step is, and what happened, in ``language``."""
    return f"**{title}** · {step.caption(language)}\n{step.said(language)}"


def step_view(
    game_id: int, index: int, all_steps: list[Step], first: bool = False, language: str = DEFAULT
) -> discord.ui.View:
    """Start / Back / Next / End buttons (those leading nowhere disabled) and the jump select, in ``language``."""
    last = len(all_steps) - 1
    view = discord.ui.View(timeout=None)
    start = f"⏮ {translate(language, 'Start')}"
    back, on, end = (
        f"◀ {translate(language, 'Back')}",
        f"{translate(language, 'Next')} ▶",
        f"{translate(language, 'End')} ⏭",
    )
    targets: tuple[tuple[str, int, str], ...] = (
        ("f", 0, start),
        ("b", index - 1, back),
        ("n", index + 1, on),
        ("l", last, end),
    )
    if first:  # the animation's message: begin at the start
        targets = (("f", 0, start), ("n", 1, on), ("l", last, end))
    for slot, target, label in targets:
        useless = not 0 <= target <= last or (target == index and not first)
        view.add_item(StepButton(game_id, max(0, min(target, last)), slot, label, disabled=useless))
    options = jump_options(all_steps, index, language)
    if len(options) > 1:
        view.add_item(JumpSelect(game_id, options, translate(language, "Jump to…")))
    return view


def jump_options(all_steps: list[Step], index: int, language: str = DEFAULT) -> list[discord.SelectOption]:
    """Rounds (the step each starts at), or for games without rounds up to 25 evenly spaced actions."""
    found = rounds(all_steps)
    if found:
        if len(found) > SELECT_OPTIONS:
            stride = -(-len(found) // SELECT_OPTIONS)
            found = found[::stride]
        choices = [(first, translate(language, "Round {round}", round=number)) for number, first in found]
    else:
        last = len(all_steps) - 1
        spots = (
            sorted({round(k * last / (SELECT_OPTIONS - 1)) for k in range(SELECT_OPTIONS)}) if last else [0]
        )
        choices = [
            (spot, translate(language, "Start") if spot == 0 else translate(language, "Action {n}", n=spot))
            for spot in spots
        ]
    return [
        discord.SelectOption(label=label, value=str(step), default=step == index)
        for step, label in choices[:SELECT_OPTIONS]
    ]


async def _clicked(interaction: Interaction, game_id: int, index: int) -> None:
    message = interaction.message
    in_place = bool(message is not None and message.flags.ephemeral)
    await show_step(interaction, game_id, index, in_place)


class StepButton(Handled, discord.ui.DynamicItem[Any], template=STEP_BUTTON_ID.template):
    def __init__(self, game_id: int, step: int, slot: str, label: str = "", disabled: bool = False) -> None:
        self.game_id, self.step, self.slot = game_id, step, slot
        super().__init__(
            discord.ui.Button(
                label=label or f"Step {step}",
                style=discord.ButtonStyle.secondary,
                custom_id=STEP_BUTTON_ID.build(game_id=game_id, step=step, slot=slot),
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StepButton:
        return cls(**STEP_BUTTON_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        await _clicked(interaction, self.game_id, self.step)


class JumpSelect(Handled, discord.ui.DynamicItem[Any], template=JUMP_SELECT_ID.template):
    def __init__(
        self, game_id: int, options: list[discord.SelectOption] | None = None, placeholder: str = "Jump to…"
    ) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Select(
                custom_id=JUMP_SELECT_ID.build(game_id=game_id),
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="Start", value="0")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JumpSelect:
        return cls(**JUMP_SELECT_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        values = dict(interaction.data or {}).get("values")
        value = str(values[0]) if isinstance(values, list) and values else ""
        if not (value.isascii() and value.isdigit() and len(value) <= 7):
            raise HostError("Pick one of the steps in the list.")
        await _clicked(interaction, self.game_id, int(value))


REPLAY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (StepButton, JumpSelect)
