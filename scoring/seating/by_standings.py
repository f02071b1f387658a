"""The by-standings method: one round, the top ranks together at table 1."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from scoring.seating.byes import choose_byes
from scoring.seating.problem import BYE, SeatingProblem, without_early_pairs_if_they_block
from scoring.seating.request import PlayerId, RoundSeating, SeatingRequest, sort_key
from scoring.seating.seat_order import finish
from scoring.seating.state import State, raise_on_clash


def seat_by_standings(ranked_players: Sequence[PlayerId], request: SeatingRequest) -> RoundSeating:
    """Seat one round by rank: the top players at table 1, the next at table 2, and so on.

    Fixed-table players sit at their table and the others flow around them in rank order.
    Then, from the top table down, two neighbouring tables may trade one pair of players
    when that lowers (keep-apart clashes, most meetings, repeat meetings, spread), choosing
    the trade with the closest ranks among the best; further trades between the same two
    tables are made only to resolve keep-apart clashes. A player moves at most once, so
    nobody sits more than one table away from their rank. Byes rotate as in ``plan``.
    ``ranked_players`` must be ``request.players`` in rank order, best first.
    """
    if sorted(ranked_players, key=sort_key) != sorted(request.players, key=sort_key):
        raise ValueError("ranked_players must be the request's players in rank order")
    return without_early_pairs_if_they_block(
        lambda r: _seat_by_standings(ranked_players, r), request
    )


def _seat_by_standings(ranked_players: Sequence[PlayerId], request: SeatingRequest) -> RoundSeating:
    problem = SeatingProblem(replace(request, rounds=1), 1)
    rng = random.Random(request.seed)
    state = State(problem, choose_byes(problem, rng))
    index = problem.index
    playing = [index[p] for p in ranked_players if state.where[0][index[p]] != BYE]
    tables = fill_in_order(problem, playing)
    _trade_at_boundaries(problem, tables, {p: rank for rank, p in enumerate(playing)})
    for t, table in enumerate(tables):
        for p in table:
            state.place(0, p, t)
    raise_on_clash(state)
    return finish(problem, state, request, rng).rounds[0]


def fill_in_order(problem: SeatingProblem, line: Sequence[int]) -> list[list[int]]:
    tables: list[list[int]] = [[] for _ in problem.split]
    for p in line:
        if problem.fixed[p] >= 0:
            tables[problem.fixed[p]].append(p)
    queue = iter(p for p in line if problem.fixed[p] < 0)
    for t, size in enumerate(problem.split):
        while len(tables[t]) < size:
            tables[t].append(next(queue))
    return tables


def _table_figures(problem: SeatingProblem, table: Sequence[int]) -> tuple[int, int, int, int]:
    clashes = len(problem.keep_apart.clashes(0, table))
    most = repeats = spread = 0
    for a, b in combinations(table, 2):
        c = problem.met_before(a, b) + 1
        most = max(most, c)
        repeats += c - 1
        spread += c * (c - 1) // 2
    return (clashes, most, repeats, spread)


def _combine(*figures: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (
        sum(f[0] for f in figures),
        max(f[1] for f in figures),
        sum(f[2] for f in figures),
        sum(f[3] for f in figures),
    )


def _trade_at_boundaries(
    problem: SeatingProblem, tables: list[list[int]], rank: dict[int, int]
) -> None:
    figures = [_table_figures(problem, t) for t in tables]
    history_figures = (0, problem.history_most, 0, 0)
    moved = {p for p in rank if problem.fixed[p] >= 0}
    for t in range(len(tables) - 1):
        trades = 0
        while True:
            rest = _combine(history_figures, *figures[:t], *figures[t + 2 :])
            current = best = _combine(rest, figures[t], figures[t + 1])
            best_trade = None
            candidates = [
                (rank[q] - rank[p], p, q)
                for p in tables[t]
                for q in tables[t + 1]
                if p not in moved and q not in moved
            ]
            for _, p, q in sorted(candidates):
                upper = [q if x == p else x for x in tables[t]]
                lower = [p if x == q else x for x in tables[t + 1]]
                upper_figures = _table_figures(problem, upper)
                after = _combine(rest, upper_figures, _table_figures(problem, lower))
                if after < best and (not trades or after[0] < current[0]):
                    best, best_trade = after, (p, q, upper, lower)
            if best_trade is None:
                break
            p, q, tables[t], tables[t + 1] = best_trade
            figures[t] = _table_figures(problem, tables[t])
            figures[t + 1] = _table_figures(problem, tables[t + 1])
            moved.update((p, q))
            trades += 1
