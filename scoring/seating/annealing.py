"""Annealing: simulated annealing over swaps of two players at different tables of one
round, repairing keep-apart clashes and repeat meetings; then a greedy repair of any
clash left."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

from scoring.seating.keep_apart import clash_change
from scoring.seating.quality import PairCounts, counting_bound
from scoring.seating.state import State, swap
from scoring.seating.tuning import CLASH_ENERGY, COLD, ENERGY_BASE, HOT, MAX_STEPS, STEPS_PER_SEAT


class _Bag:
    """A set with O(1) add and discard whose items list allows O(1) random choice."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.position: dict[Any, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item: object) -> None:
        if item not in self.position:
            self.position[item] = len(self.items)
            self.items.append(item)

    def discard(self, item: object) -> None:
        i = self.position.pop(item, None)
        if i is None:
            return
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.position[last] = i


class Annealing:
    """Simulated annealing over swaps of two players at different tables of one round.

    Moves start from a random *trouble*: a keep-apart pair sharing a table, or a pair that
    meets again, in a round where it shares a table. Each move is scored from the meeting
    counts of the at most 20 pairs it touches, never by a recount. Acceptance uses a convex
    pair energy that punishes a third meeting far more than a second; the seating kept is the
    best under the exact objective (clashes, most meetings, repeats, spread), which is
    maintained incrementally through a histogram of meeting counts.
    """

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.problem = problem = state.problem
        self.repeats = _Bag()  # (round, a, b): a < b share a table in round and meet again
        self.clashes = _Bag()  # (round, a, b): a < b must be kept apart in round, yet are not
        fixed, meetings = problem.fixed, state.meetings
        for r, tables in enumerate(state.tables):
            for table in tables:
                for a, b in combinations(sorted(table), 2):
                    # Two players fixed to one table meet every round whatever we do.
                    if meetings[a][b] >= 2 and (fixed[a] < 0 or fixed[b] < 0):
                        self.repeats.add((r, a, b))
                for a, b in problem.keep_apart.clashes(r, table):
                    self.clashes.add((r, min(a, b), max(a, b)))
        # A pair meets at most once per planned round, which bounds every count below.
        size = problem.history_most + problem.rounds + 2
        self.energy = [0, 0, *(ENERGY_BASE ** (c - 2) * (c - 1) for c in range(2, size))]
        # Nothing to repair: the counts are never read, and a big field need not count.
        self.counts = PairCounts(meetings if self.repeats or self.clashes else (), size)
        self.bound = counting_bound_of(state)

    def objective(self) -> tuple[int, int, int, int]:
        return (len(self.clashes), self.counts.most, self.counts.repeats, self.counts.spread)

    def anneal(self, steps: int) -> list[list[list[int]]]:
        """Returns the best seating seen in ``steps`` moves (or fewer, once it is optimal)."""
        state, fixed = self.state, self.problem.fixed
        uniform = self.rng.random
        clashes, repeats = self.clashes.items, self.repeats.items
        best, best_tables = self.objective(), state.snapshot()
        temperature = HOT
        cooling = (COLD / HOT) ** (1 / max(1, steps))
        for _ in range(steps):
            temperature *= cooling
            if clashes and (not repeats or uniform() < 0.5):
                r, a, b = clashes[int(uniform() * len(clashes))]
            elif repeats:
                r, a, b = repeats[int(uniform() * len(repeats))]
            else:
                break
            if fixed[a] >= 0 or (fixed[b] < 0 and uniform() < 0.5):
                a, b = b, a
            p = a
            tables = state.tables[r]
            home = state.where[r][p]
            t = int(uniform() * (len(tables) - 1))
            t += t >= home
            there = tables[t]
            q = there[int(uniform() * len(there))]
            if fixed[p] >= 0 or fixed[q] >= 0:
                continue
            change = self._energy_change(tables[home], there, p, q)
            if self.problem.keep_apart.partners(r):
                change += CLASH_ENERGY * self._clash_change(r, p, q)
            if change > 0 and uniform() >= math.exp(-change / temperature):
                continue
            self._apply(r, p, q)
            current = self.objective()
            if current < best:
                best, best_tables = current, state.snapshot()
                if current[0] == 0 and current[1] <= self.bound[1] and current[2] <= self.bound[0]:
                    break
        return best_tables

    def repair_clashes(self) -> None:
        """Swap greedily while one swap lowers the clashes; the annealing may stop short."""
        state, fixed = self.state, self.problem.fixed
        while self.clashes:
            r, a, b = self.clashes.items[0]
            tables, where = state.tables[r], state.where[r]
            best: tuple[tuple[int, int], int, int] | None = None
            for p in (a, b):
                for t, there in enumerate(tables):
                    if fixed[p] >= 0 or t == where[p]:
                        continue
                    for q in there:
                        if fixed[q] < 0:
                            clashes = self._clash_change(r, p, q)
                            key = (clashes, self._energy_change(tables[where[p]], there, p, q))
                            if clashes < 0 and (best is None or key < best[0]):
                                best = (key, p, q)
            if best is None:
                return
            self._apply(r, best[1], best[2])

    def _energy_change(self, here: list[int], there: list[int], p: int, q: int) -> int:
        energy, row_p, row_q = self.energy, self.state.meetings[p], self.state.meetings[q]
        change = 0
        for x in here:
            if x != p:
                c = row_p[x]
                change += energy[c - 1] - energy[c]
                c = row_q[x]
                change += energy[c + 1] - energy[c]
        for y in there:
            if y != q:
                c = row_q[y]
                change += energy[c - 1] - energy[c]
                c = row_p[y]
                change += energy[c + 1] - energy[c]
        return change

    def _clash_change(self, r: int, p: int, q: int) -> int:
        partners = self.problem.keep_apart.partners(r)
        assert partners is not None
        return clash_change(partners, self.state.where[r], p, q)

    def _apply(self, r: int, p: int, q: int) -> None:
        state, counts = self.state, self.counts
        partners = self.problem.keep_apart.partners(r)
        for a, b, before, count in swap(state, r, p, q):
            a, b = min(a, b), max(a, b)
            counts.change(before, count)
            if count > before:
                if count >= 2:
                    self.repeats.add((r, a, b))
                if count == 2:
                    self._mark_other_rounds(r, a, b, self.repeats.add)
                if partners and b in partners[a]:
                    self.clashes.add((r, a, b))
            else:
                self.repeats.discard((r, a, b))
                if count == 1:
                    self._mark_other_rounds(r, a, b, self.repeats.discard)
                if partners:
                    self.clashes.discard((r, a, b))
        counts.settle()

    def _mark_other_rounds(self, r: int, a: int, b: int, mark: Callable[[object], None]) -> None:
        for other, where in enumerate(self.state.where):
            if other != r and where[a] >= 0 and where[a] == where[b]:
                mark((other, a, b))


def counting_bound_of(state: State) -> tuple[int, int]:
    """The counting lower bounds (repeats, most meetings) over active players."""
    seats = state.problem.seats_met[:]
    for tables in state.tables:
        for table in tables:
            for p in table:
                seats[p] += len(table) - 1
    return counting_bound(seats)


def anneal_and_repair(state: State, rng: random.Random, effort: float) -> None:
    problem = state.problem
    if len(problem.split) < 2:
        return
    search = Annealing(state, rng)
    if not (search.repeats or search.clashes):
        return
    steps = min(MAX_STEPS, int(effort * STEPS_PER_SEAT * problem.n * problem.rounds))
    state.restore(search.anneal(steps))
    if search.clashes:
        search = Annealing(state, rng)
        search.repair_clashes()
