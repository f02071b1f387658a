"""Table splits: the table sizes of one round, best first (the first step of every
method: how many tables of which sizes).

Terms: *rule sizes* are the table sizes the rules allow (the rule set and the scoring
system: ``scoring.systems.allowed_sizes``), every size some rule set seats (3 to 8) when
the caller names none; the *allowed sizes* (``sizes``) are those the organiser allows
among them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.rules import MIN_TABLE_SIZE
from scoring.rulesets import sizes_text
from scoring.seating.request import DEFAULT_SIZES, EVERY_SIZE, NORMAL_TABLE, SeatingError


def table_splits(
    n_players: int,
    sizes: Sequence[int] = DEFAULT_SIZES,
    limit: int = 10,
    rule_sizes: Sequence[int] = EVERY_SIZE,
) -> list[tuple[int, ...]]:
    """Up to ``limit`` ways to seat ``n_players`` at tables of ``sizes``, best first.

    Order: fewest tables of 3, then most tables of 5, then least total distance from 5,
    then fewest tables, then larger tables first. Among tables of 4 and 6 the distance is
    the number of tables; with 7 and 8 allowed it prefers 4+4 to one table of 8 (23
    players: 5+5+5+4+4 before 8+5+5+5, which seats 16 more pairs a round and so makes
    players meet again sooner). Tables of 3 are used only if ``sizes`` lists 3 or no split
    without them exists (and the rules seat 3). Each split is sorted largest first; the
    first is the default, and ``SeatingRequest.split`` takes any other.
    """
    check_sizes(sizes, rule_sizes)
    allowed = sorted(set(sizes))
    smallest = min(rule_sizes)
    if n_players < smallest:
        raise SeatingError(
            f"At least {smallest} players are needed for a table; there are {n_players}."
        )
    splits = _splits_using(n_players, allowed, limit)
    if not splits and MIN_TABLE_SIZE not in allowed and MIN_TABLE_SIZE in rule_sizes:
        splits = _splits_using(n_players, [MIN_TABLE_SIZE, *allowed], limit)
    if not splits:
        listed = ", ".join(str(s) for s in allowed)
        raise SeatingError(f"{n_players} players cannot be split into tables of {listed}.")
    return splits


def check_sizes(sizes: Sequence[int], rule_sizes: Sequence[int]) -> None:
    """Refuses allowed sizes (or a chosen split's sizes) the rules do not seat, naming
    the sizes they do."""
    bad = sorted({s for s in sizes if s not in rule_sizes})
    seat = f"Tables seat {sizes_text(rule_sizes)} players under these rules"
    if not sizes:
        raise SeatingError(f"{seat}; no table size is allowed.")
    if bad:
        raise SeatingError(f"{seat}; a table of {sizes_text(bad)} is not possible.")


def _splits_using(n: int, allowed: list[int], limit: int) -> list[tuple[int, ...]]:
    # Walks the order of table_splits level by level, so a big n never lists every split.
    three = MIN_TABLE_SIZE
    others = [s for s in allowed if s not in (three, NORMAL_TABLE)]
    found: list[tuple[int, ...]] = []
    for threes in range(n // three + 1) if three in allowed else [0]:
        rest = n - three * threes
        fives_options = range(rest // NORMAL_TABLE, -1, -1) if NORMAL_TABLE in allowed else [0]
        for fives in fives_options:
            level = list(_multisets(rest - NORMAL_TABLE * fives, others))
            level.sort(key=_split_order)
            for combo in level:
                split = (*combo, *[NORMAL_TABLE] * fives, *[three] * threes)
                found.append(tuple(sorted(split, reverse=True)))
                if len(found) >= limit:
                    return found
    return found


def _split_order(tables: tuple[int, ...]) -> tuple[int, int, list[int]]:
    return (sum(abs(s - NORMAL_TABLE) for s in tables), len(tables), [-s for s in tables])


def _multisets(total: int, sizes: list[int]) -> Iterable[tuple[int, ...]]:
    if total == 0:
        yield ()
        return
    if not sizes:
        return
    size, rest = sizes[-1], sizes[:-1]
    for count in range(total // size + 1):
        for combo in _multisets(total - size * count, rest):
            yield (size,) * count + combo
