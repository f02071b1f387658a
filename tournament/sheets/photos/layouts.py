"""Where a table's printed sheet has its boxes (``scoring.sheet_reading.layout``), exactly
as printing lays out the round's sheets (``printing.pages.table_layout``): told to the
reader here when the app starts (``apps.py``), since printing builds on the sheet and the
sheet cannot import it. A sheet that runs to a second page carries no corner markers and
is refused in words (a ``UserError`` of printing's)."""

from __future__ import annotations

from typing import Protocol

from scoring.sheet_reading.layout import SheetLayout
from tournament.models import Round, Table


class LaysOut(Protocol):
    def __call__(self, round_: Round, table: int) -> SheetLayout: ...


_laid_out_by: list[LaysOut] = []


def lay_out_with(layout: LaysOut) -> None:
    _laid_out_by[:] = [layout]


def layout_of(table: Table) -> SheetLayout:
    """The layout of ``table``'s printed sheet; a ``UserError`` naming the table when no
    photo of it can be read."""
    if not _laid_out_by:
        raise RuntimeError("no sheet layout registered: tournament.apps registers printing's")
    return _laid_out_by[0](table.round, table.number)
