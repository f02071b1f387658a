"""A photo's pixels as the desk keeps and shows them: the photo downscaled for the sheet's
history, and one cell's crop cut from the straightened sheet.

OpenCV and numpy are imported inside these functions only: the app starts, and its pages
that show no photo run, without them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scoring.sheet_reading.refusals import PhotoRefusal

if TYPE_CHECKING:
    from numpy.typing import NDArray

# The photo as kept: its long side at most this many pixels, JPEG at this quality (the
# straightened sheet too). A sheet's smallest box is about 6 mm, some 40 pixels across at
# this size on A4.
KEPT_LONG_SIDE = 2000
KEPT_QUALITY = 85
# Around a cell's crop, this much of the sheet (mm): the box's lines, and digits that
# stray over them.
CROP_MARGIN_MM = 1.5


def downscaled(data: bytes, *, max_bytes: int, max_pixels: int) -> bytes:
    """The photo in ``data`` as kept (``kept``), opened as the reader opens it (its caps,
    its orientation applied); empty when it cannot be opened."""
    from scoring.sheet_reading.page import open_photo

    grey = open_photo(data, max_bytes=max_bytes, max_pixels=max_pixels)
    return b"" if isinstance(grey, PhotoRefusal) else kept(grey)


def kept(pixels: NDArray[Any]) -> bytes:
    """The photo as kept: grey, the right way up, its long side at most
    ``KEPT_LONG_SIDE``, JPEG."""
    import cv2

    height, width = pixels.shape[:2]
    scale = KEPT_LONG_SIDE / max(height, width)
    if scale < 1:
        size = (round(width * scale), round(height * scale))
        pixels = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
    return as_jpeg(pixels)


def as_jpeg(pixels: NDArray[Any]) -> bytes:
    import cv2

    ok, jpeg = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, KEPT_QUALITY])
    if not ok:
        raise ValueError("the photo cannot be encoded as JPEG")
    return bytes(jpeg.tobytes())


def png_as_jpeg(png: bytes) -> bytes:
    """A PNG (the reader's crops) as JPEG: a straightened sheet in a quarter of the bytes."""
    pixels = _decoded(png)
    if pixels is None:
        raise ValueError("the straightened sheet cannot be decoded")
    return as_jpeg(pixels)


def _decoded(data: bytes):
    """The pixels of an encoded image (PNG, JPEG), or None when they cannot be decoded."""
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_UNCHANGED)


@lru_cache(maxsize=4)
def _sheet_pixels(key: tuple[int, int], data: bytes):
    return _decoded(data)


def cell_crop(
    photo_key: tuple[int, int], sheet_image: bytes, scale: float, rect: Sequence[float]
) -> bytes:
    """The PNG of one cell of the straightened sheet: ``rect`` (x, y, width, height in
    mm) with a margin, at ``scale`` pixels a millimetre. ``photo_key`` names the sheet
    image (its photo and when it was read), so a page's crops decode it once."""
    import cv2

    pixels = _sheet_pixels(photo_key, sheet_image)
    if pixels is None:
        raise ValueError("the stored sheet image cannot be decoded")
    x, y, width, height = rect
    rows, columns = pixels.shape[:2]
    left = max(0, int((x - CROP_MARGIN_MM) * scale))
    top = max(0, int((y - CROP_MARGIN_MM) * scale))
    right = min(columns, int((x + width + CROP_MARGIN_MM) * scale) + 1)
    bottom = min(rows, int((y + height + CROP_MARGIN_MM) * scale) + 1)
    ok, png = cv2.imencode(".png", pixels[top:bottom, left:right])
    if not ok:
        raise ValueError("a cell's crop cannot be encoded as PNG")
    return png.tobytes()
