"""Nim's board: a row of stones per heap, and its words for screen readers."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import seat_label

from . import HEAPS

STONE = 24
ROW = 40


def render(view: dict[str, Any]) -> Image.Image:
    heaps: list[int] = view["heaps"]
    image = Image.new("RGB", (STONE * 6 + 80, ROW * (len(heaps) + 1)), "white")
    draw = ImageDraw.Draw(image)
    draw.text((8, 8), _status(view), fill="black")
    for row, (name, stones) in enumerate(zip(HEAPS, heaps, strict=True), start=1):
        draw.text((8, row * ROW + 6), name, fill="black")
        for stone in range(stones):
            left = 40 + stone * (STONE + 4)
            draw.ellipse((left, row * ROW, left + STONE, row * ROW + STONE), fill="grey", outline="black")
    return image


def _status(view: dict[str, Any]) -> str:
    names = [seat_label(view, seat) for seat in range(2)]
    if view["winner"] is not None:
        return f"{names[view['winner']]} took the last stone and won against {names[1 - view['winner']]}"
    return f"{names[view['turn']]} to take, {names[1 - view['turn']]} next"


def alt_text(view: dict[str, Any]) -> str:
    heaps = ", ".join(f"heap {name} {stones}" for name, stones in zip(HEAPS, view["heaps"], strict=True))
    return f"Nim: {_status(view)}. Stones left: {heaps}."
