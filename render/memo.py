"""The bounded memo renderers keep their pure results in (drawings, deflated PNG bands).

Shared by the threads that render, so a lock guards it; values depend only on their keys, so a lost race only
makes something twice. The least recently used entry goes first once the entries weigh more than the limit
(each weighs 1 unless a ``weigh`` function says otherwise, such as the bytes a deflated band holds).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Values by key, bounded by their total weight; counts its hits and misses."""

    def __init__(self, limit: int, weigh: Callable[[V], int] | None = None) -> None:
        self.limit = limit
        self.size = 0  # the entries' total weight
        self.hits = 0
        self.misses = 0
        self._weigh = weigh or (lambda _value: 1)
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.size -= self._weigh(old)
            self._entries[key] = value
            self.size += self._weigh(value)
            while self.size > self.limit and self._entries:
                _, dropped = self._entries.popitem(last=False)
                self.size -= self._weigh(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.size = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["Memo"]
