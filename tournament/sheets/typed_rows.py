"""The rows a sheet form posted: the cells of the desk's whole sheet or of a phone's one
deal, read into rows (``rows.Row``), merged into the sheet and padded with the blank
lines of the paper.

Terms: a *cell* is one input of the sheet, named by ``tournament.kernel.cells.cell_name``;
a *line* is a row the page shows, typed or blank.
"""

from __future__ import annotations

from typing import Any

from tournament.kernel.cells import LAST_IN, LEFT_OVER, ORDER, WON, cell_name, parse_cell
from tournament.sheets.rows import Row, clean_row, trim

# A tampered form must not make us build a million rows; a real sheet has at most 36.
MAX_ROWS = 100


def blank_row(size: int) -> Row:
    """An unused line of the paper sheet of a table of ``size``."""
    return Row(won=[None] * size, last_in=None, left_over=None)


def typed_rows(data: Any, size: int, most: int) -> list[Row]:
    """The rows as typed, every cell a string; as many rows as the form showed (a sheet
    saved with more deals than a round has shows them all, so that they can be removed)."""
    numbers = [cell.deal for key in data if (cell := parse_cell(key))]
    count = min(max([most, *numbers]), MAX_ROWS)
    derived: dict[int, list[str]] = {}
    marked = data.getlist("derived") if hasattr(data, "getlist") else []
    for name in marked[: MAX_ROWS * 8]:
        # A count the scorer filled in from the checksum offer: a seat's or the left over.
        cell = parse_cell(name)
        if cell and (cell.field == LEFT_OVER or (cell.field == WON and cell.seat is not None)):
            derived.setdefault(cell.deal, []).append(cell.part)
    rows = []
    for deal in range(1, count + 1):
        row: Row = {
            "won": [data.get(cell_name(deal, WON, seat), "") for seat in range(1, size + 1)],
            "left_over": data.get(cell_name(deal, LEFT_OVER), ""),
            "last_in": data.get(cell_name(deal, LAST_IN), ""),
        }
        if deal in derived:
            row["derived"] = derived[deal]
        _read_places(data, deal, size, row)
        rows.append(row)
    return rows


def _read_places(data: Any, deal: int, size: int, row: Row) -> None:
    """Each seat's place in the lying-down order, where the page has its cells (a rule set
    that records the order): into ``row["out"]``, as typed (``sheets.order``)."""
    names = [cell_name(deal, ORDER, seat) for seat in range(1, size + 1)]
    if any(name in data for name in names):
        row["out"] = [data.get(name, "") for name in names]


def posted_row(data: Any, number: int, size: int) -> Row:
    """Deal ``number`` as a phone's deal page posted it, cleaned."""
    row: Row = {
        "won": [data.get(cell_name(number, WON, seat), "") for seat in range(1, size + 1)],
        "left_over": data.get(cell_name(number, LEFT_OVER), ""),
        "last_in": data.get(cell_name(number, LAST_IN), ""),
    }
    _read_places(data, number, size, row)
    return clean_row(row, size)


def posted_deals(data: Any, deals: int, size: int) -> list[Row]:
    """Deals 1 to ``deals`` as a phone's blind re-type posted them, cleaned."""
    return [posted_row(data, number, size) for number in range(1, deals + 1)]


def merged(rows: list[Row], number: int, row: Row, size: int) -> list[Row]:
    """``rows`` with deal ``number`` replaced by ``row`` (blank lines up to it if needed),
    without the blank rows at the end."""
    lines = list(rows) + [blank_row(size)] * max(0, number - len(rows))
    lines[number - 1] = row
    return trim(lines)


def padded(rows: list[Row], size: int, count: int) -> list[Row]:
    """Cleaned rows, with blank ones up to ``count`` (the unused lines of the paper)."""
    cleaned = [clean_row(row, size) for row in rows]
    return cleaned + [blank_row(size) for _ in range(count - len(cleaned))]


def deal_lines(rows: list[Row], size: int, most: int) -> list[Row]:
    """The lines a sheet shows for ``rows`` as posted: ``most`` deals, or as many as are
    filled in. Blank rows past the round's last deal are the lines of a page drawn before
    a leave shortened the round: not deals."""
    filled = trim([clean_row(row, size) for row in rows])
    return padded(filled, size, max(most, len(filled)))
