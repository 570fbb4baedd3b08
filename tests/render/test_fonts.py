"""The images' font: Pillow's bundled one draws no Polish letter (nor an accent or an arrow), so a text holding
one is drawn whole in the bundled fallback (DejaVu Sans Condensed); a text it can draw is drawn exactly as
before."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from render.common import FALLBACK_FONT, font


def _drawn(text: str, face: ImageFont.FreeTypeFont | ImageFont.ImageFont, left: float = 5) -> bytes:
    image = Image.new("L", (400, 60))
    ImageDraw.Draw(image).text((left, 5), text, font=face, fill=255)
    return image.tobytes()


def test_polish_letters_are_drawn_not_boxed() -> None:
    bundled = ImageFont.load_default(size=24)
    missing = _drawn("\uffff", bundled)
    assert _drawn("ł", bundled) == missing  # why the fallback exists
    for letter in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ↖→":
        assert _drawn(letter, font(24)) != missing, letter
    assert _drawn("Żółty", font(24)) == _drawn("Żółty", ImageFont.truetype(str(FALLBACK_FONT), 24))


def test_a_text_the_bundled_font_draws_is_unchanged() -> None:
    bundled = ImageFont.load_default(size=24)
    for text in ("Turn 15: Red to move", "c3>d3 (5 points)", "#1 c3: A9 D3 B0"):
        assert _drawn(text, font(24)) == _drawn(text, bundled)
        assert font(24).getlength(text) == bundled.getlength(text)


def test_a_text_drawn_again_comes_from_the_kept_masks_with_the_same_pixels() -> None:
    """Boards draw the same labels turn after turn: the second drawing reuses the first's mask (in both fonts,
    at any fraction of a pixel) and shows the very pixels of the bundled or fallback font drawing it."""
    face = font(22)
    for text in ("Red to move", "Żółty", "#4 h3"):
        for left in (5, 5.5):
            first = _drawn(text, face, left)
            hits = face.masks.hits
            assert _drawn(text, face, left) == first and face.masks.hits == hits + 1
            own = (
                ImageFont.truetype(str(FALLBACK_FONT), 22)
                if text == "Żółty"
                else ImageFont.load_default(size=22)
            )
            assert first == _drawn(text, own, left)
