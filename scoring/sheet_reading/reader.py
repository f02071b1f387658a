"""Reading a photo of a printed score sheet: found, checked, each box read, the whole decoded.

The steps, each its own module:

1. ``locate``: the photo opened within its caps, the four corner markers found, the page
   straightened and its QR code read, a photo too dark, blurred or cut off refused
   (``page``);
2. ``read``: every box of the table's layout read (``boxes``, with the digit model of
   ``digits``) and every deal decoded to its most probable reading that obeys the rules
   (``decode``), cells under the doubtful threshold named.

Importing this module loads no OpenCV: the functions that read photos import the modules
that need it, so the app's pages and checks never pay for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.sheet_reading.decode import (
    DealReading,
    SheetCell,
    SheetRules,
    decode_deal,
)
from scoring.sheet_reading.identity import SheetIdentity
from scoring.sheet_reading.layout import SheetLayout
from scoring.sheet_reading.refusals import REFUSALS, PhotoRefusal

__all__ = [
    "REFUSALS",
    "DealReading",
    "Located",
    "PhotoRefusal",
    "Reading",
    "SheetCell",
    "SheetRules",
    "as_json",
    "crop",
    "locate",
    "read",
]


@dataclass(frozen=True)
class Located:
    """A photo found to be one of our sheets: the sheet its QR names, the photo (grey, the
    right way up), its markers' corners, and the page straightened by the standard
    markers at ``px_per_mm``."""

    identity: SheetIdentity
    photo: NDArray[np.uint8]
    markers: Mapping[int, NDArray[np.float32]]
    page: NDArray[np.uint8]
    homography: NDArray[np.float64]
    px_per_mm: float
    blur_mm: float


@dataclass(frozen=True)
class Reading:
    """What a photo says: each deal's values (deal 1 first), the doubtful cells, and every
    cell's probability after decoding."""

    identity: SheetIdentity
    deals: tuple[DealReading, ...]
    doubtful: tuple[SheetCell, ...]
    probability: Mapping[SheetCell, float]
    # Each cell's best guess on its own, before decoding (the benchmark's "before").
    raw: tuple[DealReading, ...] = ()
    # The rules score the lying-down order: every deal says ``laid_down``, null if blank.
    order_needed: bool = False


def locate(data: bytes, *, max_bytes: int, max_pixels: int) -> Located | PhotoRefusal:
    """Find our sheet in the photo ``data`` (module docstring, step 1)."""
    from scoring.sheet_reading import page

    image = page.open_photo(data, max_bytes=max_bytes, max_pixels=max_pixels)
    if isinstance(image, PhotoRefusal):
        return image
    found = page.find_page(image)
    if isinstance(found, PhotoRefusal):
        return found
    return Located(
        identity=found.identity,
        photo=found.photo,
        markers=found.markers,
        page=found.page,
        homography=found.homography,
        px_per_mm=page.PX_PER_MM,
        blur_mm=found.blur_mm,
    )


def _page_for(located: Located, layout: SheetLayout) -> NDArray[np.uint8]:
    from scoring.sheet_reading import page

    if layout.markers == page.STANDARD_MARKERS:
        return located.page
    return page.rectified(located.photo, dict(located.markers), layout.markers)[0]


def read(located: Located, layout: SheetLayout, rules: SheetRules) -> Reading:
    """Every deal of ``rules`` read from the located photo and decoded (step 2)."""
    from scoring.sheet_reading.boxes import read_boxes

    boxes = read_boxes(_page_for(located, layout), located.px_per_mm, layout, rules)
    deals: list[DealReading] = []
    raw: list[DealReading] = []
    doubtful: list[SheetCell] = []
    probability: dict[SheetCell, float] = {}
    for number in range(1, rules.deals + 1):
        decoded = decode_deal(number, boxes[number], rules)
        deals.append(decoded.deal)
        raw.append(decoded.raw)
        doubtful.extend(decoded.doubtful)
        probability.update(decoded.probability)
    return Reading(
        located.identity,
        tuple(deals),
        tuple(doubtful),
        probability,
        tuple(raw),
        rules.order_needed,
    )


def crop(located: Located, rect_mm: tuple[float, float, float, float], *, scale: float) -> bytes:
    """A PNG of ``rect_mm`` (x, y, width, height in the sheet's millimetres) of the
    straightened photo, at ``scale`` pixels a millimetre."""
    import cv2

    x, y, width, height = rect_mm
    ratio = located.px_per_mm
    piece: NDArray[Any] = located.page[
        max(0, round(y * ratio)) : round((y + height) * ratio),
        max(0, round(x * ratio)) : round((x + width) * ratio),
    ]
    if scale != ratio and piece.size:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        piece = cv2.resize(piece, size, interpolation=cv2.INTER_AREA)
    ok, png = cv2.imencode(".png", piece)
    if not ok:
        raise ValueError(f"the crop {rect_mm} cannot be encoded")
    return bytes(png.tobytes())


def as_json(reading: Reading) -> dict[str, Any]:
    """The reading as ``manage.py read_sheet --format json`` prints it."""
    deals = []
    for number, deal in enumerate(reading.deals, start=1):
        row: dict[str, Any] = {
            "deal": number,
            "won": list(deal.won),
            "last_in": deal.last_in,
            "left_over": deal.left_over,
        }
        if reading.order_needed or deal.laid_down is not None:
            row["laid_down"] = None if deal.laid_down is None else list(deal.laid_down)
        deals.append(row)
    return {
        "tournament": reading.identity.tournament,
        "round": reading.identity.round,
        "table": reading.identity.table,
        "deals": deals,
        "doubtful": [
            {"deal": cell.deal, "field": cell.field, "seat": cell.seat} for cell in reading.doubtful
        ],
    }
