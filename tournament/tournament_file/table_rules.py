"""The rules one table of a tournament file keeps: its deals and its sheet as it stands.

``checking`` calls these for every table whose seats it could read. Problems are located
the way the score sheets are (``round 2, table 3, deal 4``); a table's leaves by their
JSON path (``rounds[1].tables[2].left[0]``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

from scoring.rules import Leave, absent_seats, deals_in_round, validate_deal
from tournament.models import SheetStatus
from tournament.sheets.leaves import stored_leaves
from tournament.tournament_file import leaves_adjustments as version_3
from tournament.tournament_file import rule_sets as version_4
from tournament.tournament_file.problems import short
from tournament.tournament_file.rule_sets import LAID_DOWN, FileRules
from tournament.tournament_file.schema import TIME_PATTERN
from tournament.tournament_file.structure import describe


def dicts(value: object) -> Iterator[tuple[int, dict[str, Any]]]:
    """The (index, item) pairs of a list that are objects; anything else was reported by
    the structure check already."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item


def deal_problems(
    where: str,
    path: str,
    deals: list[object],
    size: int,
    rotations: int | None,
    leaves: tuple[Leave, ...],
    order_needed: bool = False,
) -> Iterator[str]:
    """A table's deals: how many the round holds, and each deal's own rules, a seat that
    had left having no count (``null``) and never being last in, and (``order_needed``,
    or where a deal gives it) its lying-down order."""
    if rotations is not None and len(deals) > deals_in_round(size, rotations, leaves):
        yield f"{where}: {_too_many(len(deals), 'deals', size, rotations, leaves)}"
    for deal_index, deal in dicts(deals):
        won = deal.get("won")
        if "won" in deal and not isinstance(won, list):
            # The schema's own message about it is dropped with the deal's others.
            yield (
                f"{where}, deal {deal_index + 1}: cards won: expected a list of counts, "
                f"one per seat, found {describe(won)}"
            )
        if not isinstance(won, list):
            continue
        number = deal_index + 1
        yield from version_3.absent_counts(f"{path}.deals[{deal_index}]", won, number, leaves)
        order, checked, wrong = _order(deal, order_needed)
        if wrong:
            yield f"{where}, deal {number}: {wrong}"
        for problem in validate_deal(
            version_3.blanked(won, number, leaves),
            deal.get("last_in"),
            deal.get("left_over"),
            size,
            absent_seats(number, leaves),
            order,
            order_needed=checked,
        ):
            yield f"{where}, deal {number}: {problem}"


def _order(row: dict[str, Any], needed: bool) -> tuple[list[object] | None, bool, str | None]:
    """A row's lying-down order for ``validate_deal``, whether it is checked (it is
    ``needed``, or given: one given empty is missing), and what is wrong with one that is
    not a list."""
    if LAID_DOWN not in row:
        return None, needed, None
    order = row[LAID_DOWN]
    if not isinstance(order, list):
        found = describe(order)
        return None, False, f"lying-down order: expected a list of seats, found {found}"
    return order, True, None


def _too_many(
    count: int, what: str, size: int, rotations: int, leaves: tuple[Leave, ...] = ()
) -> str:
    plural = "s" if rotations > 1 else ""
    left = "".join(
        f", seat {leave.seat} having left after deal {leave.after_deal}" for leave in leaves
    )
    return (
        f"{count} {what}, but a table of {size} plays at most "
        f"{deals_in_round(size, rotations, leaves)} in a round ({rotations} rotation{plural}"
        f"{left})"
    )


def sheet_problems(
    where: str,
    path: str,
    sheet: dict[str, Any],
    size: int,
    rotations: int | None,
    has_deals: bool,
    rules: FileRules,
) -> Iterator[str]:
    """A table's sheet as it stands: what is typed fits the table, what awaits
    confirmation passes the rules (confirming it writes it as the table's deals) and is
    dealt at sizes ``rules`` have; ``path`` is the table's JSON path, for its leaves."""
    status = sheet.get("status")
    pending = sheet.get("pending")
    pending = [row for _, row in dicts(pending)] if isinstance(pending, list) else []
    wrong_leaves = list(version_3.pending_left_problems(path, sheet, size, rotations))
    yield from wrong_leaves
    leaves = stored_leaves(sheet.get("pending_left"))
    # Rows awaiting confirmation are read by the sheet's leaves, once those are right.
    checked = status == SheetStatus.ENTERED and not wrong_leaves
    if status == SheetStatus.NOT_STARTED and (pending or has_deals):
        yield f"{where}: the sheet is “not_started”, but it holds deals"
    if status == SheetStatus.CONFIRMED and pending:
        yield f"{where}: the sheet is “confirmed”, but it holds rows awaiting confirmation"
    # A draft may hold more rows than a round has deals (the scorer removes them before
    # saving it complete); a sheet awaiting confirmation may not.
    if checked and rotations is not None and len(pending) > deals_in_round(size, rotations, leaves):
        many = _too_many(len(pending), "deals awaiting confirmation", size, rotations, leaves)
        yield f"{where}: {many}"
    for number, row in enumerate(pending, start=1):
        won = row.get("won")
        if not isinstance(won, list):
            continue
        if len(won) != size:
            yield (
                f"{where}: row {number} of its sheet has {len(won)} counts of cards won for a "
                f"table of {size}"
            )
        elif checked:
            yield from version_3.absent_counts(
                f"{path}.sheet.pending[{number - 1}]", won, number, leaves
            )
            # A typed order that is not a list is the structure check's to report.
            order, needed, _ = _order(row, rules.order_needed)
            for problem in validate_deal(
                version_3.blanked(won, number, leaves),
                row.get("last_in"),
                row.get("left_over"),
                size,
                absent_seats(number, leaves),
                order,
                order_needed=needed,
            ):
                yield f"{where}: deal {number} awaiting confirmation: {problem}"
    if checked and rules.size_problem(size) is None:
        awaiting = f"{where}: deal {{}} awaiting confirmation"
        yield from version_4.dealt_size_problems(awaiting, len(pending), size, leaves, rules)
    yield from version_3.history_left_problems(path, sheet, size, rotations)
    numbers: set[int] = set()
    for _, version in dicts(sheet.get("history")):
        version_number = version.get("number")
        if not isinstance(version_number, int):
            continue
        if version_number in numbers:
            yield (f"{where}: version {version_number} of its sheet appears twice in its history")
        numbers.add(version_number)
        at = version.get("at")
        if isinstance(at, str) and re.fullmatch(TIME_PATTERN, at):
            try:
                datetime.datetime.fromisoformat(at)
            except ValueError:
                yield (
                    f"{where}: version {version_number} of its sheet: “{short(at)}” is not a time"
                )
