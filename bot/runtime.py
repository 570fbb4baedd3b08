"""Settings of a long-running bot process: when the garbage collector runs full collections.

CPython's full collection walks every container object the process holds, and on the reference machine that
costs about 0.15 us an object: 20 to 60 ms once a few rounds of PRINCIPES are in memory, all of it added to
whichever player's action it lands on. Almost all of our objects are freed by reference counting; the cyclic
collector is only needed for the odd cycle. So, once start-up has loaded what lives as long as the process
(modules, game data, fonts), that is frozen out of the collector's sight, and full collections run ten times
less often than CPython's default (young collections are unchanged).
"""

from __future__ import annotations

import gc

#: young-generation (1) collections between two full collections; CPython's default is 10
FULL_COLLECTION_EVERY = 100


def settle_heap() -> None:
    """Freeze what start-up loaded and space out full collections. Call once, when start-up is done."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


__all__ = ["FULL_COLLECTION_EVERY", "settle_heap"]
