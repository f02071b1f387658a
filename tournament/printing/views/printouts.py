"""Printed pages for the organiser: a round's seating list and its score sheets.

Terms:

- *seating list*: the round's tables in large type, each with its seats in order (seat 1
  deals first), then the same people alphabetically ("find your table").
- *score sheet*: the paper a table fills in, one row per deal, one page per table (a
  table with more deals than a page holds runs on to more). The dealer of each row
  follows from the seating (``scoring.rules.dealer_of``), so it is printed, not written
  in. It is made to be read by a camera too: a box for each digit, a tick box a seat for
  the last in, four corner markers, and a QR code that also names the tournament, round
  and table (``scoring.sheet_reading.identity``), all where ``printing.layout`` puts them.
  With table entry on (``Tournament.table_entry``), its QR code
  opens the table's entry page on a phone, and the table's code is printed beside it for
  a phone without a camera; with it off, or for a sheet already confirmed (which no code
  opens again: ``sheets.access``), the QR code opens the table's sheet for a scorer.

Pages are printed by the browser (print CSS in ``static/css/print.css``); nothing here
makes PDFs.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET

from scoring.rules import CARDS_IN_PACK, dealer_of, deals_per_round
from scoring.sheet_reading.identity import SheetIdentity, qr_text
from scoring.systems import ScoringSystem
from tournament.kernel.codes import shown_code
from tournament.kernel.forms import player_label, shared_names
from tournament.models import Bye, Round, Seat, Sheet, SheetStatus, Table, Tournament
from tournament.printing.layout import SheetGrid, fits_one_page, sheet_grids
from tournament.printing.overlay import overlay_svg
from tournament.printing.qr import points_at_this_computer_only
from tournament.shared.permissions import get_round, get_tournament_for_organiser
from tournament.sheets import access


@dataclass(frozen=True)
class PrintedSeat:
    position: int
    name: str
    club: str = ""


@dataclass(frozen=True)
class PrintedTable:
    number: int
    seats: tuple[PrintedSeat, ...]
    code: str = ""  # the table code (``tournament.kernel.codes``)
    # Where its sheet stands (``sheets.access``): a code never opens a confirmed sheet.
    stage: access.Stage = access.Stage.NOT_STARTED

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class FinderEntry:
    """One line of the alphabetical list: where a player sits, or that they sit out."""

    name: str
    table: int | None = None
    seat: int | None = None


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: PrintedSeat


@dataclass(frozen=True)
class SheetPage:
    """One printed page of a table's sheet: its rows, and what a camera reads over them."""

    grid: SheetGrid
    deals: tuple[DealRow, ...]
    overlay: SafeString
    number: int
    of: int


@dataclass(frozen=True)
class ScoreSheet:
    table: PrintedTable
    deals: tuple[DealRow, ...]
    entry_url: str
    pages: tuple[SheetPage, ...]
    # What the QR code encodes: the entry URL and the sheet's name after a "#".
    qr_text: str
    # With table entry on: the table code as printed ("K7QM-3RXD") and the page where a
    # phone without a camera types it; else both empty.
    code: str = ""
    code_url: str = ""
    # With table entry on, the table's sheet is one its code no longer opens (confirmed):
    # the sheet says a correction is the desk's.
    closed_at_table: bool = False

    @property
    def readable(self) -> bool:
        """Whether a photo of the sheet can be read: one page, with its corner markers."""
        return len(self.pages) == 1

    @property
    def wide(self) -> bool:
        return self.pages[0].grid.wide

    @property
    def cards_in_all_deals(self) -> int:
        return CARDS_IN_PACK * len(self.deals)


def entry_start_path() -> str:
    """The path of the page where a phone without a camera types the table code."""
    return reverse("table:code")


def entry_path(code: str) -> str:
    """The path of the phone page of the table whose code is ``code``."""
    return reverse("table:entry", args=[code])


def printed_tables(round_: Round, table_number: int | None = None) -> list[PrintedTable]:
    tables = (
        Table.objects.filter(round=round_)
        .select_related("sheet")
        .annotate(confirmed_before=access.confirmed_before())
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
    )
    if table_number is not None:
        tables = tables.filter(number=table_number)
    return [
        PrintedTable(
            number=table.number,
            code=table.code,
            seats=tuple(
                PrintedSeat(seat.position, seat.player.name, seat.player.club)
                for seat in table.seats.all()
            ),
            stage=access.stage_of(
                _status(table),
                ever_confirmed=bool(table.confirmed_before),
            ),
        )
        for table in tables.order_by("number")
    ]


def _status(table: Table) -> str:
    try:
        return table.sheet.status
    except Sheet.DoesNotExist:
        return SheetStatus.NOT_STARTED


def _finder(tables: list[PrintedTable], byes: list[PrintedSeat]) -> list[FinderEntry]:
    """Everyone in the round by name; players of one name are told apart by their club."""
    everyone: list[tuple[PrintedSeat, int | None]] = [
        (seat, table.number) for table in tables for seat in table.seats
    ]
    everyone += [(player, None) for player in byes]
    shared = shared_names([player.name for player, _ in everyone])
    entries = [
        FinderEntry(
            player_label(player.name, player.club)
            if player.name.casefold() in shared
            else player.name,
            number,
            player.position if number is not None else None,
        )
        for player, number in everyone
    ]
    return sorted(entries, key=lambda entry: (entry.name.casefold(), entry.name))


def _score_sheet(
    request: HttpRequest, tournament: Tournament, round_: Round, table: PrintedTable
) -> ScoreSheet:
    seat_at = {seat.position: seat for seat in table.seats}
    deals = tuple(
        DealRow(number, seat_at[dealer_of(number, table.size)])
        for number in range(1, deals_per_round(table.size, tournament.rotations_per_round) + 1)
    )
    closed_at_table = False
    code = code_url = ""
    if access.code_opens_once_started(table.stage, round_, tournament):
        entry_url = _reachable(request, entry_path(table.code))
        code = shown_code(table.code)
        code_url = _reachable(request, entry_start_path())
    else:
        # Table entry off, or a sheet its code no longer opens (confirmed): the desk's
        # page, never a phone's that would not open.
        path = reverse("scorer:sheet", args=[tournament.slug, round_.number, table.number])
        entry_url = _reachable(request, path)
        closed_at_table = tournament.table_entry
    text = qr_text(entry_url, SheetIdentity(tournament.slug, round_.number, table.number))
    grids = sheet_grids(table.size, len(deals), order_needed=tournament.scoring_system.needs_order)
    with_markers = fits_one_page(table.size, len(deals))
    pages = tuple(
        SheetPage(
            grid=grid,
            deals=deals[grid.first_deal - 1 : grid.last_deal],
            overlay=overlay_svg(grid, text, with_markers=with_markers),
            number=number,
            of=len(grids),
        )
        for number, grid in enumerate(grids, start=1)
    )
    return ScoreSheet(
        table=table,
        deals=deals,
        entry_url=entry_url,
        pages=pages,
        qr_text=text,
        code=code,
        code_url=code_url,
        closed_at_table=closed_at_table,
    )


def _reachable(request: HttpRequest, path: str) -> str:
    """``path`` at the address the phones reach, which need not be the one the sheets are
    printed from (a laptop printing from 127.0.0.1)."""
    base = settings.PUBLIC_BASE_URL
    return base + path if base else request.build_absolute_uri(path)


def table_filter(request: HttpRequest) -> int | None:
    value = request.GET.get("table")
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise Http404("No such table") from None


@login_required
@require_GET
def seating(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, round)
    tables = printed_tables(round_)
    byes = [
        PrintedSeat(0, bye.player.name, bye.player.club)
        for bye in Bye.objects.filter(round=round_)
        .select_related("player")
        .order_by("player__name", "pk")
    ]
    return render(
        request,
        "printing/seating.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": tables,
            "byes": byes,
            "finder": _finder(tables, byes),
        },
    )


@login_required
@require_GET
def sheets(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, round)
    only_table = table_filter(request)
    tables = printed_tables(round_, only_table)
    if only_table is not None and not tables:
        raise Http404("No such table")
    score_sheets = [_score_sheet(request, tournament, round_, table) for table in tables]
    return render(
        request,
        "printing/sheets.html",
        {
            "tournament": tournament,
            "round": round_,
            "only_table": only_table,
            "sheets": score_sheets,
            # Every sheet's code starts with the same address.
            "qr_unreachable": bool(score_sheets)
            and points_at_this_computer_only(score_sheets[0].entry_url),
            "winner_advantage": tournament.scoring_system is ScoringSystem.WINNER_ADVANTAGE,
            "order_needed": tournament.scoring_system.needs_order,
        },
    )
