"""Entry at the table: blind confirmation by a second phone, where the tournament allows
it. The phone re-types the submitted sheet from the paper without seeing it, with the
players who left as the paper says (its "Record" and "Remove" draw the re-type again,
nothing compared); the rules are the sheets' (``sheets.blind``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Sheet, Table
from tournament.sheets import at_table as entry
from tournament.sheets.blind import (
    confirm_refusal,
    deals_to_retype,
    incomplete_retype,
    shown_mismatch,
)
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.outcome import Outcome, OutcomeKind
from tournament.sheets.pages.forms import (
    PostedLeaves,
    blank_row,
    expected_version,
    posted_deals,
    posted_leaves,
    sheet_post,
    shown_leaves,
)
from tournament.sheets.pages.keep import keep_key, keep_table_key
from tournament.sheets.pages.view_model import deal_inputs, mismatch_differences, order_typed
from tournament.sheets.phone.answers import answer
from tournament.sheets.phone.opening import open_code, open_for_post
from tournament.sheets.phone.pages import (
    base_context,
    code_url,
    done,
    round_deals,
    sheet_opens,
    this_phone,
)
from tournament.sheets.reading import peek_sheet
from tournament.sheets.rows import Row, trim
from tournament.sheets.status import author_name

# What the re-type page draws again itself: a re-type that differs, and a confirmation
# refused or overtaken by a change (the sheet as it now stands, the numbers unseen).
CONFIRMS = frozenset({OutcomeKind.MISMATCH, OutcomeKind.CHANGED, OutcomeKind.REFUSED})


def _confirm_context(
    table: Table,
    sheet: Sheet,
    retyped: list[Row],
    posted: PostedLeaves | None = None,
    **context: Any,
) -> dict[str, Any]:
    """The blind re-type; ``posted`` holds the players who left as this phone typed them
    (never the entered ones: they are not shown)."""
    deals = deals_to_retype(sheet)
    leaves = posted.leaves if posted else ()
    seats = list(table.seats.all())
    order = order_typed(table.round.tournament, sheet.pending)
    blocks = [
        deal_inputs(
            number,
            retyped[number - 1] if number <= len(retyped) else blank_row(table.size),
            seats,
            leaves,
            order=order,
        )
        for number in range(1, deals + 1)
    ]
    return base_context(
        table,
        sheet=sheet,
        deals=deals,
        blocks=blocks,
        leaves=shown_leaves(leaves, list(table.seats.all()), ()),
        leave_seat=posted.typed_seat if posted and posted.problems else "",
        leave_after=posted.typed_after if posted and posted.problems else "",
        leaves_url=code_url("table:confirm_leaves", table),
        version=sheet.version,
        entered_by=author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
        keep=keep_key(table, sheet.version, "confirm"),
        keep_table=keep_table_key(table, "confirm"),
        **context,
    )


@never_cache
@require_http_methods(["GET", "POST"])
def confirm(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def carried(table: Table) -> tuple[list[Row], None]:
        return trim(posted_deals(request.POST, round_deals(table), table.size)), None

    table = (
        open_code(request, code)
        if request.method == "GET"
        else open_for_post(request, code, carried)
    )
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    refusal = confirm_refusal(table, sheet, this_phone(request, table))
    if request.method == "GET":
        context = _confirm_context(table, sheet, [], refusal=refusal)
        return render(request, "table/confirm.html", context)

    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    deals = deals_to_retype(sheet)
    retyped = posted_deals(request.POST, deals, table.size)
    left = posted_leaves(request.POST)
    if left.problems:
        # A player who left, half typed into the fields: nothing compared, said so.
        error = capfirst("; ".join(left.problems)) + "."
        context = _confirm_context(table, sheet, retyped, left, error=error)
        return render(request, "table/confirm.html", context, status=422)
    order = order_typed(table.round.tournament, sheet.pending)
    incomplete = (
        ""
        if refusal
        else incomplete_retype(retyped, table.size, deals, left.leaves, order_needed=order)
    )
    if incomplete:
        context = _confirm_context(table, sheet, retyped, left, error=incomplete)
        return render(request, "table/confirm.html", context, status=422)
    outcome = confirm_sheet(
        table,
        entry.phone_token(request.session, table),
        expected_version=expected,
        retyped=retyped,
        key=sheet_post(request).get("key"),
        retyped_left=left.leaves,
    )

    def page(outcome: Outcome, status: int) -> HttpResponse:
        if outcome.kind is OutcomeKind.MISMATCH and not outcome.mismatches:
            # The players who left differ: said, nothing else shown.
            error = capfirst(str(outcome.refusal)) + "."
            context = _confirm_context(table, sheet, retyped, left, error=error)
        elif outcome.kind is OutcomeKind.MISMATCH:
            shown = shown_mismatch(outcome.mismatches)
            context = _confirm_context(
                table,
                sheet,
                retyped,
                left,
                error=capfirst(str(outcome.refusal)) + ". Nothing was confirmed.",
                differences=mismatch_differences(table, shown.cells),
                differing_deals=shown.deals,
            )
        else:
            # Refused to this phone, or the sheet changed since the page was loaded.
            context = _confirm_context(
                table,
                peek_sheet(table),
                [],
                refusal=capfirst(str(outcome.refusal)) + ".",
                refused=True,
                sheet_opens=sheet_opens(table),
            )
        return render(request, "table/confirm.html", context, status=status)

    if not outcome.saved:
        return answer(request, table, outcome, page=page, on_page=CONFIRMS)
    confirmer = entry.phone_number(table, entry.known_phone(request.session, table))
    return done(
        request,
        table,
        f"Confirmed by table {table.number}, phone {confirmer}: the sheet now counts. "
        "Hand the paper sheet in at the desk.",
    )


@never_cache
@require_POST
def confirm_leaves(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """A second phone's blind re-type: its "Record" and "Remove" of a player who left draw
    the deals again with the leaves as typed, nothing compared."""
    table = open_code(request, code)
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    if expected_version(request) is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    deals = deals_to_retype(sheet)
    retyped = posted_deals(request.POST, deals, table.size)
    posted = posted_leaves(request.POST)
    error = capfirst("; ".join(posted.problems)) + "." if posted.problems else ""
    refusal = confirm_refusal(table, sheet, this_phone(request, table))
    context = _confirm_context(table, sheet, retyped, posted, error=error, refusal=refusal)
    return render(request, "table/confirm.html", context, status=422 if error else 200)
