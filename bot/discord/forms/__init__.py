"""The guided forms (``forms``) on Discord: their pages as components, their clicks dispatched (see :mod:`.base`).

The games' forms themselves live in ``forms/<package>.py``, free of Discord; this package holds only the Discord
side, the same for every game.
"""

from __future__ import annotations

from .base import FORM_IDS, FORM_ITEMS, form_item, form_view, inline_page, open_button

__all__ = ["FORM_IDS", "FORM_ITEMS", "form_item", "form_view", "inline_page", "open_button"]
