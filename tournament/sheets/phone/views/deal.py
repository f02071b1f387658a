"""Entry at the table: a *deal page* shows one deal of the sheet and saves the whole
sheet as a draft with that deal's cells merged in, the running totals of the deals
saved so far beside it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from scoring.rules import absent_seats
from tournament.kernel.cells import CHECKSUM, LAST_IN, WON, cell_name
from tournament.kernel.http import HtmxHttpRequest, saved_redirect
from tournament.models import Sheet, SheetStatus, Table
from tournament.sheets import at_table as entry
from tournament.sheets.checking import check_rows
from tournament.sheets.leaves import current_leaves
from tournament.sheets.outcome import Outcome, OutcomeKind, SheetChangedError
from tournament.sheets.pages.forms import (
    blank_row,
    expected_version,
    merged,
    posted_row,
    sheet_post,
    shown_leaves,
)
from tournament.sheets.pages.keep import keep_key, keep_table_key
from tournament.sheets.pages.view_model import (
    deal_check,
    deal_inputs,
    order_shown,
    order_typed,
    stray_counts,
)
from tournament.sheets.phone.answers import answer
from tournament.sheets.phone.opening import open_code, open_for_post
from tournament.sheets.phone.pages import (
    base_context,
    closed_to_me,
    code_url,
    resent_aside,
    round_deals,
)
from tournament.sheets.reading import peek_sheet, pending_rows
from tournament.sheets.rows import Row, clean_row
from tournament.sheets.saving import save_sheet
from tournament.sheets.status import author_name


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
    saved = pending_rows(sheet)
    leaves = current_leaves(sheet)
    absent = absent_seats(number, leaves)
    # The running totals: every deal saved so far but this one, as on the paper. This one
    # is blanked, not dropped: the deals after it keep their numbers (and so their dealers
    # and who had left).
    blank = blank_row(table.size)
    others = [blank if n == number else r for n, r in enumerate(saved, start=1)]
    totals = check_rows(others, table, final=False, leaves=leaves)
    marked = set(marked or ())
    stray_only = not problems
    if not problems:
        # A count typed before the leave was recorded: said at once, not only at the
        # review, and kept in its box to be cleared.
        stray = stray_counts(row, number, leaves, seats)
        problems = tuple(text for _, text in stray)
        marked.update(cell_name(number, WON, seat) for seat, _ in stray)
    theirs = None
    if conflict is not None and conflict.sheet.status != SheetStatus.ENTERED:
        rows = [clean_row(r, table.size) for r in conflict.current_rows]
        theirs = rows[number - 1] if number <= len(rows) else None
    return base_context(
        table,
        sheet=sheet,
        **deal_inputs(
            number,
            row,
            seats,
            leaves,
            marked,
            order=order_typed(table.round.tournament, [*saved, row]),
        ),
        most=round_deals(table, leaves),
        gone=shown_leaves([leave for leave in leaves if leave.seat in absent], seats, leaves),
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
        later=number + 1 if number < round_deals(table, leaves) else None,
        keep=keep_key(table, version, f"deal{number}"),
        keep_table=keep_table_key(table, f"deal{number}"),
        conflict=conflict,
        conflict_by=author_name(
            table.number, conflict.sheet.entered_by, conflict.sheet.entered_by_phone
        )
        if conflict
        else "",
        theirs=theirs,
        theirs_order=order_shown(theirs) if theirs else "",
    )


@never_cache
@require_http_methods(["GET", "POST"])
def deal(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    def carried(table: Table) -> tuple[list[Row], tuple[int, ...]]:
        blank = blank_row(table.size)
        return [blank] * (number - 1) + [posted_row(request.POST, number, table.size)], (number,)

    table = (
        open_code(request, code)
        if request.method == "GET"
        else open_for_post(request, code, carried)
    )
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    leaves = current_leaves(sheet)
    most = round_deals(table, leaves)
    if not 1 <= number <= most:
        messages.error(
            request, f"A table of {table.size} plays {most} deals: there is no deal {number}."
        )
        return redirect("table:entry", table.code)
    if closed_to_me(request, table, sheet):
        messages.error(
            request,
            f"{capfirst(author_name(table.number, sheet.entered_by, sheet.entered_by_phone))} "
            "submitted this sheet: it awaits confirmation, and is no longer typed here.",
        )
        return redirect("table:entry", table.code)
    rows = pending_rows(sheet)
    if request.method == "GET":
        blank = blank_row(table.size)
        row = rows[number - 1] if number <= len(rows) else blank
        context = _deal_context(table, sheet, number, row, version=sheet.version)
        return render(request, "table/deal.html", context)

    posted = sheet_post(request)
    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    row = posted_row(request.POST, number, table.size)
    lines = merged(rows, number, row, table.size)
    problems, marked = deal_check(table, lines, number, leaves)
    if problems:
        context = _deal_context(
            table, sheet, number, row, version=expected, problems=problems, marked=marked
        )
        return render(request, "table/deal.html", context, status=422)
    outcome = save_sheet(
        table,
        entry.phone_token(request.session, table),
        lines,
        expected_version=expected,
        final=False,
        key=posted.get("key"),
        carried=(number,),
    )

    def page(outcome: Outcome, status: int) -> HttpResponse:
        if outcome.kind is OutcomeKind.CHANGED:
            changed = outcome.changed.sheet
            context = _deal_context(
                table, changed, number, row, version=changed.version, conflict=outcome.changed
            )
        else:
            context = _deal_context(
                table, sheet, number, row, version=expected, problems=outcome.problems
            )
        return render(request, "table/deal.html", context, status=status)

    if not outcome.saved:
        return answer(request, table, outcome, page=page)
    messages.success(request, f"Deal {number} saved ✓{resent_aside(request)}")
    if number < most:
        return saved_redirect(request, code_url("table:deal", table, number + 1))
    return saved_redirect(request, code_url("table:review", table))
