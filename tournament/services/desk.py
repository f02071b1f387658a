"""The round desk: where each table of a started round stands with its sheet, for the
organiser's desk page and the scorers' home page.

Terms: a table's *status* is its sheet's (``SheetStatus``); a table whose deals were
restored from a tournament file without a sheet row counts as confirmed. *Deals* are the
ones awaiting confirmation while the sheet is a draft or entered, else the ones recorded.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch

from scoring.rules import deals_per_round
from tournament.models import Round, Seat, Sheet, SheetStatus, Table, Tournament


@dataclass(frozen=True)
class TableProgress:
    number: int
    players: str  # the seats' names in seat order, comma-separated
    status: SheetStatus
    entered_by: str  # user names, empty when nobody has
    confirmed_by: str
    deals: int
    most: int  # the deals a table of its size plays in a round
    stopped_early: bool
    updated: datetime.datetime | None  # the last save of scores, None before the first

    @property
    def status_label(self) -> str:
        return str(self.status.label)


def _deal_count(table: Table) -> int:
    """The confirmed deals of a table loaded by ``table_progress`` (annotated there)."""
    count: int = getattr(table, "deal_count")  # noqa: B009 - an annotation, unknown to types
    return count


def table_progress(tournament: Tournament, round_: Round) -> list[TableProgress]:
    """One entry per table of the round, in table order. Two queries whatever the
    number of tables."""
    tables = (
        Table.objects.filter(round=round_)
        .select_related("sheet__entered_by", "sheet__confirmed_by")
        .annotate(deal_count=Count("deals"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("number")
    )
    return [_progress(tournament, table) for table in tables]


def _progress(tournament: Tournament, table: Table) -> TableProgress:
    seats = list(table.seats.all())
    sheet = _sheet_or_none(table)
    if sheet is None:
        status = SheetStatus.CONFIRMED if _deal_count(table) else SheetStatus.NOT_STARTED
    else:
        status = SheetStatus(sheet.status)
    pending = status in (SheetStatus.DRAFT, SheetStatus.ENTERED)
    return TableProgress(
        number=table.number,
        players=", ".join(seat.player.name for seat in seats),
        status=status,
        entered_by=_user_name(sheet.entered_by) if sheet else "",
        confirmed_by=_user_name(sheet.confirmed_by) if sheet else "",
        deals=len(sheet.pending) if pending and sheet else _deal_count(table),
        most=deals_per_round(len(seats), tournament.rotations_per_round),
        stopped_early=bool(sheet and sheet.stopped_early),
        # Seating creates every sheet unsaved, and re-seating saves no scores: the time
        # of a sheet not started says nothing.
        updated=sheet.updated if sheet and status != SheetStatus.NOT_STARTED else None,
    )


def _sheet_or_none(table: Table) -> Sheet | None:
    try:
        return table.sheet
    except Sheet.DoesNotExist:
        return None


def _user_name(user: Any) -> str:
    return user.get_username() if user is not None else ""
