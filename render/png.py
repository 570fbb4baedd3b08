"""PNG writer for palette images that deflates each band of rows once and reuses it.

A board image changes little from one action to the next: over a 4-player PRINCIPES game, about 95% of its
16-row bands are the same bytes as in the image before (``python -m bench principes_render`` measures it), and
a seat's DM image shares most bands with the public one. So the image's rows are cut into bands; each band is deflated on
its own (a fresh raw-deflate stream ended by a sync flush, so it refers to nothing outside itself) and kept in
a bounded cache keyed by the band's bytes. The PNG's one zlib stream is the concatenation of the bands' blocks,
an empty final block, and the Adler-32 of all rows, combined from the bands' checksums (``adler32_combine``),
which is what ``pigz`` does to deflate in parallel. The result is a valid PNG with exactly the image's pixels.

The cache is a memo (``render.memo``): the bytes out depend only on the image in, so renderers stay pure; it
is bounded by the size of the deflated data it keeps.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

from .memo import Memo

#: rows per band: small enough that one moved piece touches few rows, large enough that deflate still works
BAND_ROWS = 16
#: deflated bytes the cache may keep (a full board is ~140 kB deflated: this holds hundreds of boards' bands)
CACHE_BYTES = 48 * 1024 * 1024
_ADLER_BASE = 65521
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: the zlib header for deflate with a 32 kB window and the fastest level, then the final, empty, stored block
_ZLIB_HEADER = b"\x78\x01"
_FINAL_BLOCK = b"\x03\x00"


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of ``a + b`` from ``adler32(a)``, ``adler32(b)`` and ``len(b)`` (zlib's own formula).

    >>> import zlib
    >>> adler32_combine(zlib.adler32(b"board"), zlib.adler32(b" image"), 6) == zlib.adler32(b"board image")
    True
    """
    remainder = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (remainder * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return sum1 | (sum2 << 16)


#: a band's key (width, length, two checksums of its pixels) and value (deflated bytes, Adler-32, length)
BandKey = tuple[int, int, int, int]
Band = tuple[bytes, int, int]


class BandCache(Memo[BandKey, Band]):
    """Deflated bands by their pixels, least recently used dropped first, bounded in deflated bytes."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        super().__init__(limit, weigh=lambda band: len(band[0]))


#: the process's band cache (every image encoded by ``encode_palette_png`` goes through it)
BANDS = BandCache()


def _deflate_band(rows: bytes, width: int) -> tuple[bytes, int, int]:
    """One band as PNG scanlines (filter byte 0, then the row), deflated alone; with its Adler-32 and length."""
    scanlines = b"".join(b"\x00" + rows[start : start + width] for start in range(0, len(rows), width))
    compressor = zlib.compressobj(1, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
    deflated = compressor.compress(scanlines) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return deflated, zlib.adler32(scanlines), len(scanlines)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def encode_palette_png(image: Image.Image, cache: BandCache = BANDS) -> bytes:
    """A mode ``P`` image as PNG bytes, its bands deflated once per distinct content.

        >>> import io
        >>> from PIL import Image

    from .memo import Memo
        >>> image = Image.new("P", (40, 40), 3)
        >>> Image.open(io.BytesIO(encode_palette_png(image))).getpixel((39, 39))
        3
    """
    if image.mode != "P":
        raise ValueError(f"encode_palette_png takes a palette image, not mode {image.mode}")
    width, height = image.size
    pixels = image.tobytes()
    band_bytes = width * BAND_ROWS
    parts = [_ZLIB_HEADER]
    checksum = 1
    for start in range(0, len(pixels), band_bytes):
        rows = pixels[start : start + band_bytes]
        # bands of private (DM) images share the cache: the key holds two independent checksums of the pixels
        # (a 64-bit hash salted per process and a CRC-32), so another band matching it is a 96-bit collision
        key = (width, len(rows), hash(rows), zlib.crc32(rows))
        band = cache.get(key)
        if band is None:
            band = _deflate_band(rows, width)
            cache.put(key, band)
        parts.append(band[0])
        checksum = adler32_combine(checksum, band[1], band[2])
    parts.append(_FINAL_BLOCK)
    parts.append(struct.pack(">I", checksum))
    palette = image.getpalette() or []
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(palette[: 3 * 256])),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


__all__ = ["BANDS", "BAND_ROWS", "BandCache", "adler32_combine", "encode_palette_png"]
