"""Entry at the table: the pages a phone opens with the table code printed on the paper
score sheet (``services.table_entry``), without an account.

Over 400 lines: five pages (the code, the table, one deal, the review, the blind
confirmation) share the opening of a code, the refusals and the turning of a sheet's
rows into what a phone shows; apart they would each repeat them.

A code that opens no sheet now, whatever the reason, gets the same 404 page; a wrong one
counts against the address it came from, and past the limit every code the phone has not
opened before gets a 429 page (a phone half-way through its sheet carries on: the codes a
session opened are remembered). The phone is told apart by ``phone_token`` in its
session. Saves go through ``services.sheets`` with the phone as author (``AtTable``) and
the submission's idempotency key; a retried submission whose sheet closed meanwhile is
still answered as saved (``table_for_repeat``).

Terms: a *deal page* shows one deal of the sheet and saves the whole sheet as a draft
with that deal's cells merged in; the *review* submits the draft as complete.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from scoring.errors import UserError
from scoring.rules import Leave, absent_seats, dealer_at, dealers, deals_in_round
from tournament.kernel.cells import CHECKSUM, LAST_IN, LEFT_OVER, WON, cell_name
from tournament.kernel.codes import TYPED_MAX, shown_code
from tournament.kernel.http import HtmxHttpRequest, resent, saved_redirect
from tournament.models import Seat, Sheet, SheetStatus, Table
from tournament.sheets.access import Act
from tournament.sheets.authors import AtTable, ClosedAtTableError, SaveRefusedError, refusal_for
from tournament.sheets.checking import SheetCheck, SheetInvalidError, check_rows
from tournament.sheets.confirming import LeavesMismatchError, SheetMismatchError, confirm_sheet
from tournament.sheets.desk import author_name, phone_name
from tournament.sheets.forms import (
    PostedLeaves,
    SheetPostForm,
    players_at,
    posted_leaves,
    shown_leaves,
)
from tournament.sheets.leaves import current_leaves
from tournament.sheets.reading import peek_sheet
from tournament.sheets.rows import Mismatch, Row, clean_row, compare, is_blank, trim
from tournament.sheets.saving import SheetChangedError, save_sheet
from tournament.sheets.versions import ReplayMismatchError, carried_same
from tournament.sheets.views import MISMATCHES_SHOWN
from tournament.table import services as entry
from tournament.templatetags.keep import keep_key, keep_table_key

# The codes a session opened, remembered so that a phone keeps its table past the limit
# on wrong codes that someone else on the pub's wifi ran into.
_OPENED = "table_codes"
_OPENED_KEPT = 10
# What the last submission or confirmation of this phone said, for the thanks page.
_DONE = "table_done"


# Opening a code -------------------------------------------------------------------------


def _typed_again(typed: str) -> str:
    """What goes back in the code box after a code that opens no sheet: the code as
    typed, to be corrected rather than typed again; nothing for junk the box cannot hold."""
    typed = typed.strip()
    # The box holds TYPED_MAX characters (templates/table/_code_form.html).
    if len(typed) > TYPED_MAX or not typed.isprintable():
        return ""
    return typed


def _refused(request: HttpRequest, typed: str = "") -> HttpResponse:
    """The one answer to every code that opens no sheet: it says nothing of why, and
    gives back what was typed."""
    return render(request, "table/refused.html", {"typed": _typed_again(typed)}, status=404)


def _too_many(request: HttpRequest) -> HttpResponse:
    return render(request, "table/too_many.html", status=429)


def _opened_before(request: HttpRequest, code: str) -> bool:
    return code in (request.session.get(_OPENED) or [])


def _remember(request: HttpRequest, table: Table) -> None:
    opened = [c for c in (request.session.get(_OPENED) or []) if c != table.code]
    request.session[_OPENED] = [table.code, *opened][:_OPENED_KEPT]


def _open(request: HttpRequest, typed: str) -> Table | HttpResponse:
    """The table whose sheet ``typed`` opens, or the refusal to answer with."""
    known = _opened_before(request, typed)
    if not known and entry.wrong_code_limit(request, count=False):
        return _too_many(request)
    try:
        table = entry.table_for_code(typed)
    except entry.TableCodeRefusedError:
        # A code this phone opened before (its sheet confirmed since) is no guess.
        if not known and entry.wrong_code_limit(request, count=True):
            return _too_many(request)
        return _refused(request, typed)
    _remember(request, table)
    return table


def _posted(request: HttpRequest) -> dict[str, Any]:
    """The form's own fields (``SheetPostForm``), each left out when missing or malformed."""
    form = SheetPostForm(request.POST)
    form.is_valid()
    return form.cleaned_data


def _open_for_post(
    request: HtmxHttpRequest, code: str, carried: PostedRows | None = None
) -> Table | HttpResponse:
    """As ``_open``, but a submission already recorded with its key is answered as saved
    even when the code no longer opens the sheet (confirmed or released meanwhile), once
    the numbers it carries (``carried``: its rows, by the table's size) are those the key
    recorded; with other numbers it is refused (``ReplayMismatchError``)."""
    opened = _open(request, code)
    if isinstance(opened, Table):
        return opened
    saved = entry.saved_for_repeat(code, _posted(request).get("key"))
    if saved is None:
        return opened
    table = saved.sheet.table
    if carried is not None:
        rows, numbers = carried(table)
        if not carried_same(list(saved.deals), rows, numbers):
            return _closed(request, table, ReplayMismatchError(table))
    messages.info(request, f"{_where(table)}: this was already saved.")
    return saved_redirect(request, reverse("table:thanks"))


# A submission's own numbers, read for ``table``: its rows, and the deals among them it
# carried (None: all of them).
PostedRows = Callable[[Table], tuple[list[Row], tuple[int, ...] | None]]


# What the pages show ----------------------------------------------------------------------


def _where(table: Table) -> str:
    return f"Round {table.round.number} · Table {table.number}"


def _url(name: str, table: Table, *args: object) -> str:
    return reverse(name, args=[table.code, *args])


def _most(table: Table, leaves: Sequence[Leave] = ()) -> int:
    return deals_in_round(table.size, table.round.tournament.rotations_per_round, leaves)


def _rows(sheet: Sheet) -> list[Row]:
    if sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
        return [clean_row(row, sheet.table.size) for row in sheet.pending]
    return []


@dataclass(frozen=True)
class Phones:
    """Who has the sheet, as this phone sees it."""

    mine: int | None  # this phone's number at the table, None before its first save
    entered: int | None  # the phone that saved the sheet last, None for a user

    @property
    def entered_by_me(self) -> bool:
        return self.mine is not None and self.entered == self.mine


def _phones(request: HttpRequest, table: Table, sheet: Sheet) -> Phones:
    mine = entry.phone_number(table, entry.known_phone(request.session, table))
    return Phones(mine, sheet.entered_by_phone)


def _refusal(request: HttpRequest, table: Table, sheet: Sheet, act: Act) -> str:
    """Why this phone may not ``act`` on the sheet (``refusal_for``), in words;
    blank when it may. A phone that has not saved yet has no token: it entered nothing."""
    phone = entry.known_phone(request.session, table) or AtTable("")
    refused = refusal_for(table, sheet, phone, act)
    return capfirst(refused.reason) + "." if refused else ""


def _closed_to_me(request: HttpRequest, table: Table, sheet: Sheet) -> bool:
    """Whether this phone may not change the sheet: it awaits confirmation and someone
    else submitted it (the numbers may be re-typed blind, so they are not shown)."""
    return bool(_refusal(request, table, sheet, Act.SAVE))


@dataclass(frozen=True)
class Difference:
    where: str
    deal: int
    entered: str
    retyped: str


def _value(value: object) -> str:
    return "blank" if value is None or value == "" else str(value)


def _differences(table: Table, found: list[Mismatch]) -> list[Difference]:
    names = {seat.position: seat.player.name for seat in table.seats.all()}
    shown = []
    for mismatch in found:
        if mismatch.field == WON and mismatch.seat is not None:
            part = f"seat {mismatch.seat} ({names.get(mismatch.seat, '?')})"
        else:
            part = mismatch.field.replace("_", " ")
        shown.append(
            Difference(
                f"Deal {mismatch.deal}, {part}",
                mismatch.deal,
                _value(mismatch.entered),
                _value(mismatch.retyped),
            )
        )
    return shown


def _retype_differences(table: Table, sheet: Sheet) -> list[Difference]:
    """Where another phone's blind re-type of the submitted sheet differs from it."""
    if sheet.status != SheetStatus.ENTERED or not sheet.retyped:
        return []
    retyped = [clean_row(row, table.size) for row in sheet.retyped]
    return _differences(table, compare(_rows(sheet), trim(retyped)))


@dataclass(frozen=True)
class ShownRow:
    number: int
    dealer: int
    won: list[str]
    left_over: str
    last_in: str
    problems: tuple[str, ...]


def _shown_rows(
    table: Table, rows: list[Row], check: SheetCheck, leaves: Sequence[Leave] = ()
) -> list[ShownRow]:
    return [
        ShownRow(
            number,
            dealer_at(number, table.size, leaves),
            [
                "left" if seat in absent_seats(number, leaves) and v is None else _value(v)
                for seat, v in enumerate(row["won"], start=1)
            ],
            _value(row["left_over"]),
            _value(row["last_in"]),
            check.rows[number - 1].problems if number <= len(check.rows) else (),
        )
        for number, row in enumerate(rows, start=1)
    ]


def _base(table: Table, **context: Any) -> dict[str, Any]:
    round_ = table.round
    return {
        "tournament": round_.tournament,
        "round": round_,
        "table": table,
        "seats": list(table.seats.all()),
        "code": table.code,
        "shown_code": shown_code(table.code),
        "where": _where(table),
        "most": _most(table),
        **context,
    }


def _resent(request: HttpRequest) -> str:
    """What a save adds to its "saved" when static/js/keep.js sent it again by itself: the
    phone showed "Waiting for the network…", and now says that the save went through."""
    return " (sent again when the network came back)" if resent(request) else ""


def _done(request: HttpRequest, table: Table, text: str) -> HttpResponse:
    if resent(request):
        text += " It was sent again when the network came back."
    request.session[_DONE] = {
        "where": _where(table),
        "tournament": table.round.tournament.name,
        "text": text,
        "code": table.code,
    }
    return saved_redirect(request, reverse("table:thanks"))  # type: ignore[arg-type]


# The code page and the table page ---------------------------------------------------------


@never_cache
@require_http_methods(["GET", "POST"])
def code(request: HtmxHttpRequest) -> HttpResponse:
    """Typing the code, for a phone without a camera."""
    if request.method == "GET":
        return render(request, "table/code.html")
    opened = _open(request, request.POST.get("code", ""))
    if isinstance(opened, HttpResponse):
        return opened
    return redirect("table:entry", opened.code)


@never_cache
@require_GET
def table_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = _open(request, code)
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    phones = _phones(request, table, sheet)
    rows = _rows(sheet)
    confirm_here = not _refusal(request, table, sheet, Act.CONFIRM)
    typed = len(trim(rows))
    # What a phone that may not see the numbers (the blind confirmation) may not see either.
    leaves = () if _closed_to_me(request, table, sheet) else current_leaves(sheet)
    most = _most(table, leaves)
    order = dealers(table.size, table.round.tournament.rotations_per_round, leaves)
    differences = _retype_differences(table, sheet)
    context = _base(
        table,
        sheet=sheet,
        phones=phones,
        entered_by=author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
        typed=typed,
        most=most,
        next_deal=min(typed + 1, most),
        leaves=shown_leaves(leaves, list(table.seats.all()), leaves),
        closed_to_me=_closed_to_me(request, table, sheet),
        confirm_here=confirm_here,
        differences=differences if len(differences) <= MISMATCHES_SHOWN else [],
        differing_deals=sorted({d.deal for d in differences}),
        retyped_by=phone_name(table.number, sheet.retyped_by_phone)
        if sheet.retyped_by_phone
        else "",
        retyped_by_me=phones.mine is not None and sheet.retyped_by_phone == phones.mine,
        seat_deals=[
            (seat, [n for n, dealer in enumerate(order, start=1) if dealer == p])
            for p, seat in enumerate(table.seats.all(), start=1)
        ],
    )
    return render(request, "table/entry.html", context)


# One deal ---------------------------------------------------------------------------------


def _posted_row(request: HttpRequest, number: int, size: int) -> Row:
    data = request.POST
    return clean_row(
        {
            "won": [data.get(cell_name(number, WON, seat), "") for seat in range(1, size + 1)],
            "left_over": data.get(cell_name(number, LEFT_OVER), ""),
            "last_in": data.get(cell_name(number, LAST_IN), ""),
        },
        size,
    )


def _merged(rows: list[Row], number: int, row: Row, size: int) -> list[Row]:
    blank = Row(won=[None] * size, last_in=None, left_over=None)
    merged = list(rows) + [blank] * max(0, number - len(rows))
    merged[number - 1] = row
    return trim(merged)


def _deal_check(
    table: Table, rows: list[Row], number: int, leaves: Sequence[Leave]
) -> tuple[tuple[str, ...], set[str]]:
    """The problems of deal ``number`` of ``rows`` and the cells to mark: a checksum that
    fails marks every count, since any one of them may be the mistyped one."""
    row = rows[number - 1] if number <= len(rows) else None
    if row is None or is_blank(row):
        problem = (
            f"deal {number}: nothing typed yet — type the cards each seat won, the cards "
            "left over and who was last in"
        )
        return (problem,), set()
    found = check_rows(rows, table, final=False, leaves=leaves).rows[number - 1]
    cells = set(found.problem_cells)
    if cell_name(number, CHECKSUM) in cells:
        cells |= {cell_name(number, WON, seat) for seat in range(1, table.size + 1)}
        cells.add(cell_name(number, LEFT_OVER))
    return found.problems, cells


def stray_counts(
    row: Row, number: int, leaves: Sequence[Leave], seats: Sequence[Seat]
) -> list[tuple[int, str]]:
    """The counts deal ``number`` holds for seats that had left before it, each as
    ``(seat, what to say)``."""
    names = {seat.position: seat.player.name for seat in seats}
    gone = {leave.seat: leave.after_deal for leave in leaves}
    return [
        (
            seat,
            f"deal {number}: seat {seat} ({names.get(seat, '?')}) left after deal {gone[seat]}, "
            f"but this deal holds {value} cards won for them — clear that count",
        )
        for seat, value in enumerate(row["won"], start=1)
        if seat in absent_seats(number, leaves) and value not in (None, "")
    ]


@dataclass(frozen=True)
class Input:
    name: str
    value: str
    seat: Seat | None
    invalid: bool


def _deal_context(
    table: Table,
    sheet: Sheet,
    number: int,
    row: Row,
    *,
    version: int,
    problems: tuple[str, ...] = (),
    marked: set[str] | None = None,
    conflict: SheetChangedError | None = None,
) -> dict[str, Any]:
    seats = list(table.seats.all())
    saved = _rows(sheet)
    leaves = current_leaves(sheet)
    absent = absent_seats(number, leaves)
    # The running totals: every deal saved so far but this one, as on the paper. This one
    # is blanked, not dropped: the deals after it keep their numbers (and so their dealers
    # and who had left).
    blank = Row(won=[None] * table.size, last_in=None, left_over=None)
    others = [blank if n == number else r for n, r in enumerate(saved, start=1)]
    totals = check_rows(others, table, final=False, leaves=leaves)
    marked = set(marked or ())
    names = [cell_name(number, WON, seat.position) for seat in seats]
    stray_only = not problems
    if not problems:
        # A count typed before the leave was recorded: said at once, not only at the
        # review, and kept in its box to be cleared.
        stray = stray_counts(row, number, leaves, seats)
        problems = tuple(text for _, text in stray)
        marked.update(cell_name(number, WON, seat) for seat, _ in stray)
    # A seat that had left has no count; one typed for it anyway is shown, to be cleared.
    inputs = [
        Input(name, _blank(value), seat, name in marked)
        for name, seat, value in zip(names, seats, row["won"], strict=False)
        if seat.position not in absent or value is not None
    ]
    left = row["left_over"]
    theirs = None
    if conflict is not None and conflict.sheet.status != SheetStatus.ENTERED:
        rows = [clean_row(r, table.size) for r in conflict.current_rows]
        theirs = rows[number - 1] if number <= len(rows) else None
    return _base(
        table,
        sheet=sheet,
        number=number,
        most=_most(table, leaves),
        dealer=seats[dealer_at(number, table.size, leaves) - 1],
        inputs=inputs,
        playing=[seat for seat in seats if seat.position not in absent],
        gone=shown_leaves([leave for leave in leaves if leave.seat in absent], seats, leaves),
        players=players_at(number, table.size, leaves),
        left_over=Input(
            cell_name(number, LEFT_OVER), _blank(left), None, cell_name(number, LEFT_OVER) in marked
        ),
        last_in_name=cell_name(number, LAST_IN),
        last_in=_blank(row["last_in"]),
        last_in_invalid=cell_name(number, LAST_IN) in marked,
        checksum_failed=cell_name(number, CHECKSUM) in marked,
        problems=[capfirst(p) for p in problems],
        # Only a count typed before a leave was recorded: nothing was refused.
        stray_only=stray_only and bool(problems),
        # A refused save's summary takes the focus (static/js/focus.js), not the first count.
        focus_first=not problems and conflict is None,
        totals=totals,
        seat_totals=list(zip(seats, totals.cards, totals.totals, strict=False)),
        counted=sum(1 for r in totals.rows if r.points is not None),
        version=version,
        previous=number - 1 if number > 1 else None,
        later=number + 1 if number < _most(table, leaves) else None,
        keep=keep_key(table, version, f"deal{number}"),
        keep_table=keep_table_key(table, f"deal{number}"),
        conflict=conflict,
        conflict_by=author_name(
            table.number, conflict.sheet.entered_by, conflict.sheet.entered_by_phone
        )
        if conflict
        else "",
        theirs=theirs,
    )


@never_cache
@require_http_methods(["GET", "POST"])
def deal(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    def carried(table: Table) -> tuple[list[Row], tuple[int, ...]]:
        blank = Row(won=[None] * table.size, last_in=None, left_over=None)
        return [blank] * (number - 1) + [_posted_row(request, number, table.size)], (number,)

    table = (
        _open(request, code) if request.method == "GET" else _open_for_post(request, code, carried)
    )
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    leaves = current_leaves(sheet)
    most = _most(table, leaves)
    if not 1 <= number <= most:
        messages.error(
            request, f"A table of {table.size} plays {most} deals: there is no deal {number}."
        )
        return redirect("table:entry", table.code)
    if _closed_to_me(request, table, sheet):
        messages.error(
            request,
            f"{capfirst(author_name(table.number, sheet.entered_by, sheet.entered_by_phone))} "
            "submitted this sheet: it awaits confirmation, and is no longer typed here.",
        )
        return redirect("table:entry", table.code)
    rows = _rows(sheet)
    if request.method == "GET":
        blank = Row(won=[None] * table.size, last_in=None, left_over=None)
        row = rows[number - 1] if number <= len(rows) else blank
        context = _deal_context(table, sheet, number, row, version=sheet.version)
        return render(request, "table/deal.html", context)

    posted = _posted(request)
    expected = posted.get("expected_version")
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    row = _posted_row(request, number, table.size)
    merged = _merged(rows, number, row, table.size)
    problems, marked = _deal_check(table, merged, number, leaves)
    if problems:
        context = _deal_context(
            table, sheet, number, row, version=expected, problems=problems, marked=marked
        )
        return render(request, "table/deal.html", context, status=422)
    try:
        save_sheet(
            table,
            entry.phone_token(request.session, table),
            merged,
            expected_version=expected,
            final=False,
            key=posted.get("key"),
            carried=(number,),
        )
    except SheetChangedError as changed:
        context = _deal_context(
            table, changed.sheet, number, row, version=changed.sheet.version, conflict=changed
        )
        return render(request, "table/deal.html", context, status=409)
    except ClosedAtTableError as closed:
        return _closed(request, table, closed)
    except (SaveRefusedError, ReplayMismatchError) as refused:
        return _closed(request, table, refused, reload=True)
    messages.success(request, f"Deal {number} saved ✓{_resent(request)}")
    if number < most:
        return saved_redirect(request, _url("table:deal", table, number + 1))
    return saved_redirect(request, _url("table:review", table))


def _closed(
    request: HttpRequest, table: Table, refusal: UserError, *, reload: bool = False
) -> HttpResponse:
    """Nothing was saved, and why; with ``reload``, the sheet is still open to this phone
    (the refusal concerned this submission), and the page links back to it."""
    context = _base(table, refusal=capfirst(str(refusal)), reload=reload)
    return render(request, "table/closed.html", context, status=409)


# The review and the submission ----------------------------------------------------------


def _review_context(
    request: HttpRequest,
    table: Table,
    sheet: Sheet,
    *,
    stopped_early: bool,
    final: bool = False,
    conflict: SheetChangedError | None = None,
) -> dict[str, Any]:
    rows = trim(_rows(sheet))
    leaves = current_leaves(sheet)
    check = check_rows(rows, table, final=final, stopped_early=stopped_early, leaves=leaves)
    return _base(
        table,
        sheet=sheet,
        phones=_phones(request, table, sheet),
        most=_most(table, leaves),
        leaves=shown_leaves(leaves, list(table.seats.all()), leaves),
        rows=_shown_rows(table, rows, check, leaves),
        check=check,
        problems=[_problem_link(table, p, leaves) for p in check.problems],
        seat_totals=list(zip(table.seats.all(), check.cards, check.totals, strict=False)),
        stopped_early=stopped_early,
        version=sheet.version,
        keep=keep_key(table, sheet.version, "review"),
        keep_table=keep_table_key(table, "review"),
        conflict=conflict,
        entered_by=author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
    )


def _problem_link(table: Table, problem: str, leaves: Sequence[Leave]) -> tuple[str, str]:
    """A problem of the sheet and the deal page it is about (blank if none)."""
    words = problem.split(":", 1)[0].split()
    number = words[1] if len(words) == 2 and words[0] == "deal" and words[1].isdigit() else ""
    if number and 1 <= int(number) <= _most(table, leaves):
        return capfirst(problem), _url("table:deal", table, int(number))
    return capfirst(problem), ""


@never_cache
@require_http_methods(["GET", "POST"])
def review(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = (_open if request.method == "GET" else _open_for_post)(request, code)
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    if _closed_to_me(request, table, sheet):
        return redirect("table:entry", table.code)
    if request.method == "GET":
        context = _review_context(request, table, sheet, stopped_early=sheet.stopped_early)
        return render(request, "table/review.html", context)

    posted = _posted(request)
    expected = posted.get("expected_version")
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    stopped_early = bool(posted.get("stopped_early"))
    phone = entry.phone_token(request.session, table)
    try:
        save_sheet(
            table,
            phone,
            trim(_rows(sheet)),
            expected_version=expected,
            final=True,
            stopped_early=stopped_early,
            key=posted.get("key"),
            # The submission carries no numbers: it submits the draft as saved.
            carried=(),
        )
    except SheetInvalidError:
        context = _review_context(request, table, sheet, stopped_early=stopped_early, final=True)
        return render(request, "table/review.html", {**context, "refused": True}, status=422)
    except SheetChangedError as changed:
        context = _review_context(
            request, table, changed.sheet, stopped_early=stopped_early, conflict=changed
        )
        return render(request, "table/review.html", context, status=409)
    except ClosedAtTableError as closed:
        return _closed(request, table, closed)
    except (SaveRefusedError, ReplayMismatchError) as refused:
        return _closed(request, table, refused, reload=True)
    number = entry.phone_number(table, phone)
    who = "a scorer at the desk"
    if table.round.tournament.table_confirm:
        who = "a scorer at the desk, or another phone at this table,"
    return _done(
        request,
        table,
        f"Submitted by table {table.number} (phone {number}): {who} confirms it against the "
        "paper. Keep the paper sheet for the desk.",
    )


# Blind confirmation by a second phone ---------------------------------------------------


def _retyped_rows(request: HttpRequest, deals: int, size: int) -> list[Row]:
    return [_posted_row(request, number, size) for number in range(1, deals + 1)]


def _confirm_context(
    table: Table,
    sheet: Sheet,
    retyped: list[Row],
    posted: PostedLeaves | None = None,
    **context: Any,
) -> dict[str, Any]:
    """The blind re-type; ``posted`` holds the players who left as this phone typed them
    (never the entered ones: they are not shown)."""
    deals = len(sheet.pending) if sheet.status == SheetStatus.ENTERED else 0
    leaves = posted.leaves if posted else ()
    blocks = []
    for number in range(1, deals + 1):
        row = (
            retyped[number - 1]
            if number <= len(retyped)
            else Row(won=[None] * table.size, last_in=None, left_over=None)
        )
        seats = list(table.seats.all())
        absent = absent_seats(number, leaves)
        blocks.append(
            {
                "number": number,
                "dealer": seats[dealer_at(number, table.size, leaves) - 1],
                "inputs": [
                    Input(cell_name(number, WON, s.position), _blank(v), s, False)
                    for s, v in zip(seats, row["won"], strict=False)
                    if s.position not in absent or v is not None
                ],
                "playing": [s for s in seats if s.position not in absent],
                "players": players_at(number, table.size, leaves),
                "left_over": Input(
                    cell_name(number, LEFT_OVER), _blank(row["left_over"]), None, False
                ),
                "last_in_name": cell_name(number, LAST_IN),
                "last_in": _blank(row["last_in"]),
            }
        )
    return _base(
        table,
        sheet=sheet,
        deals=deals,
        blocks=blocks,
        leaves=shown_leaves(leaves, list(table.seats.all()), ()),
        leave_seat=posted.typed_seat if posted and posted.problems else "",
        leave_after=posted.typed_after if posted and posted.problems else "",
        leaves_url=_url("table:confirm_leaves", table),
        version=sheet.version,
        entered_by=author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
        keep=keep_key(table, sheet.version, "confirm"),
        keep_table=keep_table_key(table, "confirm"),
        **context,
    )


def _blank(value: object) -> str:
    return "" if value is None else str(value)


@never_cache
@require_http_methods(["GET", "POST"])
def confirm(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def carried(table: Table) -> tuple[list[Row], None]:
        return trim(_retyped_rows(request, _most(table), table.size)), None

    table = (
        _open(request, code) if request.method == "GET" else _open_for_post(request, code, carried)
    )
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    refusal = _refusal(request, table, sheet, Act.CONFIRM)
    if request.method == "GET":
        context = _confirm_context(table, sheet, [], refusal=refusal)
        return render(request, "table/confirm.html", context)

    posted = _posted(request)
    expected = posted.get("expected_version")
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    deals = len(sheet.pending) if sheet.status == SheetStatus.ENTERED else 0
    retyped = _retyped_rows(request, deals, table.size)
    left = posted_leaves(request.POST)
    if left.problems:
        # A player who left, half typed into the fields: nothing compared, said so.
        error = capfirst("; ".join(left.problems)) + "."
        context = _confirm_context(table, sheet, retyped, left, error=error)
        return render(request, "table/confirm.html", context, status=422)
    if not refusal:
        for number, row in enumerate(retyped, start=1):
            absent = absent_seats(number, left.leaves)
            counts = [v for seat, v in enumerate(row["won"], start=1) if seat not in absent]
            if None in (*counts, row["left_over"], row["last_in"]):
                context = _confirm_context(
                    table,
                    sheet,
                    retyped,
                    left,
                    error=f"Deal {number} is not complete: type every count of the {deals} "
                    "deals, then confirm. Nothing was compared yet.",
                )
                return render(request, "table/confirm.html", context, status=422)
    try:
        confirm_sheet(
            table,
            entry.phone_token(request.session, table),
            expected_version=expected,
            retyped=retyped,
            key=posted.get("key"),
            retyped_left=left.leaves,
        )
    except LeavesMismatchError as differs:
        context = _confirm_context(table, sheet, retyped, left, error=capfirst(str(differs)) + ".")
        return render(request, "table/confirm.html", context, status=422)
    except SheetMismatchError as mismatch:
        found = mismatch.mismatches
        few = len(found) <= MISMATCHES_SHOWN
        context = _confirm_context(
            table,
            sheet,
            retyped,
            left,
            error=capfirst(str(mismatch)) + ". Nothing was confirmed.",
            differences=_differences(table, found) if few else [],
            differing_deals=sorted({m.deal for m in found}),
        )
        return render(request, "table/confirm.html", context, status=422)
    except ClosedAtTableError as closed:
        return _closed(request, table, closed)
    except ReplayMismatchError as replayed:
        return _closed(request, table, replayed, reload=True)
    except UserError as refused:
        # ConfirmRefusedError, or the sheet changed since the page was loaded.
        context = _confirm_context(
            table, peek_sheet(table), [], refusal=capfirst(str(refused)) + ".", refused=True
        )
        return render(request, "table/confirm.html", context, status=409)
    confirmer = entry.phone_number(table, entry.known_phone(request.session, table))
    return _done(
        request,
        table,
        f"Confirmed by table {table.number}, phone {confirmer}: the sheet now counts. Hand the "
        "paper sheet in at the desk.",
    )


@never_cache
@require_GET
def thanks(request: HtmxHttpRequest) -> HttpResponse:
    """What the phone's last submission or confirmation did. Reached without the code, so
    that a retried submission still finds it once the code has stopped working."""
    return render(request, "table/thanks.html", {"done": request.session.get(_DONE)})
