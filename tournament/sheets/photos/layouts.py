"""Where a table's printed sheet has its boxes (``scoring.sheet_reading.layout``), as the
printing package lays it out: told to the reader here when the app starts (``apps.py``),
since printing builds on the sheet and the sheet cannot import it."""

from __future__ import annotations

from collections.abc import Callable

from scoring.sheet_reading.layout import SheetLayout
from tournament.models import Table

_laid_out_by: list[Callable[[Table], SheetLayout]] = []


def lay_out_with(layout: Callable[[Table], SheetLayout]) -> None:
    _laid_out_by[:] = [layout]


def layout_of(table: Table) -> SheetLayout:
    if not _laid_out_by:
        raise RuntimeError("no sheet layout registered: tournament.apps registers printing's")
    return _laid_out_by[0](table)
