import os
import random
import subprocess
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import UserError
from scoring.seating import (
    Quality,
    RoundSeating,
    SeatingError,
    SeatingRequest,
    plan,
    quality,
    seat_by_standings,
    seat_randomly,
    table_splits,
)
from scoring.seating.rotation import rotating_rounds
from scoring.seating.tabu import TabuSearch
from scoring.seating.unital import unital_design

ROOT = Path(__file__).resolve().parents[2]


def players(n):
    return tuple(range(1, n + 1))


def meetings(rounds, history=()):
    counts = Counter()
    for table in [*history, *(t for r in rounds for t in r.tables)]:
        counts.update(combinations(sorted(table), 2))
    return counts


def table_of(round_seating, player):
    return next(t for t, table in enumerate(round_seating.tables, 1) if player in table)


# --- table splits ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes", "first"),
    [
        (3, (4, 5, 6), (3,)),
        (5, (4, 5, 6), (5,)),
        (7, (4, 5, 6), (4, 3)),
        (8, (4, 5, 6), (4, 4)),
        (9, (4, 5, 6), (5, 4)),
        (11, (4, 5, 6), (6, 5)),
        (12, (4, 5, 6), (6, 6)),
        (22, (4, 5, 6), (6, 6, 5, 5)),
        (23, (4, 5, 6), (5, 5, 5, 4, 4)),
        (25, (5,), (5, 5, 5, 5, 5)),
        (23, (5,), (5, 5, 5, 5, 3)),
        (20, (4, 6), (6, 6, 4, 4)),
        (1000, (4, 5, 6), (5,) * 200),
    ],
)
def test_the_default_split_comes_first(n, sizes, first):
    assert table_splits(n, sizes)[0] == first


def test_23_players_offer_fours_and_sixes_in_the_documented_order():
    assert table_splits(23) == [(5, 5, 5, 4, 4), (6, 6, 6, 5), (6, 5, 4, 4, 4)]


def test_a_table_of_three_is_a_last_resort():
    assert all(3 not in split for split in table_splits(13))
    assert table_splits(13, (3, 4, 5, 6))[-1].count(3) > 0
    assert table_splits(13, (3, 4, 5, 6))[0] == (5, 4, 4)


@pytest.mark.parametrize("n", range(3, 61))
def test_every_split_seats_everyone_at_allowed_tables(n):
    for split in table_splits(n, limit=50):
        assert sum(split) == n
        assert set(split) <= {4, 5, 6} or n in (3, 7)


@pytest.mark.parametrize(
    ("n", "sizes", "message"),
    [
        (2, (4, 5, 6), "At least 3 players"),
        (7, (6,), "cannot be split into tables of 6"),
        (10, (9,), "Tables seat 3 to 8 players under these rules; a table of 9 is not"),
    ],
)
def test_impossible_splits_are_explained(n, sizes, message):
    with pytest.raises(SeatingError, match=message):
        table_splits(n, sizes)


def test_a_seating_error_is_a_user_error():
    assert issubclass(SeatingError, UserError)


# --- quality figures ---------------------------------------------------------------------


def test_quality_counts_repeats_most_meetings_and_spread():
    history = ((1, 2, 3), (4, 5, 6))
    edited = RoundSeating(tables=((1, 2, 4), (3, 5, 6)))
    assert quality([edited], history) == Quality(
        repeat_meetings=2,  # 1-2 and 5-6 meet again
        max_meetings=2,
        lower_bound=0,  # each player met 4 seats among 5 others: nothing is forced
        max_meetings_lower_bound=1,
        spread=2,
    )


def test_the_counting_bound_is_tight_for_four_players_at_one_table_twice():
    rounds = [RoundSeating(tables=((1, 2, 3, 4),))] * 2
    # Each player met 6 seats among 3 others: 3 forced repeats each, 12 / 2 = 6 pairs' worth.
    assert quality(rounds) == Quality(6, 2, 6, 2, 6)


def test_the_counting_bound_for_twelve_players_at_two_sixes_for_four_rounds():
    figures = plan(SeatingRequest(players=players(12), rounds=4)).quality
    # 20 seats among 11 others: 9 forced repeats per player, 12 * 9 / 2 = 54; ceil(20 / 11) = 2.
    assert (figures.lower_bound, figures.max_meetings_lower_bound) == (54, 2)
    assert figures.repeat_meetings >= figures.lower_bound
    # Two sides of six over four rounds: 12 players cannot all differ in two of four sides.
    assert figures.max_meetings == 3


def test_quality_recomputes_a_hand_edited_round():
    history = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10))
    fresh = RoundSeating(tables=((1, 2, 6, 7, 8), (3, 4, 5, 9, 10)))
    swapped = RoundSeating(tables=((1, 9, 6, 7, 8), (3, 4, 5, 2, 10)))  # 2 and 9 swapped
    assert quality([fresh], history).repeat_meetings == 1 + 3 + 3 + 1
    assert quality([swapped], history).repeat_meetings == 6 + 6
    assert quality([swapped], history).max_meetings == 2


def test_players_on_a_bye_count_towards_the_bound():
    rounds = [RoundSeating(tables=((1, 2, 3),), byes=(4,))]
    assert quality(rounds).max_meetings_lower_bound == 1
    assert quality(rounds, players=(1, 2, 3, 4, 5)).lower_bound == 0


# --- zero-repeat plans -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "sizes"),
    [
        (25, 6, (5,)),  # affine plane of order 5
        (35, 7, (5,)),
        (24, 6, (4, 5, 6)),  # the affine plane less one player: one table of four
        (23, 5, (4, 5, 6)),
        (40, 8, (4, 5, 6)),  # GF(8)
        (45, 9, (4, 5, 6)),  # GF(9)
        (60, 8, (4, 5, 6)),
        (200, 10, (4, 5, 6)),
        (1000, 10, (4, 5, 6)),
    ],
)
def test_plans_without_repeat_meetings(n, rounds, sizes):
    result = plan(SeatingRequest(players=players(n), rounds=rounds, sizes=sizes))
    assert len(result.rounds) == rounds
    assert result.quality.repeat_meetings == 0
    assert result.quality.max_meetings == 1
    assert max(meetings(result.rounds).values()) == 1


def test_sixteen_players_at_fours_meet_everyone_once_in_five_rounds():
    result = plan(SeatingRequest(players=players(16), rounds=5, split=(4, 4, 4, 4)))
    counts = meetings(result.rounds)
    assert len(counts) == 16 * 15 // 2
    assert set(counts.values()) == {1}


def test_a_fixed_table_keeps_the_affine_plane_free_of_repeats():
    request = SeatingRequest(players=players(25), rounds=6, sizes=(5,), fixed_tables=((7, 3),))
    result = plan(request)
    assert all(table_of(r, 7) == 3 for r in result.rounds)
    assert result.quality.repeat_meetings == 0


def test_a_fixed_table_holds_when_the_search_past_the_bound_starts_from_the_design():
    """Found by the property test below: the design's own seating of 24 players put the
    player fixed to table 1 at table 5 in round 4, and the search past the bound kept it."""
    request = SeatingRequest(
        players=players(24),
        rounds=4,
        keep_apart_early=((1, 2), (3, 4)),
        early_rounds=1,
        fixed_tables=((1, 1),),
        seed=1,
        search_effort=0.05,
    )
    assert [table_of(r, 1) for r in plan(request).rounds] == [1, 1, 1, 1]


def test_a_later_round_avoids_everyone_already_met():
    first = plan(SeatingRequest(players=players(40), rounds=3))
    history = tuple(t for r in first.rounds for t in r.tables)
    later = plan(SeatingRequest(players=players(40), rounds=2, history=history, seed=5))
    assert later.quality.repeat_meetings == 0


def arbitrary_rounds(n, split, count, seed):
    """``count`` rounds of players 1..n seated by a random permutation, as a hand might."""
    rng = random.Random(seed)
    tables = []
    for _ in range(count):
        line = list(players(n))
        rng.shuffle(line)
        starts = [sum(split[:t]) for t in range(len(split))]
        tables += [
            tuple(line[start : start + size]) for start, size in zip(starts, split, strict=True)
        ]
    return tuple(tables)


@pytest.mark.parametrize(
    ("n", "rounds", "split"),
    [
        (25, 6, (5,) * 5),  # any first round extends to the affine plane of order 5
        (35, 7, (5,) * 7),
        (23, 5, (5, 5, 5, 4, 4)),
        (40, 8, (5,) * 8),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_re_planning_after_an_arbitrary_first_round_keeps_zero_repeats(n, rounds, split, seed):
    history = arbitrary_rounds(n, split, 1, seed)
    request = SeatingRequest(
        players=players(n), rounds=rounds - 1, split=split, history=history, seed=seed
    )
    figures = plan(request).quality
    assert (figures.max_meetings, figures.repeat_meetings) == (1, 0)


def test_re_planning_after_a_hand_swap_in_round_two_keeps_zero_repeats():
    first_two = plan(SeatingRequest(players=players(25), rounds=2, sizes=(5,))).rounds
    one, two = first_two[0].tables, [list(t) for t in first_two[1].tables]
    two[0][0], two[1][0] = two[1][0], two[0][0]
    history = (*one, *map(tuple, two))
    rest = plan(SeatingRequest(players=players(25), rounds=4, sizes=(5,), history=history))
    # The swap itself brings no repeat (its movers had not met their new tables), nor
    # do the four rounds planned after it.
    assert quality([], history).repeat_meetings == 0
    assert (rest.quality.max_meetings, rest.quality.repeat_meetings) == (1, 0)


@pytest.mark.parametrize(
    ("n", "rounds", "sizes", "apart"),
    [
        (25, 5, (5,), ((1, 2),)),
        (23, 5, (4, 5, 6), ((1, 2),)),
        (35, 6, (5,), ((1, 2), (3, 4))),
        (40, 7, (4, 5, 6), ((1, 2), (1, 3), (2, 3))),
    ],
)
def test_keep_apart_pairs_cost_no_repeat_meetings(n, rounds, sizes, apart):
    result = plan(SeatingRequest(players=players(n), rounds=rounds, sizes=sizes, keep_apart=apart))
    assert (result.quality.max_meetings, result.quality.repeat_meetings) == (1, 0)
    for r in result.rounds:
        assert all(table_of(r, a) != table_of(r, b) for a, b in apart)


def test_the_objective_is_most_meetings_then_repeats_then_spread():
    # Two rounds of eight at two fours. Seating the third round with 8 repeat meetings
    # needs a pair meeting a third time; with nobody meeting thrice there are 12.
    history = ((6, 7, 8, 5), (4, 1, 3, 2), (3, 5, 2, 6), (7, 8, 1, 4))
    options = []
    for others in combinations(range(2, 9), 3):
        tables = ((1, *others), tuple(p for p in range(2, 9) if p not in others))
        figures = quality([RoundSeating(tables)], history)
        options.append((figures.max_meetings, figures.repeat_meetings, figures.spread))
    assert min(repeats for _, repeats, _ in options) == 8
    figures = plan(SeatingRequest(players=players(8), split=(4, 4), history=history)).quality
    assert (figures.max_meetings, figures.repeat_meetings, figures.spread) == min(options)
    assert min(options)[:2] == (2, 12)


# --- tight fields: the search past the design ----------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "sizes"),
    [
        (30, 5, (5,)),  # one player of each design group per table (the old engine: 4)
        (30, 6, (5,)),  # six rounds that each turn one base round (was 11)
        (30, 6, (4, 5, 6)),  # the same tables of five by default
        (24, 6, (4,)),  # rotating rounds of 21 players, 3 more staying put (was 4)
        (32, 9, (4,)),  # the design's groups cut into tables of four make round nine (was 4)
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_tight_fields_reach_zero_repeat_meetings(n, rounds, sizes, seed):
    result = plan(SeatingRequest(players=players(n), rounds=rounds, sizes=sizes, seed=seed))
    assert (result.quality.max_meetings, result.quality.repeat_meetings) == (1, 0)
    assert max(meetings(result.rounds).values()) == 1


def test_the_unital_design_seats_28_at_fours_for_nine_rounds_meeting_everyone_once():
    design = unital_design(4, 7)
    assert len(design) == 9
    for tables in design:
        assert sorted(len(table) for table in tables) == [4] * 7
        assert sorted(x for table in tables for x in table) == list(range(28))
    pairs = Counter(pair for tables in design for t in tables for pair in combinations(t, 2))
    assert len(pairs) == 28 * 27 // 2
    assert set(pairs.values()) == {1}


@pytest.mark.parametrize("rounds", [8, 9])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_28_at_fours_play_past_the_cyclic_design_without_a_repeat(rounds, seed):
    # The cyclic design gives 28 players at fours seven rounds; the old engine reached
    # 9 repeats for eight rounds (seed 0).
    result = plan(SeatingRequest(players=players(28), rounds=rounds, sizes=(4,), seed=seed))
    assert (result.quality.max_meetings, result.quality.repeat_meetings) == (1, 0)
    assert max(meetings(result.rounds).values()) == 1


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_28_at_fours_seated_one_round_at_a_time_follow_the_plan_of_all_rounds(seed):
    # Each round is seated from a plan of the rounds still to come, given the rounds
    # played: with the same seed and roster those are the plan's own first rounds, so the
    # rest of that plan follows.
    whole = plan(SeatingRequest(players=players(28), rounds=8, sizes=(4,), seed=seed))
    history: tuple[tuple[int, ...], ...] = ()
    for left in range(8, 0, -1):
        request = SeatingRequest(
            players=players(28), rounds=left, sizes=(4,), history=history, seed=seed
        )
        history += plan(request).rounds[0].tables
    assert max(meetings([], history).values()) == 1
    tables = {frozenset(t) for t in history}
    assert tables == {frozenset(t) for r in whole.rounds for t in r.tables}


def test_28_at_fours_after_two_rounds_that_fit_no_design_still_get_a_plan():
    history = fresh_rounds(28, (4,) * 7, 2, seed=7)
    result = plan(SeatingRequest(players=players(28), rounds=6, sizes=(4,), history=history))
    for r in result.rounds:
        assert sorted(p for table in r.tables for p in table) == list(players(28))
        assert {len(table) for table in r.tables} == {4}


def test_rotating_rounds_keep_a_family_apart_without_a_repeat():
    apart = ((1, 2), (3, 4))
    result = plan(SeatingRequest(players=players(30), rounds=6, sizes=(5,), keep_apart=apart))
    assert result.quality.repeat_meetings == 0
    for r in result.rounds:
        assert all(table_of(r, a) != table_of(r, b) for a, b in apart)


def test_byes_force_repeats_the_counting_bound_does_not_see():
    # 20 of 23 play each round at four tables of five. For any two rounds, a table of the
    # later one can seat at most four players of the earlier one's four tables without a
    # repeat, so each of its four tables needs one of the three who sat the earlier round
    # out: some table repeats a pair. With nobody meeting three times that is at least
    # C(5, 2) = 10 repeats over five rounds; the counting bound says 0. The old engine: 15.
    figures = plan(SeatingRequest(players=players(23), rounds=5, byes=True)).quality
    assert figures.lower_bound == 0
    assert figures.max_meetings == 2
    assert 10 <= figures.repeat_meetings <= 12


@pytest.mark.parametrize(
    ("n", "size", "rounds", "seed"),
    [
        # The two rounds played become two classes of the cyclic design (the old engine:
        # 19 repeats).
        (35, 5, 7, 0),
        (35, 5, 7, 1),
        (35, 5, 7, 2),
        # Another seed's unital plan does not start with the rounds played: a search fits
        # them onto two rounds of the design, and the other rounds follow.
        (28, 4, 8, 0),
        (28, 4, 8, 2),
    ],
)
def test_re_planning_with_a_new_seed_after_two_rounds_keeps_zero_repeats(n, size, rounds, seed):
    # Seating round three with another seed plans the rounds left again.
    first = plan(SeatingRequest(players=players(n), rounds=rounds, sizes=(size,), seed=seed))
    history = tuple(t for r in first.rounds[:2] for t in r.tables)
    request = SeatingRequest(
        players=players(n), rounds=rounds - 2, sizes=(size,), history=history, seed=seed + 100
    )
    figures = plan(request).quality
    assert (figures.max_meetings, figures.repeat_meetings) == (1, 0)


def fresh_rounds(n, split, count, seed):
    """``count`` rounds of players 1..n, each dealt in a shuffled order to random tables
    where they meet nobody again (starting the round afresh when a player has none)."""
    rng = random.Random(seed)
    met = defaultdict(set)
    history = []
    while len(history) < count:
        tables = [[] for _ in split]
        for p in rng.sample(players(n), n):
            free = [
                t
                for t, table in enumerate(tables)
                if len(table) < split[t] and not met[p].intersection(table)
            ]
            if not free:
                break
            tables[rng.choice(free)].append(p)
        else:
            for table in tables:
                for p in table:
                    met[p].update(table)
            history.append(tuple(map(tuple, tables)))
    return tuple(table for tables in history for table in tables)


@pytest.mark.parametrize(("seed", "repeats"), [(3, 0), (4, 0), (5, 0), (0, 9)])
def test_re_planning_after_two_shuffled_rounds(seed, repeats):
    # Two shuffled rounds without a repeat fit the design when the tables of one meet
    # those of the other in runs of five around a cycle of seven; then five more rounds
    # follow without a repeat. Seed 0's rounds do not fit; the search ends at 9, as the
    # old engine did.
    history = fresh_rounds(35, (5,) * 7, 2, seed)
    request = SeatingRequest(
        players=players(35), rounds=5, split=(5,) * 7, history=history, seed=seed
    )
    assert plan(request).quality.repeat_meetings == repeats


ENERGY = [0, 0, *(4 ** (c - 2) * (c - 1) for c in range(2, 20))]


def search_fixture(seed, groups=None):
    """A TabuSearch over four rounds of 23 players (20 seated, 3 out) at four tables of
    five, with a history pair, a keep-apart pair in round 2 and a fixed player."""
    rng = random.Random(seed)
    n = 23
    seating = []
    for _ in range(4):
        line = rng.sample(range(n), n)[:20]
        seating.append([line[i : i + 5] for i in range(0, 20, 5)])
    if groups is not None:
        seating = [[[g * 4 + t for g in range(5)] for t in range(4)] for _ in range(4)]
    meetings = [[0] * n for _ in range(n)]
    meetings[0][1] = meetings[1][0] = 2  # history
    for tables in seating:
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[a][b] += 1
                meetings[b][a] += 1
    fixed = [-2] * n
    fixed[seating[0][1][0]] = 1
    apart = [frozenset() for _ in range(n)]
    a, b = seating[2][0][0], seating[2][1][0]
    apart[a], apart[b] = frozenset({b}), frozenset({a})
    partners = [None, None, apart, None]
    return TabuSearch(seating, meetings, fixed, partners, ENERGY, rng, groups)


@pytest.mark.parametrize("seed", range(4))
def test_the_search_keeps_its_counts_in_step_with_every_swap(seed):
    search = search_fixture(seed)
    rng = random.Random(seed)
    for step in range(300):
        r = rng.randrange(4)
        here, there = rng.sample(search.tables[r], 2)
        search.swap(r, rng.choice(here), rng.choice(there))
        if step % 50 == 0:
            fresh = TabuSearch(
                search.snapshot(),
                [row[:] for row in search.meetings],
                search.fixed,
                search.partners,
                ENERGY,
                rng,
            )
            for name in ("where", "join", "leave", "conflicts", "histogram", "total_energy"):
                assert getattr(fresh, name) == getattr(search, name), name
            assert fresh.objective() == search.objective()
            assert [set(c) for c in fresh.in_conflict] == [set(c) for c in search.in_conflict]


@pytest.mark.parametrize("seed", range(4))
def test_the_search_moves_only_free_players_and_keeps_apart_pairs_apart(seed):
    search = search_fixture(seed)
    start = search.snapshot()
    before = search.objective()
    best = search.run(200_000, (0, 1, 0, 0))
    search.restore(best)
    assert search.objective() <= before
    fixed = [p for p, t in enumerate(search.fixed) if t >= 0]
    for r, (old, new) in enumerate(zip(start, best, strict=True)):
        assert [len(t) for t in old] == [len(t) for t in new]
        assert sorted(p for t in old for p in t) == sorted(p for t in new for p in t)
        for p in fixed:
            assert [p in t for t in old] == [p in t for t in new]
        if search.partners[r] is not None and before[0] == 0:
            assert search.objective()[0] == 0


@pytest.mark.parametrize("seed", range(10))
def test_the_search_never_trades_a_club_clash_for_a_family_one(seed):
    # 0 and 1 (same club, and met before) share a table; 0 and 2 are family. Moving 1 and
    # 2 would end the club clash and the repeat but seat the family together.
    seating = [[[0, 1], [2, 3]]]
    meetings = [[0, 2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]
    partners = [[frozenset({1, 2}), frozenset({0}), frozenset({0}), frozenset()]]
    hard = [frozenset({2}), frozenset(), frozenset({0}), frozenset()]
    fixed = [-2, -2, -2, -2]
    search = TabuSearch(seating, meetings, fixed, partners, ENERGY, random.Random(seed), None, hard)
    for tables in search.run(10_000, (0, 1, 0, 0)):
        assert not any({0, 2} <= set(table) for table in tables)


def test_with_groups_every_table_keeps_one_player_of_each_group():
    groups = [p // 4 for p in range(20)] + [5, 5, 5]
    search = search_fixture(0, groups)
    best = search.run(100_000, (0, 1, 0, 0))
    for tables in best:
        for table in tables:
            assert sorted(groups[p] for p in table) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("tables", "k", "rounds"), [(6, 5, 6), (6, 5, 5), (5, 3, 5), (6, 4, 6)])
def test_rotating_rounds_meet_nobody_twice(tables, k, rounds):
    found = rotating_rounds(tables, k, rounds, random.Random(0), budget=3_000_000, nodes=200)
    assert found is not None
    seating = [RoundSeating(tables=tuple(map(tuple, seated))) for seated in found]
    assert all(sorted(p for t in seated for p in t) == list(range(tables * k)) for seated in found)
    assert max(meetings(seating).values()) == 1


def test_rotating_rounds_of_24_at_fours_turn_21_and_keep_3_in_place():
    found = rotating_rounds(6, 4, 6, random.Random(0), budget=3_000_000, nodes=200)
    assert found is not None
    staying = {
        p
        for p in range(24)
        if len({table_of(RoundSeating(tuple(map(tuple, r))), p) for r in found}) == 1
    }
    assert staying == {21, 22, 23}


# --- constraints, roster changes, seats --------------------------------------------------


def test_keep_apart_pairs_never_share_a_table():
    request = SeatingRequest(
        players=players(20), rounds=5, keep_apart=((1, 2), (3, 4), (1, 5)), seed=3
    )
    for r in plan(request).rounds:
        for a, b in ((1, 2), (3, 4), (1, 5)):
            assert table_of(r, a) != table_of(r, b)


def test_early_keep_apart_pairs_are_apart_in_the_early_rounds():
    request = SeatingRequest(
        players=players(10),
        rounds=6,
        split=(5, 5),
        keep_apart_early=((1, 2),),
        early_rounds=2,
    )
    result = plan(request)
    assert all(table_of(r, 1) != table_of(r, 2) for r in result.rounds[:2])


def test_players_who_left_stay_in_the_history_and_newcomers_are_seated():
    history = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 99))
    request = SeatingRequest(players=(*range(1, 10), 10, 11), rounds=1, history=history)
    result = plan(request)
    seated = {p for t in result.rounds[0].tables for p in t}
    assert seated == {*range(1, 12)}
    # 99 is gone but still counts among the players the bound is taken over.
    assert result.quality == quality(result.rounds, history)


@pytest.mark.parametrize(
    ("request_kwargs", "message"),
    [
        ({"players": (1, 2)}, "At least 3 players are needed"),
        ({"players": (1, 1, 2, 3)}, "listed twice"),
        ({"players": players(4), "byes": True}, "at least five players"),
        ({"players": players(9), "split": (5, 5)}, r"\(5 \+ 5\) seat 10, but 9 are playing"),
        ({"players": players(10), "byes": True, "split": (5, 5)}, "cannot be chosen"),
        ({"players": players(10), "fixed_tables": ((1, 3),)}, "only 2 tables"),
        (
            {"players": players(8), "fixed_tables": tuple((p, 1) for p in range(1, 6))},
            "5 players are fixed to table 1, which seats 4",
        ),
        (
            {"players": players(10), "fixed_tables": ((1, 1), (2, 1)), "keep_apart": ((1, 2),)},
            "both fixed to table 1",
        ),
        ({"players": players(5), "keep_apart": ((1, 2),)}, "Could not keep 1 and 2 apart"),
        ({"players": players(10), "rounds": 0}, "at least one round"),
    ],
)
def test_impossible_requests_are_explained(request_kwargs, message):
    with pytest.raises(SeatingError, match=message):
        plan(SeatingRequest(**request_kwargs))


def test_byes_rotate_before_anyone_sits_out_twice():
    result = plan(SeatingRequest(players=players(23), rounds=7, byes=True))
    sat_out = Counter()
    for r in result.rounds:
        assert len(r.byes) == 3
        assert {len(t) for t in r.tables} == {5}
        sat_out.update(r.byes)
        everyone = [sat_out[p] for p in players(23)]
        assert max(everyone) - min(everyone) <= 1


def test_past_byes_decide_who_sits_out_next():
    past = tuple(range(1, 21))  # 21, 22 and 23 have not sat out yet
    result = plan(SeatingRequest(players=players(23), byes=True, past_byes=past))
    assert set(result.rounds[0].byes) == {21, 22, 23}


def seat_counts(result):
    """For each player, how many times they sat in each seat."""
    seats = defaultdict(Counter)
    for r in result.rounds:
        for table in r.tables:
            for seat, p in enumerate(table, 1):
                seats[p][seat] += 1
    return seats


def test_seats_rotate_so_nobody_always_deals_first():
    result = plan(SeatingRequest(players=players(25), rounds=6, sizes=(5,)))
    seats = seat_counts(result)
    assert max(s[1] for s in seats.values()) <= 2
    assert max(max(s.values()) for s in seats.values()) <= 2


@pytest.mark.parametrize(("n", "sizes"), [(35, (5,)), (23, (4, 5, 6))])
def test_over_seven_rounds_nobody_sits_in_one_seat_more_than_twice(n, sizes):
    # Seven rounds at tables of four or five: ceil(7 / 4) = 2 turns per seat suffice.
    result = plan(SeatingRequest(players=players(n), rounds=7, sizes=sizes))
    seats = seat_counts(result)
    assert max(s[1] for s in seats.values()) <= 2
    assert max(max(s.values()) for s in seats.values()) <= 2


def test_the_seat_history_moves_a_habitual_first_dealer():
    history = ((1, 2, 3, 4, 5),) * 3
    seated = plan(SeatingRequest(players=players(5), history=history)).rounds[0].tables[0]
    assert seated[0] != 1


# --- by standings and random -------------------------------------------------------------


def test_by_standings_the_top_five_play_together():
    ranked = (8, 3, 21, 5, 13, *[p for p in players(23) if p not in (8, 3, 21, 5, 13)])
    seating = seat_by_standings(ranked, SeatingRequest(players=players(23)))
    assert set(seating.tables[0]) == {8, 3, 21, 5, 13}
    assert [len(t) for t in seating.tables] == [5, 5, 5, 4, 4]
    assert set(seating.tables[1]) == set(ranked[5:10])


def test_by_standings_one_trade_at_a_boundary_breaks_a_repeat():
    history = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10))
    seating = seat_by_standings(players(10), SeatingRequest(players=players(10), history=history))
    # The closest ranks across the boundary trade: 5 goes down, 6 comes up; once only.
    assert set(seating.tables[0]) == {1, 2, 3, 4, 6}
    assert set(seating.tables[1]) == {5, 7, 8, 9, 10}


def test_by_standings_keeps_apart_and_fixed_tables():
    request = SeatingRequest(players=players(15), keep_apart=((1, 2),), fixed_tables=((15, 1),))
    seating = seat_by_standings(players(15), request)
    assert 15 in seating.tables[0]
    assert table_of(seating, 1) != table_of(seating, 2)


def test_random_seating_is_a_valid_seeded_shuffle():
    request = SeatingRequest(players=players(23), keep_apart=((1, 2),), fixed_tables=((3, 5),))
    seating = seat_randomly(request)
    assert sorted(p for t in seating.tables for p in t) == list(players(23))
    assert table_of(seating, 3) == 5
    assert table_of(seating, 1) != table_of(seating, 2)
    assert seat_randomly(request) == seating


# --- determinism -------------------------------------------------------------------------

_PRINT_PLAN = """
from scoring.seating import SeatingRequest, plan
names = tuple(f"player-{i}" for i in range(23))
print(plan(SeatingRequest(players=names, rounds=4, byes=True, seed=7, keep_apart=(names[:2],))))
"""


def test_string_ids_give_the_same_plan_whatever_the_hash_seed():
    def run(hash_seed):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        command = [sys.executable, "-c", _PRINT_PLAN]
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=True).stdout

    assert run("1") == run("2")


def can_keep_apart(split, fixed, pairs):
    """Whether the fixed and keep-apart players fit at the tables, everyone playing."""
    fixed_at = {p: number - 1 for p, number in fixed}
    constrained = sorted({p for pair in pairs for p in pair} | set(fixed_at))
    room, where = list(split), {}

    def seat_from(i):
        if i == len(constrained):
            return True
        p = constrained[i]
        for t in [fixed_at[p]] if p in fixed_at else range(len(split)):
            apart = [b if a == p else a for a, b in pairs if p in (a, b)]
            if room[t] and all(where.get(q) != t for q in apart):
                room[t] -= 1
                where[p] = t
                if seat_from(i + 1):
                    return True
                room[t] += 1
                del where[p]
        return False

    return seat_from(0)


# --- properties --------------------------------------------------------------------------


@st.composite
def requests(draw):
    n = draw(st.integers(3, 60))
    ids = players(n)
    rounds = draw(st.integers(1, 8))
    byes = n >= 5 and draw(st.booleans())
    sizes = draw(st.sampled_from([(4, 5, 6), (5,), (4, 5), (5, 6), (3, 4, 5, 6), (4, 6)]))
    try:
        table_splits(n, sizes)
    except SeatingError:
        sizes = (4, 5, 6)  # e.g. 4 players at tables of five (or three)
    split = None
    if not byes and draw(st.booleans()):
        split = draw(st.sampled_from(table_splits(n, sizes)))
    tables = n // 5 if byes else len(split or table_splits(n, sizes)[0])
    fixed_count = draw(st.integers(0, min(2, tables)))
    fixed_players = draw(st.permutations(ids))[:fixed_count]
    fixed = tuple(zip(fixed_players, range(1, fixed_count + 1), strict=True))
    shuffled = draw(st.permutations(ids))
    pairs = [(shuffled[2 * i], shuffled[2 * i + 1]) for i in range(n // 2)]
    pair_count = draw(st.integers(0, min(3, n // 2)))
    early_count = draw(st.integers(0, min(2, n // 2 - pair_count)))
    history = []
    for _ in range(draw(st.integers(0, 2))):
        line = [*draw(st.permutations(ids)), 999]  # 999 has left the tournament
        history += [tuple(line[i : i + 5]) for i in range(0, len(line), 5)]
    return SeatingRequest(
        players=ids,
        rounds=rounds,
        history=tuple(history),
        past_byes=tuple(draw(st.lists(st.sampled_from(ids), max_size=n))),
        sizes=sizes,
        split=split,
        byes=byes,
        keep_apart=tuple(pairs[:pair_count]),
        keep_apart_early=tuple(pairs[pair_count : pair_count + early_count]),
        early_rounds=draw(st.integers(0, rounds)),
        fixed_tables=fixed,
        seed=draw(st.integers(0, 1000)),
        search_effort=0.05,
    )


def expected_split(request):
    n = len(request.players)
    return (5,) * (n // 5) if request.byes else request.split or table_splits(n, request.sizes)[0]


def assert_valid_round(request, split, r):
    seated = [p for t in r.tables for p in t]
    assert sorted(seated + list(r.byes)) == list(request.players)
    assert tuple(len(t) for t in r.tables) == split
    assert len(r.byes) == len(request.players) - sum(split)
    for a, b in request.keep_apart:
        assert a in r.byes or b in r.byes or table_of(r, a) != table_of(r, b)
    for player, number in request.fixed_tables:
        assert player in r.byes or table_of(r, player) == number


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_every_plan_is_a_valid_seating(seating_request):
    split = expected_split(seating_request)
    try:
        result = plan(seating_request)
    except SeatingError:
        # Only the always-apart pairs are a hard rule.
        assert not can_keep_apart(split, seating_request.fixed_tables, seating_request.keep_apart)
        return
    early = seating_request.keep_apart_early if seating_request.early_rounds else ()
    early_possible = can_keep_apart(
        split, seating_request.fixed_tables, seating_request.keep_apart + early
    )
    sat_out = Counter(seating_request.past_byes)
    for number, r in enumerate(result.rounds, 1):
        assert_valid_round(seating_request, split, r)
        seated = [p for t in r.tables for p in t]
        # Same-club pairs are kept apart in the early rounds whenever that is possible.
        for a, b in early if number <= seating_request.early_rounds and early_possible else ():
            assert a in r.byes or b in r.byes or table_of(r, a) != table_of(r, b)
        if r.byes:
            # Byes go to those who have sat out least so far, the past included.
            assert max(sat_out[p] for p in r.byes) <= min(sat_out[p] for p in seated)
        sat_out.update(r.byes)
    assert result.quality == quality(result.rounds, seating_request.history)
    assert result.quality.repeat_meetings >= result.quality.lower_bound
    assert result.quality.max_meetings >= result.quality.max_meetings_lower_bound
    assert plan(seating_request) == result


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_standings_and_random_seatings_are_valid(seating_request):
    ranked = seating_request.players[::-1]
    for seat in (
        lambda: seat_by_standings(ranked, seating_request),
        lambda: seat_randomly(seating_request),
    ):
        try:
            seating = seat()
        except SeatingError as error:
            reason = str(error)
        else:
            assert_valid_round(seating_request, expected_split(seating_request), seating)
            assert seat() == seating
            continue
        # Neither method searches as hard as plan(); they may give up on tight constraints.
        assert reason.startswith("Could not keep")


def test_early_pairs_that_cannot_all_be_apart_still_give_a_seating():
    # Six players of one club at tables of three: some club-mates must meet.
    club = tuple(combinations(range(1, 7), 2))
    request = SeatingRequest(
        players=tuple(range(1, 7)), sizes=(3,), keep_apart_early=club, early_rounds=1
    )
    seated = plan(request).rounds[0]
    assert sorted(len(t) for t in seated.tables) == [3, 3]
