"""The bot process's garbage-collector settings (``bot.runtime``)."""

from __future__ import annotations

import gc

from bot.runtime import FULL_COLLECTION_EVERY, settle_heap


def test_settling_freezes_start_up_and_spaces_out_full_collections() -> None:
    thresholds = gc.get_threshold()
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0  # what was loaded so far is out of the collector's walks
        assert gc.get_threshold() == (thresholds[0], thresholds[1], FULL_COLLECTION_EVERY)
        survivor = [object()]  # objects made later are still collected as usual
        assert gc.is_tracked(survivor)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_large_blocks_are_kept_for_reuse_on_glibc() -> None:
    import platform

    from bot.runtime import keep_large_blocks

    assert keep_large_blocks() is (platform.libc_ver()[0] == "glibc")
