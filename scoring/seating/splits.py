"""Table splits: the table sizes of one round, best first (the first step of every
method: how many tables of which sizes)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.seating.request import DEFAULT_SIZES, NORMAL_TABLE, SeatingError


def table_splits(
    n_players: int, sizes: Sequence[int] = DEFAULT_SIZES, limit: int = 10
) -> list[tuple[int, ...]]:
    """Up to ``limit`` ways to seat ``n_players`` at tables of ``sizes``, best first.

    Order: fewest tables of 3, then most tables of 5, then fewest tables of other sizes,
    then least total distance from 5, then larger tables first. Tables of 3 are used only
    if ``sizes`` lists 3 or no split without them exists. Each split is sorted largest first;
    the first is the default, and ``SeatingRequest.split`` takes any other.
    """
    allowed = sorted(set(sizes))
    bad = [s for s in allowed if not MIN_TABLE_SIZE <= s <= MAX_TABLE_SIZE]
    if not allowed or bad:
        raise SeatingError(
            f"Tables seat {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players; "
            f"the allowed sizes {tuple(sizes)} are not possible."
        )
    if n_players < MIN_TABLE_SIZE:
        raise SeatingError(
            f"At least {MIN_TABLE_SIZE} players are needed for a table; there are {n_players}."
        )
    splits = _splits_using(n_players, allowed, limit)
    if not splits and MIN_TABLE_SIZE not in allowed:
        splits = _splits_using(n_players, [MIN_TABLE_SIZE, *allowed], limit)
    if not splits:
        listed = ", ".join(str(s) for s in allowed)
        raise SeatingError(f"{n_players} players cannot be split into tables of {listed}.")
    return splits


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
    return (len(tables), sum(abs(s - NORMAL_TABLE) for s in tables), [-s for s in tables])


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
