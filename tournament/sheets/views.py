"""Pages for scorers: typing in the score sheets of a started round, confirming them by a
second person, each sheet's history, and the round desk where the organiser sees at a
glance which sheets are missing.

Over 400 lines: these pages share the turning of form cells into rows and of the rules'
findings back into cells to show (the first sections), which is most of the module.

Every page fetches its tournament through ``get_tournament_for_scorer`` (organisers pass
too, anyone else gets a 404). The rules live in ``services.sheets``: these views turn the
form's cells into rows, and the service's findings back into cells to show.

Terms: a *cell* is one input of the sheet, named by ``tournament.kernel.cells.cell_name`` (the
names ``Mismatch.cell`` and ``RowCheck.problem_cells`` use too).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

import django_tables2 as tables
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from scoring.errors import UserError
from scoring.rules import Leave, absent_seats, dealer_at, deals_in_round
from tournament.kernel.cells import (
    CHECKSUM,
    LAST_IN,
    LEFT_OVER,
    NOTES,
    WON,
    cell_name,
    parse_cell,
    parse_part,
)
from tournament.kernel.http import HtmxHttpRequest, resent, saved_redirect
from tournament.models import Round, Seat, Sheet, SheetStatus, SheetVersion, Table, Tournament
from tournament.shared.permissions import get_round, get_tournament_for_scorer
from tournament.sheets.access import CORRECTIONS, Act, sheet_stage
from tournament.sheets.authors import refusal_for
from tournament.sheets.checking import SheetCheck, SheetInvalidError, check_rows, stop_warning
from tournament.sheets.confirming import LeavesMismatchError, SheetMismatchError, confirm_sheet
from tournament.sheets.desk import DeskStatus, ago, author_name, phone_name, table_progress
from tournament.sheets.forms import (
    LEAVE_SEAT,
    ConfirmModeForm,
    PostedLeaves,
    SheetPostForm,
    players_at,
    posted_leaves,
    shown_leaves,
)
from tournament.sheets.leaves import current_leaves, leave_changes, leave_problems, stored_leaves
from tournament.sheets.reading import current_rows, peek_sheet
from tournament.sheets.rows import CellValue, Row, clean_row, compare, trim
from tournament.sheets.saving import SaveResult, SheetChangedError, save_sheet
from tournament.sheets.versions import RESEATED

# A tampered form must not make us build a million rows; a real sheet has at most 36.
_MAX_ROWS = 100


# Loading ------------------------------------------------------------------------------


def _table_for(round_: Round, number: int) -> Table:
    table = (
        Table.objects.filter(round=round_, number=number)
        .select_related("round__tournament")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .first()
    )
    if table is None:
        raise Http404("No such table")
    return table


def _started_table(
    request: HtmxHttpRequest, slug: str, round: int, table: int
) -> Table | HttpResponse:
    """The table of a started round, with its round and tournament, for a scorer; or
    the way back to the scorer's home, saying that the round has not started."""
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    if not round_.started:
        return _not_started(request, tournament, round_)
    return _table_for(round_, table)


def _not_started(request: HtmxHttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    messages.error(
        request,
        f"Round {round_.number} has not started yet: its sheets can be entered once the "
        "organiser starts it.",
    )
    url = reverse("scorer:home", args=[tournament.slug])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _posted(request: HttpRequest) -> dict[str, Any]:
    """The sheet form's own fields (``SheetPostForm``), each left out when missing or
    malformed: a bad live-check hint is ignored, a bad version refuses the save."""
    form = SheetPostForm(request.POST)
    form.is_valid()
    return form.cleaned_data


def _expected_version(request: HttpRequest) -> int | None:
    return _posted(request).get("expected_version")


def _table_url(name: str, table: Table) -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def _round_home_url(tournament: Tournament, round_: Round) -> str:
    return f"{reverse('scorer:home', args=[tournament.slug])}?round={round_.number}"


def _where(table: Table) -> str:
    return f"Round {table.round.number}, table {table.number}"


def awaits_blind_confirmation(table: Table, sheet: Sheet, user: Any) -> bool:
    """Whether ``user`` may still confirm ``sheet`` by re-typing it blind: it awaits
    confirmation and someone else entered it (``refusal_for``). Until they choose
    to look (reviewing it against the paper, or opening it to change it), no page shows
    them its numbers."""
    return refusal_for(table, sheet, user, Act.CONFIRM) is None


# From the form to rows and back -------------------------------------------------------


def _typed_rows(data: Any, size: int, most: int) -> list[Row]:
    """The rows as typed, every cell a string; as many rows as the form showed (a sheet
    saved with more deals than a round has shows them all, so that they can be removed)."""
    numbers = [cell.deal for key in data if (cell := parse_cell(key))]
    count = min(max([most, *numbers]), _MAX_ROWS)
    derived: dict[int, list[str]] = {}
    marked = data.getlist("derived") if hasattr(data, "getlist") else []
    for name in marked[: _MAX_ROWS * 8]:
        # A count the scorer filled in from the checksum offer: a seat's or the left over.
        cell = parse_cell(name)
        if cell and (cell.field == LEFT_OVER or (cell.field == WON and cell.seat is not None)):
            derived.setdefault(cell.deal, []).append(cell.part)
    rows = []
    for deal in range(1, count + 1):
        row: Row = {
            "won": [data.get(cell_name(deal, WON, seat), "") for seat in range(1, size + 1)],
            "left_over": data.get(cell_name(deal, LEFT_OVER), ""),
            "last_in": data.get(cell_name(deal, LAST_IN), ""),
        }
        if deal in derived:
            row["derived"] = derived[deal]
        rows.append(row)
    return rows


def _deal_lines(rows: list[Row], size: int, most: int) -> list[Row]:
    """The lines a sheet shows for ``rows`` as posted: ``most`` deals, or as many as are
    filled in. Blank rows past the round's last deal are the lines of a page drawn before
    a leave shortened the round: not deals."""
    filled = trim([clean_row(row, size) for row in rows])
    return _padded(filled, size, max(most, len(filled)))


def _padded(rows: list[Row], size: int, count: int) -> list[Row]:
    """Cleaned rows, with blank ones up to ``count`` (the unused lines of the paper)."""
    cleaned = [clean_row(row, size) for row in rows]
    return cleaned + [
        Row(won=[None] * size, last_in=None, left_over=None) for _ in range(count - len(cleaned))
    ]


def _shown(value: object) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class ShownCell:
    name: str
    value: str
    label: str
    css: str = ""
    # Where the cell is, as a message about it says ("deal 3, seat 2").
    where: str = ""
    # On a blind re-type that does not match, or a sheet saved meanwhile by someone else:
    # what the other copy holds in this cell.
    other: str | None = None
    # The seat had left the table before this deal: its count stays blank.
    left: bool = False


@dataclass(frozen=True)
class Offer:
    """A value derived from the checksum, offered to the scorer, never filled silently."""

    cell: str
    value: int
    text: str


@dataclass(frozen=True)
class SheetRow:
    number: int
    dealer: str
    dealer_seat: int
    cells: tuple[ShownCell, ...]
    problems: tuple[str, ...] = ()
    offer: Offer | None = None
    # Dealt at a smaller size than the table's, after a player left: how many played.
    fewer_players: int | None = None

    @property
    def first_cell(self) -> str:
        return self.cells[0].name

    @property
    def notes_id(self) -> str:
        """The id of the line under the deal that the live check swaps in."""
        return cell_name(self.number, NOTES)

    @property
    def has_notes(self) -> bool:
        return bool(self.problems or self.offer)


def _offer(derived: tuple[str, int] | None, number: int) -> Offer | None:
    if derived is None:
        return None
    name, value = derived
    cell = parse_cell(name)
    if cell is None:
        raise ValueError(f"the check offered a value for {name!r}, which names no cell")
    where = "left over" if cell.field == LEFT_OVER else f"seat {cell.seat}"
    return Offer(name, value, f"{where}: {value} (derived so that deal {number} adds up to 52)")


def _marked_cells(problem_cells: tuple[str, ...], size: int) -> set[str]:
    """The inputs to mark for a row's problems: a checksum that fails marks every count of
    the row, since any one of them may be the mistyped number."""
    marked: set[str] = set()
    for name in problem_cells:
        cell = parse_cell(name)
        if cell is not None and cell.field == CHECKSUM:
            marked.update(cell_name(cell.deal, WON, seat) for seat in range(1, size + 1))
            marked.add(cell_name(cell.deal, LEFT_OVER))
        else:
            marked.add(name)
    return marked


def _problem_css(name: str, value: object, bad: set[str]) -> str:
    # A blank cell of a row being typed is only not done yet: marked, but quietly.
    if name not in bad:
        return ""
    return "missing" if value is None or value == "" else "problem"


def _sheet_rows(
    rows: list[Row],
    seats: list[Seat],
    *,
    check: SheetCheck | None = None,
    marks: dict[str, str] | None = None,
    others: dict[str, object] | None = None,
    leaves: tuple[Leave, ...] = (),
) -> list[SheetRow]:
    """What the page shows for ``rows`` (cleaned and padded): each row's cells with the
    problems of ``check`` in place, and ``marks`` (cell name: css class) with the values of
    the ``others`` copy beside them; the cells of seats that had left (``leaves``) marked."""
    size = len(seats)
    marks = marks or {}
    others = others or {}
    result = []
    for index, row in enumerate(rows):
        number = index + 1
        found = check.rows[index] if check and index < len(check.rows) else None
        bad = _marked_cells(found.problem_cells, size) if found else set()
        dealer = seats[dealer_at(number, size, leaves) - 1]
        absent = absent_seats(number, leaves)
        derived = {
            cell_name(number, *part)
            for name in row.get("derived", ())
            if (part := parse_part(name)) is not None
        }
        named = [
            *(
                (
                    cell_name(number, WON, s.position),
                    row["won"][i],
                    f"{s.player.name}, cards won",
                    f"seat {s.position}",
                    s.position in absent,
                )
                for i, s in enumerate(seats)
            ),
            (cell_name(number, LEFT_OVER), row["left_over"], "left over", "left over", False),
            (
                cell_name(number, LAST_IN),
                row["last_in"],
                "last in (seat number)",
                "last in",
                False,
            ),
        ]
        cells = tuple(
            ShownCell(
                name=name,
                value=_shown(value),
                label=f"deal {number}, {label}",
                css=" ".join(
                    c
                    for c in (
                        _problem_css(name, value, bad),
                        marks.get(name),
                        "derived" if name in derived else "",
                    )
                    if c
                ),
                other=_shown(others[name]) if name in others else None,
                where=f"deal {number}, {where}",
                left=left,
            )
            for name, value, label, where, left in named
        )
        players = players_at(number, size, leaves)
        result.append(
            SheetRow(
                number=number,
                dealer=dealer.player.name,
                dealer_seat=dealer.position,
                cells=cells,
                problems=found.problems if found else (),
                offer=_offer(found.derived, number) if found else None,
                fewer_players=players if players != size else None,
            )
        )
    return result


def _cell_values(rows: list[Row]) -> dict[str, CellValue]:
    values: dict[str, CellValue] = {}
    for number, row in enumerate(rows, start=1):
        for seat, value in enumerate(row["won"], start=1):
            values[cell_name(number, WON, seat)] = value
        values[cell_name(number, LEFT_OVER)] = row["left_over"]
        values[cell_name(number, LAST_IN)] = row["last_in"]
    return values


def _differences(mine: list[Row], theirs: list[Row], size: int) -> tuple[set[str], dict]:
    """The cells where two copies of a sheet differ, and the other copy's values."""
    mine = trim([clean_row(row, size) for row in mine])
    theirs = trim([clean_row(row, size) for row in theirs])
    cells = {m.cell for m in compare(theirs, mine)}
    return cells, _cell_values(theirs)


# The sheet entry page -----------------------------------------------------------------


# The deal a problem of ``SheetCheck.problems`` is about: "deal 3: …", "deals 5–8 are …".
_ABOUT_DEAL = re.compile(r"deals? (\d+)\b")


@dataclass(frozen=True)
class Problem:
    """A problem to show, with the first cell of its deal to jump to (blank if none)."""

    text: str
    cell: str = ""


def _linked(
    problems: tuple[str, ...], rows: list[SheetRow], about_leaves: set[str]
) -> list[Problem]:
    cells = {row.number: row.first_cell for row in rows}
    linked = []
    for text in problems:
        if text in about_leaves:
            linked.append(Problem(text, LEAVE_SEAT))
            continue
        about = _ABOUT_DEAL.match(text)
        linked.append(Problem(text, cells.get(int(about.group(1)), "") if about else ""))
    return linked


def _first_empty(rows: list[SheetRow]) -> str:
    """The cell to start typing in: the first blank one."""
    return next((c.name for row in rows for c in row.cells if c.value == "" and not c.left), "")


def _sheet_context(
    request: HttpRequest,
    table: Table,
    sheet: Sheet,
    rows: list[Row],
    *,
    expected_version: int,
    final: bool = False,
    stopped_early: bool = False,
    conflict: SheetChangedError | None = None,
    typing: int | None = None,
    leaves: tuple[Leave, ...] = (),
    posted: PostedLeaves | None = None,
) -> dict[str, Any]:
    """The sheet page for ``rows`` and the seats that left (``leaves``); ``posted`` is
    what the "A player left" fields sent, to show again with what could not be read."""
    tournament = table.round.tournament
    seats = list(table.seats.all())
    size = len(seats)
    refused_leaves = list(
        dict.fromkeys([*(posted.problems if posted else ()), *leave_problems(leaves, table)])
    )
    most = deals_in_round(size, tournament.rotations_per_round, leaves)
    padded = _deal_lines(rows, size, most)
    check = check_rows(
        padded, table, final=final, stopped_early=stopped_early, typing=typing, leaves=leaves
    )
    if refused_leaves:
        check = replace(check, problems=(*refused_leaves, *check.problems))
    marks: dict[str, str] = {}
    others: dict[str, object] = {}
    saved_rows = None
    conflict_blind = conflict is not None and awaits_blind_confirmation(
        table, conflict.sheet, request.user
    )
    if conflict is not None and not conflict_blind:
        differing, saved_values = _differences(rows, conflict.current_rows, size)
        marks = dict.fromkeys(differing, "differs")
        others = {name: saved_values.get(name) for name in differing}
        theirs = _padded(conflict.current_rows, size, len(conflict.current_rows))
        saved_rows = _sheet_rows(
            theirs, seats, marks=marks, leaves=stored_leaves(conflict.sheet.pending_left)
        )
    shown = _sheet_rows(padded, seats, check=check, marks=marks, others=others, leaves=leaves)
    return {
        "tournament": tournament,
        "round": table.round,
        "table": table,
        "seats": seats,
        "sheet": sheet,
        "rows": shown,
        "check": check,
        "problems": _linked(check.problems, shown, set(refused_leaves)),
        # Whoever may still confirm the sheet blind is not told which leaves it holds.
        "leaves": shown_leaves(
            leaves,
            seats,
            () if awaits_blind_confirmation(table, sheet, request.user) else current_leaves(sheet),
        ),
        "leaves_url": _table_url("scorer:sheet_leaves", table),
        "leave_seat": posted.typed_seat if posted and posted.problems else "",
        "leave_after": posted.typed_after if posted and posted.problems else "",
        "autofocus": _first_empty(shown),
        "problem_cells": sorted(
            {c for row in check.rows for c in _marked_cells(row.problem_cells, size)}
        ),
        "counted_deals": sum(1 for row in check.rows if row.points is not None),
        "most": most,
        "columns": size + 3,
        "expected_version": expected_version,
        "stopped_early": stopped_early,
        "conflict": conflict,
        "conflict_blind": conflict_blind,
        "saved_rows": saved_rows,
        "is_correction": sheet_stage(sheet) in CORRECTIONS,
        "entered_by_me": sheet.entered_by_id == request.user.pk,
        "entered_by_name": author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
    }


def _resent(request: HttpRequest) -> str:
    """What a save adds when static/js/keep.js sent it again by itself, once the network
    was back: the desk saw "Waiting for the network…", and now learns it went through."""
    return " It was sent again when the network came back." if resent(request) else ""


def _saved_message(result: SaveResult, table: Table) -> str:
    where = _where(table)
    if result.repeated:
        return f"{where} was already saved with these numbers: nothing changed."
    if result.status == SheetStatus.DRAFT:
        return (
            f"{where}: draft saved (version {result.sheet.version}). It counts nowhere "
            "until it is saved as complete."
        )
    if result.status == SheetStatus.ENTERED:
        return f"{where} saved: it now awaits confirmation by a different person."
    return f"{where} saved and confirmed."


@login_required
@require_http_methods(["GET", "POST"])
def sheet(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    table_ = _started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    round_, tournament = table_.round, table_.round.tournament
    if request.method == "GET":
        current = peek_sheet(table_)
        blind = awaits_blind_confirmation(table_, current, request.user) and (
            request.GET.get("show") != "entered"
        )
        context = _sheet_context(
            request,
            table_,
            current,
            [] if blind else current_rows(current),
            expected_version=current.version,
            stopped_early=current.stopped_early,
            leaves=() if blind else current_leaves(current),
        )
        context["blind"] = blind
        return render(request, "sheets/sheet.html", context)

    expected = _expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version; reload the page.")
    posted = posted_leaves(request.POST)
    most = deals_in_round(table_.size, tournament.rotations_per_round, posted.leaves)
    typed = _typed_rows(request.POST, table_.size, most)
    final = _posted(request).get("action") == "final"
    stopped_early = bool(_posted(request).get("stopped_early"))
    if posted.problems:
        # A player who left, half typed into the fields: saved with nothing, said so.
        return _redrawn_with_leaves(request, table_, typed, posted, expected, stopped_early)
    try:
        result = save_sheet(
            table_,
            request.user,
            typed,
            expected_version=expected,
            final=final,
            stopped_early=stopped_early,
            key=_posted(request).get("key"),
            left=posted.leaves,
        )
    except SheetInvalidError:
        # The rules the save applied, which may have changed since this request began.
        table_ = _table_for(round_, table)
        context = _sheet_context(
            request,
            table_,
            peek_sheet(table_),
            typed,
            expected_version=expected,
            final=final,
            stopped_early=stopped_early,
            leaves=posted.leaves,
        )
        return render(request, "sheets/sheet.html", {**context, "refused": True}, status=422)
    except SheetChangedError as changed:
        # Saving again from here is a deliberate choice made with both copies in view, and
        # with the seating as it is now (the organiser may have re-seated the table).
        table_ = _table_for(round_, table)
        context = _sheet_context(
            request,
            table_,
            changed.sheet,
            typed,
            expected_version=changed.sheet.version,
            stopped_early=stopped_early,
            conflict=changed,
            leaves=posted.leaves,
        )
        return render(request, "sheets/sheet.html", context, status=409)
    except UserError as refused:
        # Refused by the sheet's rule, or a retried save that carried other numbers than
        # its first try recorded: nothing was saved, and the sheet is shown as it is.
        messages.error(request, capfirst(str(refused)) + ". Nothing was saved.")
        return saved_redirect(request, _table_url("scorer:sheet", table_))
    messages.success(request, _saved_message(result, table_) + _resent(request))
    for warning in result.warnings:
        messages.warning(request, capfirst(warning))
    for dropped in result.dropped:
        messages.info(request, dropped + ".")
    if result.status == SheetStatus.DRAFT:
        return saved_redirect(request, _table_url("scorer:sheet", table_))
    return saved_redirect(request, _round_home_url(tournament, round_))


def _redrawn_with_leaves(
    request: HtmxHttpRequest,
    table_: Table,
    typed: list[Row],
    posted: PostedLeaves,
    expected: int,
    stopped_early: bool,
) -> HttpResponse:
    """The sheet page drawn again with the players who left as posted, nothing saved; a
    leave the rules refuse stays in the fields, named in the error summary."""
    problems = posted.problems or tuple(leave_problems(posted.leaves, table_))
    context = _sheet_context(
        request,
        table_,
        peek_sheet(table_),
        typed,
        expected_version=expected,
        stopped_early=stopped_early,
        leaves=posted_leaves(request.POST, with_new=False).leaves if problems else posted.leaves,
        posted=replace(posted, problems=problems),
    )
    context.update(
        refused=bool(problems), leave_refused=bool(problems), leaves_changed=not problems
    )
    return render(request, "sheets/sheet.html", context, status=422 if problems else 200)


@login_required
@require_POST
def sheet_leaves(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    """The sheet page's "Record" and "Remove" of a player who left: the sheet drawn again
    with the leaves as they now are, and the rows typed, until it is saved."""
    table_ = _started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    expected = _expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version; reload the page.")
    posted = posted_leaves(request.POST)
    most = deals_in_round(table_.size, table_.round.tournament.rotations_per_round, posted.leaves)
    typed = _typed_rows(request.POST, table_.size, most)
    stopped_early = bool(_posted(request).get("stopped_early"))
    return _redrawn_with_leaves(request, table_, typed, posted, expected, stopped_early)


def _typing(request: HttpRequest) -> int | None:
    """The deal whose row the scorer is typing in (sent by sheet.js with the live check)."""
    return _posted(request).get("typing")


@login_required
@require_POST
def check(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    """The live check as rows are typed: problems in place, offers, running totals."""
    table_ = _started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    tournament = table_.round.tournament
    # The leaves the page shows; one typed into the fields counts once it is recorded.
    posted = posted_leaves(request.POST, with_new=False)
    most = deals_in_round(table_.size, tournament.rotations_per_round, posted.leaves)
    expected = _expected_version(request)
    context = _sheet_context(
        request,
        table_,
        peek_sheet(table_),
        _typed_rows(request.POST, table_.size, most),
        expected_version=expected if expected is not None else 0,
        stopped_early=bool(_posted(request).get("stopped_early")),
        typing=_typing(request),
        leaves=posted.leaves,
        posted=posted,
    )
    if request.htmx:
        return render(request, "sheets/sheet.html#check", context)
    return render(request, "sheets/sheet.html", context)


# Confirming ---------------------------------------------------------------------------

# A blind re-type that differs in a few cells shows the entered value beside each: a
# slip to check against the paper. One that differs in more was not typed from this
# paper (or was typed to make the page show the entered numbers): its differing cells
# are marked without the entered values, or a confirmer could copy them in and confirm
# a sheet they never read.
MISMATCHES_SHOWN = 5


def _first_incomplete_deal(
    typed: list[Row], size: int, deals: int, leaves: tuple[Leave, ...] = ()
) -> int | None:
    """A blind re-type is compared only once it is complete: comparing half a sheet would
    show the entered values and spoil the blindness. A seat that had left has no count."""
    for number, row in enumerate(typed[:deals], start=1):
        cleaned = clean_row(row, size)
        absent = absent_seats(number, leaves)
        counts = [v for seat, v in enumerate(cleaned["won"], start=1) if seat not in absent]
        if None in (*counts, cleaned["left_over"], cleaned["last_in"]):
            return number
    return None


def _confirm_base(
    request: HtmxHttpRequest, table_: Table, posted: PostedLeaves, mode: str | None
) -> tuple[dict[str, Any], int, int]:
    """The confirmation page's context, the deals a re-type holds and the rows it shows;
    ``posted`` are the players who left as the re-type records them (never the entered
    ones: a blind re-type does not see them)."""
    round_, tournament = table_.round, table_.round.tournament
    seats = list(table_.seats.all())
    size = len(seats)
    current = peek_sheet(table_)
    entered_leaves = stored_leaves(current.pending_left)
    most = deals_in_round(size, tournament.rotations_per_round, posted.leaves)
    deals = len(current.pending) if current.status == SheetStatus.ENTERED else 0
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": round_,
        "table": table_,
        "seats": seats,
        "sheet": current,
        "mode": mode,
        "deals": deals,
        "expected_version": current.version,
        "entered_by_me": current.entered_by_id == request.user.pk,
        "entered_by_name": author_name(table_.number, current.entered_by, current.entered_by_phone),
        "can_confirm": refusal_for(table_, current, request.user, Act.CONFIRM) is None,
        "stop_warning": stop_warning(deals, size, entered_leaves)
        if current.stopped_early
        else None,
        "leaves": shown_leaves(posted.leaves, seats, ()),
        "leaves_url": _table_url("scorer:confirm_leaves", table_),
    }
    return context, deals, max(most, deals)


@login_required
@require_POST
def confirm_leaves(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    """A blind re-type's "Record" and "Remove" of a player who left: the re-type drawn
    again with the leaves as typed, nothing compared."""
    table_ = _started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    expected = _expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is incomplete; reload the page.")
    posted = posted_leaves(request.POST)
    context, _, count = _confirm_base(request, table_, posted, "retype")
    seats = context["seats"]
    retyped = _typed_rows(request.POST, len(seats), count)
    context.update(
        expected_version=expected,
        error=capfirst("; ".join(posted.problems)) + "." if posted.problems else "",
        leave_seat=posted.typed_seat if posted.problems else "",
        leave_after=posted.typed_after if posted.problems else "",
        rows=_sheet_rows(_deal_lines(retyped, len(seats), count), seats, leaves=posted.leaves),
    )
    return render(request, "sheets/confirm.html", context, status=422 if posted.problems else 200)


@login_required
@require_http_methods(["GET", "POST"])
def confirm(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    table_ = _started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    round_, tournament = table_.round, table_.round.tournament
    chosen = ConfirmModeForm(request.POST if request.method == "POST" else request.GET)
    mode = chosen.cleaned_data.get("mode") or None if chosen.is_valid() else None
    confirm_url = _table_url("scorer:confirm", table_)
    # A blind re-type records the players who left as the paper says, unseen.
    posted = posted_leaves(request.POST) if request.method == "POST" else PostedLeaves(())
    context, deals, count = _confirm_base(request, table_, posted, mode)
    seats = context["seats"]
    size = len(seats)
    current = context["sheet"]
    entered_leaves = stored_leaves(current.pending_left)
    most = count
    blank = _padded([], size, count)

    if request.method == "POST":
        expected = _expected_version(request)
        if expected is None or mode is None:
            return HttpResponseBadRequest("The form is incomplete; reload the page.")
        retyped = _typed_rows(request.POST, size, most) if mode == "retype" else None
        if retyped is not None and posted.problems:
            context.update(
                expected_version=expected,
                error=capfirst("; ".join(posted.problems)) + ".",
                leave_seat=posted.typed_seat,
                leave_after=posted.typed_after,
                rows=_sheet_rows(_padded(retyped, size, len(blank)), seats, leaves=posted.leaves),
            )
            return render(request, "sheets/confirm.html", context, status=422)
        if retyped is not None and context["can_confirm"]:
            incomplete = _first_incomplete_deal(retyped, size, deals, posted.leaves)
            if incomplete is not None:
                context.update(
                    expected_version=expected,
                    error=f"Deal {incomplete} is not complete: type every cell of the "
                    f"{deals} deals, then confirm. Nothing was compared yet.",
                    rows=_sheet_rows(
                        _padded(retyped, size, len(blank)), seats, leaves=posted.leaves
                    ),
                )
                return render(request, "sheets/confirm.html", context, status=422)
        try:
            result = confirm_sheet(
                table_,
                request.user,
                expected_version=expected,
                retyped=retyped,
                key=_posted(request).get("key"),
                retyped_left=posted.leaves if retyped is not None else None,
            )
        except LeavesMismatchError as differs:
            context.update(
                expected_version=expected,
                error=capfirst(str(differs)) + ".",
                rows=_sheet_rows(
                    _padded(retyped or [], size, len(blank)), seats, leaves=posted.leaves
                ),
            )
            return render(request, "sheets/confirm.html", context, status=422)
        except SheetMismatchError as mismatch:
            entered = {m.cell: m.entered for m in mismatch.mismatches}
            error = capfirst(str(mismatch)) + ". Nothing was saved."
            few = len(entered) <= MISMATCHES_SHOWN
            if not few:
                # Not even which cells differ: marking them would tell, for a re-type of
                # one value everywhere, every cell that holds that value.
                differing = sorted({m.deal for m in mismatch.mismatches})
                error = (
                    f"{len(entered)} cells differ from the sheet as entered, in deal"
                    f"{'s' if len(differing) != 1 else ''} {', '.join(map(str, differing))}: "
                    "too many "
                    "to be slips of the finger, so neither the cells nor the entered numbers "
                    "are shown. Re-type the sheet from the paper, or check it with the person "
                    "who entered it. Nothing was saved."
                )
            context.update(
                expected_version=expected,
                error=error,
                rows=_sheet_rows(
                    _padded(retyped or [], size, len(blank)),
                    seats,
                    marks=dict.fromkeys(entered, "mismatch") if few else None,
                    others=entered if few else None,
                    leaves=posted.leaves,
                ),
            )
            return render(request, "sheets/confirm.html", context, status=422)
        except UserError as refused:
            messages.error(request, capfirst(str(refused)) + ".")
            return redirect(f"{confirm_url}?mode={mode}")
        if result.repeated:
            messages.info(request, f"{_where(table_)} was already confirmed: nothing changed.")
        else:
            messages.success(
                request, f"{_where(table_)} confirmed: it now counts.{_resent(request)}"
            )
        return saved_redirect(request, _round_home_url(tournament, round_))

    if mode == "review":
        entered_rows = _padded(current_rows(current), size, deals)
        context["rows"] = _sheet_rows(entered_rows, seats, leaves=entered_leaves)
        context["leaves"] = shown_leaves(entered_leaves, seats, entered_leaves)
        # Totals to compare with the paper's bottom line.
        context["totals"] = check_rows(entered_rows, table_, final=False, leaves=entered_leaves)
    elif mode == "retype":
        context["rows"] = _sheet_rows(blank, seats)
        context["autofocus"] = _first_empty(context["rows"])
    return render(request, "sheets/confirm.html", context)


# History ------------------------------------------------------------------------------

_ACTIONS = {
    "draft": "Draft saved",
    "entered": "Entered, awaiting confirmation",
    "confirmed": "Confirmed",
    "corrected": "Corrected",
    "correction_draft": "Correction: draft saved",
    "correction": "Correction entered, awaiting confirmation",
    "correction_confirmed": "Correction confirmed",
    RESEATED: "Re-seated",
}


# The versions after which the sheet's deals counted.
_COUNTED = frozenset({"confirmed", "corrected", "correction_confirmed"})


def _value_in_words(value: object) -> str:
    if value is None:
        return "blank"
    if isinstance(value, str):
        return f"“{value}”"
    return str(value)


def _row_in_words(row: Row) -> str:
    won = ", ".join(_value_in_words(v) for v in row.get("won", []))
    return (
        f"cards won {won}; left over {_value_in_words(row.get('left_over'))}; "
        f"last in {_value_in_words(row.get('last_in'))}"
    )


def change_in_words(change: dict[str, Any], names: dict[int, str]) -> str:
    """One changed cell of ``SheetVersion.changes`` as a scorer would say it."""
    deal = change["deal"]
    before, after = change["before"], change["after"]
    if change["field"] == "seat":
        return f"seat {change['seat']}: {before} → {after}"
    if change["field"] == "deal":
        if before is None:
            return f"deal {deal} added: {_row_in_words(after)}"
        return f"deal {deal} removed (it was: {_row_in_words(before)})"
    if change["field"] == "won":
        seat = change["seat"]
        where = f"seat {seat} ({names[seat]})" if seat in names else f"seat {seat}"
    else:
        where = change["field"].replace("_", " ")
    return f"deal {deal}, {where}: {_value_in_words(before)} → {_value_in_words(after)}"


@login_required
@require_GET
def history(request: HttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    table_ = _table_for(round_, table)
    names = {seat.position: seat.player.name for seat in table_.seats.all()}
    current = peek_sheet(table_)
    versions = list(
        SheetVersion.objects.filter(sheet__table=table_).select_related("by").order_by("-number")
    )
    # The numbers saved since the sheet last counted are the ones awaiting confirmation:
    # hidden from whoever may still confirm them blind. What counted is public anyway.
    hidden_after = (
        max((v.number for v in versions if v.action in _COUNTED), default=0)
        if awaits_blind_confirmation(table_, current, request.user)
        else None
    )
    # Each version's leaves against the one before it (versions are numbered from 1).
    left_before = {version.number + 1: version.left for version in versions}
    entries = []
    for version in versions:
        hidden = hidden_after is not None and version.number > hidden_after
        entries.append(
            {
                "number": version.number,
                "action": _ACTIONS.get(version.action, version.action),
                "by": phone_name(table_.number, version.phone)
                if version.phone is not None
                else version.by.get_username()
                if version.by
                else "someone since removed",
                "at": version.at,
                "deals": len(version.deals),
                "hidden": hidden,
                "changes": []
                if hidden
                else [
                    *leave_changes(left_before.get(version.number, []), version.left, names),
                    *(change_in_words(change, names) for change in version.changes),
                ],
            }
        )
    context = {
        "tournament": tournament,
        "round": round_,
        "table": table_,
        "sheet": current,
        "entries": entries,
        "hidden": hidden_after is not None,
    }
    return render(request, "sheets/history.html", context)


# The round desk and the scorer's home ---------------------------------------------------


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


def _progress(records: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [
        (status.label, sum(1 for r in records if r["desk_status"] == status))
        for status in DeskStatus
    ]


@login_required
@require_GET
def desk(request: HtmxHttpRequest, slug: str, round: int) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    records = desk_records(tournament, round_)
    context = {
        "tournament": tournament,
        "round": round_,
        "desk_table": DeskTable(records),
        "progress": _progress(records),
        "missing": [r["number"] for r in records if r["status"] != SheetStatus.CONFIRMED],
    }
    if request.htmx:
        return render(request, "sheets/desk.html#desk", context)
    return render(request, "sheets/desk.html", context)


@login_required
@require_GET
def home(request: HttpRequest, slug: str) -> HttpResponse:
    """The tables of the latest started round (or ``?round=N``), each with its sheet."""
    tournament = get_tournament_for_scorer(request, slug)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    started = [r for r in rounds if r.started]
    asked = request.GET.get("round")
    if asked:
        try:
            current: Round | None = next(r for r in rounds if r.number == int(asked))
        except (ValueError, StopIteration):
            raise Http404("No such round") from None
    else:
        current = started[-1] if started else None
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "current": current,
        "records": desk_records(tournament, current) if current and current.started else [],
    }
    return render(request, "sheets/home.html", context)
