"""The seating being built: tables per round and meeting counts kept in step."""

from __future__ import annotations

from scoring.seating.problem import BYE, UNSEATED, SeatingProblem
from scoring.seating.quality import add_meetings
from scoring.seating.request import SeatingError


class State:
    """Tables per round plus meeting counts (history + all planned rounds) kept in step."""

    def __init__(self, problem: SeatingProblem, byes: list[list[int]]) -> None:
        self.problem = problem
        self.n = problem.n
        self.meetings = problem.meeting_counts()
        self.met = [set(opponents) for opponents in problem.opponents]
        self.tables: list[list[list[int]]] = [[[] for _ in problem.split] for _ in byes]
        self.where = [[UNSEATED] * self.n for _ in byes]
        for r, out in enumerate(byes):
            for p in out:
                self.where[r][p] = BYE

    def playing(self, r: int) -> list[int]:
        return [p for p in range(self.n) if self.where[r][p] != BYE]

    def place(self, r: int, p: int, t: int) -> None:
        """Seat ``p``; ``met`` is kept up to date here only, for the greedy seating."""
        table = self.tables[r][t]
        for q in table:
            self.meet(p, q, 1)
            self.met[p].add(q)
            self.met[q].add(p)
        table.append(p)
        self.where[r][p] = t

    def meet(self, a: int, b: int, change: int) -> int:
        count = self.meetings[a][b] + change
        self.meetings[a][b] = self.meetings[b][a] = count
        return count

    def snapshot(self) -> list[list[list[int]]]:
        return [[table[:] for table in tables] for tables in self.tables]

    def restore(self, snapshot: list[list[list[int]]]) -> None:
        self.tables = snapshot
        self.meetings = self.problem.meeting_counts()
        for r, tables in enumerate(snapshot):
            for t, table in enumerate(tables):
                for p in table:
                    self.where[r][p] = t
        add_meetings(self.meetings, (table for tables in snapshot for table in tables))


def swap(state: State, r: int, p: int, q: int) -> list[tuple[int, int, int, int]]:
    """Swap two players at different tables; returns the changed pairs (a, b, before, after)."""
    where = state.where[r]
    tp, tq = where[p], where[q]
    a_table, b_table = state.tables[r][tp], state.tables[r][tq]
    a_table[a_table.index(p)] = q
    b_table[b_table.index(q)] = p
    where[p], where[q] = tq, tp
    changed = []
    for leaver, joiner, table in ((p, q, a_table), (q, p, b_table)):
        for x in table:
            if x != joiner:
                count = state.meet(leaver, x, -1)
                changed.append((leaver, x, count + 1, count))
                count = state.meet(joiner, x, 1)
                changed.append((joiner, x, count - 1, count))
    return changed


def raise_on_clash(state: State) -> None:
    problem = state.problem
    for r, tables in enumerate(state.tables):
        for t, table in enumerate(tables):
            for a, b in sorted(
                tuple(sorted(pair)) for pair in problem.keep_apart.clashes(r, table)
            ):
                # Early (same-club) pairs are kept apart as far as possible; only the
                # always-apart pairs (family) are a hard rule.
                if not problem.keep_apart.always_apart(a, b):
                    continue
                when = f"round {r + 1} of the plan" if problem.rounds > 1 else "this round"
                raise SeatingError(
                    f"Could not keep {problem.name(a)} and {problem.name(b)} apart in {when} "
                    f"(both at table {t + 1}); remove a constraint or add players."
                )
