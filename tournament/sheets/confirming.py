"""Confirming an entered score sheet by a second person: by re-typing it blind, or by
reviewing it against the paper. Once confirmed, its rows are written as ``Deal`` rows:
the official facts. A blind re-type that does not match is refused, naming the cells
(``outcome.SheetMismatchError``); nothing is confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from scoring.errors import UserError
from scoring.rules import Leave
from tournament.models import Sheet, SheetStatus, Table
from tournament.sheets import access
from tournament.sheets.authors import AtTable, Author, ConfirmRefusedError, check_may, recorded_as
from tournament.sheets.checking import SheetInvalidError, check_rows
from tournament.sheets.facts import write_deals
from tournament.sheets.leaves import leave_problems, stored_leaves
from tournament.sheets.outcome import (
    LeavesMismatchError,
    Outcome,
    OutcomeKind,
    SheetChangedError,
    SheetMismatchError,
)
from tournament.sheets.reading import confirmed_rows, current_rows
from tournament.sheets.rows import Mismatch, Row, clean_row, compare, trim
from tournament.sheets.saving import as_held
from tournament.sheets.versions import already_recorded, record_version


def confirm_sheet(
    table: Table,
    user: Author,
    *,
    expected_version: int,
    retyped: list[Row] | None = None,
    key: str | None = None,
    retyped_left: Sequence[Leave] | None = None,
) -> Outcome:
    """A second person confirms an entered sheet, by re-typing it blind (``retyped``, with
    the seats that left: ``retyped_left``) or by reviewing it against the paper
    (``retyped=None``).

    A phone at the table (``AtTable``) confirms only by re-typing blind, only a sheet
    typed at the table by another phone, and only when the tournament allows it
    (``table_confirm``). A phone's re-type that does not match is kept on the sheet
    (``Sheet.retyped``), so that the phone that entered it sees the differences too.

    What it came to is the ``outcome``. A sheet as entered that breaks the rules now is
    refused, not invalid: the confirmer cannot change it.
    """
    try:
        return _confirm(table, user, expected_version, retyped, key, retyped_left)
    except SheetInvalidError as broken:
        return Outcome.refused(broken, OutcomeKind.REFUSED)
    except UserError as refused:
        return Outcome.refused(refused)


def _confirm(
    table: Table,
    user: Author,
    expected_version: int,
    retyped: list[Row] | None,
    key: str | None,
    retyped_left: Sequence[Leave] | None,
) -> Outcome:
    mismatches: list[Mismatch] = []
    with transaction.atomic():
        # Held as a save holds it: a release meanwhile waits, then sees this confirmation
        # (and clears the public pages' cache), or comes first and is seen here.
        table = as_held(table)
        # Nothing joined, as in save_sheet.
        sheet = Sheet.objects.select_for_update().filter(table=table).first()
        if sheet is None:
            raise ConfirmRefusedError("this sheet is not awaiting confirmation")
        cleaned = None if retyped is None else trim([clean_row(r, table.size) for r in retyped])
        if already_recorded(table, sheet, key, cleaned) or (
            sheet.status == SheetStatus.CONFIRMED and sheet.version == expected_version + 1
        ):
            return Outcome(OutcomeKind.SAVED, sheet, sheet.status, repeated=True)
        at_table = isinstance(user, AtTable)
        check_may(table, sheet, user, access.Act.CONFIRM)
        if sheet.version != expected_version:
            raise SheetChangedError(sheet, current_rows(sheet))
        if at_table and cleaned is None:
            raise ConfirmRefusedError("a phone at the table confirms by re-typing the sheet blind")
        who = recorded_as(table, user)
        rows = list(sheet.pending)
        leaves = stored_leaves(sheet.pending_left)
        # Entered under the rules then in force; they still hold unless the organiser
        # found a way round the checks, which must not reach the official facts.
        if problems := leave_problems(leaves, table):
            raise SheetInvalidError(problems)
        check = check_rows(
            rows, table, final=True, stopped_early=sheet.stopped_early, leaves=leaves
        )
        if not check.ok:
            raise SheetInvalidError(check.problems)
        if cleaned is not None and retyped_left is not None and set(retyped_left) != set(leaves):
            raise LeavesMismatchError(table, retyped_left)
        if cleaned is not None:
            mismatches = compare(rows, cleaned)
        if mismatches:
            if at_table:
                Sheet.objects.filter(pk=sheet.pk).update(
                    retyped=cleaned, retyped_by_phone=who.phone
                )
        else:
            before = confirmed_rows(table)
            write_deals(table, rows, leaves)
            sheet.status = SheetStatus.CONFIRMED
            sheet.pending = []
            sheet.pending_left = []
            sheet.confirmed_by = who.user
            sheet.confirmed_by_phone = who.phone
            action = "correction_confirmed" if before else "confirmed"
            record_version(sheet, action, rows, before, who, key, leaves)
    if mismatches:
        raise SheetMismatchError(mismatches)
    return Outcome(OutcomeKind.SAVED, sheet, sheet.status)
