"""What the renderers draw: every text passed to ``ImageDraw.text`` while a test draws boards."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw


def record_drawn_text(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A list that receives each text drawn from now on (the drawing still happens)."""
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    return drawn
