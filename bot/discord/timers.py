"""The deadline loop: sleep until the next timer in the database is due (or one is added), fire, deliver.

Timers live in the database, so a restart simply re-reads them. Time comes from the host's clock; tests give
the host a fake clock and call ``fire_once`` themselves instead of waiting.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .app import PrincesBot

log = logging.getLogger(__name__)

#: never sleep longer than this: a suspended machine or a clock step is noticed within it
MAX_SLEEP_S = 300.0
#: after an unexpected failure, wait before trying again rather than spinning
BACKOFF_S = 30.0


class TimerLoop:
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="princes-table-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def fire_once(self) -> int:
        """Apply every due timer and post what it caused; returns how many deliveries went out."""
        async with self.bot.busy():
            deliveries = await self.bot.host.fire_due_timers()
            await self.bot.sender.deliver(deliveries)
        return len(deliveries)

    async def _run(self) -> None:
        host = self.bot.host
        while True:
            try:
                host.timers_changed.clear()
                due = await host.next_timer_due()
                delay = MAX_SLEEP_S if due is None else min(MAX_SLEEP_S, max(0.0, due - host.clock()))
                if delay > 0:
                    try:
                        await asyncio.wait_for(host.timers_changed.wait(), timeout=delay)
                        continue  # a new timer may be due sooner: recompute
                    except TimeoutError:
                        pass
                if await self.fire_once() == 0 and delay == 0:
                    await asyncio.sleep(1.0)  # a due timer that caused nothing: do not spin on it
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer loop failed; retrying in %.0f s", BACKOFF_S)
                await asyncio.sleep(BACKOFF_S)
