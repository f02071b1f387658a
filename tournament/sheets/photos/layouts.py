"""Where a table's printed sheet has its boxes (``scoring.sheet_reading.layout``), as the
printing package lays it out: told to the reader here when the app starts (``apps.py``),
since printing builds on the sheet and the sheet cannot import it. The sheet's part is the
table's facts that choose the layout: its seats, the deals printed for its round (every
rotation, as printed before anyone left) and whether the lying-down order is written."""

from __future__ import annotations

from typing import Protocol

from scoring.rules import deals_in_round
from scoring.sheet_reading.layout import SheetLayout
from tournament.models import Table


class LaysOut(Protocol):
    def __call__(self, seats: int, deals: int, *, order_needed: bool) -> SheetLayout: ...


class FitsOnePage(Protocol):
    def __call__(self, seats: int, deals: int) -> bool: ...


_laid_out_by: list[tuple[LaysOut, FitsOnePage]] = []


def lay_out_with(layout: LaysOut, fits_one_page: FitsOnePage) -> None:
    """Printing's layout of a sheet, and whether a sheet is printed on one page (the only
    kind a photo can be read from)."""
    _laid_out_by[:] = [(layout, fits_one_page)]


def layout_of(table: Table) -> SheetLayout | None:
    """The layout of ``table``'s printed sheet; None when it runs to a second page."""
    if not _laid_out_by:
        raise RuntimeError("no sheet layout registered: tournament.apps registers printing's")
    layout, fits_one_page = _laid_out_by[0]
    tournament = table.round.tournament
    size = table.size
    deals = deals_in_round(size, tournament.rotations_per_round)
    if not fits_one_page(size, deals):
        return None
    return layout(size, deals, order_needed=tournament.scoring_system.needs_order)
