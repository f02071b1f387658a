"""The geometry of the printed score sheet (tournament/printing/layout.py): every box in
its place, none over another, and print.css drawing the grid at the same measures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.sheet_reading.layout import FIELDS
from tournament.printing import layout
from tournament.printing.layout import (
    MARKER_MM,
    PAPERS,
    QR_RECT,
    QUIET_MM,
    SHEET_HEIGHT_MM,
    SHEET_WIDTH_MM,
    SheetGrid,
    fits_one_page,
    page_offset,
    sheet_grids,
    sheet_layout,
)

PRINT_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "print.css"
# Every table size, at every number of rotations whose sheet is one page.
ONE_PAGE = [
    (seats, seats * rotations)
    for seats in range(3, 9)
    for rotations in range(1, 11)
    if fits_one_page(seats, seats * rotations)
]


def _overlap(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _grown(rect, by):
    x, y, width, height = rect
    return (x - by, y - by, width + 2 * by, height + 2 * by)


def test_eight_seats_at_three_rotations_is_one_page():
    assert (8, 24) in ONE_PAGE
    assert {seats for seats, _ in ONE_PAGE} == set(range(3, 9))


@pytest.mark.parametrize(("seats", "deals"), ONE_PAGE)
def test_every_box_is_inside_the_sheet_and_none_overlaps_another(seats, deals):
    sheet = sheet_layout(seats, deals, order_needed=seats <= 5)
    rects = [box.rect for box in sheet.boxes]
    for x, y, width, height in rects:
        assert width > 0
        assert height > 0
        assert x >= 0
        assert x + width <= SHEET_WIDTH_MM
        assert y >= 0
        assert y + height <= SHEET_HEIGHT_MM
    # Sorted by their top, a box can only overlap the boxes that start before it ends.
    ordered = sorted(rects, key=lambda rect: rect[1])
    for index, rect in enumerate(ordered):
        bottom = rect[1] + rect[3]
        for other in ordered[index + 1 :]:
            if other[1] >= bottom:
                break
            assert not _overlap(rect, other), (rect, other)
    # Nothing within the quiet zone of a marker or of the QR code.
    for rect in (*[marker.rect for marker in sheet.markers], sheet.qr):
        assert not any(_overlap(_grown(rect, QUIET_MM), box) for box in rects)


@pytest.mark.parametrize(("seats", "deals"), ONE_PAGE)
@pytest.mark.parametrize("order_needed", [False, True])
def test_each_deal_has_its_boxes(seats, deals, order_needed):
    if order_needed and seats > 5:
        # Compendium Caidis, the one system that records the order, is played at 3 to 5.
        with pytest.raises(ValueError, match="no room for its boxes"):
            sheet_layout(seats, deals, order_needed=order_needed)
        return
    sheet = sheet_layout(seats, deals, order_needed=order_needed)
    assert (sheet.seats, sheet.deals, sheet.last_in_ticks) == (seats, deals, True)
    assert sheet.laid_down is order_needed
    expected = set()
    for deal in range(1, deals + 1):
        for seat in range(1, seats + 1):
            expected |= {(deal, "won", seat, 0), (deal, "won", seat, 1)}
            expected.add((deal, "last_in", seat, None))
            if order_needed:
                expected.add((deal, "laid_down", seat, 0))
        expected |= {(deal, "left_over", None, 0), (deal, "left_over", None, 1)}
    found = [(box.deal, box.field, box.seat, box.digit) for box in sheet.boxes]
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert {box.field for box in sheet.boxes} <= set(FIELDS)


def test_the_digits_of_a_number_read_left_to_right_and_the_tick_is_square():
    sheet = sheet_layout(5, 10, order_needed=True)
    boxes = {(box.deal, box.field, box.seat, box.digit): box.rect for box in sheet.boxes}
    for deal in range(1, 11):
        for seat in range(1, 6):
            first, second = boxes[(deal, "won", seat, 0)], boxes[(deal, "won", seat, 1)]
            assert first[0] + first[2] < second[0]
            assert first[1] == second[1]
            order = boxes[(deal, "laid_down", seat, 0)]
            tick = boxes[(deal, "last_in", seat, None)]
            assert second[0] < order[0] < tick[0]
            assert tick[2] == tick[3]
        # A deal's boxes share a row, under the deal before.
        tops = {rect[1] for key, rect in boxes.items() if key[0] == deal and key[3] is not None}
        assert len(tops) == 1
        if deal > 1:
            assert tops.pop() > boxes[(deal - 1, "left_over", None, 0)][1]


def test_each_box_sits_in_its_seats_column_and_its_deals_row():
    (grid,) = sheet_grids(8, 24, order_needed=False)
    for box in grid.boxes():
        x, y, width, height = box.rect
        column = grid.left_over_column if box.seat is None else grid.seat_columns[box.seat - 1]
        assert column.x < x
        assert x + width < column.x + column.width
        top = grid.row_top(box.deal)
        assert top < y
        assert y + height < top + grid.row_height


def test_four_markers_in_the_corners_with_ids_0_to_3_clockwise():
    sheet = sheet_layout(4, 8, order_needed=False)
    assert [marker.id for marker in sheet.markers] == [0, 1, 2, 3]
    far_x, far_y = SHEET_WIDTH_MM - MARKER_MM, SHEET_HEIGHT_MM - MARKER_MM
    assert [marker.rect[:2] for marker in sheet.markers] == [
        (0, 0),
        (far_x, 0),
        (far_x, far_y),
        (0, far_y),
    ]
    assert sheet.qr == QR_RECT
    assert QR_RECT[2] == QR_RECT[3] >= 25


def test_a_sheet_too_long_for_a_page_runs_on_and_is_not_read_from_a_photo():
    grids = sheet_grids(8, 80, order_needed=False)
    assert len(grids) == 3
    assert [(grid.first_deal, grid.last_deal) for grid in grids] == [(1, 27), (28, 54), (55, 80)]
    assert [grid.with_totals for grid in grids] == [False, False, True]
    assert not fits_one_page(8, 80)
    with pytest.raises(ValueError, match="runs to a second page"):
        sheet_layout(8, 80, order_needed=False)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_sheet_fits_the_printable_area_of_both_papers(paper):
    width, height = PAPERS[paper]
    left, top = page_offset(paper)
    margin = layout.PAGE_MARGIN_MM
    assert left >= margin
    assert left + SHEET_WIDTH_MM <= width - margin + 1e-9
    assert top >= margin
    assert top + SHEET_HEIGHT_MM <= height - margin + 1e-9
    # Centred across the page.
    assert left == pytest.approx(width - left - SHEET_WIDTH_MM)


def _css_mm(selector: str, prop: str) -> float:
    css = PRINT_CSS.read_text()
    rule = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert rule, selector
    value = re.search(rf"(?:^|[;\s]){prop}:\s*([\d.]+)mm", rule.group(1))
    assert value, (selector, prop)
    return float(value.group(1))


def test_print_css_draws_the_grid_at_the_layouts_measures():
    assert _css_mm(".sheet-block", "width") == SHEET_WIDTH_MM
    assert _css_mm(".sheet-block", "height") == SHEET_HEIGHT_MM
    assert _css_mm(".sheet-body", "top") == layout.GRID_TOP_MM
    assert _css_mm(".sheet-body", "max-height") == layout.NOTES_END_MM - layout.GRID_TOP_MM
    assert _css_mm("table.sheet thead th", "height") == layout.HEAD_MM
    assert _css_mm(".score-sheet.seats-wide table.sheet thead th", "height") == (
        layout.WIDE_HEAD_MM
    )
    assert _css_mm("table.sheet col.deal-col", "width") == layout.DEAL_COLUMN_MM
    assert _css_mm("table.sheet col.dealer-col", "width") == layout.DEALER_COLUMN_MM
    assert _css_mm(".score-sheet.seats-wide table.sheet col.dealer-col", "width") == (
        layout.WIDE_DEALER_COLUMN_MM
    )
    assert _css_mm("table.sheet col.fact-col", "width") == layout.LEFT_OVER_COLUMN_MM
    assert _css_mm("table.sheet tfoot :is(th, td)", "height") == layout.TOTALS_MM
    for height in layout.ROW_HEIGHTS_MM:
        row_class = SheetGrid(
            3, 1, 3, order_needed=False, row_height=height, with_totals=True
        ).row_class
        assert _css_mm(f".{row_class} table.sheet tbody :is(th, td)", "height") == height
