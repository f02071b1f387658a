"""Blind confirmation: a second person (a scorer, or a second phone at the table where
the tournament allows it) confirms an entered sheet by re-typing it from the paper
without seeing it. Until they choose to look, no page shows them its numbers, and a
re-type is compared only once it is complete: comparing half a sheet would show the
entered values and spoil the blindness. The desk's and the phone's pages ask here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from scoring.rules import Leave, absent_seats
from tournament.models import Sheet, SheetStatus, Table
from tournament.sheets.access import Act
from tournament.sheets.authors import Author, refusal_in_words
from tournament.sheets.order import places_of
from tournament.sheets.rows import Row, clean_row

# A blind re-type that differs in a few cells shows the entered value beside each: a
# slip to check against the paper. One that differs in more was not typed from this
# paper (or was typed to make the page show the entered numbers): its differing cells
# are marked without the entered values, or a confirmer could copy them in and confirm
# a sheet they never read.
MISMATCHES_SHOWN = 5


class Differing(Protocol):
    """A cell where a blind re-type differs from the sheet as entered."""

    @property
    def deal(self) -> int: ...


D = TypeVar("D", bound=Differing)


@dataclass(frozen=True)
class ShownMismatch(Generic[D]):
    """What a page shows of a blind re-type that differs from the entered sheet: the
    differing ``cells`` (with the entered values) only when there are few enough to be
    slips (``MISMATCHES_SHOWN``), and the ``deals`` they are in, always."""

    cells: list[D]
    deals: list[int]
    count: int

    @property
    def few(self) -> bool:
        return self.count <= MISMATCHES_SHOWN

    def too_many(self) -> str:
        """Why neither the cells nor the entered numbers are shown, in words."""
        return (
            f"{self.count} cells differ from the sheet as entered, in deal"
            f"{'s' if len(self.deals) != 1 else ''} {', '.join(map(str, self.deals))}: "
            "too many to be slips of the finger, so neither the cells nor the entered "
            "numbers are shown. Re-type the sheet from the paper, or check it with the "
            "person who entered it. Nothing was saved."
        )


def shown_mismatch(found: Sequence[D]) -> ShownMismatch[D]:
    """How much of the ``found`` differences a page shows (``ShownMismatch``)."""
    few = len(found) <= MISMATCHES_SHOWN
    return ShownMismatch(list(found) if few else [], sorted({d.deal for d in found}), len(found))


def deals_to_retype(sheet: Sheet) -> int:
    """How many deals a blind re-type of ``sheet`` holds: those entered, while it awaits
    confirmation; none otherwise."""
    return len(sheet.pending) if sheet.status == SheetStatus.ENTERED else 0


def confirm_refusal(table: Table, sheet: Sheet, author: Author) -> str:
    """Why ``author`` may not confirm ``sheet`` now, in words; blank when they may, which
    is when it awaits confirmation and someone else entered it (``refusal_for``)."""
    return refusal_in_words(table, sheet, author, Act.CONFIRM)


def awaits_blind_confirmation(table: Table, sheet: Sheet, author: Author) -> bool:
    """Whether ``author`` may still confirm ``sheet`` by re-typing it blind: until they
    choose to look (reviewing it against the paper, or opening it to change it), no page
    shows them its numbers."""
    return not confirm_refusal(table, sheet, author)


def incomplete_retype(
    retyped: Sequence[Row],
    size: int,
    deals: int,
    leaves: Sequence[Leave] = (),
    *,
    order_needed: bool = False,
) -> str:
    """Why a blind re-type of ``deals`` deals cannot be compared yet: the first deal with
    a blank cell (a seat that had left has no count; with ``order_needed``, only the last
    in has no place in the lying-down order); blank when it is complete."""
    for number, row in enumerate(retyped[:deals], start=1):
        cleaned = clean_row(row, size)
        absent = absent_seats(number, leaves)
        counts = [v for seat, v in enumerate(cleaned["won"], start=1) if seat not in absent]
        places = [p for seat, p in enumerate(places_of(cleaned, size), 1) if seat not in absent]
        unplaced = sum(1 for place in places if place is None)
        if None in (*counts, cleaned["left_over"], cleaned["last_in"]) or (
            order_needed and unplaced > 1
        ):
            what = "count and place" if order_needed else "count"
            return (
                f"Deal {number} is not complete: type every {what} of the {deals} deals, "
                "then confirm. Nothing was compared yet."
            )
    return ""
