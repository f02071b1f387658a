"""The table-size lower bound (scoring.seating.table_bound): the repeat meetings a new
round's table sizes force, given who sat together before. Worked examples, then two
checks that it is a true lower bound: an exact search over every seating of small
rounds, and the engine's own seatings."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.seating import SeatingRequest, plan, table_splits
from scoring.seating.table_bound import (
    EXACT_UP_TO,
    _groups_alone,
    _tables_alone,
    forced_repeats,
    round_forced_repeats,
)


@pytest.mark.parametrize(
    ("split", "byes", "groups", "forced"),
    [
        # 13 players, 5+4+4 after 5+4+4: the five takes 2+2+1, each four 2+1+1.
        ((5, 4, 4), 0, (5, 4, 4), 4),
        # 12 at two tables of six, again: each table 3+3 from the two old tables.
        ((6, 6), 0, (6, 6), 12),
        # 25 at five tables of five: one from each old table, nobody meets again.
        ((5,) * 5, 0, (5,) * 5, 0),
        # 20 at four fives: five players from four old tables, one pair each table.
        ((5,) * 4, 0, (5,) * 4, 4),
        # 23 with byes: the three who sat out fill three tables; the fourth has a pair.
        ((5,) * 4, 3, (5, 5, 5, 5, 1, 1, 1), 1),
        # Everyone new (late arrivals, loose): nothing is forced.
        ((5, 4), 0, (1,) * 9, 0),
        # 8 after 4+4, at 4+4: a table of four from two old tables: 2+2.
        ((4, 4), 0, (4, 4), 4),
        # 9 after 3+3+3, at 5+4: the five takes 2+2+1, the four 2+1+1.
        ((5, 4), 0, (3, 3, 3), 3),
    ],
)
def test_forced_repeats(split, byes, groups, forced):
    assert forced_repeats(split, byes, groups) == forced


def test_thirteen_players_after_a_first_round_of_five_four_four():
    first = [list(range(0, 5)), list(range(5, 9)), list(range(9, 13))]
    assert round_forced_repeats((5, 4, 4), 0, range(13), [first]) == 4


def test_a_player_who_left_is_not_counted():
    # Round 1 seated 0..12; player 12 has left, so round 2 seats 12 players at 4+4+4.
    first = [list(range(0, 5)), list(range(5, 9)), list(range(9, 13))]
    # Groups 5, 4, 3: a table of four from three groups at best 2+1+1.
    assert round_forced_repeats((4, 4, 4), 0, range(12), [first]) == 3


def test_the_counts_must_agree():
    with pytest.raises(ValueError, match="13 players in groups for 12 places"):
        forced_repeats((4, 4, 4), 0, (5, 4, 4))


def _seatings(players, split):
    """Every way to seat ``players`` at tables of ``split`` (as sets, in table order)."""
    if not split:
        yield []
        return
    size, rest = split[0], split[1:]
    for table in combinations(players, size):
        left = [p for p in players if p not in table]
        for others in _seatings(left, rest):
            yield [table, *others]


def _fewest_repeats(players, split, byes, past_rounds):
    met = {pair for tables in past_rounds for t in tables for pair in combinations(sorted(t), 2)}
    best = None
    for out in combinations(players, byes):
        seated = [p for p in players if p not in out]
        for seating in _seatings(seated, split):
            repeats = sum(
                1 for table in seating for pair in combinations(sorted(table), 2) if pair in met
            )
            best = repeats if best is None else min(best, repeats)
    return best


def _random_round(rng, players, split):
    shuffled = list(players)
    rng.shuffle(shuffled)
    tables, start = [], 0
    for size in split:
        tables.append(shuffled[start : start + size])
        start += size
    return tables


@st.composite
def small_cases(draw):
    """A round of 6 to 10 players at tables of 3 to 6, after one or two random rounds."""
    n = draw(st.integers(6, 10))
    split = draw(st.sampled_from(table_splits(n, sizes=(3, 4, 5, 6), limit=4)))
    rng = random.Random(draw(st.integers(0, 10_000)))
    rounds = draw(st.integers(1, 2))
    past_players = list(range(n + draw(st.integers(0, 1))))  # perhaps one who has left
    past = [
        _random_round(rng, past_players, table_splits(len(past_players), sizes=(3, 4, 5, 6))[0])
        for _ in range(rounds)
    ]
    return list(range(n)), split, past


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases())
def test_the_bound_never_exceeds_the_fewest_repeats_an_exact_search_finds(case):
    players, split, past = case
    bound = round_forced_repeats(split, 0, players, past)
    assert bound <= _fewest_repeats(players, split, 0, past)


@pytest.mark.parametrize(("n", "split"), [(7, (4, 3)), (8, (4, 4)), (9, (5, 4)), (9, (3, 3, 3))])
def test_the_bound_is_the_fewest_repeats_after_one_round(n, split):
    # After one round the bound is exact: it is the fewest over every seating.
    rng = random.Random(n)
    past = [_random_round(rng, range(n), split)]
    players = list(range(n))
    assert round_forced_repeats(split, 0, players, past) == _fewest_repeats(players, split, 0, past)


def test_byes_are_searched_too():
    past = [[[0, 1, 2], [3, 4, 5]]]
    # Seven players now (6 is new), one table of six and one sitting out.
    players = list(range(7))
    assert round_forced_repeats((6,), 1, players, past) == _fewest_repeats(players, (6,), 1, past)


def _repeat_meetings(tables):
    counts = Counter(pair for t in tables for pair in combinations(sorted(t), 2))
    return sum(c - 1 for c in counts.values())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(8, 30), st.integers(1, 3), st.integers(0, 1000))
def test_the_engine_never_does_better_than_the_bound(n, past_rounds, seed):
    rng = random.Random(seed)
    split = table_splits(n)[0]
    past = [_random_round(rng, range(n), split) for _ in range(past_rounds)]
    history = tuple(tuple(t) for tables in past for t in tables)
    result = plan(SeatingRequest(players=tuple(range(n)), history=history, seed=seed))
    seated = result.rounds[0]
    bound = _repeat_meetings(history) + round_forced_repeats(
        [len(t) for t in seated.tables], len(seated.byes), range(n), past
    )
    assert result.quality.repeat_meetings >= bound


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(3, 6), min_size=1, max_size=8),
    st.lists(st.integers(1, 7), min_size=1, max_size=10),
    st.integers(0, 4),
)
def test_the_relaxations_never_exceed_the_exact_figure(split, groups, byes):
    total = sum(split) + byes
    # Make the groups add up to the places: trim or pad with loose players.
    sizes, left = [], total
    for g in groups:
        take = min(g, left)
        if take:
            sizes.append(take)
        left -= take
    sizes += [1] * left
    exact = forced_repeats(split, byes, sizes) if total <= EXACT_UP_TO else None
    big = [g for g in sizes if g > 1]
    loose = total - sum(big)
    relaxed = max(_tables_alone(split, big, loose), _groups_alone(split, byes, big))
    assert exact is None or relaxed <= exact
