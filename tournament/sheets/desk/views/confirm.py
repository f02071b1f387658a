"""The scorer's confirmation page: a second person confirms an entered sheet by
reviewing it against the paper or by re-typing it blind (``blind``), recording the
players who left as the paper says, unseen."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.http import require_http_methods, require_POST

from scoring.rules import deals_in_round
from tournament.kernel.http import HtmxHttpRequest, saved_redirect
from tournament.models import Table
from tournament.sheets import corrections
from tournament.sheets.access import CORRECTIONS, sheet_stage
from tournament.sheets.blind import (
    awaits_blind_confirmation,
    deals_to_retype,
    incomplete_retype,
    shown_mismatch,
)
from tournament.sheets.checking import check_rows, stop_warning
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.corrections import changed_cells
from tournament.sheets.desk.answers import answer
from tournament.sheets.desk.pages import (
    resent_note,
    round_home_url,
    started_table,
    table_url,
)
from tournament.sheets.leaves import stored_leaves
from tournament.sheets.outcome import Outcome, OutcomeKind
from tournament.sheets.pages.forms import (
    ConfirmModeForm,
    PostedLeaves,
    deal_lines,
    expected_version,
    padded,
    posted_leaves,
    sheet_post,
    shown_leaves,
    typed_rows,
)
from tournament.sheets.pages.view_model import first_empty, order_typed, sheet_rows, where
from tournament.sheets.reading import current_rows, peek_sheet
from tournament.sheets.status import author_name, state_in_words


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
    deals = deals_to_retype(current)
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
        "can_confirm": awaits_blind_confirmation(table_, current, request.user),
        "stop_warning": stop_warning(deals, size, entered_leaves)
        if current.stopped_early
        else None,
        "leaves": shown_leaves(posted.leaves, seats, ()),
        "leaves_url": table_url("scorer:confirm_leaves", table_),
        # Each deal's lying-down order is typed too, where the scoring system needs it.
        "order": order_typed(tournament, current.pending),
        "state": state_in_words(current),
        "is_correction": sheet_stage(current) in CORRECTIONS,
        # A correction's changes with their confirmed values; the corrected ones are
        # shown only as ``corrections`` allows (none before a blind re-type).
        "changes": corrections.blind(changed_cells(table_, current)),
    }
    return context, deals, max(most, deals)


@login_required
@require_POST
def confirm_leaves(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    """A blind re-type's "Record" and "Remove" of a player who left: the re-type drawn
    again with the leaves as typed, nothing compared."""
    table_ = started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is incomplete; reload the page.")
    posted = posted_leaves(request.POST)
    context, _, count = _confirm_base(request, table_, posted, "retype")
    seats, order = context["seats"], context["order"]
    retyped = typed_rows(request.POST, len(seats), count)
    context.update(
        expected_version=expected,
        error=capfirst("; ".join(posted.problems)) + "." if posted.problems else "",
        leave_seat=posted.typed_seat if posted.problems else "",
        leave_after=posted.typed_after if posted.problems else "",
        rows=sheet_rows(
            deal_lines(retyped, len(seats), count), seats, leaves=posted.leaves, order=order
        ),
    )
    return render(request, "sheets/confirm.html", context, status=422 if posted.problems else 200)


@login_required
@require_http_methods(["GET", "POST"])
def confirm(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    table_ = started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    chosen = ConfirmModeForm(request.POST if request.method == "POST" else request.GET)
    mode = chosen.cleaned_data.get("mode") or None if chosen.is_valid() else None
    # A blind re-type records the players who left as the paper says, unseen.
    posted = posted_leaves(request.POST) if request.method == "POST" else PostedLeaves(())
    context, deals, count = _confirm_base(request, table_, posted, mode)
    seats, order = context["seats"], context["order"]
    size = len(seats)
    current = context["sheet"]
    entered_leaves = stored_leaves(current.pending_left)
    blank = padded([], size, count)
    changes = changed_cells(table_, current) if context["is_correction"] else []

    if request.method == "POST":
        return _confirm_posted(request, table_, context, mode, posted, deals, count, changes)

    if mode == "review":
        # Reviewed against the paper, every number is in view: the corrected ones too.
        context["changes"] = corrections.in_full(changes)
        entered_rows = padded(current_rows(current), size, deals)
        context["rows"] = sheet_rows(entered_rows, seats, leaves=entered_leaves, order=order)
        context["leaves"] = shown_leaves(entered_leaves, seats, entered_leaves)
        # Totals to compare with the paper's bottom line.
        context["totals"] = check_rows(entered_rows, table_, final=False, leaves=entered_leaves)
    elif mode == "retype":
        context["rows"] = sheet_rows(blank, seats, order=order)
        context["autofocus"] = first_empty(context["rows"])
    return render(request, "sheets/confirm.html", context)


def _confirm_posted(
    request: HtmxHttpRequest,
    table_: Table,
    context: dict[str, Any],
    mode: str | None,
    posted: PostedLeaves,
    deals: int,
    count: int,
    changes: list[Any],
) -> HttpResponse:
    """A confirmation sent: by review, or by a blind re-type of ``deals`` deals (``count``
    lines) with the players who left as ``posted``; the confirmation page drawn again
    where the scorer can act on it."""
    round_, tournament = table_.round, table_.round.tournament
    seats, order = context["seats"], context["order"]
    size = len(seats)
    blank = padded([], size, count)
    confirm_url = table_url("scorer:confirm", table_)
    expected = expected_version(request)
    if expected is None or mode is None:
        return HttpResponseBadRequest("The form is incomplete; reload the page.")
    retyped = typed_rows(request.POST, size, count) if mode == "retype" else None
    if retyped is not None and posted.problems:
        context.update(
            expected_version=expected,
            error=capfirst("; ".join(posted.problems)) + ".",
            leave_seat=posted.typed_seat,
            leave_after=posted.typed_after,
            rows=sheet_rows(
                padded(retyped, size, len(blank)), seats, leaves=posted.leaves, order=order
            ),
        )
        return render(request, "sheets/confirm.html", context, status=422)
    if retyped is not None and context["can_confirm"]:
        incomplete = incomplete_retype(retyped, size, deals, posted.leaves, order_needed=order)
        if incomplete:
            context.update(
                expected_version=expected,
                error=incomplete,
                rows=sheet_rows(
                    padded(retyped, size, len(blank)), seats, leaves=posted.leaves, order=order
                ),
            )
            return render(request, "sheets/confirm.html", context, status=422)
    outcome = confirm_sheet(
        table_,
        request.user,
        expected_version=expected,
        retyped=retyped,
        key=sheet_post(request).get("key"),
        retyped_left=posted.leaves if retyped is not None else None,
    )

    def page(outcome: Outcome, status: int) -> HttpResponse:
        if not outcome.mismatches:
            # The players who left differ: said, the re-type kept in its boxes.
            context.update(
                expected_version=expected,
                error=capfirst(str(outcome.refusal)) + ".",
                rows=sheet_rows(
                    padded(retyped or [], size, len(blank)),
                    seats,
                    leaves=posted.leaves,
                    order=order,
                ),
            )
            return render(request, "sheets/confirm.html", context, status=status)
        shown = shown_mismatch(outcome.mismatches)
        entered = {m.cell: m.entered for m in shown.cells}
        # Too many: not even which cells differ, for marking them would tell, for a
        # re-type of one value everywhere, every cell that holds that value.
        error = (
            capfirst(str(outcome.refusal)) + ". Nothing was saved."
            if shown.few
            else shown.too_many()
        )
        context.update(
            expected_version=expected,
            error=error,
            changes=corrections.after_retype(changes, shown),
            rows=sheet_rows(
                padded(retyped or [], size, len(blank)),
                seats,
                marks=dict.fromkeys(entered, "mismatch") if shown.few else None,
                others=entered if shown.few else None,
                leaves=posted.leaves,
                order=order,
            ),
        )
        return render(request, "sheets/confirm.html", context, status=status)

    if not outcome.saved:
        return answer(
            request,
            outcome,
            page=page,
            on_page={OutcomeKind.MISMATCH},
            back=f"{confirm_url}?mode={mode}",
            # A plain redirect: a refused confirmation has always been answered so.
            go=lambda _, url: redirect(url),
        )
    if outcome.repeated:
        messages.info(request, f"{where(table_)} was already confirmed: nothing changed.")
    elif changes:
        messages.success(
            request,
            f"{where(table_)}: the correction is confirmed and now counts. It changed "
            f"{corrections.in_words(changes)}.{resent_note(request)}",
        )
    else:
        messages.success(
            request, f"{where(table_)} confirmed: it now counts.{resent_note(request)}"
        )
    return saved_redirect(request, round_home_url(tournament, round_))
