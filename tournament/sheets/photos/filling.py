"""The desk's sheet form filled from a photo's reading: the rows as the reader read them,
and the cells it was not sure of (*doubtful*: under the reader's threshold after
decoding), by their form names (``kernel.cells``). Nothing is saved: the scorer checks
the doubtful cells against the photo's crops and saves the sheet as if typed.

The reading holds, per deal, ``won`` (a count a seat, ``null`` where nothing could be
read or the seat had left), ``last_in``, ``left_over`` and, where the rules ask for it,
``laid_down``: the seats in the order they lay down, first out first, as a row keeps it
(``sheets.order``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournament.kernel.cells import cell_name
from tournament.sheets.rows import CellValue, Row, trim


def _value(value: Any) -> CellValue:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _row(deal: Mapping[str, Any], size: int) -> Row:
    won = [_value(v) for v in (list(deal.get("won") or []) + [None] * size)[:size]]
    row: Row = {
        "won": won,
        "last_in": _value(deal.get("last_in")),
        "left_over": _value(deal.get("left_over")),
    }
    order = deal.get("laid_down")
    if isinstance(order, list) and order:
        row["laid_down"] = [_value(seat) for seat in order]
    return row


def read_rows(reading: Mapping[str, Any], size: int) -> list[Row]:
    """The rows a reading fills the form with; deals read blank (a table that stopped
    early) at the end are left off, as a sheet typed by hand leaves them."""
    return trim([_row(deal, size) for deal in reading.get("deals", [])])


def doubtful_cells(reading: Mapping[str, Any]) -> set[str]:
    """The form names of the cells the reader was not sure of."""
    return {
        cell_name(cell["deal"], cell["field"], cell.get("seat"))
        for cell in reading.get("doubtful", [])
    }


def probability_words(reading: Mapping[str, Any], name: str) -> str:
    """How sure the reader was of a cell, in words for the crop beside it."""
    probability = reading.get("probability", {}).get(name)
    if probability is None:
        return ""
    return f"read with {probability:.0%} confidence"
