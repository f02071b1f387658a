"""The round desk: where each table of a started round stands with its sheet
(``table_progress``), for the organiser's desk page and the scorers' home page, drawn as
a table of sheets (django-tables2: each table's players, the stage of its sheet, who
entered it and how many deals it holds, with the links to its pages), and the count of
tables at each stage of the desk.

Terms are ``sheets.status``'s; a table's *deals* are the ones awaiting confirmation while
the sheet is a draft or entered, else the ones recorded."""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass
from typing import Any

import django_tables2 as tables
from django.db.models import Count, Prefetch
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from scoring.rules import deals_in_round
from tournament.models import Round, Seat, Sheet, SheetStatus, Table, Tournament
from tournament.sheets import access
from tournament.sheets.leaves import stored_leaves
from tournament.sheets.status import CORRECTION_NOTES, DeskStatus, author_name, desk_status


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
            return CORRECTION_NOTES[self.status]
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


def desk_records(tournament: Tournament, round_: Round) -> list[dict[str, Any]]:
    """``table_progress`` of the round, each table with the links to its pages and how
    long ago its sheet last changed."""
    now = timezone.now()

    def link(name: str, number: int) -> str:
        return reverse(name, args=[tournament.slug, round_.number, number])

    return [
        {
            **asdict(entry),
            "status_label": entry.status_label,
            "status_note": entry.status_note,
            "ago": ago(entry.updated, now) if entry.updated else "",
            "sheet_url": link("scorer:sheet", entry.number),
            "confirm_url": link("scorer:confirm", entry.number),
            "history_url": link("scorer:history", entry.number),
        }
        for entry in table_progress(tournament, round_)
    ]


class DeskTable(tables.Table):
    number = tables.Column(
        verbose_name="Table",
        linkify=lambda record: record["sheet_url"],
        attrs={"td": {"class": "num"}},
    )
    players = tables.Column(verbose_name="Players", attrs={"td": {"class": "players"}})
    # A link as well as the number: on a phone the status is the easier thing to tap.
    status_label = tables.TemplateColumn(
        verbose_name="Status",
        template_name="sheets/_desk_status.html",
        attrs={"td": {"class": "status"}},
    )
    entered_by = tables.Column(
        verbose_name="Entered by", default="–", attrs={"td": {"class": "entered-by"}}
    )
    deals = tables.TemplateColumn(
        verbose_name="Deals",
        template_code="{{ record.deals }} of {{ record.most }}"
        "{% if record.stopped_early %} (stopped early){% endif %}",
        attrs={"td": {"class": "deals"}},
    )
    links = tables.TemplateColumn(
        verbose_name="",
        template_name="sheets/_desk_links.html",
        attrs={"td": {"class": "links"}},
    )

    class Meta:
        orderable = False
        attrs = {"class": "desk"}
        row_attrs = {
            "class": lambda record: f"status-{record['status']} desk-{record['desk_status']}",
            "data-table": lambda record: record["number"],
        }


def progress(records: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """How many tables are at each desk status; corrections, the exception, only when
    there are some."""
    counts = [
        (status, sum(1 for r in records if r["desk_status"] == status)) for status in DeskStatus
    ]
    return [
        (status.label, count)
        for status, count in counts
        if count or status != DeskStatus.CORRECTION
    ]
