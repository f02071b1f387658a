"""Tabu search over swaps, for seatings still above the counting bound.

Terms (as in ``scoring.seating``; players are ints 0..n-1, a seating is a list of rounds,
each a list of tables, each a list of players):

- *meetings*: the n x n counts of how often two players share a table (``MeetingRows``),
  the fixed history included; the search keeps it in step with every move.
- *energy* of a pair meeting ``c`` times: ``energy[c]`` (0 for c <= 1), convex so that a
  third meeting costs far more than a second.
- *in conflict*: a movable player who, in some round, shares a table with somebody they
  meet more than once.
- *move*: swap two movable players at different tables of one round, at least one of them
  in conflict in that round. Table sizes, byes and the history never change; a move never
  seats a keep-apart pair together. With *groups*, only two players of the same group
  swap, so a seating in which every table holds one player of each group keeps that shape.
- *tabu*: two players just swapped in a round may not be swapped back there for a random
  number of steps, unless that would give the lowest energy seen so far.
- *work*: candidate moves weighed plus players per step; budgets count work, never
  seconds, so a seed always gives the same result.

The search follows Dotú and Van Hentenryck, "Scheduling social golfers locally" (2005):
each step takes the best move that is not tabu (ties at random); after a stretch of steps
without a new best it kicks the seating with a few random swaps, and after several kicks
it goes back to the best seating found. Each move is weighed in O(1) from two kept
tables: ``leave[r][p]``, the energy change of ``p`` leaving their table in round ``r``, and
``join[r][p][t]``, the change of ``p`` joining table ``t``; a move updates them for the
O(table size) pairs whose meetings change, in every round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.seating.keep_apart import clash_change
from scoring.seating.quality import MeetingRows, PairCounts, add_meetings
from scoring.seating.request import Objective, Rounds
from scoring.seating.tuning import (
    TABU_KICK_SWAPS,
    TABU_KICKS_BEFORE_RETURN,
    TABU_STABLE_STEPS,
    TABU_TENURE,
)


class TabuSearch:
    """Tabu search over swaps, minimising the energy of all pairs' meetings.

    ``objective()`` is the exact order of ``scoring.seating`` (keep-apart clashes, most
    meetings, repeat meetings, spread); ``run`` returns the best seating under it.
    ``fixed[p] >= 0`` marks a player who never moves; ``partners[r]``, when not None,
    lists each player's keep-apart partners in round ``r``, and ``hard`` those who must
    never share a table (a move never seats them together).
    """

    def __init__(
        self,
        seating: Rounds,
        meetings: MeetingRows,
        fixed: Sequence[int],
        partners: Sequence[Sequence[frozenset[int]] | None],
        energy: Sequence[int],
        rng: random.Random,
        groups: Sequence[int] | None = None,
        hard: Sequence[frozenset[int]] = (),
    ) -> None:
        self.tables = [[table[:] for table in tables] for tables in seating]
        self.hard = hard
        self.meetings = meetings
        self.fixed = fixed
        self.partners = partners
        self.energy = energy
        self.rng = rng
        self.groups = groups
        self.n = len(meetings)
        self.up = [energy[c + 1] - energy[c] for c in range(len(energy) - 1)]
        self.down = [0, *(energy[c - 1] - energy[c] for c in range(1, len(energy)))]
        self.work = 0
        self._rebuild()

    def _rebuild(self) -> None:
        """Every derived count, from ``tables`` and ``meetings``."""
        tables, meetings, energy, up, n = self.tables, self.meetings, self.energy, self.up, self.n
        self.where = [[-1] * n for _ in tables]
        for r, round_tables in enumerate(tables):
            for t, table in enumerate(round_tables):
                for p in table:
                    self.where[r][p] = t
        self.join = [
            [[sum(up[meetings[p][x]] for x in table) for table in round_tables] for p in range(n)]
            for round_tables in tables
        ]
        self.leave = [[0] * n for _ in tables]
        self.conflicts = [[0] * n for _ in tables]
        self.in_conflict: list[dict[int, None]] = [{} for _ in tables]
        for r, round_tables in enumerate(tables):
            for table in round_tables:
                self._recount(r, table)
        self.counts = PairCounts(meetings, len(energy))
        self.total_energy = sum(pairs * energy[c] for c, pairs in enumerate(self.histogram))
        self.clash_total = sum(
            self._clashes_at(r, table) for r, ts in enumerate(tables) for table in ts
        )
        self.work += n * len(tables) * (n + 1)

    # --- bookkeeping -------------------------------------------------------------------

    def _clashes_at(self, r: int, table: Sequence[int]) -> int:
        partners = self.partners[r]
        if partners is None:
            return 0
        return sum(q in partners[p] for p in table for q in table if p < q)

    def _recount(self, r: int, table: Sequence[int]) -> None:
        """Leave changes and conflict counts of everyone at ``table`` in round ``r``."""
        down, meetings, fixed = self.down, self.meetings, self.fixed
        leave, conflicts, in_conflict = self.leave[r], self.conflicts[r], self.in_conflict[r]
        for p in table:
            row = meetings[p]
            change = clashing = 0
            for x in table:
                if x != p:
                    c = row[x]
                    change += down[c]
                    clashing += c >= 2
            leave[p] = change
            conflicts[p] = clashing
            if clashing and fixed[p] < 0:
                in_conflict[p] = None
            else:
                in_conflict.pop(p, None)

    @property
    def histogram(self) -> list[int]:
        return self.counts.histogram

    def objective(self) -> Objective:
        return (self.clash_total, self.counts.most, self.counts.repeats, self.counts.spread)

    def snapshot(self) -> Rounds:
        return [[table[:] for table in round_tables] for round_tables in self.tables]

    def _clash_change(self, r: int, p: int, q: int) -> int:
        partners = self.partners[r]
        assert partners is not None
        return clash_change(partners, self.where[r], p, q)

    def _blocked(self, r: int, p: int, q: int) -> bool:
        """Whether swapping p and q adds a keep-apart clash or seats an always-apart pair
        together (trading a club clash for a family one would not do)."""
        if self._clash_change(r, p, q) > 0:
            return True
        hard, where = self.hard, self.where[r]
        return bool(hard) and (
            any(where[z] == where[q] for z in hard[p] if z != q)
            or any(where[z] == where[p] for z in hard[q] if z != p)
        )

    def swap(self, r: int, p: int, q: int) -> None:
        """Swap ``p`` and ``q`` (at different tables of round ``r``) and update every count."""
        where, meetings, energy = self.where[r], self.meetings, self.energy
        home, there = where[p], where[q]
        here_table, there_table = self.tables[r][home], self.tables[r][there]
        if self.partners[r] is not None:
            self.clash_total += self._clash_change(r, p, q)
        changed: list[tuple[int, int, int]] = []
        for leaver, joiner, table in ((p, q, here_table), (q, p, there_table)):
            leaver_row, joiner_row = meetings[leaver], meetings[joiner]
            for x in table:
                if x == leaver:
                    continue
                c = leaver_row[x]
                leaver_row[x] = meetings[x][leaver] = c - 1
                changed.append((leaver, x, c))
                c = joiner_row[x]
                joiner_row[x] = meetings[x][joiner] = c + 1
                changed.append((joiner, x, c))
        counts, up, down, fixed = self.counts, self.up, self.down, self.fixed
        # Counts first, with the tables of round r as they were; then the two who moved.
        for a, b, before in changed:
            after = meetings[a][b]
            counts.change(before, after)
            self.total_energy += energy[after] - energy[before]
            leave_change = down[after] - down[before]
            join_change = up[after] - up[before]
            crossed = (after >= 2) - (before >= 2)
            for other, other_where in enumerate(self.where):
                ta, tb = other_where[a], other_where[b]
                join = self.join[other]
                if tb >= 0:
                    join[a][tb] += join_change
                if ta >= 0:
                    join[b][ta] += join_change
                if other == r or ta < 0 or ta != tb:
                    continue
                self.leave[other][a] += leave_change
                self.leave[other][b] += leave_change
                if crossed:
                    conflicts, in_conflict = self.conflicts[other], self.in_conflict[other]
                    for z in (a, b):
                        conflicts[z] += crossed
                        if conflicts[z] and fixed[z] < 0:
                            in_conflict[z] = None
                        else:
                            in_conflict.pop(z, None)
        for z, join_z in enumerate(self.join[r]):
            row = meetings[z]
            moved = up[row[p]] - up[row[q]]
            join_z[home] -= moved
            join_z[there] += moved
        here_table[here_table.index(p)] = q
        there_table[there_table.index(q)] = p
        where[p], where[q] = there, home
        counts.settle()
        self._recount(r, here_table)
        self._recount(r, there_table)
        self.work += self.n + len(changed) * len(self.tables)

    def restore(self, seating: Rounds) -> None:
        """Go back to ``seating`` (the same rounds and table sizes, players moved)."""
        for old, change in ((self.tables, -1), (seating, 1)):
            add_meetings(self.meetings, (table for tables in old for table in tables), change)
        self.tables = [[table[:] for table in round_tables] for round_tables in seating]
        self._rebuild()

    # --- search ------------------------------------------------------------------------

    def _best_move(
        self, tabu: dict[tuple[int, int, int], int], step: int, best_energy: int
    ) -> tuple[int, tuple[int, int, int] | None]:
        """The best allowed move (round, p, q) and its energy change."""
        up, meetings, fixed, groups, rng = self.up, self.meetings, self.fixed, self.groups, self.rng
        best_change = 0
        best: tuple[int, int, int] | None = None
        ties = 0
        weighed = 0
        for r, in_conflict in enumerate(self.in_conflict):
            if not in_conflict:
                continue
            round_tables, where, leave = self.tables[r], self.where[r], self.leave[r]
            join = self.join[r]
            partners = self.partners[r]
            for p in in_conflict:
                home = where[p]
                row_p = meetings[p]
                leave_p = leave[p]
                join_p = join[p]
                group = groups[p] if groups is not None else -1
                for t, table in enumerate(round_tables):
                    if t == home:
                        continue
                    base = leave_p + join_p[t]
                    weighed += len(table)
                    for q in table:
                        if fixed[q] >= 0 or (groups is not None and groups[q] != group):
                            continue
                        # p and q stay apart, yet each join counted the other.
                        change = base + leave[q] + join[q][home] - 2 * up[row_p[q]]
                        if best is not None and change > best_change:
                            continue
                        key = (r, p, q) if p < q else (r, q, p)
                        if tabu.get(key, -1) > step and self.total_energy + change >= best_energy:
                            continue
                        if partners is not None and self._blocked(r, p, q):
                            continue
                        if best is None or change < best_change:
                            best_change, best, ties = change, (r, p, q), 1
                        else:
                            ties += 1
                            if rng.random() * ties < 1:
                                best = (r, p, q)
        self.work += weighed
        return best_change, best

    def _kick(self, swaps: int) -> None:
        """A few random swaps, each moving a player in conflict where there is one."""
        rng, fixed, groups = self.rng, self.fixed, self.groups
        for _ in range(swaps):
            rounds = [r for r, c in enumerate(self.in_conflict) if c]
            if not rounds:
                return
            r = rounds[int(rng.random() * len(rounds))]
            pool = list(self.in_conflict[r])
            p = pool[int(rng.random() * len(pool))]
            home = self.where[r][p]
            others = [
                q
                for t, table in enumerate(self.tables[r])
                if t != home
                for q in table
                if fixed[q] < 0 and (groups is None or groups[q] == groups[p])
            ]
            if not others:
                continue
            q = others[int(rng.random() * len(others))]
            if self.partners[r] is not None and self._blocked(r, p, q):
                continue
            self.swap(r, p, q)

    def run(self, budget: int, target: Objective) -> Rounds:
        """The best seating seen until ``work`` reaches ``budget`` or the best reaches
        ``target`` in clashes, most meetings and repeat meetings (spread is not looked at)."""
        rng = self.rng
        best, best_tables = self.objective(), self.snapshot()
        best_energy = self.total_energy
        tabu: dict[tuple[int, int, int], int] = {}
        step = stable = kicks = 0
        low, high = TABU_TENURE
        while self.work < budget and best[:3] > target[:3]:
            step += 1
            _, move = self._best_move(tabu, step, best_energy)
            if move is None:
                if not any(self.in_conflict):
                    break
                self._kick(1)
                continue
            r, p, q = move
            self.swap(r, p, q)
            tabu[(r, p, q) if p < q else (r, q, p)] = step + low + int(rng.random() * (high - low))
            current = self.objective()
            improved = self.total_energy < best_energy
            best_energy = min(best_energy, self.total_energy)
            if current < best:
                best, best_tables = current, self.snapshot()
                improved = True
            if improved:
                stable = kicks = 0
                continue
            stable += 1
            if stable < TABU_STABLE_STEPS:
                continue
            stable = 0
            kicks += 1
            if kicks >= TABU_KICKS_BEFORE_RETURN:
                kicks = 0
                self.restore(best_tables)
            self._kick(TABU_KICK_SWAPS)
            tabu = {key: until for key, until in tabu.items() if until > step}
        return best_tables
