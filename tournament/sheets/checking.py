"""Checking a score sheet's rows against the rules: every problem located by deal and
seat, each seat's running totals, and the counts that can be derived from the checksum.
Nothing here reads or writes the database.

A complete (*final*) sheet must hold every deal of the round, or be marked as *stopped
early*; a table should stop at the end of a rotation (``stop_warning``). Where the
scoring system needs it (``ScoringSystem.needs_order``), every deal gives its lying-down
order (``sheets.order``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from scoring.errors import UserError
from scoring.rules import (
    Leave,
    RuleBreak,
    absent_seats,
    dealer_at,
    dealers,
    deals_in_round,
    missing_value,
    validate_deal,
)
from scoring.systems import score_deal
from tournament.kernel.cells import LAST_IN, LEFT_OVER, ORDER, WON, cell_name
from tournament.models import Table
from tournament.sheets.leaves import unplayed_leaves
from tournament.sheets.order import is_missing_place, order_breaks
from tournament.sheets.rows import Row, deal_facts, is_blank, trim


class SheetInvalidError(UserError):
    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class RowCheck:
    deal: int
    dealer: int
    problems: tuple[str, ...]
    problem_cells: tuple[str, ...]
    points: tuple[int, ...] | None
    # (cell name, value) when a single blank count can be derived from the checksum.
    derived: tuple[str, int] | None


@dataclass(frozen=True)
class SheetCheck:
    rows: tuple[RowCheck, ...]
    totals: tuple[int, ...]
    cards: tuple[int, ...]
    problems: tuple[str, ...] = field(default=())
    # Cards left over in the deals without problems (the paper sheet totals it too).
    left_over: int = 0
    # Worth telling, but no reason to refuse the sheet (see ``stop_warning``).
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def _is_missing(problem: RuleBreak, row: Row) -> bool:
    if problem.field == ORDER:
        return is_missing_place(problem, row, len(row["won"]))
    if problem.field == WON and problem.seat:
        return row["won"][problem.seat - 1] is None
    if problem.field == LAST_IN:
        return row["last_in"] is None
    return problem.field == LEFT_OVER and row["left_over"] is None


def check_rows(
    rows: list[Row],
    table: Table,
    *,
    final: bool,
    stopped_early: bool = False,
    typing: int | None = None,
    leaves: Sequence[Leave] = (),
) -> SheetCheck:
    """Check cleaned rows of ``table``'s sheet: every problem located by deal and seat,
    running totals per seat, and values that can be derived from the checksum.

    With ``final`` the sheet must be complete: no blank deal before a filled one, and
    either every deal of the round or ``stopped_early``. ``typing`` is the deal the
    scorer is typing in: its blank cells are not reported as missing yet. ``leaves``
    are the seats that left mid-round (valid ones: ``leave_problems``): the deal passes
    among the seats left, and each deal after a leave is checked at its smaller size.
    """
    tournament = table.round.tournament
    size = table.size
    order_needed = tournament.scoring_system.needs_order
    most = deals_in_round(size, tournament.rotations_per_round, leaves)
    totals = [0] * size
    cards = [0] * size
    left_over = 0
    checks = []
    problems: list[str] = []
    filled = trim(rows)
    for number, row in enumerate(rows, start=1):
        dealer = dealer_at(number, size, leaves)
        absent = absent_seats(number, leaves)
        if is_blank(row):
            if number <= len(filled):
                message = f"deal {number}: blank, but later deals are filled in"
                problems.append(message)
                checks.append(RowCheck(number, dealer, (message,), (), None, None))
            else:
                checks.append(RowCheck(number, dealer, (), (), None, None))
            continue
        found = validate_deal(row["won"], row["last_in"], row["left_over"], size, absent)
        found += order_breaks(row, size, absent, needed=order_needed)
        reported = [p for p in found if not (number == typing and _is_missing(p, row))]
        located = tuple(f"deal {number}: {p}" for p in reported)
        problems.extend(located)
        cells = tuple(cell_name(number, p.field, p.seat) for p in reported)
        derived = None
        counts = [*row["won"], row["left_over"]]
        if found and all(v is None or isinstance(v, int) for v in counts):
            # Only blanks and whole numbers, as just checked.
            guess = missing_value(
                cast(list[int | None], row["won"]), cast(int | None, row["left_over"]), absent
            )
            if guess is not None:
                field_name, seat, value = guess
                derived = (cell_name(number, field_name, seat), value)
        points = None
        if not found:
            facts = deal_facts(row)
            points = score_deal(facts, dealer, tournament.scoring_system, tournament.rules)
            for seat in range(size):
                totals[seat] += points[seat]
                cards[seat] += facts.cards(seat + 1)
            left_over += facts.left_over
        checks.append(RowCheck(number, dealer, located, cells, points, derived))
    if len(filled) > most:
        problems.append(
            f"{len(filled)} deals, but a table of {size} plays at most {most} in a round"
            + (" with these players leaving" if leaves else "")
        )
    warnings = []
    if stopped_early and len(filled) >= most:
        problems.append(
            f"the table is marked as stopped early, but all {most} deals of the round are "
            "filled in: a table that played every deal did not stop early — untick “stopped "
            "early”"
        )
    elif stopped_early and filled and (warning := stop_warning(len(filled), size, leaves)):
        warnings.append(warning)
    if final:
        if not filled:
            problems.append("no deals filled in")
        elif unplayed := unplayed_leaves(leaves, len(filled)):
            problems.extend(unplayed)
        elif len(filled) < most and not stopped_early:
            problems.append(
                f"deals {len(filled) + 1}–{most} are empty: fill them in, or mark the table "
                "as stopped early"
            )
    return SheetCheck(
        tuple(checks), tuple(totals), tuple(cards), tuple(problems), left_over, tuple(warnings)
    )


def stop_warning(deals: int, size: int, leaves: Sequence[Leave] = ()) -> str | None:
    """A table should stop at the end of a rotation, so that everyone has dealt equally:
    every seat still playing as often as the others."""
    order = dealers(size, deals + 1, leaves)[:deals]
    playing = set(range(1, size + 1)) - absent_seats(deals + 1, leaves)
    dealt = {seat: order.count(seat) for seat in playing}
    short = sum(1 for count in dealt.values() if count < max(dealt.values()))
    if not short:
        return None
    return (
        f"the table stopped after deal {deals}, not at the end of a rotation: "
        f"{short} player{'s' if short != 1 else ''} dealt one deal fewer than the others"
    )
