"""The lying-down order as a sheet page types it: each seat's *place* in it, turned into
the order the rules read (``scoring.rules.DealFacts.laid_down``: the seats, first out
first), checked, compared seat by seat and said in words.

Terms:

- *place*: where a seat lay down, as typed in its ``o`` cell (``kernel.cells``): 1 for the
  first to lie down, 2 for the next, and so on. The last in never lies down: its place
  stays blank.
- *stored order*: what a row keeps (``Row["laid_down"]``): the seat at each place, first
  place first, blank (None) for a place no seat has yet, as in a draft typed part-way.
- *typed places*: ``Row["out"]``, each seat's place as typed, seat 1 first. A row holds
  them only while they make no stored order (a place that is not a number, or no place at
  the table, or one that two seats share), so that the page shows them again and says
  what is wrong; no save keeps them (``kept_problems``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rules import RuleBreak, order_problems
from tournament.kernel.cells import ORDER

Place = int | str | None

# How the rules and the pages name the order in a message.
WHERE = "lying-down order"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def stored_order(places: Sequence[Place], size: int) -> list[int | None] | None:
    """The stored order that cleaned ``places`` make (empty when all are blank), or None
    when they make none: a place that is not a whole number from 1 to ``size``, or one
    that two seats share."""
    seat_at: dict[int, int] = {}
    for seat, place in enumerate(places, start=1):
        if place is None:
            continue
        if not isinstance(place, int) or not 1 <= place <= size or place in seat_at:
            return None
        seat_at[place] = seat
    if not seat_at:
        return []
    return [seat_at.get(place) for place in range(1, max(seat_at) + 1)]


def places_of(row: Mapping[str, Any], size: int) -> list[Place]:
    """Each seat's place in ``row``'s order, seat 1 first, blank for none: as typed, or
    read off the stored order."""
    if "out" in row:
        return (list(row["out"] or []) + [None] * size)[:size]
    places: list[Place] = [None] * size
    for place, seat in enumerate(row.get("laid_down") or [], start=1):
        if isinstance(seat, int) and 1 <= seat <= size and places[seat - 1] is None:
            places[seat - 1] = place
    return places


def has_order(row: Mapping[str, Any]) -> bool:
    """Whether anything of a lying-down order is typed or stored in ``row``."""
    return bool(row.get("laid_down")) or "out" in row


def _typed_as_stored(row: Mapping[str, Any], size: int) -> bool:
    """Whether ``row``'s order is one a sheet page typed: typed places, or a stored order
    whose every place holds a different seat of the table (or none). A file may hold
    others ("laid_down": ["x", 3, 3]): the rules then say what is wrong with it as it is."""
    if "out" in row:
        return True
    seats = [seat for seat in row.get("laid_down") or [] if seat is not None]
    at_table = all(isinstance(seat, int) and 1 <= seat <= size for seat in seats)
    return at_table and len(set(seats)) == len(seats)


def place_problems(places: Sequence[Place], size: int, absent: frozenset[int]) -> list[RuleBreak]:
    """What is wrong with each seat's place as typed: not a number, no place in a deal
    where ``players - 1`` seats lie down, or a place another seat has already."""
    lying = size - len(absent & set(range(1, size + 1))) - 1
    problems: list[RuleBreak] = []
    first_at: dict[int, int] = {}
    for seat, place in enumerate(places, start=1):
        if place is None:
            continue
        if not isinstance(place, int):
            problems.append(
                RuleBreak(
                    ORDER,
                    f"{WHERE}: seat {seat} is out “{place}”, which is no place — type 1 for "
                    "the first to lie down, 2 for the next, and so on",
                    seat,
                )
            )
        elif not 1 <= place <= lying:
            problems.append(
                RuleBreak(
                    ORDER,
                    f"{WHERE}: seat {seat} is out {place_text(place)}, but {lying} seats lie "
                    f"down in this deal — type 1 to {lying}",
                    seat,
                )
            )
        elif place in first_at:
            problems.append(
                RuleBreak(
                    ORDER,
                    f"{WHERE}: seat {seat} is out {ordinal(place)}, as is seat "
                    f"{first_at[place]} — one seat lies down at each place",
                    seat,
                )
            )
        else:
            first_at[place] = seat
    return problems


def order_breaks(
    row: Mapping[str, Any], size: int, absent: frozenset[int], *, needed: bool
) -> list[RuleBreak]:
    """Every problem of ``row``'s lying-down order (``needed``: the rule set scores it,
    so it must be there): the places as typed first (``place_problems``), then the rules'
    own on the order they make (``scoring.rules.order_problems``)."""
    last_in = row.get("last_in")
    if not has_order(row):
        if not needed:
            return []
        return [
            RuleBreak(
                ORDER,
                f"{WHERE}: missing — type where each seat lay down: 1 for the first out, 2 "
                "for the next, and so on; the last in stays blank",
            )
        ]
    if not _typed_as_stored(row, size):
        return order_problems(row.get("laid_down") or [], last_in, size, absent)
    places = places_of(row, size)
    problems = place_problems(places, size, absent)
    if problems:
        return problems
    # Gaps closed: a seat that should fill one is named by the rules as never lying down.
    by_place = sorted(
        (place, seat) for seat, place in enumerate(places, start=1) if isinstance(place, int)
    )
    found = order_problems([seat for _, seat in by_place], last_in, size, absent)
    playing = set(range(1, size + 1)) - absent
    if last_in not in playing:
        # Until the last in is known, any seat without a place may be it.
        found = [p for p in found if p.seat is None or places[p.seat - 1] is not None]
    return found


def is_missing_place(problem: RuleBreak, row: Mapping[str, Any], size: int) -> bool:
    """Whether ``problem`` is only a place (or the whole order) not typed yet."""
    places = places_of(row, size)
    if problem.seat is None:
        return not any(place is not None for place in places)
    return 1 <= problem.seat <= size and places[problem.seat - 1] is None


def kept_problems(row: Mapping[str, Any], size: int, absent: frozenset[int]) -> list[RuleBreak]:
    """Why ``row``'s order cannot be saved even in a draft: typed places that make no
    stored order (``Row["out"]``). A draft keeps everything else as typed."""
    if "out" not in row:
        return []
    return place_problems(places_of(row, size), size, absent)


def place_text(place: object) -> str:
    """A seat's place as a sentence says it: ``2nd``, ``blank``, ``“x”``, ``0``."""
    if place is None or place == "":
        return "blank"
    if isinstance(place, int):
        return ordinal(place) if place > 0 else str(place)
    return f"“{place}”"


def order_in_words(order: Sequence[object] | None) -> str:
    """A stored order as the history says it: ``3, 1, 4`` (the seats first out first),
    ``none`` when nothing is stored."""
    if not order:
        return "none"
    return ", ".join("blank" if seat is None else str(seat) for seat in order)
