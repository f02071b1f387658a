"""Greedy seating: the rounds no design seats, one player at a time, most constrained
first, into the table that adds the fewest clashes and meetings; then every fixed player
is moved to their table."""

from __future__ import annotations

import random

from scoring.seating.problem import BYE
from scoring.seating.state import State, swap


def seat_greedily(state: State, r: int, rng: random.Random) -> None:
    """Seat round ``r`` one player at a time, most constrained first, into the best table."""
    problem = state.problem
    where, meetings = state.where[r], state.meetings
    room = list(problem.split)
    partners = problem.keep_apart.partners(r)
    playing = state.playing(r)
    for p in playing:
        if problem.fixed[p] >= 0:
            state.place(r, p, problem.fixed[p])
            room[problem.fixed[p]] -= 1
    tiebreak = {p: rng.random() for p in playing}

    def constraint(p: int) -> tuple[int, float]:
        apart = len(partners[p]) if partners else 0
        return (-(len(state.met[p]) + 8 * apart), tiebreak[p])

    open_tables = [t for t, free in enumerate(room) if free]
    for p in sorted((p for p in playing if problem.fixed[p] < 0), key=constraint):
        costs: dict[int, list[int]] = {}
        row = meetings[p]
        for q in state.met[p]:
            t = where[q]
            if t >= 0 and room[t]:
                c = row[q]
                cost = costs.setdefault(t, [0, 0, 0, 0])
                cost[1] = max(cost[1], c)
                cost[2] += 1
                cost[3] += c
        if partners:
            for q in partners[p]:
                t = where[q]
                if t >= 0 and room[t]:
                    costs.setdefault(t, [0, 0, 0, 0])[0] += 1
        choice = -1
        if len(costs) < len(open_tables):
            for _ in range(8):
                t = open_tables[rng.randrange(len(open_tables))]
                if t not in costs:
                    choice = t
                    break
        if choice < 0:
            start = rng.randrange(len(open_tables))
            ordered = open_tables[start:] + open_tables[:start]
            choice = min(ordered, key=lambda t: costs.get(t, [0, 0, 0, 0]))
        state.place(r, p, choice)
        room[choice] -= 1
        if not room[choice]:
            open_tables.remove(choice)


def enforce_fixed(state: State, rng: random.Random) -> None:
    problem = state.problem
    for r, tables in enumerate(state.tables):
        where = state.where[r]
        for p in range(problem.n):
            t = problem.fixed[p]
            if t < 0 or where[p] in (t, BYE):
                continue
            movable = [q for q in tables[t] if problem.fixed[q] != t]
            swap(state, r, p, rng.choice(movable))
