"""Reading each box of a rectified page: a digit box's probabilities, a tick box's tick.

Terms:

- *crop*: a box's pixels on the rectified page, ``INSET_MM`` inside its printed lines so
  the lines stay out (the digit model also learnt to ignore a line's remains at an edge).
- *tick ratio*: the share of a tick box's crop that is pen strokes. On the benchmark's
  photos a tick or a cross covered 0.31 to 0.50 of a 4 mm box and a blank box at most
  0.005; ``tick_probability`` maps the ratio to a probability by a logistic curve centred
  at 0.05, well below the lightest tick, so a faint tick is still doubtful rather than
  missed.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.sheet_reading.decode import DealBoxes, SheetRules
from scoring.sheet_reading.digits import Floats, classify, features, ink_features, ink_of, strokes
from scoring.sheet_reading.layout import Box, SheetLayout

INSET_MM = 0.45
TICK_INSET_MM = 0.5
TICK_AT = 0.05
TICK_SPREAD = 0.012
# A number's box sees its own strokes this far (of its width) past each side.
WINDOW = 0.3

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


def number_features(page: Grey, boxes: list[Box], px_per_mm: float) -> list[Floats]:
    """The model's input for each digit box of one number (its boxes left to right).

    Slanted or large writing crosses the gap between a number's boxes, so the number is
    read as one strip: its inner box lines wiped, each stroke given to the box that holds
    its centre, and each box's strokes seen in a window a little wider than the box."""
    if len(boxes) == 1:
        return [features(box_crop(page, boxes[0].rect, px_per_mm, INSET_MM))]
    x0 = boxes[0].rect[0] + INSET_MM
    y0 = min(b.rect[1] for b in boxes) + INSET_MM
    x1 = boxes[-1].rect[0] + boxes[-1].rect[2] - INSET_MM
    y1 = max(b.rect[1] + b.rect[3] for b in boxes) - INSET_MM
    strip = box_crop(page, (x0, y0, x1 - x0, y1 - y0), px_per_mm, 0.0)
    ink = ink_of(strip)

    def column(mm: float) -> int:
        return min(max(0, round((mm - x0) * px_per_mm)), int(ink.shape[1]))

    for left, right in itertools.pairwise(boxes):
        ink[
            :, column(left.rect[0] + left.rect[2] - INSET_MM) : column(right.rect[0] + INSET_MM)
        ] = 0
    mask = strokes(ink, neighbours=False)
    count, labels, _, centroids = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    edges = [(a.rect[0] + a.rect[2] + b.rect[0]) / 2 for a, b in itertools.pairwise(boxes)]
    owner = np.searchsorted(np.array(edges), x0 + centroids[:, 0] / px_per_mm)
    rows = []
    for index, box in enumerate(boxes):
        mine = np.isin(labels, [label for label in range(1, count) if owner[label] == index])
        reach = box.rect[2] * WINDOW
        window = slice(column(box.rect[0] - reach), column(box.rect[0] + box.rect[2] + reach))
        rows.append(ink_features(np.where(mine, ink, 0.0)[:, window], mine[:, window]))
    return rows


def read_boxes(
    page: Grey, px_per_mm: float, layout: SheetLayout, rules: SheetRules
) -> dict[int, DealBoxes]:
    """Each deal's box probabilities, by deal number (the deals of ``rules``)."""
    numbers: dict[tuple[int, str, int | None], list[Box]] = defaultdict(list)
    for box in layout.boxes:
        if box.digit is not None and box.deal <= rules.deals:
            numbers[(box.deal, box.field, box.seat)].append(box)
    keys = list(numbers)
    rows: list[Floats] = []
    for key in keys:
        rows.extend(number_features(page, sorted(numbers[key], key=_digit), px_per_mm))
    probabilities = classify(rows).astype(np.float64)
    digits: dict[tuple[int, str, int | None], tuple[NDArray[np.float64], ...]] = {}
    at = 0
    for key in keys:
        digits[key] = tuple(probabilities[at : at + len(numbers[key])])
        at += len(numbers[key])
    ticks: dict[tuple[int, int | None], float] = {}
    for box in layout.boxes:
        if box.digit is None and box.deal <= rules.deals:
            crop = box_crop(page, box.rect, px_per_mm, TICK_INSET_MM)
            ticks[(box.deal, box.seat)] = tick_probability(tick_ratio(crop))

    def number(deal: int, field: str, seat: int | None) -> tuple[NDArray[np.float64], ...]:
        return digits.get((deal, field, seat), ())

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


def _digit(box: Box) -> int:
    return box.digit or 0
