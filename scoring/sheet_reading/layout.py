"""Where everything a camera reads sits on a printed sheet, in millimetres.

A *box* is one place a scorer writes: one digit of a number (cards won, left over, the
lying-down order) or one tick box (last in). A *marker* is one of the four ArUco squares in
the corners, found first to straighten the photo. All rectangles are ``(x, y, width, height)``
in millimetres from the top left of the *sheet* — the fixed-size block printed on both A4 and
Letter — not from the paper's edge.

These are types only: printing draws from them and the reader reads by them, so the two can
never disagree about where a box is.
"""

from dataclasses import dataclass

FIELDS = ("won", "last_in", "left_over", "laid_down")

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Box:
    deal: int  # 1-based
    field: str  # one of FIELDS
    seat: int | None  # None for left_over
    digit: int | None  # 0 = leftmost digit box of a number; None for a tick box
    rect: Rect


@dataclass(frozen=True)
class Marker:
    id: int  # ArUco DICT_4X4_50: 0 top left, 1 top right, 2 bottom right, 3 bottom left
    rect: Rect  # the marker's outer black square


@dataclass(frozen=True)
class SheetLayout:
    width_mm: float  # the sheet block: the same on A4 and Letter
    height_mm: float
    seats: int
    deals: int
    last_in_ticks: bool  # True: last in is one tick box a seat (field last_in, digit None)
    laid_down: bool  # the lying-down order boxes are printed (one digit box a seat)
    markers: tuple[Marker, ...]  # four, ids 0..3
    qr: Rect  # the QR code's square, its quiet zone of four modules included
    boxes: tuple[Box, ...]
