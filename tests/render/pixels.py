"""Measuring pictures the way a reader sees them: a label's contrast with what surrounds its letters, and the
texts a renderer draws."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image, ImageDraw, ImageFilter

from render.common import contrast_ratio, font

Colour = tuple[int, int, int]


def _colours(image: Image.Image, mask: Image.Image) -> Counter[Colour]:
    found: Counter[Colour] = Counter()
    for colour, selected in zip(image.get_flattened_data(), mask.get_flattened_data(), strict=True):
        if selected:
            found[colour] += 1
    return found


def label_surround(
    image: Image.Image, centre: tuple[float, float], text: str, text_px: int
) -> tuple[Colour, Colour, float]:
    """A label drawn centred on ``centre``: its glyphs' colour, the commonest colour 2-3 px from its letters
    and the share of that ring this colour covers."""
    pad = text_px * 2
    box = (int(centre[0]) - pad, int(centre[1]) - pad, int(centre[0]) + pad, int(centre[1]) + pad)
    crop = image.convert("RGB").crop(box)
    mask = Image.new("L", crop.size, 0)
    local = (centre[0] - box[0], centre[1] - box[1])
    ImageDraw.Draw(mask).text(local, text, font=font(text_px), fill=255, anchor="mm")
    core = mask.point(lambda v: 255 if v >= 220 else 0)
    touched = mask.point(lambda v: 255 if v else 0)
    near, outer = touched.filter(ImageFilter.MaxFilter(3)), touched.filter(ImageFilter.MaxFilter(7))
    ring = Image.composite(Image.new("L", crop.size, 0), outer, near)
    glyph = _colours(crop, core).most_common(1)[0][0]
    around = _colours(crop, ring)
    backdrop, count = around.most_common(1)[0]
    return glyph, backdrop, count / sum(around.values())


def readability(
    image: Image.Image, centre: tuple[float, float], text: str, text_px: int
) -> tuple[float, float]:
    """The WCAG contrast between a label's glyphs and the colour around its letters, and how much of the
    ring around the letters that colour covers (a ridge or a dark outline crossing the letters lowers it)."""
    glyph, backdrop, share = label_surround(image, centre, text, text_px)
    return contrast_ratio(glyph, backdrop), share


@contextmanager
def drawn_texts() -> Iterator[list[str]]:
    """Every text drawn through ``ImageDraw.text`` while the block runs (every renderer draws text so)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        texts.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = recording  # type: ignore[method-assign]
    try:
        yield texts
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
