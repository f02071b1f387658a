"""Past the bound: while a plan is above its counting bound (or the history's own
repeats), rotating rounds and then the tabu search take over within a work budget."""

from __future__ import annotations

import random

from scoring.seating.annealing import Annealing
from scoring.seating.cyclic import DesignShape
from scoring.seating.problem import SeatingProblem
from scoring.seating.quality import MeetingRows, add_meetings
from scoring.seating.rotation import can_rotate, rotating_seating
from scoring.seating.state import State
from scoring.seating.table_bound import between_rounds, planned_most, planned_repeats
from scoring.seating.tabu import TabuSearch
from scoring.seating.tuning import (
    ROTATION_COST,
    ROTATION_SHARE,
    TABU_WORK,
    TABU_WORK_PER_SEAT,
    TRANSVERSAL_SHARE,
    TRANSVERSAL_WORK_PER_SEAT,
)


def _repeat_target(state: State, search: Annealing) -> tuple[int, int, int, int]:
    """The best (clashes, most meetings, repeats, spread) the seating could reach, as far
    as counting shows: the counting bounds; the history's own most meetings and repeats,
    plus the most meetings and repeats the table sizes force among the planned rounds
    (``table_bound.planned_most`` and ``planned_repeats``), if higher."""
    problem = state.problem
    history = problem.meeting_counts()
    history_repeats = sum(c - 1 for row in history for c in row if c > 1) // 2
    repeats, most = search.bound
    between = between_rounds(problem.split, problem.bye_count) if problem.rounds > 1 else 0
    most = max(most, problem.history_most, planned_most(between, problem.rounds, problem.n))
    planned = planned_repeats(between, problem.rounds, most)
    return (0, most, max(repeats, history_repeats + planned), 0)


def search_past_bound(
    state: State,
    rng: random.Random,
    effort: float,
    shape: DesignShape | None,
) -> None:
    """Rotating rounds, then the tabu search (``tabu``), while the seating is above its
    target.

    With the cyclic design's ``shape`` the tabu search first tries seatings in which every
    table holds one player of each group (as the design's rounds do), restarting from
    fresh ones; then it searches from the best seating so far with every swap allowed.
    """
    problem = state.problem
    seats = sum(problem.split) * problem.rounds
    budget = int(effort * min(TABU_WORK, TABU_WORK_PER_SEAT * seats))
    # Setting up the search counts every pair in every round; big fields do not need it.
    if len(problem.split) < 2 or problem.n * problem.n * problem.rounds * 8 > budget:
        return
    search = Annealing(state, rng)
    target = search.objective()
    goal = _repeat_target(state, search)
    if target[:3] <= goal[:3]:
        return
    spent = 0
    if can_rotate(problem):
        spent = int(ROTATION_SHARE * budget)
        rotation = rotating_seating(problem, rng, spent // ROTATION_COST)
        if rotation is not None:
            state.restore(rotation)
            return
    best, best_tables = target, state.snapshot()
    attempt = TRANSVERSAL_WORK_PER_SEAT * seats
    if shape is not None and shape.pattern is not None and problem.rounds < len(shape.pattern):
        groups, pattern = shape.groups, shape.pattern
        limit = spent + TRANSVERSAL_SHARE * (budget - spent)
        tried_design = False
        while spent < limit and best[:3] > goal[:3]:
            if not tried_design and shape.seating is not None:
                seating, tried_design = shape.seating, True
            elif problem.history_most:
                break  # fresh seatings would ignore who has met: only the design's is tried
            else:
                seating = [
                    _shuffle_within_groups(problem, pattern, groups, rng)
                    for _ in range(problem.rounds)
                ]
            tabu = TabuSearch(
                seating,
                _meetings_of(problem, seating),
                problem.fixed,
                problem.keep_apart.by_round,
                search.energy,
                rng,
                groups,
                problem.keep_apart.always,
            )
            found = tabu.run(attempt, goal)
            # A seating with nothing to repair ends at once; count it as a whole attempt.
            spent += max(tabu.work, attempt)
            tabu.restore(found)
            # The design's own seating may not have every fixed player at their table
            # (the tabu search never moves them, so it would not put them back).
            if (
                tabu.objective() < best
                and not _seats_hard_pair(problem, found)
                and not _moves_fixed_player(problem, found)
            ):
                best, best_tables = tabu.objective(), found
    if best[:3] > goal[:3]:
        tabu = TabuSearch(
            best_tables,
            _meetings_of(problem, best_tables),
            problem.fixed,
            problem.keep_apart.by_round,
            search.energy,
            rng,
            hard=problem.keep_apart.always,
        )
        found = tabu.run(budget - spent, goal)
        tabu.restore(found)
        if tabu.objective() < best:
            best_tables = found
    state.restore(best_tables)


def _moves_fixed_player(problem: SeatingProblem, seating: list[list[list[int]]]) -> bool:
    """Whether a player with a fixed table plays a round of ``seating`` at another table."""
    for tables in seating:
        for t, table in enumerate(tables):
            if any(0 <= problem.fixed[p] != t for p in table):
                return True
    return False


def _seats_hard_pair(problem: SeatingProblem, seating: list[list[list[int]]]) -> bool:
    hard = problem.keep_apart.always
    return any(hard[a] & set(table) for tables in seating for table in tables for a in table)


def _meetings_of(problem: SeatingProblem, seating: list[list[list[int]]]) -> MeetingRows:
    meetings = problem.meeting_counts()
    add_meetings(meetings, (table for tables in seating for table in tables))
    return meetings


def _shuffle_within_groups(
    problem: SeatingProblem, pattern: list[list[int]], groups: list[int], rng: random.Random
) -> list[list[int]]:
    """``pattern`` with the movable players of each group dealt to its tables at random."""
    tables = [table[:] for table in pattern]
    seats: dict[int, list[tuple[int, int]]] = {}
    for t, table in enumerate(tables):
        for i, p in enumerate(table):
            if problem.fixed[p] < 0:
                seats.setdefault(groups[p], []).append((t, i))
    for group in sorted(seats):
        places = seats[group]
        members = [tables[t][i] for t, i in places]
        rng.shuffle(members)
        for (t, i), p in zip(places, members, strict=True):
            tables[t][i] = p
    return tables
