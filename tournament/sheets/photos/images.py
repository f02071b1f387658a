"""A photo's pixels as the desk keeps and shows them: the photo downscaled for the sheet's
history, and one cell's crop cut from the straightened sheet.

OpenCV is imported inside these functions only: the app starts, and its pages that show
no photo run, without it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# The photo as kept: its long side at most this many pixels, JPEG at this quality. A
# sheet's smallest box is about 6 mm, some 50 pixels across at this size on A4.
KEPT_LONG_SIDE = 2000
KEPT_QUALITY = 85
# Around a cell's crop, this much of the sheet (mm): the box's lines, and digits that
# stray over them.
CROP_MARGIN_MM = 1.5


def downscaled(data: bytes, *, max_pixels: int) -> bytes:
    """The photo in ``data`` as kept: orientation applied (EXIF), long side at most
    ``KEPT_LONG_SIDE``, JPEG; empty when it cannot be decoded or holds more than
    ``max_pixels`` pixels (its header says so before it is decoded)."""
    import cv2
    import numpy as np

    encoded = np.frombuffer(data, dtype=np.uint8)
    # Decoded at a half, a quarter or an eighth of its size where that is still larger
    # than what is kept: a 48-megapixel photo never sits whole in memory.
    image = None
    for flag, factor in (
        (cv2.IMREAD_REDUCED_COLOR_8, 8),
        (cv2.IMREAD_REDUCED_COLOR_4, 4),
        (cv2.IMREAD_REDUCED_COLOR_2, 2),
        (cv2.IMREAD_COLOR, 1),
    ):
        image = cv2.imdecode(encoded, flag)
        if image is None:
            return b""
        height, width = image.shape[:2]
        if height * width * factor * factor > max_pixels:
            return b""
        if max(height, width) >= KEPT_LONG_SIDE or factor == 1:
            break
    assert image is not None
    height, width = image.shape[:2]
    scale = KEPT_LONG_SIDE / max(height, width)
    if scale < 1:
        size = (round(width * scale), round(height * scale))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, KEPT_QUALITY])
    return jpeg.tobytes() if ok else b""


@lru_cache(maxsize=4)
def _sheet_pixels(key: tuple[int, int], data: bytes):
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_UNCHANGED)


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
