"""Entry at the table: the page where a phone records that a player left mid-round
(docs/rules.md, "A player leaves mid-round"). Like a deal page it saves the sheet as a
draft at once, with the leave, through ``sheets.saving`` (the same rules as the desk:
``sheets.leaves``); the deal pages then leave the player out of the deals after it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.kernel.http import HtmxHttpRequest, saved_redirect
from tournament.models import Sheet, Table
from tournament.sheets import at_table as entry
from tournament.sheets.access import Act
from tournament.sheets.leaves import current_leaves
from tournament.sheets.outcome import Outcome, OutcomeKind
from tournament.sheets.pages.forms import (
    PostedLeaves,
    expected_version,
    posted_leaves,
    sheet_post,
    shown_leaves,
)
from tournament.sheets.pages.keep import keep_key, keep_table_key
from tournament.sheets.pages.view_model import stray_counts
from tournament.sheets.phone.answers import answer
from tournament.sheets.phone.opening import open_code, open_for_post
from tournament.sheets.phone.pages import base_context, code_url, phone_refusal, round_deals
from tournament.sheets.reading import peek_sheet, pending_rows
from tournament.sheets.rows import trim
from tournament.sheets.saving import save_sheet


def _context(
    table: Table,
    sheet: Sheet,
    *,
    version: int,
    posted: PostedLeaves | None = None,
    problems: tuple[str, ...] = (),
    changed: bool = False,
) -> dict[str, Any]:
    saved = current_leaves(sheet)
    leaves = posted.leaves if posted is not None and not problems else saved
    seats = list(table.seats.all())
    return base_context(
        table,
        sheet=sheet,
        leaves=shown_leaves(leaves, seats, saved),
        typed=len(trim(pending_rows(sheet))),
        most=round_deals(table, leaves),
        version=version,
        problems=[capfirst(p) for p in problems],
        changed=changed,
        leave_seat=posted.typed_seat if posted and problems else "",
        leave_after=posted.typed_after if posted and problems else "",
        keep=keep_key(table, version, "left"),
        keep_table=keep_table_key(table, "left"),
    )


@never_cache
@require_http_methods(["GET", "POST"])
def left(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table = (open_code if request.method == "GET" else open_for_post)(request, code)
    if isinstance(table, HttpResponse):
        return table
    sheet = peek_sheet(table)
    refusal = phone_refusal(request, table, sheet, Act.SAVE)
    if refusal:
        # The sheet rule's own words: why this phone may not change the sheet now.
        messages.error(request, refusal)
        return redirect("table:entry", table.code)
    if request.method == "GET":
        return render(request, "table/left.html", _context(table, sheet, version=sheet.version))

    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version: reload the page.")
    posted = posted_leaves(request.POST)
    if posted.problems:
        context = _context(table, sheet, version=expected, posted=posted, problems=posted.problems)
        return render(request, "table/left.html", context, status=422)
    outcome = save_sheet(
        table,
        entry.phone_token(request.session, table),
        trim(pending_rows(sheet)),
        expected_version=expected,
        final=False,
        key=sheet_post(request).get("key"),
        # The submission carries no numbers: it saves the deals as saved, with the leaves.
        carried=(),
        left=posted.leaves,
    )

    def page(outcome: Outcome, status: int) -> HttpResponse:
        if outcome.kind is OutcomeKind.CHANGED:
            changed = outcome.changed.sheet
            context = _context(table, changed, version=changed.version, changed=True)
        else:
            context = _context(
                table, sheet, version=expected, posted=posted, problems=outcome.problems
            )
        return render(request, "table/left.html", context, status=status)

    if not outcome.saved:
        return answer(request, table, outcome, page=page)
    messages.success(request, "The players who left are saved ✓")
    now = peek_sheet(table)
    seats = list(table.seats.all())
    for number, row in enumerate(pending_rows(now), start=1):
        for _, text in stray_counts(row, number, current_leaves(now), seats):
            messages.warning(request, capfirst(text) + ".")
    for dropped in outcome.dropped:
        messages.info(request, capfirst(dropped) + ".")
    return saved_redirect(request, code_url("table:entry", table))
