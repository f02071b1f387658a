"""Reading a table's score sheet: the sheet itself (``sheet_of`` creates it,
``peek_sheet`` never writes) and the rows it shows now: the ones being typed or
awaiting confirmation (*pending*), else the *confirmed* deals, the official facts."""

from __future__ import annotations

from tournament.models import DealResult, Sheet, SheetStatus, Table
from tournament.sheets import access
from tournament.sheets.rows import Row, clean_row


def confirmed_rows(table: Table) -> list[Row]:
    """The confirmed deals as rows; a seat that had left has no count (None) in a deal."""
    size = table.size
    rows: dict[int, Row] = {}
    for number, last_in, left_over, laid_down, seat, won in (
        DealResult.objects.filter(deal__table=table)
        .order_by("deal__number", "seat")
        .values_list(
            "deal__number", "deal__last_in", "deal__left_over", "deal__laid_down", "seat", "won"
        )
    ):
        row = rows.setdefault(
            number, {"won": [None] * size, "last_in": last_in, "left_over": left_over}
        )
        if laid_down:
            row["laid_down"] = list(laid_down)
        row["won"][seat - 1] = won
    return [rows[n] for n in sorted(rows)]


def sheet_of(table: Table) -> Sheet:
    """The table's sheet; a table imported from a file with deals is already confirmed."""
    sheet = Sheet.objects.filter(table=table).first()
    if sheet is None:
        status = SheetStatus.CONFIRMED if table.deals.exists() else SheetStatus.NOT_STARTED
        sheet, _ = Sheet.objects.get_or_create(table=table, defaults={"status": status})
    return sheet


def peek_sheet(table: Table) -> Sheet:
    """The table's sheet for reading, like ``sheet_of`` but never writing: a table nobody
    has saved a sheet for gets an unsaved one at version 0 (what the first save expects)."""
    found: Sheet | None = (
        Sheet.objects.filter(table=table)
        .select_related("entered_by", "confirmed_by")
        .annotate(confirmed_before=access.confirmed_before("table"))
        .first()
    )
    if found is None:
        confirmed = table.deals.exists()
        status = SheetStatus.CONFIRMED if confirmed else SheetStatus.NOT_STARTED
        found = Sheet(table=table, status=status)
        found.confirmed_before = confirmed  # type: ignore[attr-defined]
    else:
        # The caller's table, with its round and seats loaded, not a fresh copy of it.
        found.table = table
    return found


def current_rows(sheet: Sheet) -> list[Row]:
    """What the sheet shows now: the rows being typed or awaiting confirmation, else the
    confirmed facts."""
    if sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
        return list(sheet.pending)
    return confirmed_rows(sheet.table)


def pending_rows(sheet: Sheet) -> list[Row]:
    """The rows being typed or awaiting confirmation, cleaned; none for a sheet that is
    not started or is confirmed (a phone never shows the confirmed facts)."""
    if sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
        return [clean_row(row, sheet.table.size) for row in sheet.pending]
    return []
