"""Podium chances with pending tables (scoring.simulation.podium): a released table with
no result yet is a table still to play, in every finish, before the rounds left."""

from itertools import groupby, permutations, product
from math import sqrt

import numpy as np
import pytest

from scoring.rulesets import STANDARD
from scoring.simulation.podium import (
    Field,
    PendingRound,
    RoundPool,
    RoundsLeft,
    podium_chances,
    pool_for,
)
from scoring.systems import ScoringSystem


def _pool(points, last_in):
    points = np.array(points, dtype=np.int64)
    wins = (points == points.max(axis=1, keepdims=True)).astype(np.int64)
    bounds = (int(points.min()), int(points.max()))
    return RoundPool(points.shape[1], points, np.array(last_in, dtype=np.int64), wins, bounds)


# Four equally likely rounds at a table of three, and four at a table of four: small
# points, so that players often tie on points and the tiebreaks decide.
THREE = _pool(
    [[4, 2, 0], [2, 2, 2], [0, 3, 3], [1, 4, 1]],
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]],
)
FOUR = _pool(
    [[3, 1, 0, 0], [0, 2, 2, 0], [1, 1, 1, 1], [0, 0, 1, 3]],
    [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
)
POOLS = {3: THREE, 4: FOUR}
TIEBREAKS = ("best_round", "countback", "last_in", "table_wins")


def _field(rounds, played, last_in, table_wins):
    rounds = np.array(rounds, dtype=np.int64)
    points = rounds.sum(axis=1)
    return Field(
        points=points,
        last_in=np.array(last_in, dtype=np.int64),
        table_wins=np.array(table_wins, dtype=np.int64),
        rounds=rounds,
        played=np.array(played, dtype=bool),
        plays_on=np.ones(rounds.shape[0], dtype=bool),
        leader=int(np.argmax(points)),
    )


def _exact(field, tables_played):
    """Each player's exact chance of winning and of the top three, from every outcome
    (as likely as each other): ``tables_played`` lists the outcomes, each a list of
    (column or None for a round left, the players of a table in seat order, the pool
    round it draws). Ranked by points, best round, countback (latest first), deals last
    in, table wins; players level on all of them share their places equally."""
    players = field.points.size
    # Shares of a place in sixtieths: a tie shares it among 1 to 6 players.
    win = [0] * players
    top3 = [0] * players
    outcomes = list(tables_played)
    for outcome in outcomes:
        rounds = [list(row) for row in field.rounds]
        played = [list(row) for row in field.played]
        new_rounds = {}
        last_in = list(field.last_in)
        table_wins = list(field.table_wins)
        for column, table, row in outcome:
            pool = POOLS[len(table)]
            for seat, player in enumerate(table):
                points = int(pool.points[row, seat])
                if column is None:
                    new_rounds.setdefault(player, []).append(points)
                else:
                    rounds[player][column] += points
                    played[player][column] = True
                last_in[player] += int(pool.last_in[row, seat])
                table_wins[player] += int(pool.table_win[row, seat])

        figures = {}
        for player in range(players):
            left = new_rounds.get(player, [])
            released = [
                total for total, was in zip(rounds[player], played[player], strict=True) if was
            ]
            figures[player] = (
                sum(rounds[player]) + sum(left),
                max([*released, *left]),
                *reversed(left),
                *reversed(rounds[player]),
                last_in[player],
                table_wins[player],
            )
        start = 0
        for _, group in groupby(sorted(figures, key=figures.get, reverse=True), figures.get):
            level = list(group)
            for player in level:
                win[player] += 60 * max(0, min(1, start + len(level)) - start) // len(level)
                top3[player] += 60 * max(0, min(3, start + len(level)) - start) // len(level)
            start += len(level)
    return (
        [chance / (60 * len(outcomes)) for chance in win],
        [chance / (60 * len(outcomes)) for chance in top3],
    )


def _within_four_standard_errors(simulated, exact, finishes):
    for found, truth in zip(simulated, exact, strict=True):
        if truth in (0.0, 1.0):
            assert found == truth
        else:
            assert abs(found - truth) <= 4 * sqrt(truth * (1 - truth) / finishes)


# Six players. Round 1 (column 0) is in; in round 2 (column 1), players 3, 4 and 5 have
# their result and players 0, 1 and 2 wait for their table's. One round is left.
ROUNDS = [[5, 0], [3, 0], [4, 0], [6, 4], [2, 5], [3, 1]]
PLAYED = [[True, False]] * 3 + [[True, True]] * 3
PENDING = PendingRound(column=1, tables=((0, 1, 2),))
NEXT = ((0, 3, 4), (1, 2, 5))


@pytest.mark.parametrize("seated", [True, False])
def test_the_chances_with_a_pending_table_match_an_exact_enumeration(seated):
    field = _field(ROUNDS, PLAYED, last_in=[1, 0, 2, 1, 0, 1], table_wins=[1, 0, 0, 1, 1, 0])
    plan = RoundsLeft(
        rounds_left=1, sizes=(3, 3), seated=NEXT if seated else None, pending=(PENDING,)
    )
    finishes = 20_000
    chances = podium_chances(field, plan, POOLS, TIEBREAKS, finishes, seed=7)
    seatings = [NEXT] if seated else [(s[:3], s[3:]) for s in permutations(range(6))]
    outcomes = [
        [(1, PENDING.tables[0], pending), (None, first, one), (None, second, two)]
        for (first, second), pending, one, two in product(seatings, range(4), range(4), range(4))
    ]
    win, top3 = _exact(field, outcomes)
    assert chances.tiebreaks_used == TIEBREAKS
    _within_four_standard_errors(chances.win, win, finishes)
    _within_four_standard_errors(chances.top3, top3, finishes)
    assert chances.win.sum() == pytest.approx(1.0)
    assert chances.top3.sum() == pytest.approx(3.0)
    # Whoever the exact figures give a chance is never said to be out of reach.
    assert all(chances.win_reachable[p] for p in range(6) if win[p] > 0)
    assert all(chances.top3_reachable[p] for p in range(6) if top3[p] > 0)


def test_with_no_round_left_the_pending_tables_are_all_there_is_to_play():
    """The last planned round released with two tables missing: one of four in round 1
    (players 0 to 3; player 4 sat out and scored the bye), one of three in round 2
    (players 2, 3 and 4). A seating given for a round that will not be is ignored."""
    field = _field(
        [[0, 5], [0, 4], [0, 0], [0, 0], [2, 0]],
        [[False, True], [False, True], [False, False], [False, False], [True, False]],
        last_in=[0, 1, 0, 0, 0],
        table_wins=[0, 1, 0, 0, 0],
    )
    first = PendingRound(0, ((0, 1, 2, 3),))
    second = PendingRound(1, ((2, 3, 4),))
    plan = RoundsLeft(rounds_left=0, sizes=(3,), seated=((0, 1, 2),), pending=(first, second))
    finishes = 20_000
    chances = podium_chances(field, plan, POOLS, TIEBREAKS, finishes, seed=11)
    outcomes = [
        [(0, first.tables[0], one), (1, second.tables[0], two)]
        for one, two in product(range(4), range(4))
    ]
    win, top3 = _exact(field, outcomes)
    _within_four_standard_errors(chances.win, win, finishes)
    _within_four_standard_errors(chances.top3, top3, finishes)
    assert chances.win.sum() == pytest.approx(1.0)


def test_a_player_waiting_for_their_tables_result_is_not_out_of_the_top_three():
    """Ten players at two tables of five, winner-advantage, one rotation. After round 2
    of 3, table 2 of round 2 (players 5 to 9) has no result yet. Player 9 is 66 points
    off the lead: played as a round lost, as the pages did, they never reach the top
    three; with the table still to play, they sometimes do, and nothing proves it
    impossible."""
    first = [40, 30, 25, 20, 15, 38, 30, 27, 20, 15]
    second = [41, 30, 25, 20, 14, 0, 0, 0, 0, 0]
    rounds = np.array([first, second], dtype=np.int64).T
    field = Field(
        points=rounds.sum(axis=1),
        last_in=np.zeros(10, dtype=np.int64),
        table_wins=np.zeros(10, dtype=np.int64),
        rounds=rounds,
        played=np.array([[True, player < 5] for player in range(10)]),
        plays_on=np.ones(10, dtype=bool),
        leader=0,
    )
    assert field.points[0] - field.points[9] == 66
    pools = {5: pool_for(STANDARD, ScoringSystem.WINNER_ADVANTAGE, 5, 1)}
    tiebreaks = ("last_in", "table_wins", "countback")
    as_lost = RoundsLeft(rounds_left=1, sizes=(5, 5))
    before = podium_chances(field, as_lost, pools, tiebreaks, 20_000, seed=3)
    assert before.top3[9] == 0
    to_play = RoundsLeft(
        rounds_left=1, sizes=(5, 5), pending=(PendingRound(1, ((5, 6, 7, 8, 9),)),)
    )
    chances = podium_chances(field, to_play, pools, tiebreaks, 20_000, seed=3)
    assert chances.top3_reachable[9]
    assert chances.top3[9] > 0
    # The players who already have round 2's total lose what they were given for free.
    assert chances.top3[:5].sum() < before.top3[:5].sum()
    assert chances.top3.sum() == pytest.approx(3.0)
