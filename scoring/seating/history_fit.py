"""Fitting the history onto the cyclic design: which player takes which design slot.

With a history or keep-apart pairs, the last two rounds played become the design's
classes 0 and 1 when they fit (``embed_last_two_rounds``), else the last round becomes
class 0 (``slots_from_latest_round``); then ``SlotSearch`` swaps slots to move past
opponents and keep-apart pairs into classes it can drop or into one group.
"""

from __future__ import annotations

import random

from scoring.seating.problem import SeatingProblem


def embed_last_two_rounds(
    problem: SeatingProblem, design: list[list[list[int]]]
) -> dict[int, int] | None:
    """Slots that make the last two rounds played the design's classes 0 and 1, or None.

    Only for a prime number m of tables, all of size k: the coordinates are then the
    integers mod m, class 0 seats slot ``(i, x)`` at table x and class 1 at table
    ``x + i``. So the last round's tables need coordinates (``sigma``) such that each
    table u of the round before meets the tables at a run of k coordinates
    ``a_u, ..., a_u + k - 1``; a player at last-round table t and earlier table u then
    takes slot ``(a_u + k - 1 - sigma(t), sigma(t))``. Two rounds the design itself
    seated always fit (up to relabelling), as do many others.
    """
    m = len(design[0])
    k = len(design[0][0])
    if (
        len(problem.last_rounds) < 2
        or any(m % d == 0 for d in range(2, m))
        or len(design) < 3
        or any(len(table) != k for table in design[0])
    ):
        return None
    latest, before = problem.last_rounds[0], problem.last_rounds[1]
    for tables in (latest, before):
        if len(tables) != m or any(len(table) != k for table in tables):
            return None
        if sorted(p for table in tables for p in table) != list(range(problem.n)):
            return None
    latest_of = {p: t for t, table in enumerate(latest) for p in table}
    neighbours = [frozenset(latest_of[p] for p in table) for table in before]
    if any(len(found) != k for found in neighbours):
        return None  # the two rounds seat a pair together twice
    order = _runs_in_order(neighbours, m, k)
    if order is None:
        return None
    # Table order[a] meets the run starting at a; the run starting at a + 1 drops sigma^-1(a).
    sigma = [-1] * m
    for a, u in enumerate(order):
        dropped = neighbours[u] - neighbours[order[(a + 1) % m]]
        if len(dropped) != 1:
            return None
        sigma[next(iter(dropped))] = a
    if sorted(sigma) != list(range(m)):
        return None
    slot_of = {}
    for a, u in enumerate(order):
        if {sigma[t] for t in neighbours[u]} != {(a + j) % m for j in range(k)}:
            return None
        for p in before[u]:
            x = sigma[latest_of[p]]
            slot_of[p] = (a + k - 1 - x) % m * m + x
    return slot_of


def _runs_in_order(neighbours: list[frozenset[int]], m: int, k: int) -> list[int] | None:
    """The tables of the earlier round in the order of their runs: neighbouring runs share
    k - 1 tables, and (for k < m - 1) no other two do, so the order is a walk round a cycle.
    """
    if k >= m - 1:
        return None  # runs this long overlap too much to be told apart
    partners = [
        [v for v in range(m) if v != u and len(neighbours[u] & neighbours[v]) == k - 1]
        for u in range(m)
    ]
    if any(len(found) != 2 for found in partners):
        return None
    order = [0, partners[0][0]]
    while len(order) < m:
        previous, current = order[-2], order[-1]
        following = next(v for v in partners[current] if v != previous)
        if following in order:
            return None
        order.append(following)
    return order if order[0] in partners[order[-1]] else None


def slots_from_latest_round(
    problem: SeatingProblem,
    design: list[list[list[int]]],
    free_slots: list[int],
    players: list[int],
    rng: random.Random,
) -> dict[int, int]:
    """Slots for ``players`` that put each table of the last round played at one table
    of the design's first class (as far as the sizes allow) and everyone else at random.

    When the design's last class is its groups and the round before had one table per
    group, its tables become the groups: then both rounds are classes of the design.
    """
    free = set(free_slots)
    open_tables = [[s for s in table if s in free] for table in design[0]]
    unplaced = set(players)
    group_of: dict[int, int] = {}
    m = len(design[0])
    # The groups class has one table per group (cut groups have several).
    group_sets = [{s // m for s in table} for table in design[-1]]
    groups_class = all(len(g) == 1 for g in group_sets) and len(set().union(*group_sets)) == len(
        group_sets
    )
    if (
        groups_class
        and len(problem.last_rounds) > 1
        and len(problem.last_rounds[1]) == len(design[-1])
    ):
        group_of = {p: g for g, table in enumerate(problem.last_rounds[1]) for p in table}
    slot_of: dict[int, int] = {}
    for table in sorted(problem.last_rounds[:1] and problem.last_rounds[0], key=len, reverse=True):
        here = [p for p in table if p in unplaced]
        rng.shuffle(here)
        d = max(range(len(open_tables)), key=lambda d: len(open_tables[d]))
        slots = open_tables[d]
        wished = {p: s for p in here for s in slots if s // m == group_of.get(p, -1)}
        chosen: dict[int, int] = {}
        for p in here:
            if p in wished and wished[p] not in chosen.values():
                chosen[p] = wished[p]
        spare = [s for s in slots if s not in chosen.values()]
        for p in here:
            if p not in chosen and spare:
                chosen[p] = spare.pop(0)
        slot_of.update(chosen)
        unplaced.difference_update(chosen)
        open_tables[d] = [s for s in slots if s not in chosen.values()]
    left = [s for table in open_tables for s in table]
    rng.shuffle(left)
    slot_of.update(zip([p for p in players if p in unplaced], left, strict=True))
    return slot_of


class SlotSearch:
    """Local search over swaps of two players' design slots.

    The cost of a class is the weight of the pairs it seats together (``pair_weights``);
    only the ``rounds`` cheapest classes are used, so the objective is their total.
    """

    def __init__(
        self,
        problem: SeatingProblem,
        design: list[list[list[int]]],
        slot_of: dict[int, int],
        pinned: set[int],
        rng: random.Random,
    ) -> None:
        self.design = design
        self.rng = rng
        self.slot = [slot_of[p] for p in range(problem.n)]
        size = max(s for tables in design for table in tables for s in table) + 1
        self.table_of = []
        for tables in design:
            table_of = [-1] * size
            for d, table in enumerate(tables):
                for s in table:
                    table_of[s] = d
            self.table_of.append(table_of)
        self.weights = [list(w.items()) for w in problem.pair_weights()]
        self.movable = [p for p in range(problem.n) if p not in pinned]
        self.keep = min(problem.rounds, len(design))
        self.cost = [0] * len(design)
        for p, partners in enumerate(self.weights):
            for q, w in partners:
                if q > p:
                    for c, table_of in enumerate(self.table_of):
                        if table_of[self.slot[p]] == table_of[self.slot[q]]:
                            self.cost[c] += w

    def objective(self, cost: list[int]) -> int:
        return sum(sorted(cost)[: self.keep])

    def best_classes(self) -> list[list[list[int]]]:
        order = sorted(range(len(self.design)), key=lambda c: (self.cost[c], c))
        return [self.design[c] for c in order[: self.keep]]

    def _change(self, p: int, q: int) -> list[int]:
        slot, weights = self.slot, self.weights
        change = [0] * len(self.design)
        for a, here, there in ((p, slot[p], slot[q]), (q, slot[q], slot[p])):
            for x, w in weights[a]:
                if x in (p, q):
                    continue
                sx = slot[x]
                for c, table_of in enumerate(self.table_of):
                    t = table_of[sx]
                    if table_of[here] == t:
                        change[c] -= w
                    if table_of[there] == t:
                        change[c] += w
        return change

    def run(self, steps: int) -> None:
        movable, rng, cost, slot = self.movable, self.rng, self.cost, self.slot
        weighted = [p for p in movable if self.weights[p]]
        if len(movable) < 2 or not weighted:
            return
        current = self.objective(cost)
        kept = self._kept()
        for _ in range(steps):
            if current == 0:
                return
            p = weighted[int(rng.random() * len(weighted))]
            # Only a player who meets a weighted partner in a class in use is worth moving.
            if not any(
                table_of[slot[p]] == table_of[slot[x]]
                for x, _ in self.weights[p]
                for table_of in kept
            ):
                continue
            q = movable[int(rng.random() * len(movable))]
            if p == q:
                continue
            change = self._change(p, q)
            after = [c + d for c, d in zip(cost, change, strict=True)]
            value = self.objective(after)
            if value <= current:
                slot[p], slot[q] = slot[q], slot[p]
                cost[:] = after
                current = value
                kept = self._kept()

    def _kept(self) -> list[list[int]]:
        order = sorted(range(len(self.design)), key=lambda c: (self.cost[c], c))
        return [self.table_of[c] for c in order[: self.keep]]
