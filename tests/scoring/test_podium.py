"""Podium chances (scoring.simulation.podium): the Monte Carlo against exact enumeration
of a tiny pool, and the pools made from the simulator."""

import dataclasses
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from scoring.rulesets import STANDARD
from scoring.simulation.podium import (
    Field,
    RoundPool,
    RoundsLeft,
    deal_pool,
    podium_chances,
    pool_for,
    round_pool,
)
from scoring.systems import ScoringSystem

# Four rounds a table of three can have: each seat's points, deals last in, table win.
POINTS = np.array([[10, 2, 1], [3, 3, 7], [0, 9, 4], [5, 5, 0]], dtype=np.int64)
LAST_IN = np.array([[1, 0, 2], [0, 3, 0], [2, 1, 0], [1, 1, 1]], dtype=np.int64)
TINY = RoundPool(3, POINTS, LAST_IN, (POINTS.max(axis=1, keepdims=True) == POINTS).astype(np.int64))


def _field(points, last_in=(0, 0, 0)):
    return Field(
        points=np.array(points, dtype=np.int64),
        last_in=np.array(last_in, dtype=np.int64),
        table_wins=np.zeros(3, dtype=np.int64),
        rounds=np.array([[p] for p in points], dtype=np.int64),
        played=np.ones((3, 1), dtype=bool),
        plays_on=np.ones(3, dtype=bool),
        leader=int(np.argmax(points)),
    )


def _exact_wins(points, last_in, seatings):
    """Each player's exact chance of winning: every (seating, pool round) as likely,
    ranked by points then deals last in; players level on both share the win equally
    (a random order)."""
    wins = [Fraction(0)] * 3
    outcomes = [(seating, row) for seating in seatings for row in range(len(POINTS))]
    for seating, row in outcomes:
        figures = [None] * 3
        for seat, player in enumerate(seating):
            figures[player] = (
                points[player] + POINTS[row, seat],
                last_in[player] + LAST_IN[row, seat],
            )
        best = max(figures)
        level = [p for p in range(3) if figures[p] == best]
        for player in level:
            wins[player] += Fraction(1, len(level) * len(outcomes))
    return wins


@pytest.mark.parametrize(
    ("points", "last_in", "seated"),
    [
        ((10, 8, 7), (0, 0, 0), True),
        ((10, 8, 7), (0, 0, 0), False),
        # Level on points after some rounds: deals last in decide, then a random order.
        ((6, 6, 5), (1, 2, 0), False),
        ((6, 6, 5), (2, 2, 0), True),
    ],
)
def test_the_chances_match_an_exact_enumeration_of_a_tiny_pool(points, last_in, seated):
    field = _field(points, last_in)
    plan = RoundsLeft(rounds_left=1, sizes=(3,), seated=((0, 1, 2),) if seated else None)
    chances = podium_chances(field, plan, {3: TINY}, ("last_in",), finishes=40_000, seed=3)
    seatings = [(0, 1, 2)] if seated else list(permutations(range(3)))
    exact = _exact_wins(points, last_in, seatings)
    assert chances.win == pytest.approx([float(f) for f in exact], abs=0.012)
    assert chances.win.sum() == pytest.approx(1.0)
    # Three players: everyone is in the top three of every finish.
    assert chances.top3 == pytest.approx([1.0, 1.0, 1.0])
    assert chances.tiebreaks_used == ("last_in",)


def test_a_tiebreak_not_simulated_stops_the_ranking_there():
    field = _field((6, 6, 5))
    plan = RoundsLeft(rounds_left=1, sizes=(3,))
    chances = podium_chances(field, plan, {3: TINY}, ("opponents", "last_in"), finishes=500)
    assert chances.tiebreaks_used == ()


def test_what_a_player_needs_is_the_median_margin_over_the_leader_when_winning():
    # Seated as is (10, 8 and 7 points): player 1 wins only with pool round 2 (8 + 9 = 17
    # against 10 and 11), 9 points more than the leader; player 2 only with round 1
    # (7 + 7 = 14 against 13 and 11), 4 more (7 − 3).
    field = _field((10, 8, 7))
    plan = RoundsLeft(rounds_left=1, sizes=(3,), seated=((0, 1, 2),))
    chances = podium_chances(field, plan, {3: TINY}, (), finishes=4000, seed=1)
    assert chances.need == (0, 9, 4)  # the leader's margin over itself is 0
    assert chances.win == pytest.approx([0.5, 0.25, 0.25], abs=0.03)


def test_byes_score_the_bye_points():
    # Four players, one table of three: one sits out and scores 100, so always wins.
    field = Field(
        points=np.zeros(4, dtype=np.int64),
        last_in=np.zeros(4, dtype=np.int64),
        table_wins=np.zeros(4, dtype=np.int64),
        rounds=np.zeros((4, 1), dtype=np.int64),
        played=np.ones((4, 1), dtype=bool),
        plays_on=np.ones(4, dtype=bool),
        leader=0,
    )
    plan = RoundsLeft(rounds_left=1, sizes=(3,), bye_points=100)
    chances = podium_chances(field, plan, {3: TINY}, (), finishes=8000, seed=2)
    assert chances.win == pytest.approx([0.25] * 4, abs=0.02)


def test_the_round_pool_deals_each_seat_in_turn():
    points, last_in = deal_pool(STANDARD, ScoringSystem.WINNER_ADVANTAGE, 4, deals=200, seed=5)
    # Winner-advantage hands out 26 points a deal, and a deal has one last in.
    assert (points.sum(axis=1) == 26).all()
    assert (last_in.sum(axis=1) == 1).all()
    pool = round_pool(points, last_in, rotations=2, rounds=100, seed=5)
    assert (pool.points.sum(axis=1) == 26 * 8).all()
    assert (pool.last_in.sum(axis=1) == 8).all()
    assert (pool.table_win.sum(axis=1) >= 1).all()


def test_a_pool_is_made_once_a_process():
    first = pool_for(STANDARD, ScoringSystem.CAIDIS, 4, 1)
    assert pool_for(STANDARD, ScoringSystem.CAIDIS, 4, 1) is first
    # Caidis is zero-sum.
    assert (first.points.sum(axis=1) == 0).all()


@pytest.mark.parametrize("seated", [True, False])
def test_a_player_of_overwhelming_skill_takes_every_tables_best_result(seated):
    """Skill (a series' ratings) hands a table's results out by form: a player rated far
    above the others takes the best result of every table round; the other two share the
    rest at random. Checked against exact enumeration of the tiny pool."""
    points, last_in = (10, 8, 7), (0, 0, 0)
    field = dataclasses.replace(_field(points, last_in), skill=np.array([0.0, 0.0, 1e6]))
    plan = RoundsLeft(rounds_left=1, sizes=(3,), seated=((0, 1, 2),) if seated else None)
    chances = podium_chances(field, plan, {3: TINY}, ("last_in",), finishes=40_000, seed=5)
    wins = [Fraction(0)] * 3
    for row in range(len(POINTS)):
        best = int(np.argmax(POINTS[row]))
        rest = [seat for seat in range(3) if seat != best]
        for first, second in (rest, rest[::-1]):
            got = {2: best, 0: first, 1: second}
            figures = [
                (points[p] + POINTS[row, got[p]], last_in[p] + LAST_IN[row, got[p]])
                for p in range(3)
            ]
            top = max(figures)
            level = [p for p in range(3) if figures[p] == top]
            for player in level:
                wins[player] += Fraction(1, len(level) * 2 * len(POINTS))
    assert chances.win == pytest.approx([float(f) for f in wins], abs=0.012)


def test_a_stronger_rating_raises_a_players_chances_over_equal_skill():
    pool = pool_for(STANDARD, ScoringSystem.WINNER_ADVANTAGE, 5, 1)
    players = 20
    field = Field(
        points=np.full(players, 30, dtype=np.int64),
        last_in=np.zeros(players, dtype=np.int64),
        table_wins=np.zeros(players, dtype=np.int64),
        rounds=np.full((players, 1), 30, dtype=np.int64),
        played=np.ones((players, 1), dtype=bool),
        plays_on=np.ones(players, dtype=bool),
        leader=0,
    )
    plan = RoundsLeft(rounds_left=2, sizes=(5,) * 4)
    equal = podium_chances(field, plan, {5: pool}, ("last_in",), finishes=4000, seed=1)
    skill = np.zeros(players)
    skill[7] = 10.0  # ten rating points above the field: about 1.1 of the form's noise
    rated = podium_chances(
        dataclasses.replace(field, skill=skill), plan, {5: pool}, ("last_in",), 4000, seed=1
    )
    assert equal.win[7] < 0.1
    assert rated.win[7] > 2 * equal.win[7]
    assert rated.win.sum() == pytest.approx(1.0)


def test_working_out_stops_between_blocks_when_told(monkeypatch):
    """``keep_going`` is asked between blocks of finishes: a "no" stops the work there
    (what it is worked out for has moved on), a "yes" every time changes nothing."""
    import scoring.simulation.podium as podium

    # Blocks of two finishes for three players.
    monkeypatch.setattr(podium, "_BLOCK_CELLS", 6)
    field = _field((10, 8, 7))
    plan = RoundsLeft(rounds_left=1, sizes=(3,))
    asked = []

    def until_the_third_block():
        asked.append(True)
        return len(asked) < 3

    with pytest.raises(podium.Stopped, match="stopped after 6 of 20 finishes"):
        podium_chances(field, plan, {3: TINY}, (), finishes=20, keep_going=until_the_third_block)
    always = podium_chances(
        field, plan, {3: TINY}, (), finishes=20, seed=1, keep_going=lambda: True
    )
    never_asked = podium_chances(field, plan, {3: TINY}, (), finishes=20, seed=1)
    assert np.array_equal(always.win, never_asked.win)
