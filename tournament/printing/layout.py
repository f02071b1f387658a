"""The geometry of a printed score sheet: the one place that says where everything sits.

Terms:

- *sheet block*: the fixed-size rectangle a table's score sheet is printed in,
  ``SHEET_WIDTH_MM`` × ``SHEET_HEIGHT_MM``, small enough for the printable area of both A4
  and US Letter (print.css's page margin), so one geometry serves both papers. Every
  measure here is in millimetres from the block's top left.
- *grid*: the sheet's table for a pen: a heading row (seats and their players), one row a
  deal, a totals row. Its columns: the deal's number, its dealer, one column a seat, the
  cards left over.
- *box*: a place a camera reads (``scoring.sheet_reading.layout.Box``): in each seat's
  cell two digit boxes for the cards won, the lying-down order's digit box where the
  scoring system needs it, and a tick box for the last in; two digit boxes for the left
  over.
- *page offset*: where the block sits on a paper: centred across the page's printable
  width, at its top margin. Only ``sheet_layout --paper`` needs it; the reader works in the
  block's millimetres once it has found the four corner markers.

The template draws the boxes, the markers and the QR code in one SVG at these millimetres
(nothing the browser lays out moves them), and the grid's rows take the heights chosen
here through the classes ``row_class`` names (print.css).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scoring.sheet_reading.layout import Box, Marker, Rect, SheetLayout

SHEET_WIDTH_MM = 186.0
SHEET_HEIGHT_MM = 255.0
# print.css's @page margin: A4's printable area is then 186 × 273 mm, Letter's
# 191.9 × 255.4 mm, and the block fits both.
PAGE_MARGIN_MM = 12.0
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

# The corner markers: large enough to be found in a photo of the whole page (a 12 MP
# phone sees a millimetre as about 14 pixels), with the page margin as their quiet zone
# outside and nothing printed within QUIET_MM inside.
MARKER_MM = 10.0
QUIET_MM = 2.0
# The QR code, its four modules of quiet zone included: at least 25 mm, so that a module
# of a long entry address is still several pixels in a photo of the page.
QR_MM = 28.0
QR_RECT: Rect = (SHEET_WIDTH_MM - MARKER_MM - QUIET_MM - QR_MM, 0.0, QR_MM, QR_MM)

# The grid, from the top of the block down; the notes follow it, and the signature sits
# between the bottom markers.
GRID_TOP_MM = 34.0
HEAD_MM = 16.0
# From seven seats the names stand upright in their headings, to be whole.
WIDE_FROM_SEATS = 7
WIDE_HEAD_MM = 26.0
TOTALS_MM = 7.0
# The notes under the grid end above the bottom markers' quiet zone; at fewer seats they
# are longer (Compendium Caidis' lying-down order and its scoring, 3 to 5 seats).
NOTES_END_MM = SHEET_HEIGHT_MM - MARKER_MM - QUIET_MM
NOTES_MM = 26.0
WIDE_NOTES_MM = 21.0
# The heights a deal's row may take, roomiest first: the longest sheet takes the
# roomiest that fits. Each has its class in print.css (``row_class``). Under the last a
# digit box would be too small to write in, and the sheet runs on to a second page.
ROW_HEIGHTS_MM = (9.0, 8.0, 7.0, 6.4, 6.0, 5.6)

DEAL_COLUMN_MM = 7.0
DEALER_COLUMN_MM = 30.0  # the dealer's seat and name
WIDE_DEALER_COLUMN_MM = 11.0  # the seat only: the names need the room
LEFT_OVER_COLUMN_MM = 14.0

# The boxes: a digit box is a little taller than wide, as figures are written; light
# lines so that a scorer's figures stand out from them in a photo.
DIGIT_WIDTH_MM = 5.0
DIGIT_HEIGHT_MM = 7.0
DIGIT_GAP_MM = 0.6  # between the two digits of one number
FIELD_GAP_MM = 1.6  # between the numbers of one cell
TICK_MM = 4.0
CELL_PADDING_MM = 1.2
BOX_MARGIN_MM = 0.5  # at least this much of the row above and below a box


@dataclass(frozen=True)
class SheetColumn:
    x: float
    width: float


@dataclass(frozen=True)
class SheetGrid:
    """One page of a table's grid: the deals ``first_deal``..``last_deal`` at their rows."""

    seats: int
    first_deal: int
    last_deal: int
    order_needed: bool
    row_height: float
    with_totals: bool  # the last page of a table's sheet

    @property
    def wide(self) -> bool:
        return self.seats >= WIDE_FROM_SEATS

    @property
    def head_height(self) -> float:
        return WIDE_HEAD_MM if self.wide else HEAD_MM

    @property
    def deal_column(self) -> SheetColumn:
        return SheetColumn(0.0, DEAL_COLUMN_MM)

    @property
    def dealer_column(self) -> SheetColumn:
        return SheetColumn(DEAL_COLUMN_MM, WIDE_DEALER_COLUMN_MM if self.wide else DEALER_COLUMN_MM)

    @property
    def seat_columns(self) -> tuple[SheetColumn, ...]:
        dealer = self.dealer_column
        left = dealer.x + dealer.width
        width = (SHEET_WIDTH_MM - left - LEFT_OVER_COLUMN_MM) / self.seats
        return tuple(SheetColumn(left + width * index, width) for index in range(self.seats))

    @property
    def left_over_column(self) -> SheetColumn:
        return SheetColumn(SHEET_WIDTH_MM - LEFT_OVER_COLUMN_MM, LEFT_OVER_COLUMN_MM)

    @property
    def rows_top(self) -> float:
        return GRID_TOP_MM + self.head_height

    def row_top(self, deal: int) -> float:
        return self.rows_top + (deal - self.first_deal) * self.row_height

    @property
    def row_class(self) -> str:
        """The class of print.css that gives the grid's rows their height."""
        return f"row-{self.row_height:.1f}".replace(".", "-")

    def boxes(self) -> tuple[Box, ...]:
        return tuple(
            box for deal in range(self.first_deal, self.last_deal + 1) for box in self._row(deal)
        )

    def _row(self, deal: int) -> list[Box]:
        top = self.row_top(deal)
        digit_height = min(DIGIT_HEIGHT_MM, self.row_height - 2 * BOX_MARGIN_MM)
        digit_top = top + (self.row_height - digit_height) / 2
        tick = min(TICK_MM, digit_height)
        tick_top = top + (self.row_height - tick) / 2
        boxes: list[Box] = []
        for seat, column in enumerate(self.seat_columns, start=1):
            x = column.x + CELL_PADDING_MM
            for digit in (0, 1):
                rect = _rect(x, digit_top, DIGIT_WIDTH_MM, digit_height)
                boxes.append(Box(deal, "won", seat, digit, rect))
                x += DIGIT_WIDTH_MM + DIGIT_GAP_MM
            x += FIELD_GAP_MM - DIGIT_GAP_MM
            if self.order_needed:
                boxes.append(
                    Box(
                        deal,
                        "laid_down",
                        seat,
                        0,
                        _rect(x, digit_top, DIGIT_WIDTH_MM, digit_height),
                    )
                )
                x += DIGIT_WIDTH_MM + FIELD_GAP_MM
            tick_x = column.x + column.width - CELL_PADDING_MM - tick
            if tick_x < x:
                raise ValueError(f"a cell of a table of {self.seats} has no room for its boxes")
            boxes.append(Box(deal, "last_in", seat, None, _rect(tick_x, tick_top, tick, tick)))
        column = self.left_over_column
        x = column.x + (column.width - 2 * DIGIT_WIDTH_MM - DIGIT_GAP_MM) / 2
        for digit in (0, 1):
            rect = _rect(x, digit_top, DIGIT_WIDTH_MM, digit_height)
            boxes.append(Box(deal, "left_over", None, digit, rect))
            x += DIGIT_WIDTH_MM + DIGIT_GAP_MM
        return boxes


def _rect(x: float, y: float, width: float, height: float) -> Rect:
    # A hundredth of a millimetre is finer than any printer; it keeps the figures short.
    return (round(x, 2), round(y, 2), round(width, 2), round(height, 2))


def _room_for_rows(seats: int) -> float:
    wide = seats >= WIDE_FROM_SEATS
    head, notes = (WIDE_HEAD_MM, WIDE_NOTES_MM) if wide else (HEAD_MM, NOTES_MM)
    return NOTES_END_MM - notes - GRID_TOP_MM - head - TOTALS_MM


def rows_on_a_page(seats: int) -> int:
    """The most deals one page holds, at the smallest row height."""
    return math.floor(_room_for_rows(seats) / ROW_HEIGHTS_MM[-1])


def sheet_grids(seats: int, deals: int, *, order_needed: bool) -> tuple[SheetGrid, ...]:
    """A table's grid, page by page: one page unless its deals need more rows than fit."""
    if not 1 <= seats <= 8 or deals < 1:
        raise ValueError(f"no score sheet for {seats} seats and {deals} deals")
    per_page = rows_on_a_page(seats)
    pages = math.ceil(deals / per_page)
    rows = math.ceil(deals / pages)
    room = _room_for_rows(seats)
    height = next(h for h in ROW_HEIGHTS_MM if h * rows <= room + 1e-9)
    return tuple(
        SheetGrid(
            seats=seats,
            first_deal=page * rows + 1,
            last_deal=min(deals, (page + 1) * rows),
            order_needed=order_needed,
            row_height=height,
            with_totals=page == pages - 1,
        )
        for page in range(pages)
    )


def markers() -> tuple[Marker, ...]:
    far_x = SHEET_WIDTH_MM - MARKER_MM
    far_y = SHEET_HEIGHT_MM - MARKER_MM
    corners = ((0.0, 0.0), (far_x, 0.0), (far_x, far_y), (0.0, far_y))
    return tuple(
        Marker(marker_id, (x, y, MARKER_MM, MARKER_MM)) for marker_id, (x, y) in enumerate(corners)
    )


def fits_one_page(seats: int, deals: int) -> bool:
    """Whether a table's sheet is one page, the only kind a photo of it can be read from."""
    return deals <= rows_on_a_page(seats)


def sheet_layout(seats: int, deals: int, *, order_needed: bool) -> SheetLayout:
    """Where a camera finds everything on the sheet of a table of ``seats`` playing
    ``deals`` deals; ``order_needed``: the scoring system records the lying-down order.

    Last in is a tick box a seat on every sheet. Only a sheet of one page is read from a
    photo (``fits_one_page``); asking for a longer one is a mistake of the caller's.
    """
    if not fits_one_page(seats, deals):
        raise ValueError(
            f"a sheet of {deals} deals at {seats} seats runs to a second page: "
            f"at most {rows_on_a_page(seats)} deals are read from a photo"
        )
    (grid,) = sheet_grids(seats, deals, order_needed=order_needed)
    return SheetLayout(
        width_mm=SHEET_WIDTH_MM,
        height_mm=SHEET_HEIGHT_MM,
        seats=seats,
        deals=deals,
        last_in_ticks=True,
        laid_down=order_needed,
        markers=markers(),
        qr=QR_RECT,
        boxes=grid.boxes(),
    )


def page_offset(paper: str) -> tuple[float, float]:
    """Where the block's top left sits on ``paper`` ("a4" or "letter"), in millimetres
    from the paper's top left: centred between the side margins, at the top margin."""
    width, _ = PAPERS[paper]
    return (PAGE_MARGIN_MM + (width - 2 * PAGE_MARGIN_MM - SHEET_WIDTH_MM) / 2, PAGE_MARGIN_MM)
