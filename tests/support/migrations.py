"""An older schema for the migration tests: a folder holding the project's migrations up to a number."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.storage import migration_files


def migrations_up_to(folder: Path, last: int) -> Path:
    """``folder`` (created) with a copy of every migration numbered ``last`` or lower."""
    folder.mkdir()
    for number, path in migration_files():
        if number <= last:
            shutil.copy(path, folder / path.name)
    return folder
