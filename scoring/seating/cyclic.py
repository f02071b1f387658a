"""The cyclic design: repeat-free rounds for tables of k and k - 1, seated first.

Players are slots ``(i, x)``, group ``i < k``, ``x`` in GF(m) or the integers mod ``m``
for ``m`` tables; round ``s`` seats ``{(i, t + i*s)}`` at table ``t``. ``docs/seating.md``
has the long version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring.seating.galois import galois_operations
from scoring.seating.history_fit import SlotSearch, embed_last_two_rounds, slots_from_latest_round
from scoring.seating.problem import UNSEATED
from scoring.seating.request import Rounds
from scoring.seating.state import State
from scoring.seating.tuning import MAX_SLOT_STEPS, SLOT_STEPS_PER_PLAYER


@dataclass(frozen=True)
class DesignShape:
    """What the search past the bound keeps of the cyclic design: each player's design
    group, a round in which every table holds at most one player of each group (fresh
    seatings are dealt from it), and the design's own seating of every planned round when
    the design seated them all (None otherwise).
    """

    groups: list[int]
    pattern: list[list[int]] | None
    seating: Rounds | None


def cyclic_design(split: tuple[int, ...], rounds: int) -> list[list[list[int]]]:
    """Up to ``rounds`` repeat-free rounds of slots ``i * m + x``; table t is list index t.

    Coordinates ``x`` live in GF(m) when m is a prime power of at least k (every slope
    works), else in the integers mod m (slopes whose differences times 1..k-1 are nonzero).
    Tables ``t < f`` lack their group-0 slot ``t`` (always at table t), which makes the
    ``f`` tables of size ``k - 1``. The groups make one more round when they fit the split,
    or when all tables seat k and k divides m (each group cut into tables).
    """
    k, m = max(split), len(split)
    f = split.count(k - 1)
    if f + split.count(k) != m:
        return []
    field = galois_operations(m) if k <= m else None
    if field:
        add, mul = field
        slopes = list(range(min(m, rounds)))

        def coordinate(t: int, i: int, s: int) -> int:
            return add(t, mul(i % m, s))
    else:
        # The integers mod m need no tables (m x m of them would be 30 MB at 1,000 tables).
        slopes = []
        for s in range(m):
            if len(slopes) == rounds:
                break
            if all(d * (s - u) % m for u in slopes for d in range(1, k)):
                slopes.append(s)

        def coordinate(t: int, i: int, s: int) -> int:
            return (t + i * s) % m

    design = [
        [[i * m + coordinate(t, i, s) for i in range(k) if i or t >= f] for t in range(m)]
        for s in slopes
    ]
    groups = [[i * m + x for x in range(m) if i or x >= f] for i in range(k)]
    groups = [g for g in groups if g]
    if len(design) < rounds and sorted(map(len, groups)) == sorted(split):
        design.append(groups)
    elif len(design) < rounds and not f and m % k == 0:
        # Groups never meet in the rounds above, so cutting each into tables adds a round.
        design.append([g[j : j + k] for g in groups for j in range(0, m, k)])
    return design


def seat_design(
    state: State, design: list[list[list[int]]], rng: random.Random, effort: float
) -> tuple[int, DesignShape]:
    """Seat the first rounds from the design's classes; returns how many rounds it seated
    and the design's shape.

    Without history or pairs to keep apart players take slots at random. Otherwise the
    last round played becomes the tables of the first class (so the other classes seat
    none of its pairs again), a search over swaps of slots moves past opponents and
    keep-apart pairs into classes it can drop or into one group (a group never shares a
    table), and the classes with the fewest such meetings are seated, fewest first.
    """
    problem = state.problem
    split = problem.split
    k, m = max(split), len(split)
    f = split.count(k - 1)
    # Design table t is the t-th table of its size: small tables come first in the design.
    number_of = [t for t, s in enumerate(split) if s == k - 1] + [
        t for t, s in enumerate(split) if s == k
    ]
    design_table = {t: d for d, t in enumerate(number_of)}
    # Group-0 slot t sits at design table t in every cyclic round: ideal for fixed players.
    slot_of: dict[int, int] = {}
    taken: set[int] = set()
    for p in range(problem.n):
        t = problem.fixed[p]
        if t >= 0 and split[t] == k and design_table[t] not in taken:
            slot_of[p] = design_table[t]
            taken.add(design_table[t])
    pinned = set(slot_of)
    free_slots = [s for s in range(f, k * m) if s not in taken]
    rng.shuffle(free_slots)
    rest = [p for p in range(problem.n) if p not in slot_of]
    if problem.has_pair_weights():
        embedded = None if pinned else embed_last_two_rounds(problem, design)
        slot_of.update(embedded or slots_from_latest_round(problem, design, free_slots, rest, rng))
        search = SlotSearch(problem, design, slot_of, pinned, rng)
        search.run(int(effort * min(MAX_SLOT_STEPS, SLOT_STEPS_PER_PLAYER * problem.n)))
        slot_of = dict(enumerate(search.slot))
        design = search.best_classes()
    else:
        slot_of.update(zip(rest, free_slots, strict=True))
    player_at = {slot: p for p, slot in slot_of.items()}
    fixed_at = [UNSEATED] * (k * m)
    for slot, p in player_at.items():
        fixed_at[slot] = problem.fixed[p]
    for r, tables in enumerate(design):
        for d, t in enumerate(table_numbers(tables, split, number_of, fixed_at)):
            for slot in tables[d]:
                state.place(r, player_at[slot], t)
    groups = [slot_of[p] // m for p in range(problem.n)]
    pattern = transversal_round(state, groups)
    seated_all = pattern is not None and len(design) == problem.rounds
    return len(design), DesignShape(groups, pattern, state.snapshot() if seated_all else None)


def table_numbers(
    tables: list[list[int]],
    split: tuple[int, ...],
    number_of: list[int],
    fixed_at: list[int],
) -> list[int]:
    """The table number of each design table of one round: a table holding fixed players
    takes the lowest of their tables that is free and of its size; every other table the
    next free number of its size in ``number_of`` order. Linear in the tables: numbers
    are only ever taken, so each size's queue of free numbers is read once.

    ``fixed_at[slot]`` is the fixed table of the player at that slot, or ``UNSEATED``."""
    numbers = [UNSEATED] * len(tables)
    taken: set[int] = set()
    for d, slots in enumerate(tables):
        wanted = {fixed_at[slot] for slot in slots} - {UNSEATED}
        for t in sorted(wanted):
            if t not in taken and split[t] == len(slots):
                numbers[d] = t
                taken.add(t)
                break
    free = {size: iter([t for t in number_of if split[t] == size]) for size in set(split)}
    for d, slots in enumerate(tables):
        if numbers[d] == UNSEATED:
            numbers[d] = t = next(t for t in free[len(slots)] if t not in taken)
            taken.add(t)
    return numbers


def transversal_round(state: State, groups: list[int]) -> list[list[int]] | None:
    """A planned round in which every table holds at most one player of each group and
    every group but group 0 has a player at every table, with every fixed player at their
    table; None if there is none."""
    problem = state.problem
    count = max(groups) + 1
    for tables in state.tables:
        if any(not table for table in tables):
            continue
        seen = [[groups[p] for p in table] for table in tables]
        if all(len(set(g)) == len(g) and set(range(1, count)) <= set(g) for g in seen) and all(
            problem.fixed[p] < 0 or problem.fixed[p] == t
            for t, table in enumerate(tables)
            for p in table
        ):
            return [table[:] for table in tables]
    return None
