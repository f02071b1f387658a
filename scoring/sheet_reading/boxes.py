"""Reading each box of a rectified page: a digit box's probabilities, a tick box's tick.

Terms:

- *crop*: a box's pixels on the rectified page, ``INSET_MM`` inside its printed lines so
  the lines stay out (the digit model also learnt to ignore a line's remains at an edge).
- *tick ratio*: the share of a tick box's crop that is pen strokes. A tick or a cross
  covers a tenth of the box or more, a blank box's specks and noise a few hundredths;
  ``tick_probability`` maps the ratio to a probability by a logistic curve centred between
  the two (chosen on bench/photo.py).
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
from numpy.typing import NDArray

from scoring.sheet_reading.decode import DealBoxes, SheetRules
from scoring.sheet_reading.digits import classify, ink_of, strokes
from scoring.sheet_reading.layout import SheetLayout

INSET_MM = 0.45
TICK_INSET_MM = 0.5
TICK_AT = 0.05
TICK_SPREAD = 0.012

Grey = NDArray[np.uint8]


def box_crop(
    page: Grey, rect: tuple[float, float, float, float], px_per_mm: float, inset: float
) -> Grey:
    x, y, w, h = rect
    left = max(0, round((x + inset) * px_per_mm))
    top = max(0, round((y + inset) * px_per_mm))
    right = min(page.shape[1], round((x + w - inset) * px_per_mm))
    bottom = min(page.shape[0], round((y + h - inset) * px_per_mm))
    return page[top:bottom, left:right]


def tick_ratio(crop: Grey) -> float:
    if crop.size == 0:
        return 0.0
    return float(strokes(ink_of(crop)).mean())


def tick_probability(ratio: float) -> float:
    return 1.0 / (1.0 + math.exp(-(ratio - TICK_AT) / TICK_SPREAD))


def read_boxes(
    page: Grey, px_per_mm: float, layout: SheetLayout, rules: SheetRules
) -> dict[int, DealBoxes]:
    """Each deal's box probabilities, by deal number (the deals of ``rules``)."""
    digit_boxes = [b for b in layout.boxes if b.digit is not None and b.deal <= rules.deals]
    probabilities = classify([box_crop(page, b.rect, px_per_mm, INSET_MM) for b in digit_boxes])
    digits: dict[tuple[int, str, int | None], list[tuple[int, NDArray[np.float64]]]] = defaultdict(
        list
    )
    for box, probs in zip(digit_boxes, probabilities, strict=True):
        assert box.digit is not None
        digits[(box.deal, box.field, box.seat)].append((box.digit, probs.astype(np.float64)))
    ticks: dict[tuple[int, int | None], float] = {}
    for box in layout.boxes:
        if box.digit is None and box.deal <= rules.deals:
            crop = box_crop(page, box.rect, px_per_mm, TICK_INSET_MM)
            ticks[(box.deal, box.seat)] = tick_probability(tick_ratio(crop))

    def number(deal: int, field: str, seat: int | None) -> tuple[NDArray[np.float64], ...]:
        return tuple(p for _, p in sorted(digits.get((deal, field, seat), []), key=_first))

    seats = range(1, rules.seats + 1)
    out = {}
    for deal in range(1, rules.deals + 1):
        out[deal] = DealBoxes(
            won=tuple(number(deal, "won", s) for s in seats),
            left_over=number(deal, "left_over", None),
            last_in_ticks=(
                tuple(ticks.get((deal, s), 0.0) for s in seats) if layout.last_in_ticks else None
            ),
            last_in_digits=None if layout.last_in_ticks else number(deal, "last_in", None),
            laid_down=(
                tuple(number(deal, "laid_down", s) for s in seats) if layout.laid_down else None
            ),
        )
    return out


def _first(item: tuple[int, NDArray[np.float64]]) -> int:
    return item[0]
