"""The banded palette PNG writer: valid PNGs with exactly the image's pixels, bands deflated once."""

from __future__ import annotations

import io
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from render.common import PaletteDraw, encode_png, palette_index, text_patch, to_palette
from render.png import BAND_ROWS, BandCache, adler32_combine, encode_palette_png


def _palette_image(width: int, height: int, seed: int) -> Image.Image:
    image = Image.new("P", (width, height), seed % 7)
    image.putpalette([(i * 37 + seed) % 256 for i in range(768)])
    draw = ImageDraw.Draw(image)
    for step in range(5):
        x, y = (seed * (step + 3)) % width, (seed * (step + 5)) % height
        draw.rectangle((x, y, x + width // 3, y + height // 4), fill=(seed + step * 11) % 256)
    return image


@settings(max_examples=40, deadline=None)
@given(
    width=st.integers(1, 70),
    height=st.integers(1, 3 * BAND_ROWS + 5),
    seed=st.integers(0, 10_000),
)
def test_a_palette_png_decodes_to_the_same_pixels_and_palette(width: int, height: int, seed: int) -> None:
    image = _palette_image(width, height, seed)
    png = encode_palette_png(image, BandCache())
    decoded = Image.open(io.BytesIO(png))
    decoded.load()  # the decoder checks the chunks' CRCs and the zlib stream's Adler-32
    assert decoded.mode == "P" and decoded.size == image.size
    assert decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == image.getpalette()


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_adler32_combine_is_the_checksum_of_the_concatenation(first: bytes, second: bytes) -> None:
    combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_bands_seen_before_are_not_deflated_again() -> None:
    cache = BandCache()
    image = _palette_image(64, 8 * BAND_ROWS, 3)
    first = encode_palette_png(image, cache)
    assert cache.hits + cache.misses == 8  # one look-up a band
    changed = image.copy()
    ImageDraw.Draw(changed).rectangle((0, 0, 5, 5), fill=200)  # touches the first band only
    misses = cache.misses
    second = encode_palette_png(changed, cache)
    assert cache.misses == misses + 1
    assert encode_palette_png(image, cache) == first  # same pixels, same bytes, all from the cache
    assert Image.open(io.BytesIO(second)).tobytes() == changed.tobytes()


def test_the_band_cache_is_bounded_by_its_deflated_bytes() -> None:
    cache = BandCache(limit=4_000)
    for seed in range(40):
        encode_palette_png(_palette_image(200, 4 * BAND_ROWS, seed * 101), cache)
        assert cache.size <= 4_000
    assert cache.size > 0


def test_encode_png_maps_full_colour_images_to_the_palette() -> None:
    image = Image.new("RGB", (50, 40), (246, 241, 228))
    ImageDraw.Draw(image).rectangle((5, 5, 20, 20), fill=(208, 42, 46))
    decoded = Image.open(io.BytesIO(encode_png(image)))
    assert decoded.tobytes() == to_palette(image).tobytes()
    # Pillow maps a colour by its 6-bit cell: the named colours come back within 4 levels a channel
    for xy, colour in (((10, 10), (208, 42, 46)), ((40, 30), (246, 241, 228))):
        assert all(abs(a - b) <= 4 for a, b in zip(decoded.convert("RGB").getpixel(xy), colour, strict=True))


def test_palette_drawing_uses_the_fixed_palette_entries() -> None:
    canvas = to_palette(Image.new("RGB", (30, 30), (246, 241, 228)))
    draw = PaletteDraw(canvas)
    draw.rectangle((0, 0, 9, 9), fill=(40, 90, 200))
    assert canvas.getpixel((5, 5)) == palette_index((40, 90, 200))
    assert canvas.convert("RGB").getpixel((5, 5)) == (40, 90, 200)
    assert draw.backdrop((12, 12, 28, 28)) == canvas.convert("RGB").getpixel((20, 20))
    assert len(canvas.getpalette() or []) == len(to_palette(Image.new("RGB", (1, 1))).getpalette() or [])


def test_text_on_a_flat_backdrop_matches_full_colour_drawing() -> None:
    """The palette text patch is exact where the backdrop is flat: every pixel it paints is the pixel that
    drawing the same glyphs in full colour and mapping to the palette gives."""
    from render.common import font

    backdrop, fill = (232, 224, 204), (34, 30, 28)
    glyphs = Image.new("L", (120, 30), 0)
    ImageDraw.Draw(glyphs).text((2, 2), "Polonia 12", font=font(20), fill=255)
    reference = Image.new("RGB", glyphs.size, backdrop)
    reference.paste(fill, (0, 0), glyphs)
    expected = to_palette(reference)
    patch, mask = text_patch(glyphs, fill, backdrop, None)
    painted = [(x, y) for x in range(glyphs.width) for y in range(glyphs.height) if mask.getpixel((x, y))]
    assert painted
    assert all(patch.getpixel(xy) == expected.getpixel(xy) for xy in painted)
    # the pixels left unpainted are the faintest edges (under 19% ink): few of them differ from the backdrop
    backdrop_entry = to_palette(Image.new("RGB", (1, 1), backdrop)).getpixel((0, 0))
    unpainted = [
        (x, y) for x in range(glyphs.width) for y in range(glyphs.height) if not mask.getpixel((x, y))
    ]
    faint = [xy for xy in unpainted if expected.getpixel(xy) != backdrop_entry]
    assert len(faint) <= len(painted) // 6
