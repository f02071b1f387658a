"""The random method: one round, the players shuffled and cut into tables."""

from __future__ import annotations

import random
from dataclasses import replace

from scoring.seating.by_standings import fill_in_order
from scoring.seating.byes import choose_byes
from scoring.seating.problem import BYE, SeatingProblem, without_early_pairs_if_they_block
from scoring.seating.request import RoundSeating, SeatingRequest
from scoring.seating.seat_order import finish
from scoring.seating.state import State, raise_on_clash


def seat_randomly(request: SeatingRequest) -> RoundSeating:
    """Seat one round by shuffling the players and cutting the line into tables.

    Fixed tables and keep-apart pairs are honoured by reshuffling (up to 200 times).
    """
    return without_early_pairs_if_they_block(_seat_randomly, request)


def _seat_randomly(request: SeatingRequest) -> RoundSeating:
    problem = SeatingProblem(replace(request, rounds=1), 1)
    rng = random.Random(request.seed)
    state = State(problem, choose_byes(problem, rng))
    playing = [p for p in range(problem.n) if state.where[0][p] != BYE]
    for _ in range(200):
        rng.shuffle(playing)
        tables = fill_in_order(problem, playing)
        if not any(problem.keep_apart.clashes(0, table) for table in tables):
            break
    for t, table in enumerate(tables):
        for p in table:
            state.place(0, p, t)
    raise_on_clash(state)
    return finish(problem, state, request, rng).rounds[0]
