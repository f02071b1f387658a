"""The rows of a score sheet: what one deal says, as typed and once cleaned, and how two
copies of a sheet differ.

Terms:

- *row*: one deal as typed (``Row``): ``{"won": [...], "last_in": ..., "left_over": ...}``
  and, when the scorer filled counts in from the checksum, ``"derived"``; where the rule
  set records it, the lying-down order (``sheets.order`` has its terms); values are whole
  numbers once cleaned, or whatever was typed when they are not.
- *blank* row: nothing typed in it (an unused line of the paper sheet).
- *diff*: the cells that differ between two versions of a sheet, as a version records
  them; a *mismatch* is one of them between a sheet as entered and its blind re-type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, cast

from scoring.rules import MAX_TABLE_SIZE, DealFacts, Leave
from scoring.rulesets import STANDARD, RuleSet
from scoring.systems import SeatSums, table_sums
from tournament.kernel.cells import LEFT_OVER, ORDER, WON, cell_name, cell_part
from tournament.sheets.order import has_order, places_of, stored_order

# What a row's cell holds: a whole number once cleaned, else blank (None) or the text as
# typed, kept so that the rules can say what is wrong with it.
CellValue = int | str | None


class Row(TypedDict):
    """One deal of a sheet: each seat's cards won (seat 1 first), the seat last in and the
    cards left over; ``derived`` names (as ``tournament.kernel.cells`` parts: ``s3``,
    ``left_over``) the counts filled in from the checksum rather than read off the paper."""

    won: list[CellValue]
    last_in: CellValue
    left_over: CellValue
    derived: NotRequired[list[str]]
    # The seats in the order they lay down, where the rule set records it.
    laid_down: NotRequired[list[CellValue]]
    # Each seat's place in that order as typed, while it makes no order (``sheets.order``):
    # shown again and refused, never saved.
    out: NotRequired[list[CellValue]]


def deal_facts(row: Row) -> DealFacts:
    """A valid row's deal: {"won": [...], "last_in": seat, "left_over": cards}; a seat that
    had left the table has None for its cards won."""
    # Valid means every value is a whole number, or blank for a seat that had left: the
    # rules checked it.
    return DealFacts(
        tuple(cast(list[int | None], row["won"])),
        cast(int, row["last_in"]),
        cast(int, row["left_over"]),
        tuple(cast(list[int], row.get("laid_down") or [])),
    )


def seat_sums(
    rows: Sequence[Row], size: int, leaves: Sequence[Leave] = (), rule_set: RuleSet = STANDARD
) -> tuple[SeatSums, ...]:
    """Each seat's sums over a table's valid rows (deal 1 first), seat 1 first."""
    return table_sums([deal_facts(row) for row in rows], size, leaves, rule_set)


def clean_value(value: object) -> CellValue:
    """A typed cell: blank is None, digits are a whole number, anything else is kept as
    typed so that the rules can say what is wrong with it."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    # NUL cannot be typed, and PostgreSQL cannot store it in the draft's JSON.
    text = str(value).replace("\x00", "").strip()
    if text == "":
        return None
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return text


def clean_row(row: Row, size: int) -> Row:
    """A row with its cells cleaned. A row may also name its counts that were *derived*
    from the checksum rather than read off the paper (``"derived": ["s3"]`` or
    ``["left_over"]``); names of blank or unknown cells are dropped."""
    won = list(row.get("won") or [])
    won = (won + [None] * size)[:size]
    cleaned: Row = {
        "won": [clean_value(v) for v in won],
        "last_in": clean_value(row.get("last_in")),
        "left_over": clean_value(row.get("left_over")),
    }
    marked = row.get("derived")
    if isinstance(marked, list | tuple):
        counts = {cell_part(WON, seat): value for seat, value in enumerate(cleaned["won"], start=1)}
        counts[cell_part(LEFT_OVER)] = cleaned["left_over"]
        derived = sorted(
            {name for name in marked if isinstance(name, str) and counts.get(name) is not None}
        )
        if derived:
            cleaned["derived"] = derived
    stored, typed = _clean_order(row, size)
    if stored:
        cleaned["laid_down"] = stored
    if typed is not None:
        cleaned["out"] = typed
    return cleaned


def _clean_order(row: Row, size: int) -> tuple[list[CellValue], list[CellValue] | None]:
    """The lying-down order of a row, cleaned, as (stored order, places as typed): the
    places typed on a page (``"out"``) become the stored order they make, or stay as typed
    when they make none; a stored order has its cells cleaned. Blank when nothing is typed."""
    if "out" in row:
        typed = [clean_value(v) for v in (list(row["out"] or []) + [None] * size)[:size]]
        order = stored_order(typed, size)
        return ([], typed) if order is None else (list(order), None)
    stored = [clean_value(v) for v in list(row.get("laid_down") or [])[:MAX_TABLE_SIZE]]
    while stored and stored[-1] is None:
        stored.pop()
    return stored, None


def is_blank(row: Row) -> bool:
    return (
        all(v is None for v in row["won"])
        and row["last_in"] is None
        and row["left_over"] is None
        and not has_order(row)
    )


def trim(rows: list[Row]) -> list[Row]:
    """The rows without the blank ones at the end (the unused lines of the paper sheet)."""
    end = len(rows)
    while end and is_blank(rows[end - 1]):
        end -= 1
    return rows[:end]


def diff(before: list[Row], after: list[Row]) -> list[dict[str, Any]]:
    """Cells that differ between two versions of a sheet."""
    changes: list[dict[str, Any]] = []
    for index in range(max(len(before), len(after))):
        old = before[index] if index < len(before) else None
        new = after[index] if index < len(after) else None
        number = index + 1
        if old is None or new is None:
            changes.append(
                {"deal": number, "field": "deal", "seat": None, "before": old, "after": new}
            )
            continue
        for seat, (a, b) in enumerate(zip(old["won"], new["won"], strict=False), start=1):
            if a != b:
                changes.append(
                    {"deal": number, "field": "won", "seat": seat, "before": a, "after": b}
                )
        for key in ("last_in", "left_over"):
            if old[key] != new[key]:
                changes.append(
                    {
                        "deal": number,
                        "field": key,
                        "seat": None,
                        "before": old[key],
                        "after": new[key],
                    }
                )
        if order_of(old) != order_of(new):
            changes.append(
                {
                    "deal": number,
                    "field": ORDER,
                    "seat": None,
                    "before": list(old.get("laid_down") or []),
                    "after": list(new.get("laid_down") or []),
                }
            )
    return changes


def order_of(row: Row) -> tuple[object, ...]:
    """What a row says of the lying-down order: its stored order, or its places as typed."""
    if "out" in row:
        return ("out", *row["out"])
    return tuple(row.get("laid_down") or ())


@dataclass(frozen=True)
class Mismatch:
    deal: int
    field: str
    seat: int | None
    entered: object
    retyped: object

    @property
    def cell(self) -> str:
        """The form field name of the cell, as in the sheet template."""
        return cell_name(self.deal, self.field, self.seat)


def compare(entered: list[Row], retyped: list[Row]) -> list[Mismatch]:
    """The cells where ``retyped`` differs from ``entered``: a lying-down order seat by
    seat, by each seat's place."""
    mismatches = []
    for change in diff(entered, retyped):
        if change["field"] == ORDER:
            mine, theirs = entered[change["deal"] - 1], retyped[change["deal"] - 1]
            size = max(len(mine["won"]), len(theirs["won"]))
            for seat, (a, b) in enumerate(
                zip(places_of(mine, size), places_of(theirs, size), strict=True), start=1
            ):
                if a != b:
                    mismatches.append(Mismatch(change["deal"], ORDER, seat, a, b))
        elif change["field"] == "deal":
            for key in ("last_in", "left_over"):
                old = (change["before"] or {}).get(key)
                new = (change["after"] or {}).get(key)
                mismatches.append(Mismatch(change["deal"], key, None, old, new))
        else:
            mismatches.append(
                Mismatch(
                    change["deal"],
                    change["field"],
                    change["seat"],
                    change["before"],
                    change["after"],
                )
            )
    return mismatches
