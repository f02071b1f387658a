"""The round desk: where each table of a started round stands with its sheet, for the
organiser's desk page and the scorers' home page.

Terms: a table's *status* is its sheet's (``SheetStatus``); a table whose deals were
restored from a tournament file without a sheet row counts as confirmed. Its *desk
status* (``DeskStatus``) says the same in the desk's words, and who is typing: a phone at
the table (``Sheet.entered_by_phone``) or a scorer; a draft or an entered sheet of a
table that has been confirmed before is a *correction of a confirmed sheet*, whose
confirmed results stand meanwhile (``access.CORRECTIONS``). *Deals* are the ones awaiting
confirmation while the sheet is a draft or entered, else the ones recorded. A phone is
named as the sheet's history names it: "table 4, phone 1".
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.db.models import Count, Prefetch
from django.utils import timezone
from django.utils.timesince import timesince

from scoring.rules import deals_in_round
from tournament.models import Round, Seat, Sheet, SheetStatus, Table, Tournament
from tournament.sheets import access
from tournament.sheets.leaves import stored_leaves


class DeskStatus(models.TextChoices):
    """Where a table's sheet stands, and who has it: what the desk acts on."""

    NOT_STARTED = "not_started", "Not started"
    AT_TABLE = "at_table", "Being entered at the table"
    BY_SCORER = "by_scorer", "Being entered by a scorer"
    SUBMITTED = "submitted", "Submitted by the table"
    ENTERED = "entered", "Entered by a scorer"
    CORRECTION = "correction", "Correction of a confirmed sheet"
    CONFIRMED = "confirmed", "Confirmed"


def desk_status(status: SheetStatus, by_phone: bool, *, ever_confirmed: bool = False) -> DeskStatus:
    """``status`` of a sheet last saved by a phone at the table (``by_phone``) or a user,
    of a table confirmed before or not (``ever_confirmed``: a draft or an entered sheet is
    then a correction)."""
    if access.stage_of(status, ever_confirmed=ever_confirmed) in access.CORRECTIONS:
        return DeskStatus.CORRECTION
    if status == SheetStatus.DRAFT:
        return DeskStatus.AT_TABLE if by_phone else DeskStatus.BY_SCORER
    if status == SheetStatus.ENTERED:
        return DeskStatus.SUBMITTED if by_phone else DeskStatus.ENTERED
    return DeskStatus(status.value)


# What a correction's desk status adds, by the sheet's status: the confirmed results stand
# until it is confirmed in turn.
_CORRECTION_NOTES = {
    SheetStatus.DRAFT: "being typed; the confirmed results stand meanwhile",
    SheetStatus.ENTERED: "awaiting confirmation; the confirmed results stand meanwhile",
}


def state_in_words(sheet: Sheet) -> str:
    """Where ``sheet`` stands, as a page's sentence says it ("awaiting confirmation",
    "correction of a confirmed sheet, awaiting confirmation"), lower case."""
    status = SheetStatus(sheet.status)
    if access.sheet_stage(sheet) in access.CORRECTIONS:
        return f"{str(DeskStatus.CORRECTION.label).lower()}, {_CORRECTION_NOTES[status]}"
    return str(status.label).lower()


def sheet_labels(round_: Round) -> dict[int, tuple[SheetStatus, str]]:
    """Each sheet of ``round_`` by its table's id: its status and how a page names it
    (``SheetStatus``'s label, or "Correction of a confirmed sheet"). One query; a table
    with no sheet row is absent."""
    rows = (
        Sheet.objects.filter(table__round=round_)
        .annotate(confirmed_before=access.confirmed_before("table"))
        .values_list("table_id", "status", "confirmed_before")
    )
    labels = {}
    for table_id, status, confirmed_before in rows:
        stage = access.stage_of(status, ever_confirmed=bool(confirmed_before))
        label = DeskStatus.CORRECTION.label if stage in access.CORRECTIONS else status_label(status)
        labels[table_id] = (SheetStatus(status), str(label))
    return labels


def status_label(status: str) -> str:
    return str(SheetStatus(status).label)


def phone_name(table_number: int, phone: int) -> str:
    """A phone at a table, as pages and the history name it."""
    return f"table {table_number}, phone {phone}"


def ago(moment: datetime.datetime, now: datetime.datetime | None = None) -> str:
    """How long before ``now`` ``moment`` was, as the desk says it: "just now" within a
    minute, else its largest unit ("4 minutes ago", "2 hours ago")."""
    now = now or timezone.now()
    if now - moment < datetime.timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment, now, depth=1)} ago"


@dataclass(frozen=True)
class TableProgress:
    number: int
    players: str  # the seats' names in seat order, comma-separated
    status: SheetStatus
    desk_status: DeskStatus
    entered_by: str  # a user name or "table 4, phone 1", empty when nobody has
    confirmed_by: str
    deals: int
    most: int  # the deals a table of its size plays in a round
    stopped_early: bool
    updated: datetime.datetime | None  # the last save of scores, None before the first

    @property
    def status_label(self) -> str:
        return str(self.desk_status.label)

    @property
    def status_note(self) -> str:
        """What the desk status leaves unsaid: where a correction stands."""
        if self.desk_status == DeskStatus.CORRECTION:
            return _CORRECTION_NOTES[self.status]
        return ""


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
        .annotate(deal_count=Count("deals"), confirmed_before=access.confirmed_before())
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
        desk_status=desk_status(
            status,
            bool(sheet and sheet.entered_by_phone is not None),
            ever_confirmed=bool(getattr(table, "confirmed_before", False)),
        ),
        entered_by=author_name(table.number, sheet.entered_by, sheet.entered_by_phone)
        if sheet
        else "",
        confirmed_by=author_name(table.number, sheet.confirmed_by, sheet.confirmed_by_phone)
        if sheet
        else "",
        deals=len(sheet.pending) if pending and sheet else _deal_count(table),
        most=deals_in_round(
            len(seats),
            tournament.rotations_per_round,
            stored_leaves(sheet.pending_left if pending and sheet else table.left),
        ),
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


def author_name(table_number: int, user: Any, phone: int | None) -> str:
    """Who saved a sheet of table ``table_number``: a phone of the table ("table 4, phone
    1") or a user's name; empty when neither is known."""
    if phone is not None:
        return phone_name(table_number, phone)
    return user.get_username() if user is not None else ""
