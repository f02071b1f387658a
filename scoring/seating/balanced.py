"""The balanced method: ``plan`` seats all the rounds asked for jointly, fewest
repeat meetings first, through every step of the engine in turn."""

from __future__ import annotations

import random

from scoring.seating.annealing import anneal_and_repair
from scoring.seating.byes import choose_byes
from scoring.seating.cyclic import cyclic_design, seat_design
from scoring.seating.greedy import enforce_fixed, seat_greedily
from scoring.seating.past_bound import search_past_bound
from scoring.seating.problem import SeatingProblem, without_early_pairs_if_they_block
from scoring.seating.request import Plan, SeatingError, SeatingRequest
from scoring.seating.seat_order import finish
from scoring.seating.state import State, raise_on_clash
from scoring.seating.unital import unital_seating


def plan(request: SeatingRequest) -> Plan:
    """Seat ``request.rounds`` rounds jointly; ``Plan.quality`` includes the history."""
    if request.rounds < 1:
        raise SeatingError("Choose at least one round to seat.")
    return without_early_pairs_if_they_block(_plan, request)


def _plan(request: SeatingRequest) -> Plan:
    problem = SeatingProblem(request, request.rounds)
    rng = random.Random(request.seed)
    state = State(problem, choose_byes(problem, rng))
    design: list[list[list[int]]] = []
    # Where the cyclic design has too few rounds for the whole tournament, the unital
    # design may have enough.
    total = problem.rounds + len(problem.played)
    short = len(cyclic_design(problem.split, total)) < total
    unital = unital_seating(problem, rng, request.seed) if short else None
    if unital is not None:
        for r, tables in enumerate(unital):
            for t, table in enumerate(tables):
                for p in table:
                    state.place(r, p, t)
        return finish(problem, state, request, rng)
    if not problem.bye_count:
        # With a history or pairs to keep apart, every class the design offers is a
        # candidate: the slot assignment then picks the classes that avoid them.
        wanted = request.rounds + (problem.n if problem.has_pair_weights() else 0)
        design = cyclic_design(problem.split, wanted)
    designed, shape = 0, None
    if design:
        designed, shape = seat_design(state, design, rng, request.search_effort)
    for r in range(designed, problem.rounds):
        seat_greedily(state, r, rng)
    enforce_fixed(state, rng)
    anneal_and_repair(state, rng, request.search_effort)
    search_past_bound(state, rng, request.search_effort, shape)
    raise_on_clash(state)
    return finish(problem, state, request, rng)
