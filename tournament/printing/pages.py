"""Where each table's score sheet falls in a round's printed sheets, and its layout.

A round's sheets print one table after another in table order, each on its own page or,
for a table with more deals than a page holds, its own pages (``layout.sheet_grids``):
this is what ``manage.py sheet_layout`` and ``manage.py print_sheets`` agree on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from scoring.errors import UserError
from scoring.rules import deals_per_round
from scoring.sheet_reading.layout import SheetLayout
from tournament.models import Round, Table
from tournament.printing.layout import fits_one_page, rows_on_a_page, sheet_grids, sheet_layout


class SheetNotReadable(UserError):
    """A table's sheet that no photo can be read from: it runs to more than one page."""


@dataclass(frozen=True)
class PrintedSheet:
    table: int
    seats: int
    deals: int
    order_needed: bool
    first_page: int  # 1-based, in the round's printed sheets
    pages: int


def round_sheets(round_: Round) -> list[PrintedSheet]:
    """The round's tables in the order their sheets print, each with its first page."""
    tournament = round_.tournament
    order_needed = tournament.scoring_system.needs_order
    sheets: list[PrintedSheet] = []
    page = 1
    tables = Table.objects.filter(round=round_).annotate(seated=Count("seats")).order_by("number")
    for table in tables:
        deals = deals_per_round(table.seated, tournament.rotations_per_round)
        pages = len(sheet_grids(table.seated, deals, order_needed=order_needed))
        sheets.append(PrintedSheet(table.number, table.seated, deals, order_needed, page, pages))
        page += pages
    return sheets


def readable_layout(round_: Round, sheet: PrintedSheet) -> SheetLayout:
    """Where a camera finds the boxes of ``sheet``; refused in words for a sheet of more
    than one page, which carries no corner markers."""
    if not fits_one_page(sheet.seats, sheet.deals):
        raise SheetNotReadable(
            f"Round {round_.number}, table {sheet.table}: its sheet of {sheet.deals} deals "
            f"runs to {sheet.pages} pages, and only a sheet of one page (at most "
            f"{rows_on_a_page(sheet.seats)} deals at {sheet.seats} seats) is read from a "
            "photo. Type it in instead."
        )
    return sheet_layout(sheet.seats, sheet.deals, order_needed=sheet.order_needed)


def table_layout(round_: Round, table: int) -> SheetLayout:
    """Where a camera finds the boxes of table ``table``'s sheet in ``round_``, as printed
    (``SheetNotReadable`` for a sheet of more than one page)."""
    sheet = next((sheet for sheet in round_sheets(round_) if sheet.table == table), None)
    if sheet is None:
        raise Table.DoesNotExist(f"round {round_.number} has no table {table}")
    return readable_layout(round_, sheet)
