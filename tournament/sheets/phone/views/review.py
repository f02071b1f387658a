"""Entry at the table: the *review* shows the whole sheet as saved, its problems linked
to their deal pages, and submits the draft as complete, to await confirmation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from scoring.rules import Leave
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Sheet, Table
from tournament.sheets import access
from tournament.sheets import at_table as entry
from tournament.sheets.authors import AtTable
from tournament.sheets.checking import check_rows
from tournament.sheets.leaves import current_leaves
from tournament.sheets.outcome import Outcome, OutcomeKind, SheetChangedError
from tournament.sheets.pages.forms import expected_version, sheet_post, shown_leaves
from tournament.sheets.pages.keep import keep_key, keep_table_key
from tournament.sheets.pages.view_model import shown_rows
from tournament.sheets.phone.answers import answer
from tournament.sheets.phone.opening import open_code, open_for_post
from tournament.sheets.phone.pages import (
    base_context,
    closed_to_me,
    code_url,
    done,
    phones_of,
    round_deals,
)
from tournament.sheets.reading import peek_sheet, pending_rows
from tournament.sheets.rows import trim
from tournament.sheets.saving import save_sheet
from tournament.sheets.status import author_name


def _review_context(
    request: HttpRequest,
    table: Table,
    sheet: Sheet,
    *,
    stopped_early: bool,
    final: bool = False,
    conflict: SheetChangedError | None = None,
) -> dict[str, Any]:
    rows = trim(pending_rows(sheet))
    leaves = current_leaves(sheet)
    check = check_rows(rows, table, final=final, stopped_early=stopped_early, leaves=leaves)
    return base_context(
        table,
        sheet=sheet,
        phones=phones_of(request, table, sheet),
        most=round_deals(table, leaves),
        leaves=shown_leaves(leaves, list(table.seats.all()), leaves),
        rows=shown_rows(table, rows, check, leaves),
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
    if number and 1 <= int(number) <= round_deals(table, leaves):
        return capfirst(problem), code_url("table:deal", table, int(number))
    return capfirst(problem), ""


@never_cache
@require_http_methods(["GET", "POST"])
def review(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = (open_code if request.method == "GET" else open_for_post)(request, code)
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    if closed_to_me(request, table, sheet):
        return redirect("table:entry", table.code)
    if request.method == "GET":
        context = _review_context(request, table, sheet, stopped_early=sheet.stopped_early)
        return render(request, "table/review.html", context)

    posted = sheet_post(request)
    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    stopped_early = bool(posted.get("stopped_early"))
    phone = entry.phone_token(request.session, table)
    outcome = save_sheet(
        table,
        phone,
        trim(pending_rows(sheet)),
        expected_version=expected,
        final=True,
        stopped_early=stopped_early,
        key=posted.get("key"),
        # The submission carries no numbers: it submits the draft as saved.
        carried=(),
    )

    def page(outcome: Outcome, status: int) -> HttpResponse:
        if outcome.kind is OutcomeKind.CHANGED:
            context = _review_context(
                request,
                table,
                outcome.changed.sheet,
                stopped_early=stopped_early,
                conflict=outcome.changed,
            )
            return render(request, "table/review.html", context, status=status)
        context = _review_context(request, table, sheet, stopped_early=stopped_early, final=True)
        return render(request, "table/review.html", {**context, "refused": True}, status=status)

    if not outcome.saved:
        return answer(request, table, outcome, page=page)
    return _submitted(request, table, phone, outcome)


def _submitted(
    request: HtmxHttpRequest, table: Table, phone: AtTable, result: Outcome
) -> HttpResponse:
    """The thanks page of a sheet submitted, saying who confirms it now."""
    number = entry.phone_number(table, phone)
    submitted = f"Submitted by table {table.number} (phone {number})"
    # The round as the save found it, under its locks: released meanwhile, it says so.
    assert result.sheet is not None
    round_ = result.sheet.table.round
    if round_.released:
        text = (
            f"{submitted}. Round {round_.number}'s results are already released, so a "
            "scorer at the desk confirms it against the paper: hand the paper sheet in at the "
            "desk. It counts once confirmed."
        )
    else:
        who = "a scorer at the desk"
        if access.phones_confirm(round_):
            who = "a scorer at the desk, or another phone at this table,"
        text = (
            f"{submitted}: {who} confirms it against the paper. Keep the paper sheet for the desk."
        )
    return done(request, table, text)
