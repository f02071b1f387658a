"""Byes: who sits out each planned round (the first step when tables are all fives).

Byes rotate: fewest byes so far first, ties at random; nobody sits out a second time
before every active player has sat out once.
"""

from __future__ import annotations

import random

from scoring.seating.problem import SeatingProblem


def choose_byes(problem: SeatingProblem, rng: random.Random) -> list[list[int]]:
    byes_so_far = list(problem.past_byes)
    chosen = []
    for _ in range(problem.rounds):
        tiebreak = [rng.random() for _ in range(problem.n)]
        order = sorted(range(problem.n), key=lambda i: (byes_so_far[i], tiebreak[i]))
        out = order[: problem.bye_count]
        for i in out:
            byes_so_far[i] += 1
        chosen.append(out)
    return chosen
