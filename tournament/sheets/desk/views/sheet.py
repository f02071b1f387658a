"""The scorer's sheet page: typing a table's score sheet in at the desk, the live check
as rows are typed (problems in place, offers from the checksum, running totals), and
the "A player left" part, drawn again as leaves are recorded or removed. What a page
shows for the rows is ``view_model``'s; the rules and the save are the services'."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.text import capfirst
from django.views.decorators.http import require_http_methods, require_POST

from scoring.rules import Leave, deals_in_round
from tournament.kernel.http import HtmxHttpRequest, saved_redirect
from tournament.models import Sheet, SheetStatus, Table
from tournament.sheets.access import CORRECTIONS, sheet_stage
from tournament.sheets.blind import awaits_blind_confirmation
from tournament.sheets.checking import check_rows
from tournament.sheets.desk.answers import answer
from tournament.sheets.desk.pages import (
    resent_note,
    round_home_url,
    started_table,
    table_for,
    table_url,
)
from tournament.sheets.desk.photos import PHOTO_FIELD, photo_context, posted_photo
from tournament.sheets.leaves import current_leaves, leave_problems, stored_leaves
from tournament.sheets.outcome import Outcome, OutcomeKind, SheetChangedError
from tournament.sheets.pages.forms import (
    PostedLeaves,
    deal_lines,
    expected_version,
    padded,
    posted_leaves,
    sheet_post,
    shown_leaves,
    typed_rows,
)
from tournament.sheets.pages.view_model import (
    conflict_differences,
    first_empty,
    linked_problems,
    marked_cells,
    order_typed,
    sheet_rows,
    where,
)
from tournament.sheets.reading import current_rows, peek_sheet
from tournament.sheets.rows import Row
from tournament.sheets.saving import save_sheet
from tournament.sheets.status import author_name


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
    doubtful: frozenset[str] = frozenset(),
    crops: dict[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The sheet page for ``rows`` and the seats that left (``leaves``); ``posted`` is
    what the "A player left" fields sent, to show again with what could not be read.
    Filled from a photo: its ``doubtful`` cells marked, each cell with its ``crops``."""
    tournament = table.round.tournament
    seats = list(table.seats.all())
    size = len(seats)
    refused_leaves = list(
        dict.fromkeys([*(posted.problems if posted else ()), *leave_problems(leaves, table)])
    )
    most = deals_in_round(size, tournament.rotations_per_round, leaves)
    lines = deal_lines(rows, size, most)
    order = order_typed(tournament, [*lines, *(conflict.current_rows if conflict else [])])
    check = check_rows(
        lines, table, final=final, stopped_early=stopped_early, typing=typing, leaves=leaves
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
        differing, saved_values = conflict_differences(rows, conflict.current_rows, size)
        marks = dict.fromkeys(differing, "differs")
        others = {name: saved_values.get(name) for name in differing}
        theirs = padded(conflict.current_rows, size, len(conflict.current_rows))
        saved_rows = sheet_rows(
            theirs,
            seats,
            marks=marks,
            leaves=stored_leaves(conflict.sheet.pending_left),
            order=order,
        )
    if doubtful:
        marks = {**dict.fromkeys(doubtful, "doubtful"), **marks}
    shown = sheet_rows(
        lines,
        seats,
        check=check,
        marks=marks,
        others=others,
        leaves=leaves,
        order=order,
        crops=crops,
    )
    return {
        "tournament": tournament,
        "round": table.round,
        "table": table,
        "seats": seats,
        "sheet": sheet,
        "rows": shown,
        "check": check,
        "problems": linked_problems(check.problems, shown, set(refused_leaves)),
        # A photo's reading is one entry: whoever may still confirm the sheet blind types
        # it by hand, however the page was opened (?show=entered included).
        "photo_offered": not awaits_blind_confirmation(table, sheet, request.user),
        # Whoever may still confirm the sheet blind is not told which leaves it holds.
        "leaves": shown_leaves(
            leaves,
            seats,
            () if awaits_blind_confirmation(table, sheet, request.user) else current_leaves(sheet),
        ),
        "leaves_url": table_url("scorer:sheet_leaves", table),
        "leave_seat": posted.typed_seat if posted and posted.problems else "",
        "leave_after": posted.typed_after if posted and posted.problems else "",
        "autofocus": first_empty(shown),
        "problem_cells": sorted(
            {c for row in check.rows for c in marked_cells(row.problem_cells, size)}
        ),
        "counted_deals": sum(1 for row in check.rows if row.points is not None),
        "most": most,
        "columns": size + 3,
        "order": order,
        "expected_version": expected_version,
        "stopped_early": stopped_early,
        "conflict": conflict,
        "conflict_blind": conflict_blind,
        "saved_rows": saved_rows,
        "is_correction": sheet_stage(sheet) in CORRECTIONS,
        "entered_by_me": sheet.entered_by_id == request.user.pk,
        "entered_by_name": author_name(table.number, sheet.entered_by, sheet.entered_by_phone),
        "doubtful_count": len(doubtful),
    }


def _saved_message(result: Outcome, table: Table) -> str:
    assert result.sheet is not None
    place = where(table)
    if result.repeated:
        return f"{place} was already saved with these numbers: nothing changed."
    if result.status == SheetStatus.DRAFT:
        return (
            f"{place}: draft saved (version {result.sheet.version}). It counts nowhere "
            "until it is saved as complete."
        )
    if result.status == SheetStatus.ENTERED:
        return f"{place} saved: it now awaits confirmation by a different person."
    return f"{place} saved and confirmed."


@login_required
@require_http_methods(["GET", "POST"])
def sheet(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    table_ = started_table(request, slug, round, table)
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

    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version; reload the page.")
    posted = posted_leaves(request.POST)
    most = deals_in_round(table_.size, tournament.rotations_per_round, posted.leaves)
    typed = typed_rows(request.POST, table_.size, most)
    final = sheet_post(request).get("action") == "final"
    stopped_early = bool(sheet_post(request).get("stopped_early"))
    if posted.problems:
        # A player who left, half typed into the fields: saved with nothing, said so.
        return _redrawn_with_leaves(request, table_, typed, posted, expected, stopped_early)
    outcome = save_sheet(
        table_,
        request.user,
        typed,
        expected_version=expected,
        final=final,
        stopped_early=stopped_early,
        key=sheet_post(request).get("key"),
        left=posted.leaves,
    )

    def page(outcome: Outcome, status: int) -> HttpResponse:
        # The rules and seating the save applied, which may have changed since this
        # request began (the organiser may have re-seated the table).
        held = table_for(round_, table)
        if outcome.kind is OutcomeKind.CHANGED:
            # Saving again from here is a deliberate choice made with both copies in view.
            context = _sheet_context(
                request,
                held,
                outcome.changed.sheet,
                typed,
                expected_version=outcome.changed.sheet.version,
                stopped_early=stopped_early,
                conflict=outcome.changed,
                leaves=posted.leaves,
            )
            return render(request, "sheets/sheet.html", context, status=status)
        # A form filled from a photo keeps its doubtful cells and crops in view.
        filled = posted_photo(tournament, held, request.POST.get(PHOTO_FIELD))
        context = _sheet_context(
            request,
            held,
            peek_sheet(held),
            typed,
            expected_version=expected,
            final=final,
            stopped_early=stopped_early,
            leaves=posted.leaves,
            doubtful=filled.doubtful if filled else frozenset(),
            crops=filled.crops if filled else None,
        )
        if filled is not None:
            context.update(photo_context(filled.photo))
        if not final and not leave_problems(posted.leaves, held):
            # A draft keeps everything as typed but a lying-down order that is none.
            context["problems"] = linked_problems(outcome.problems, context["rows"], set())
        context.update(refused=True, refused_draft=not final)
        return render(request, "sheets/sheet.html", context, status=status)

    if not outcome.saved:
        # Refused by the sheet's rule, or a retried save that carried other numbers than
        # its first try recorded: nothing was saved, and the sheet is shown as it is.
        return answer(
            request,
            outcome,
            page=page,
            on_page={OutcomeKind.INVALID, OutcomeKind.CHANGED},
            back=table_url("scorer:sheet", table_),
            then=" Nothing was saved.",
        )
    messages.success(request, _saved_message(outcome, table_) + resent_note(request))
    for warning in outcome.warnings:
        messages.warning(request, capfirst(warning))
    for dropped in outcome.dropped:
        messages.info(request, dropped + ".")
    if outcome.status == SheetStatus.DRAFT:
        return saved_redirect(request, table_url("scorer:sheet", table_))
    return saved_redirect(request, round_home_url(tournament, round_))


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
    table_ = started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    expected = expected_version(request)
    if expected is None:
        return HttpResponseBadRequest("The form is missing the sheet's version; reload the page.")
    posted = posted_leaves(request.POST)
    most = deals_in_round(table_.size, table_.round.tournament.rotations_per_round, posted.leaves)
    typed = typed_rows(request.POST, table_.size, most)
    stopped_early = bool(sheet_post(request).get("stopped_early"))
    return _redrawn_with_leaves(request, table_, typed, posted, expected, stopped_early)


def _typing(request: HttpRequest) -> int | None:
    """The deal whose row the scorer is typing in (sent by sheet.js with the live check)."""
    return sheet_post(request).get("typing")


@login_required
@require_POST
def check(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    """The live check as rows are typed: problems in place, offers, running totals."""
    table_ = started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    tournament = table_.round.tournament
    # The leaves the page shows; one typed into the fields counts once it is recorded.
    posted = posted_leaves(request.POST, with_new=False)
    most = deals_in_round(table_.size, tournament.rotations_per_round, posted.leaves)
    expected = expected_version(request)
    context = _sheet_context(
        request,
        table_,
        peek_sheet(table_),
        typed_rows(request.POST, table_.size, most),
        expected_version=expected if expected is not None else 0,
        stopped_early=bool(sheet_post(request).get("stopped_early")),
        typing=_typing(request),
        leaves=posted.leaves,
        posted=posted,
    )
    if request.htmx:
        return render(request, "sheets/sheet.html#check", context)
    return render(request, "sheets/sheet.html", context)
