"""Saving a score sheet, typed at the desk or at the table: as a *draft* (saved part-way,
its rows kept exactly as typed, problems and all) or as complete.

A complete sheet is *entered*: it awaits a second person's confirmation (when the
tournament has the two-person check, and always when typed at the table; otherwise saving
confirms it at once, and its rows become the official facts). Saving a confirmed sheet
starts a *correction*: until it is confirmed in turn, the official facts stay those of
the last confirmed version.

Every save names the ``version`` it was made from. A save from an older version is
refused with ``SheetChangedError`` (showing both), so that two scorers saving the same
table never silently lose one of the saves; submitting the same rows twice (a double
click) records them once, and a submission sent again with its key is recognised
(``versions.save_key``): the same save again, or the same numbers asked for otherwise (a
draft then the sheet complete, other players who left), which is saved. The round is
held meanwhile (``shared.locks``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Prefetch

from scoring.errors import UserError
from scoring.rules import Leave, absent_seats
from tournament.models import Seat, Sheet, SheetStatus, Table
from tournament.shared.locks import hold_round
from tournament.sheets import access
from tournament.sheets.authors import AtTable, Author, check_may, recorded_as
from tournament.sheets.checking import SheetInvalidError, check_rows, stop_warning
from tournament.sheets.facts import write_deals
from tournament.sheets.leaves import (
    as_items,
    current_leaves,
    drop_leavers,
    leave_problems,
    new_seats,
)
from tournament.sheets.order import kept_problems
from tournament.sheets.outcome import Outcome, OutcomeKind, SheetChangedError
from tournament.sheets.reading import confirmed_rows, current_rows, sheet_of
from tournament.sheets.rows import Row, clean_row, diff, trim
from tournament.sheets.versions import record_version, save_key, saved_since_only_by


def unkept_orders(rows: Sequence[Row], size: int, leaves: Sequence[Leave]) -> list[str]:
    """Why the lying-down order typed in some of ``rows`` cannot be saved, even in a draft:
    places that make no order (``sheets.order``), each problem naming its deal."""
    return [
        f"deal {number}: {problem}"
        for number, row in enumerate(rows, start=1)
        for problem in kept_problems(row, size, absent_seats(number, leaves))
    ]


def as_held(table: Table) -> Table:
    """``table`` as it is now, its round held (``locks.hold_round``) until the transaction
    ends: its seats, its round and the tournament's settings stay as read here."""
    round_ = hold_round(table.round_id)
    held = Table.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    ).get(pk=table.pk)
    held.round = round_
    return held


def save_sheet(
    table: Table,
    user: Author,
    rows: list[Row],
    *,
    expected_version: int,
    final: bool,
    stopped_early: bool = False,
    key: str | None = None,
    carried: Sequence[int] | None = None,
    left: Sequence[Leave] | None = None,
) -> Outcome:
    """Save the sheet of ``table`` as a draft (``final=False``) or as complete; what it came
    to (``outcome``: saved, or refused and why).

    ``key`` is the submission's idempotency key; ``carried`` the deals whose numbers the
    submission itself carried (None: all of ``rows``), compared with a save already
    recorded under the key. ``left`` are the seats that left mid-round (None: those the
    sheet records already); they must be possible even in a draft, since the rows are
    read with them. A seat the sheet did not show as left before drops its player from
    later rounds once the save has committed (``sheets.leaves``).

    A complete sheet must pass every rule; it then awaits confirmation by another person,
    or is confirmed at once when the tournament does not use the two-person check. A sheet
    typed at the table (``user`` is ``AtTable``) always awaits confirmation. The rules are
    those in force when the save commits: the round is held meanwhile, so the organiser
    cannot re-seat the table or lower the rotations under it.
    """
    try:
        return _save(table, user, rows, expected_version, final, stopped_early, key, carried, left)
    except UserError as refused:
        return Outcome.refused(refused)


def _save(
    table: Table,
    user: Author,
    rows: list[Row],
    expected_version: int,
    final: bool,
    stopped_early: bool,
    key: str | None,
    carried: Sequence[int] | None,
    left: Sequence[Leave] | None,
) -> Outcome:
    with transaction.atomic():
        table = as_held(table)
        size = table.size
        rows = trim([clean_row(row, size) for row in rows])
        two_person = table.round.tournament.two_person_check or isinstance(user, AtTable)
        sheet = sheet_of(table)
        # Nothing joined (no select_related): a save that waited for the lock gets the
        # sheet row as the other save left it, but joined rows as they were before
        # (PostgreSQL re-reads only the locked row), so ``entered_by`` would name the
        # wrong person in SheetChangedError.
        sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
        sheet.table = table
        shown_leaves = current_leaves(sheet)
        leaves = shown_leaves if left is None else tuple(sorted(left))
        if problems := leave_problems(leaves, table):
            raise SheetInvalidError(problems)
        if problems := unkept_orders(rows, size, leaves):
            raise SheetInvalidError(problems)
        if final:
            check = check_rows(rows, table, final=True, stopped_early=stopped_early, leaves=leaves)
            if not check.ok:
                raise SheetInvalidError(check.problems)
        submission = save_key(
            table, sheet, key, rows, carried, final=final, leaves=None if left is None else leaves
        )
        if submission.repeated:
            return Outcome(OutcomeKind.SAVED, sheet, sheet.status, repeated=True)
        check_may(table, sheet, user, access.Act.SAVE)
        who = recorded_as(table, user)
        now = current_rows(sheet)
        if final:
            target = SheetStatus.ENTERED if two_person else SheetStatus.CONFIRMED
        else:
            target = SheetStatus.DRAFT
        if sheet.version != expected_version and not saved_since_only_by(
            sheet, key, expected_version
        ):
            if now == rows and shown_leaves == leaves and sheet.status == target:
                return Outcome(OutcomeKind.SAVED, sheet, sheet.status, repeated=True)
            raise SheetChangedError(sheet, now)
        if sheet.status == SheetStatus.CONFIRMED:
            before = confirmed_rows(table)
            correcting = bool(before)
        else:
            before = now
            correcting = access.ever_confirmed(sheet)
        sheet.status = target
        sheet.stopped_early = stopped_early and final
        sheet.entered_by = who.user
        sheet.entered_by_phone = who.phone
        if target == SheetStatus.CONFIRMED:
            write_deals(table, rows, leaves)
            sheet.pending = []
            sheet.pending_left = []
            sheet.confirmed_by = who.user
            sheet.confirmed_by_phone = who.phone
            changed = diff(before, rows) or shown_leaves != leaves
            action = "corrected" if correcting and changed else "confirmed"
        else:
            sheet.pending = rows
            sheet.pending_left = as_items(leaves)
            if final:
                action = "correction" if correcting else "entered"
            else:
                action = "correction_draft" if correcting else "draft"
        record_version(sheet, action, rows, before, who, submission.key, leaves)
    warning = stop_warning(len(rows), size, leaves) if final and stopped_early else None
    dropped = drop_leavers(table, leaves, new_seats(shown_leaves, leaves))
    warnings = (warning,) if warning else ()
    return Outcome(OutcomeKind.SAVED, sheet, sheet.status, warnings, dropped=tuple(dropped))
