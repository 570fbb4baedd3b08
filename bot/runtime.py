"""Settings of a long-running bot process: when the garbage collector runs full collections, and how the C
allocator hands back memory.

CPython's full collection walks every container object the process holds, and on the reference machine that
costs about 0.15 us an object: 20 to 60 ms once a few rounds of the largest game are in memory, all of it added to
whichever player's action it lands on. Almost all of our objects are freed by reference counting; the cyclic
collector is only needed for the odd cycle. So, once start-up has loaded what lives as long as the process
(modules, game data, fonts), that is frozen out of the collector's sight, and full collections run ten times
less often than CPython's default (young collections are unchanged).

Each board image passes through buffers of a few megabytes (the pixels, the PNG). glibc serves blocks that large
with fresh ``mmap`` pages and unmaps them when freed, or trims the heap's top back to the system, so the next
image pays the page faults again: 2 to 4 ms of a 6 ms image on the reference machine. On glibc the bot keeps
such memory for reuse instead (``mallopt``: blocks under 64 MB from the heap, the heap trimmed only beyond
128 MB free); elsewhere nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging

log = logging.getLogger(__name__)

#: young-generation (1) collections between two full collections; CPython's default is 10
FULL_COLLECTION_EVERY = 100
#: glibc ``mallopt`` parameters (malloc.h) and the values the bot sets
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD_BYTES = 64 * 1024 * 1024
TRIM_THRESHOLD_BYTES = 128 * 1024 * 1024


def settle_heap() -> None:
    """Freeze what start-up loaded, space out full collections and keep large blocks for reuse. Call once,
    when start-up is done."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    keep_large_blocks()


def keep_large_blocks() -> bool:
    """On glibc, serve blocks under 64 MB from the heap and trim it only beyond 128 MB free (module doc).
    Returns whether the allocator took the settings (False on other C libraries)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    if not hasattr(libc, "gnu_get_libc_version"):  # only glibc numbers mallopt's parameters as here
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    done = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1
    done = mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES) == 1 and done
    if not done:
        log.info("the C allocator refused mallopt; large blocks are returned as it chooses")
    return done


__all__ = ["FULL_COLLECTION_EVERY", "keep_large_blocks", "settle_heap"]
