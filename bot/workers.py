"""Worker processes for long Python work beside the bot's event loop: AI searches, animated replays.

Python work in a thread holds the interpreter's lock: every time the loop's own Python work (any command's answer)
wants the lock back it waits up to the switch interval (5 ms), and an answer asks for it dozens of times. A second
of search in a thread made a person's move take about 100 ms (``bench ai``), and replays drawn in threads
doubled the p99 of the other tables' moves (``bench discord``: 72 ms, 33 ms with a process). Processes work
beside the loop instead, at a lower priority, and at most ``size`` at once, so that the work of many games shares
the cores through one queue (first asked, first served) rather than crowding out the bot. A pool starts on its
first job (processes are spawned, not forked: the bot's threads must not be copied) and starts again if a worker
dies.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

#: how much lower the workers' priority is than the bot's (Unix nice increment)
WORKER_NICENESS = 5
#: how often a worker checks that the bot which started it is still there (seconds)
PARENT_CHECK_S = 1.0

Result = TypeVar("Result")


def _lower_priority() -> None:
    """Workers yield the processor to the bot's own process: a person's command comes before an AI's thought."""
    os.nice(WORKER_NICENESS)


class Workers:
    """A small pool of lower-priority processes; ``run`` awaits a function's result from one of them.

    ``initializer(*initargs)`` runs in each process as it starts (after lowering its priority): what it is given
    there is how a process shares memory with the bot (a ``multiprocessing`` array, say), which a job's arguments
    cannot carry. A function or argument a process cannot receive (a function defined inside a test) runs in a
    thread instead, as does a job whose process died.
    """

    def __init__(
        self, size: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
    ) -> None:
        self.size = size
        self._initializer = initializer
        self._initargs = initargs
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self._initializer, self._initargs),
            )
        return self._pool

    async def run(self, function: Callable[..., Result], *args: Any) -> Result:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), function, *args)
        except BrokenProcessPool:  # a worker was killed: start a fresh pool, and run this once in a thread
            self.shutdown()
        except (pickle.PicklingError, AttributeError) as error:
            if "pickle" not in str(error):
                raise
            # a function or argument a process cannot import (one defined by a test): it runs in a thread
        return await asyncio.to_thread(function, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    _lower_priority()
    threading.Thread(target=_leave_with, args=(os.getppid(),), name="leave-with-the-bot", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _leave_with(parent: int) -> None:
    """End this worker once the bot that started it is gone: a bot killed outright (``kill -9``, a crash, a
    signal it does not handle) cannot shut its pool down, and a worker holds both ends of its job queue, so it
    would wait for jobs for ever (each bot restart leaving one more process behind)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)
