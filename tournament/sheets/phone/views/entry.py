"""Entry at the table: the code page (for a phone without a camera), the table's page
that a table code opens (where the sheet stands, the deals to type, the players who
left), and the thanks page after a submission or confirmation."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from scoring.rules import dealers
from tournament.kernel.http import HtmxHttpRequest
from tournament.sheets import at_table as entry
from tournament.sheets.blind import confirm_refusal, shown_mismatch
from tournament.sheets.leaves import current_leaves
from tournament.sheets.pages.forms import shown_leaves
from tournament.sheets.pages.view_model import retype_differences
from tournament.sheets.phone.opening import open_code
from tournament.sheets.phone.pages import (
    DONE,
    base_context,
    closed_to_me,
    phones_of,
    round_deals,
    this_phone,
)
from tournament.sheets.reading import peek_sheet, pending_rows
from tournament.sheets.rows import trim
from tournament.sheets.status import author_name, phone_name


@never_cache
@require_http_methods(["GET", "POST"])
def code(request: HtmxHttpRequest) -> HttpResponse:
    """Typing the code, for a phone without a camera."""
    if request.method == "GET":
        return render(request, "table/code.html")
    opened = open_code(request, request.POST.get("code", ""))
    if isinstance(opened, HttpResponse):
        return opened
    return redirect("table:entry", opened.code)


@never_cache
@require_GET
def table_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = open_code(request, code)
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    phones = phones_of(request, table, sheet)
    rows = pending_rows(sheet)
    confirm_here = not confirm_refusal(table, sheet, this_phone(request, table))
    typed = len(trim(rows))
    # What a phone that may not see the numbers (the blind confirmation) may not see either.
    leaves = () if closed_to_me(request, table, sheet) else current_leaves(sheet)
    most = round_deals(table, leaves)
    order = dealers(table.size, table.round.tournament.rotations_per_round, leaves)
    shown = shown_mismatch(retype_differences(table, sheet))
    context = base_context(
        table,
        sheet=sheet,
        phones=phones,
        entered_by=author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
        typed=typed,
        most=most,
        next_deal=min(typed + 1, most),
        leaves=shown_leaves(leaves, list(table.seats.all()), leaves),
        closed_to_me=closed_to_me(request, table, sheet),
        confirm_here=confirm_here,
        differences=shown.cells,
        differing_deals=shown.deals,
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


@never_cache
@require_GET
def thanks(request: HtmxHttpRequest) -> HttpResponse:
    """What the phone's last submission or confirmation did. Reached without the code, so
    that a retried submission still finds it once the code has stopped working: it links
    back to the sheet only while the code still opens it, and says what happens next
    otherwise."""
    done = request.session.get(DONE)
    now = entry.sheet_now(done.get("code") or "") if isinstance(done, dict) else None
    return render(request, "table/thanks.html", {"done": done, "now": now})
