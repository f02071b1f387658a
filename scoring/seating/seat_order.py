"""Seat order: who sits in which seat at each table, seat 1 dealing first; and the
plan's output in the caller's player ids."""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.seating.problem import BYE, SeatingProblem
from scoring.seating.quality import quality
from scoring.seating.request import Plan, RoundSeating, SeatingRequest
from scoring.seating.state import State
from scoring.seating.tuning import FIRST_SEAT_BASE, SEAT_BASE


def finish(
    problem: SeatingProblem, state: State, request: SeatingRequest, rng: random.Random
) -> Plan:
    orders = _seat_orders(problem, state.tables, rng)
    rounds = []
    for r, tables in enumerate(orders):
        seated = tuple(tuple(problem.ids[p] for p in table) for table in tables)
        byes = tuple(problem.ids[p] for p in range(problem.n) if state.where[r][p] == BYE)
        rounds.append(RoundSeating(tables=seated, byes=byes))
    everyone = [*request.players, *(p for table in request.history for p in table)]
    return Plan(tuple(rounds), quality(rounds, request.history, everyone))


def _seat_orders(
    problem: SeatingProblem, rounds: list[list[list[int]]], rng: random.Random
) -> list[list[list[int]]]:
    """Seat orders for every table: round by round, then once more with every other
    round known, as a table seated early cannot see who will deal first later."""
    seat_counts = [row[:] for row in problem.seat_counts]
    orders = [[_seat_order(table, seat_counts, rng) for table in tables] for tables in rounds]
    for tables in orders:
        for t, table in enumerate(tables):
            for s, p in enumerate(table):
                seat_counts[p][s] -= 1
            tables[t] = _seat_order(table, seat_counts, rng)
    return orders


def _seat_order(
    table: Sequence[int], seat_counts: list[list[int]], rng: random.Random
) -> list[int]:
    """The seat order of one table, the best of all orders (at most 40,320, at eight).

    A seat costs ``4 ** c`` for a player who has sat there ``c`` times, seat 1 (who deals
    first) ``64 ** c``: a third turn in seat 1 outweighs anything, then a third turn in any
    seat. Ties go to the first best order after a seeded shuffle.
    """
    players = list(table)
    rng.shuffle(players)
    cost = [
        [
            (FIRST_SEAT_BASE if s == 0 else SEAT_BASE) ** seat_counts[p][s]
            for s in range(len(players))
        ]
        for p in players
    ]
    best = first_cheapest_order(cost)
    ordered: list[int] = [0] * len(players)
    for i, s in enumerate(best):
        ordered[s] = players[i]
        seat_counts[players[i]][s] += 1
    return ordered


def first_cheapest_order(cost: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The seat of each player (``order[i]`` for player i, ``cost[i][s]`` the cost of
    seat s to them) of least total cost; of several, the first in the order
    ``itertools.permutations`` lists them.

    A depth-first search in that same order, which leaves a branch as soon as its cost so
    far plus every later player's cheapest seat reaches the best total found: such a
    branch cannot do strictly better, and a tie found later would not be taken. A fresh
    field, every seat costing the same, takes one path instead of 720 orders (40,320 at a
    table of eight).
    """
    k = len(cost)
    cheapest = [min(row) for row in cost]
    after = [sum(cheapest[i + 1 :]) for i in range(k)]
    free = [True] * k
    order: list[int] = []
    best: tuple[int, ...] = ()
    best_total = -1

    def place(i: int, total: int) -> None:
        nonlocal best, best_total
        if i == k:
            best, best_total = tuple(order), total
            return
        row, rest = cost[i], after[i]
        for s in range(k):
            if free[s]:
                reached = total + row[s]
                if best_total >= 0 and reached + rest >= best_total:
                    continue
                free[s] = False
                order.append(s)
                place(i + 1, reached)
                order.pop()
                free[s] = True

    place(0, 0)
    return best
