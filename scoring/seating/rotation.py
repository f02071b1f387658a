"""Rotating rounds: for a fresh field at tables of one size, rounds that each turn one
base round, found by a search over that base round only (``rotating_rounds``), with
players given places so that keep-apart pairs stay apart (``rotating_seating``)."""

from __future__ import annotations

import random

from scoring.seating.problem import SeatingProblem
from scoring.seating.request import Rounds
from scoring.seating.tuning import ROTATION_CYCLES, ROTATION_NODES, ROTATION_PLACINGS


def can_rotate(problem: SeatingProblem) -> bool:
    """Whether rotating rounds apply: a fresh field at tables of one size k, no more than
    the tables (else every table of a second round meets a first-round table twice), no
    byes and no fixed tables."""
    k = problem.split[0]
    return not (
        problem.bye_count
        or problem.last_rounds
        or problem.history_most
        or any(t >= 0 for t in problem.fixed)
        or any(size != k for size in problem.split)
        or k > len(problem.split)
    )


def rotating_seating(
    problem: SeatingProblem, rng: random.Random, budget: int
) -> list[list[list[int]]] | None:
    """Rounds that turn one base round (``rotating_rounds``) within
    ``budget``; None if none was found or if no way of giving players the base round's
    places kept the keep-apart pairs apart."""
    split, n = problem.split, problem.n
    m, k = len(split), split[0]
    found = rotating_rounds(m, k, problem.rounds, rng, budget, ROTATION_NODES)
    if found is None:
        return None
    table_of = [[0] * n for _ in found]
    for r, tables in enumerate(found):
        for t, table in enumerate(tables):
            for p in table:
                table_of[r][p] = t
    apart = [(r, a, b) for r in range(problem.rounds) for a, b in problem.keep_apart.pairs(r)]
    place_of = list(range(n))
    rng.shuffle(place_of)

    def clashes() -> list[int]:
        return [
            p
            for r, a, b in apart
            if table_of[r][place_of[a]] == table_of[r][place_of[b]]
            for p in (a, b)
        ]

    for _ in range(ROTATION_PLACINGS):
        clashing = clashes()
        if not clashing:
            player_at = [0] * n
            for p, place in enumerate(place_of):
                player_at[place] = p
            return [[[player_at[p] for p in table] for table in tables] for tables in found]
        # Min-conflicts: a clashing player trades places with whoever leaves fewest clashes.
        mover = clashing[rng.randrange(len(clashing))]
        best: list[int] = []
        fewest = len(clashing)
        for other in range(n):
            place_of[mover], place_of[other] = place_of[other], place_of[mover]
            count = len(clashes())
            place_of[mover], place_of[other] = place_of[other], place_of[mover]
            if count < fewest:
                best, fewest = [other], count
            elif count == fewest:
                best.append(other)
        other = best[rng.randrange(len(best))]
        place_of[mover], place_of[other] = place_of[other], place_of[mover]
    return None


def rotating_rounds(
    tables: int, k: int, rounds: int, rng: random.Random, budget: int, nodes: int
) -> Rounds | None:
    """``rounds`` repeat-free rounds of ``tables`` tables of k, each the one before turned.

    Points are ``a * c + x`` (row a, x in the integers mod a cycle length c) and, past
    those, f *fixed* points, fixed point i always at table i; round j seats the base
    round's tables with every x moved to ``x + j``. Cycle lengths from
    ``max(tables, rounds)`` up are tried, ``ROTATION_CYCLES`` of them that leave at most one fixed
    point per table (30 players at tables of five: c = 6, no fixed point; 24 at fours:
    c = 7, three fixed points). The base round is found by a search that places the
    point with the fewest possible tables first, with fresh tries of at most ``nodes``
    steps each, taking the cycle lengths in turn, until its work (pairs weighed) reaches
    ``budget``; None if none was found.
    """
    n = tables * k
    cycles = []
    for c in range(max(tables, rounds, 2), n + 1):
        if n - n // c * c <= tables:
            cycles.append(c)
        if len(cycles) == ROTATION_CYCLES:
            break
    spent = attempt = 0
    while spent < budget:
        c = cycles[attempt % len(cycles)]
        attempt += 1
        cyclic = n // c * c
        search = _RotationBase(c, n - cyclic, tables, k, rounds, rng)
        base = search.search(nodes)
        spent += search.work
        if base is not None:
            return [
                [
                    [p - p % c + (p % c + j) % c if p < cyclic else p for p in table]
                    for table in base
                ]
                for j in range(rounds)
            ]
    return None


class _RotationBase:
    """Depth-first search for the base round of ``rotating_rounds``.

    A pair of points in the base round meets again in round j of its turns exactly when
    another base pair has the same *key* (the rows of the two points and how far apart
    they are, or the fixed point and the row of the other) and starts fewer than
    ``rounds`` steps away: each key keeps the starts used.
    """

    def __init__(
        self, c: int, fixed: int, tables: int, k: int, rounds: int, rng: random.Random
    ) -> None:
        self.c, self.k, self.rounds, self.rng = c, k, rounds, rng
        n = tables * k
        self.cyclic = n - fixed
        self.tables: list[list[int]] = [[] for _ in range(tables)]
        for i in range(fixed):
            self.tables[i].append(self.cyclic + i)
        self.starts: dict[tuple[int, int, int], list[int]] = {}
        self.tiebreak = [rng.random() for _ in range(n)]
        self.left = set(range(self.cyclic))
        self.nodes = self.work = 0

    def _keys(self, p: int, q: int) -> list[tuple[tuple[int, int, int], int]]:
        c = self.c
        if q >= self.cyclic:
            p, q = q, p
        if p >= self.cyclic:
            row, x = divmod(q, c)
            return [((-1 - (p - self.cyclic), row, 0), x)]
        (a, x), (b, y) = divmod(p, c), divmod(q, c)
        if (a, x) > (b, y):
            a, x, b, y = b, y, a, x
        d = (y - x) % c
        if a == b and d > c - d:
            x, y, d = y, x, c - d
        if a == b and 2 * d == c:
            return [((a, b, d), x), ((a, b, d), y)]
        return [((a, b, d), x)]

    def _close(self, x: int, y: int) -> bool:
        apart = (x - y) % self.c
        return min(apart, self.c - apart) < self.rounds

    def _additions(self, t: int, p: int) -> list[tuple[tuple[int, int, int], int]] | None:
        added: list[tuple[tuple[int, int, int], int]] = []
        self.work += len(self.tables[t]) + 1
        for q in self.tables[t]:
            for key, x in self._keys(p, q):
                if any(self._close(x, y) for y in self.starts.get(key, ())):
                    return None
                if any(other == key and self._close(x, y) for other, y in added):
                    return None
                added.append((key, x))
        return added

    def _options(self, p: int) -> list[tuple[int, list[tuple[tuple[int, int, int], int]]]]:
        options: list[tuple[int, list[tuple[tuple[int, int, int], int]]]] = []
        tried_empty = False
        for t, table in enumerate(self.tables):
            if len(table) == self.k or (not table and tried_empty):
                continue
            tried_empty = tried_empty or not table
            added = self._additions(t, p)
            if added is not None:
                options.append((t, added))
        return options

    def search(self, limit: int) -> list[list[int]] | None:
        return [table[:] for table in self.tables] if self._place(limit) else None

    def _place(self, limit: int) -> bool:
        self.nodes += 1
        if not self.left:
            return True
        if self.nodes > limit:
            return False
        choice = -1
        options: list[tuple[int, list[tuple[tuple[int, int, int], int]]]] = []
        for p in sorted(self.left):
            found = self._options(p)
            if choice < 0 or (len(found), self.tiebreak[p]) < (len(options), self.tiebreak[choice]):
                choice, options = p, found
                if not found:
                    return False
        self.rng.shuffle(options)
        for t, added in options:
            self.tables[t].append(choice)
            self.left.discard(choice)
            for key, x in added:
                self.starts.setdefault(key, []).append(x)
            if self._place(limit):
                return True
            self.tables[t].pop()
            self.left.add(choice)
            for key, x in added:
                self.starts[key].remove(x)
        return False
