"""What the podium chances prove (scoring.simulation.podium): the round bounds of a table
size, each player's final bounds, and a place out of reach only where no deals could
change it."""

import dataclasses

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from scoring.errors import UserError
from scoring.rulesets import RULE_SETS, STANDARD
from scoring.simulation.podium import (
    Field,
    PendingRound,
    RoundPool,
    RoundsLeft,
    final_bounds,
    out_of_reach,
    podium_chances,
    pool_for,
    round_bounds,
)
from scoring.systems import ScoringSystem

WA, CLASSIC, CAIDIS = (
    ScoringSystem.WINNER_ADVANTAGE,
    ScoringSystem.CLASSIC_STAKES,
    ScoringSystem.CAIDIS,
)


def _ints(values):
    return np.array(values, dtype=np.int64)


@pytest.mark.parametrize(
    ("rule_set", "system", "size", "rotations", "bounds"),
    [
        # 0 to 26 a deal, five deals a rotation.
        (STANDARD, WA, 5, 1, (0, 130)),
        (STANDARD, WA, 8 - 5, 2, (0, 156)),
        # Caidis at five: the dealer −5 to 4 in its 2 deals, −4 to 5 in the other 8.
        (STANDARD, CAIDIS, 5, 2, (-42, 48)),
        # Classic stakes at five: up to 24 a deal; down to −10 a deal, as at a table of
        # three, which the five can come down to when two players leave.
        (STANDARD, CLASSIC, 5, 1, (-50, 120)),
        # Du Coeur's eight: up to 32 a deal (prize 11, an odd break-even of 5).
        (RULE_SETS["du-coeur"], CLASSIC, 8, 1, (-80, 256)),
    ],
)
def test_round_bounds(rule_set, system, size, rotations, bounds):
    assert round_bounds(rule_set, system, size, rotations) == bounds


def test_round_bounds_refuse_a_size_the_scoring_does_not_seat():
    with pytest.raises(UserError, match="cannot play under"):
        round_bounds(STANDARD, CAIDIS, 6, 1)


@pytest.mark.parametrize("system", list(ScoringSystem))
def test_a_pool_made_from_the_simulator_keeps_within_its_round_bounds(system):
    pool = pool_for(STANDARD, system, 4, 1)
    assert pool.bounds == round_bounds(STANDARD, system, 4, 1)
    low, high = pool.bounds
    assert low <= pool.points.min() <= pool.points.max() <= high


def test_a_pool_with_a_round_beyond_its_bounds_is_refused():
    points = _ints([[4, 2, 0]])
    with pytest.raises(ValueError, match="outside the round bounds"):
        RoundPool(3, points, np.zeros_like(points), np.zeros_like(points), bounds=(0, 3))


def test_out_of_reach_takes_as_many_others_strictly_above_as_there_are_places():
    lowest = _ints([100, 90, 80, 10, 5])
    highest = _ints([200, 150, 120, 80, 79])
    # Player 4 ends at 79 at most; players 0, 1 and 2 at 80 at least: out of the top
    # three, so out of the win. Player 3 can reach 80, level with player 2's lowest: a
    # tiebreak could go their way, so third is not out of reach; first is (two above).
    assert out_of_reach(lowest, highest, places=3).tolist() == [False] * 4 + [True]
    assert out_of_reach(lowest, highest, places=1).tolist() == [False] * 3 + [True, True]


def test_with_fewer_players_than_places_nobody_is_out_of_reach():
    assert not out_of_reach(_ints([50, 0]), _ints([60, 1]), places=3).any()


THREE = RoundPool(
    3,
    _ints([[10, 0, 0], [0, 5, 5], [0, 5, 5], [0, 5, 5]]),
    np.zeros((4, 3), dtype=np.int64),
    _ints([[1, 0, 0], [0, 1, 1], [0, 1, 1], [0, 1, 1]]),
    bounds=(0, 10),
)


def _field(points, plays_on=None):
    players = len(points)
    return Field(
        points=_ints(points),
        last_in=np.zeros(players, dtype=np.int64),
        table_wins=np.zeros(players, dtype=np.int64),
        rounds=_ints(points).reshape(players, 1),
        played=np.ones((players, 1), dtype=bool),
        plays_on=np.ones(players, dtype=bool) if plays_on is None else np.array(plays_on),
        leader=int(np.argmax(points)),
    )


def test_final_bounds_count_every_round_a_player_still_has():
    """Seven players (0 to 10 a round at a table of three, a bye scores 12). Players 0,
    1 and 6 have a pending table; two rounds are left: the next one seated (players 0, 1
    and 2 at a table, player 5 sits it out, players 3, 4 and 6 are not seated), the last
    drawn into one table of three for the six who play on (so three sit out, and the bye
    is among the outcomes). Player 6 does not play on."""
    plan = RoundsLeft(
        rounds_left=2,
        sizes=(3,),
        bye_points=12,
        seated=((0, 1, 2),),
        seated_byes=(5,),
        pending=(PendingRound(0, ((0, 1, 6),)),),
    )
    field = _field([0, 10, 20, 30, 40, 50, 60], plays_on=[True] * 6 + [False])
    lowest, highest = final_bounds(field, plan, {3: THREE})
    assert lowest.tolist() == [0, 10, 20, 30, 40, 62, 60]
    assert highest.tolist() == [32, 42, 42, 42, 52, 74, 70]


def test_a_pool_without_bounds_proves_nothing():
    pools = {3: dataclasses.replace(THREE, bounds=None)}
    plan = RoundsLeft(rounds_left=1, sizes=(3,), seated=((0, 1, 2),))
    field = _field([0, 50, 60, 70])
    assert final_bounds(field, plan, pools) is None
    chances = podium_chances(field, plan, pools, (), finishes=200)
    assert chances.win_reachable.all()
    assert chances.top3_reachable.all()


def test_a_place_the_bounds_prove_out_of_reach_has_no_chance():
    """Player 0 is 11 points behind three players with one round of at most 10 left."""
    plan = RoundsLeft(rounds_left=1, sizes=(3,))
    field = _field([0, 11, 11, 11])
    chances = podium_chances(field, plan, {3: THREE}, (), finishes=2000, seed=1)
    assert chances.win_reachable.tolist() == [False, True, True, True]
    assert chances.top3_reachable.tolist() == [False, True, True, True]
    assert chances.win[0] == chances.top3[0] == 0


def test_a_place_reachable_only_by_the_best_rounds_is_rare_but_not_out_of_reach():
    """Player 0 is 20 behind the other two with two rounds left at their table of three,
    of at most 10 a round: only the 10-point result in both (seat 1 in round 1 as
    seated, 1 chance in 4; in the drawn round 2 the seat, 1 in 3, and the result, 1 in
    4), the others then scoring nothing, makes the three level at 20, and a random order
    decides: 1 finish in 144 they win."""
    plan = RoundsLeft(rounds_left=2, sizes=(3,), seated=((0, 1, 2),))
    field = _field([0, 20, 20])
    finishes = 40_000
    chances = podium_chances(field, plan, {3: THREE}, (), finishes, seed=2)
    assert chances.win_reachable[0]
    exact = 1 / 144
    assert abs(chances.win[0] - exact) <= 4 * (exact * (1 - exact) / finishes) ** 0.5


# A pool a size, each bounded by its own extremes: the tightest bounds that are true of
# it, so that a finish that beats them would show at once.
POOLS = {
    3: RoundPool(
        3,
        _ints([[6, 1, 0], [2, 2, 3], [0, 0, 7], [4, 3, 1]]),
        _ints([[1, 0, 0], [0, 0, 1], [0, 0, 1], [1, 0, 0]]),
        _ints([[1, 0, 0], [0, 0, 1], [0, 0, 1], [1, 0, 0]]),
        bounds=(0, 7),
    ),
    4: RoundPool(
        4,
        _ints([[9, 0, 0, 1], [2, 2, 3, 3], [0, 5, 1, 4], [1, 1, 1, 1]]),
        _ints([[2, 0, 0, 0], [0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 0, 1]]),
        _ints([[1, 0, 0, 0], [0, 0, 1, 1], [0, 1, 0, 0], [1, 1, 1, 1]]),
        bounds=(0, 9),
    ),
}


@st.composite
def fields_and_plans(draw):
    """A field of 3 to 9 players with points spread far enough that some places are out
    of reach, and a plan: pending tables of some of them, 0 to 2 rounds left, the next
    seated or drawn, some who do not play on, maybe skill."""
    players = draw(st.integers(3, 9))
    points = draw(st.lists(st.integers(0, 40), min_size=players, max_size=players))
    order = draw(st.permutations(range(players)))
    pending_tables = []
    at = 0
    while at + 3 <= players and draw(st.booleans()):
        size = draw(st.sampled_from([size for size in (3, 4) if at + size <= players]))
        pending_tables.append(tuple(order[at : at + size]))
        at += size
    played = np.ones((players, 1), dtype=bool)
    for table in pending_tables:
        played[list(table), 0] = False
    plays_on = np.array(draw(st.lists(st.booleans(), min_size=players, max_size=players)))
    on = int(plays_on.sum())
    sizes = tuple(draw(st.lists(st.sampled_from((3, 4)), max_size=2)))
    while sum(sizes) > on and sizes:
        sizes = sizes[:-1]
    rounds_left = draw(st.integers(0 if pending_tables else 1, 2))
    seated = None
    seated_byes: tuple[int, ...] = ()
    if draw(st.booleans()):
        # Tables of three, then maybe a bye; anyone left is not seated.
        seating = draw(st.permutations(range(players)))
        tables = draw(st.integers(1, players // 3))
        seated = tuple(tuple(seating[3 * at : 3 * at + 3]) for at in range(tables))
        seated_byes = tuple(seating[3 * tables : 3 * tables + draw(st.integers(0, 1))])
    skill = None
    if draw(st.booleans()):
        skill = np.array(draw(st.lists(st.floats(-5, 5), min_size=players, max_size=players)))
    field = Field(
        points=_ints(points),
        last_in=np.zeros(players, dtype=np.int64),
        table_wins=np.zeros(players, dtype=np.int64),
        rounds=np.where(played, _ints(points).reshape(players, 1), 0),
        played=played,
        plays_on=plays_on,
        leader=int(np.argmax(points)),
        skill=skill,
    )
    plan = RoundsLeft(
        rounds_left=rounds_left,
        sizes=sizes,
        bye_points=draw(st.integers(0, 8)),
        seated=seated,
        seated_byes=seated_byes,
        pending=(PendingRound(0, tuple(pending_tables)),) if pending_tables else (),
    )
    return field, plan


@settings(max_examples=300, deadline=None)
@given(fields_and_plans(), st.integers(0, 2**32 - 1))
def test_a_place_reached_in_any_finish_is_never_said_out_of_reach(field_and_plan, seed):
    field, plan = field_and_plan
    tiebreaks = ("last_in", "table_wins", "best_round", "countback")
    chances = podium_chances(field, plan, POOLS, tiebreaks, finishes=300, seed=seed)
    assert chances.win_reachable[chances.win > 0].all()
    assert chances.top3_reachable[chances.top3 > 0].all()
    if not chances.top3_reachable.all():
        event("a player proved out of the top three")
