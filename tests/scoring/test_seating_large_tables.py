"""Tables of 7 and 8, which du Coeur's rule sets seat (3 to 8 players a table): the splits
that use them, plans over several rounds at du Coeur's sizes and at sevens and eights
alone, the table-size bounds at those sizes (checked against exact searches), and seat
orders and the deal's rotation at tables of 7 and 8.

*Known bound* of a plan below: the larger of the counting bound (``Quality.lower_bound``)
and the repeats any two planned rounds force (``table_bound.planned_repeats``), at the
fewest most meetings the counts allow (the larger of ``Quality.max_meetings_lower_bound``
and ``table_bound.planned_most``): no seating meeting nobody more often does better.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

import pytest

from scoring.rules import Leave, dealers
from scoring.rulesets import DU_COEUR, STANDARD
from scoring.seating import SeatingError, SeatingRequest, plan, table_splits
from scoring.seating.table_bound import (
    between_rounds,
    forced_repeats,
    planned_most,
    planned_repeats,
    round_forced_repeats,
)

SEVENS_AND_EIGHTS = (7, 8)


def players(n):
    return tuple(range(1, n + 1))


def known_bound(n, split, rounds, figures):
    """(most meetings, repeat meetings) no plan of ``rounds`` rounds at ``split`` beats."""
    between = between_rounds(split, 0)
    most = max(figures.max_meetings_lower_bound, planned_most(between, rounds, n))
    return most, max(figures.lower_bound, planned_repeats(between, rounds, most))


def seated_at(result, n, sizes, split):
    """Every round seats everyone once, at tables of ``split``, all of allowed sizes."""
    for seated in result.rounds:
        assert sorted(p for table in seated.tables for p in table) == list(players(n))
        assert tuple(len(table) for table in seated.tables) == split
        assert {len(table) for table in seated.tables} <= set(sizes)


# --- splits --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "first"),
    [
        (7, (7,)),  # one table of seven rather than 4+3: no table of three
        (8, (4, 4)),  # four and four are nearer five than one table of eight
        (12, (7, 5)),  # a table of five first, then the seven that makes up the rest
        (13, (5, 4, 4)),
        (14, (5, 5, 4)),
        (15, (5, 5, 5)),
        (16, (6, 5, 5)),
        (21, (6, 5, 5, 5)),
        (22, (7, 5, 5, 5)),
        (23, (5, 5, 5, 4, 4)),  # not 8+5+5+5: 16 more pairs a round
        (40, (5,) * 8),
    ],
)
def test_du_coeurs_sizes_keep_five_first(n, first):
    assert table_splits(n, DU_COEUR.sizes)[0] == first


def test_tables_of_seven_and_eight_stay_on_the_list():
    assert table_splits(7, DU_COEUR.sizes) == [(7,), (4, 3)]
    assert table_splits(8, DU_COEUR.sizes)[:2] == [(4, 4), (8,)]
    assert (8, 5, 5, 5) in table_splits(23, DU_COEUR.sizes)


@pytest.mark.parametrize("n", range(3, 61))
def test_splits_come_in_the_documented_order(n):
    def rank(split):
        others = [s for s in split if s not in (3, 5)]
        distance = sum(abs(s - 5) for s in others)
        return (split.count(3), -split.count(5), distance, len(others), [-s for s in others])

    splits = table_splits(n, DU_COEUR.sizes, limit=50)
    assert all(sum(split) == n and set(split) <= set(DU_COEUR.sizes) for split in splits)
    assert splits == sorted(splits, key=rank)


@pytest.mark.parametrize(
    ("n", "sizes", "first"),
    [
        (8, (5, 8), (8,)),  # without fours, one table of eight
        (13, (5, 8), (8, 5)),
        (15, SEVENS_AND_EIGHTS, (8, 7)),
        (23, SEVENS_AND_EIGHTS, (8, 8, 7)),
        (40, SEVENS_AND_EIGHTS, (8,) * 5),
    ],
)
def test_an_organiser_who_allows_no_fours_gets_sevens_and_eights(n, sizes, first):
    assert table_splits(n, sizes)[0] == first


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: table_splits(10, (7,), rule_sizes=STANDARD.sizes),
            "Tables seat 3 to 6 players under these rules; a table of 7 is not possible",
        ),
        (
            # No table of three of last resort where the rules seat none.
            lambda: table_splits(8, (5,), rule_sizes=(4, 5, 6)),
            "8 players cannot be split into tables of 5",
        ),
        (
            lambda: plan(SeatingRequest(players(12), split=(7, 5), rule_sizes=STANDARD.sizes)),
            "Tables seat 3 to 6 players under these rules; a table of 7 is not possible",
        ),
        (
            lambda: plan(SeatingRequest(players(12), byes=True, rule_sizes=(4, 6))),
            "With byes every table seats five, but tables seat 4 or 6 players",
        ),
        (
            lambda: plan(SeatingRequest(players(3), sizes=(4,), rule_sizes=(4, 5))),
            "At least 4 players are needed",
        ),
    ],
)
def test_sizes_the_rules_refuse_are_refused_naming_the_sizes_they_seat(call, message):
    with pytest.raises(SeatingError, match=message):
        call()


def test_the_table_of_three_of_last_resort_needs_rules_that_seat_three():
    assert table_splits(8, (5,), rule_sizes=DU_COEUR.sizes)[0] == (5, 3)


# --- plans ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rounds", "sizes"),
    [
        *((n, 4, DU_COEUR.sizes) for n in (7, 8, 14, 15, 16, 21, 23, 40)),
        (7, 6, DU_COEUR.sizes),
        (8, 6, DU_COEUR.sizes),
        (14, 6, DU_COEUR.sizes),
        (15, 6, DU_COEUR.sizes),
        (40, 6, DU_COEUR.sizes),
        *((n, 4, SEVENS_AND_EIGHTS) for n in (7, 8, 21, 23, 40)),
        (7, 6, SEVENS_AND_EIGHTS),
        (8, 6, SEVENS_AND_EIGHTS),
    ],
)
def test_plans_reach_the_known_bound(n, rounds, sizes):
    split = table_splits(n, sizes, limit=1)[0]
    result = plan(SeatingRequest(players(n), rounds, sizes, rule_sizes=DU_COEUR.sizes))
    seated_at(result, n, sizes, split)
    figures = result.quality
    assert (figures.max_meetings, figures.repeat_meetings) == known_bound(n, split, rounds, figures)


def test_forty_at_tables_of_eight_for_four_rounds_meet_90_times_again_where_counting_says_0():
    result = plan(SeatingRequest(players(40), 4, SEVENS_AND_EIGHTS))
    assert result.quality.lower_bound == 0
    assert (result.quality.max_meetings, result.quality.repeat_meetings) == (2, 90)


@pytest.mark.parametrize(
    ("n", "rounds", "sizes", "slack"),
    [
        (16, 6, DU_COEUR.sizes, 6),
        (21, 6, DU_COEUR.sizes, 3),
        (23, 6, DU_COEUR.sizes, 1),
        (21, 6, SEVENS_AND_EIGHTS, 15),
        (23, 6, SEVENS_AND_EIGHTS, 20),
        (40, 6, SEVENS_AND_EIGHTS, 6),
    ],
)
def test_plans_the_bound_does_not_settle_stay_within_a_stated_slack(n, rounds, sizes, slack):
    """Six rounds of these fields end above their known bound, by at most one meeting of
    a pair and, among plans meeting nobody more often than this one, ``slack`` repeat
    meetings, with a tenth of the search's budget.

    The bound counts each pair of rounds on its own (and each player's opponents on their
    own), never whether every pair of rounds can reach its fewest at once; over six rounds
    of three or more tables it is not known to be reachable. 16 players at 6+5+5: most
    meetings 3 where the counts allow 2 (a plan meeting nobody three times would meet 105
    times again), 94 repeats where they allow 90. 23 players at 5+5+5+4+4: the design
    seats five rounds without a repeat, and the sixth meets again at least 2 pairs by the
    counting bound; the plan has 3. Forty at tables of eight: 227 with the whole budget,
    225 the bound.
    """
    split = table_splits(n, sizes, limit=1)[0]
    request = SeatingRequest(players(n), rounds, sizes, search_effort=0.1)
    result = plan(request)
    seated_at(result, n, sizes, split)
    figures = result.quality
    most, _ = known_bound(n, split, rounds, figures)
    assert most <= figures.max_meetings <= most + 1
    between = between_rounds(split, 0)
    repeats = max(figures.lower_bound, planned_repeats(between, rounds, figures.max_meetings))
    assert repeats <= figures.repeat_meetings <= repeats + slack


def _best_at_two_tables(n, split, rounds):
    """(most meetings, repeat meetings) of the best plan of ``n`` players at two tables.

    A player's plan is a corner of the cube {0, 1}^rounds (which table, round by round),
    and two players meet ``rounds - distance`` times. Corners two apart or more number at
    most ``2 ** (rounds - 1)``, so past that many players some pair sits together in all
    rounds but one; seatings with no pair together more often give every player a corner
    of their own. The best of those is the best of the sets of ``n`` corners whose every
    round seats the tables' sizes.
    """
    assert n > 2 ** (rounds - 1)
    best = None
    for corners in combinations(product((0, 1), repeat=rounds), n):
        if any(sum(column) not in split for column in zip(*corners, strict=True)):
            continue
        meetings = [
            sum(x == y for x, y in zip(a, b, strict=True)) for a, b in combinations(corners, 2)
        ]
        found = (max(meetings), sum(max(0, c - 1) for c in meetings))
        best = found if best is None else min(best, found)
    return best


@pytest.mark.parametrize(("n", "split"), [(14, (7, 7)), (15, (8, 7)), (16, (8, 8))])
def test_two_tables_of_seven_or_eight_for_four_rounds_reach_the_best_plan(n, split):
    """Above the known bound (16 at 8+8: 104 by counting, 96 from the pairs of rounds,
    most meetings 3), yet the best plan there is: 112 (every corner of the 4-cube once;
    the eight pairs of opposite corners never meet)."""
    result = plan(SeatingRequest(players(n), 4, SEVENS_AND_EIGHTS, search_effort=0.1))
    seated_at(result, n, SEVENS_AND_EIGHTS, split)
    figures = result.quality
    best = _best_at_two_tables(n, split, 4)
    assert (figures.max_meetings, figures.repeat_meetings) == best
    assert known_bound(n, split, 4, figures) <= best


# --- the table-size bounds -----------------------------------------------------------


@pytest.mark.parametrize(
    ("split", "forced"),
    [
        # 14 at 7+7 after 7+7: each table of seven from two old tables, 4+3: 6 + 3 pairs.
        ((7, 7), 18),
        # 16 at 8+8: 4+4 each, 6 + 6.
        ((8, 8), 24),
        # 15 at 8+7: the eight 4+4 (12), the seven 4+3 (9).
        ((8, 7), 21),
        # 11 at 7+4: the seven 4+3 (9), the four 3+1 (3).
        ((7, 4), 12),
        # 21 at three sevens: 3+2+2 a table, 3 + 1 + 1.
        ((7, 7, 7), 15),
        # 23 at 8+8+7: the eights 3+3+2 (7 each), the seven 2+2+3 (5).
        ((8, 8, 7), 19),
        # 40 at five eights: 2+2+2+1+1 a table, 3 pairs.
        ((8,) * 5, 15),
    ],
)
def test_forced_repeats_at_tables_of_seven_and_eight(split, forced):
    assert forced_repeats(split, 0, split) == forced
    assert between_rounds(split, 0) == forced


def _seatings(people, split):
    if not split:
        yield []
        return
    for table in combinations(people, split[0]):
        left = [p for p in people if p not in table]
        for others in _seatings(left, split[1:]):
            yield [table, *others]


def _fewest_repeats(people, split, byes, past_rounds):
    met = {pair for tables in past_rounds for t in tables for pair in combinations(sorted(t), 2)}
    return min(
        sum(pair in met for table in seating for pair in combinations(sorted(table), 2))
        for out in combinations(people, byes)
        for seating in _seatings([p for p in people if p not in out], split)
    )


def _random_round(rng, people, split):
    shuffled = rng.sample(list(people), len(people))
    starts = [sum(split[:t]) for t in range(len(split))]
    return [shuffled[s : s + size] for s, size in zip(starts, split, strict=True)]


@pytest.mark.parametrize(
    ("n", "split", "byes", "earlier"),
    [
        (11, (7, 4), 0, (7, 4)),
        (12, (8, 4), 0, (4, 4, 4)),
        (14, (7, 7), 0, (7, 7)),
        (15, (8, 7), 0, (5, 5, 5)),
        (9, (8,), 1, (5, 4)),
        (10, (7,), 3, (7, 3)),
    ],
)
def test_after_one_round_the_bound_is_the_fewest_repeats(n, split, byes, earlier):
    past = [_random_round(random.Random(n), range(n), earlier)]
    people = list(range(n))
    bound = round_forced_repeats(split, byes, people, past)
    assert bound == _fewest_repeats(people, split, byes, past)


@pytest.mark.parametrize("seed", range(3))
def test_after_two_rounds_the_bound_never_exceeds_the_fewest_repeats(seed):
    rng = random.Random(seed)
    past = [_random_round(rng, range(13), (7, 6)), _random_round(rng, range(13), (5, 4, 4))]
    people = list(range(13))
    bound = round_forced_repeats((8, 5), 0, people, past)
    assert bound <= _fewest_repeats(people, (8, 5), 0, past)


@pytest.mark.parametrize(
    ("between", "rounds", "players", "most"),
    [
        (0, 6, 40, 1),  # nothing forced: nobody need meet twice
        (15, 4, 40, 2),  # 90 pairs seated again among 780
        (15, 6, 21, 3),  # 225 among 210: some pair meets three times
        (24, 4, 16, 3),  # 144 among 120
        (28, 4, 8, 4),  # one table of eight: everyone meets every round
    ],
)
def test_the_most_meetings_the_pairs_of_rounds_force(between, rounds, players, most):
    assert planned_most(between, rounds, players) == most


# --- seats and the deal ----------------------------------------------------------------


def seat_counts(result):
    counts = Counter()
    for seated in result.rounds:
        for table in seated.tables:
            counts.update((p, seat) for seat, p in enumerate(table, start=1))
    return counts


@pytest.mark.parametrize("size", [7, 8])
def test_one_table_of_seven_or_eight_gives_everyone_every_seat_once(size):
    counts = seat_counts(plan(SeatingRequest(players(size), size, (size,))))
    assert counts == Counter({(p, seat): 1 for p in players(size) for seat in range(1, size + 1)})


@pytest.mark.parametrize(("n", "sizes"), [(40, (8,)), (21, (7,)), (23, SEVENS_AND_EIGHTS)])
def test_nobody_deals_first_or_sits_in_a_seat_more_than_twice(n, sizes):
    result = plan(SeatingRequest(players(n), 8, sizes, search_effort=0.1))
    counts = seat_counts(result)
    assert max(counts.values()) <= 2
    assert max(counts[(p, 1)] for p in players(n)) <= 2


@pytest.mark.parametrize("size", [7, 8])
def test_the_deal_goes_round_a_table_of_seven_or_eight(size):
    assert Counter(dealers(size, 3)) == dict.fromkeys(range(1, size + 1), 3)
    # Seat 2 leaves after deal 4: its later turns are skipped, the others deal as often.
    order = dealers(size, 3, (Leave(after_deal=4, seat=2),))
    assert Counter(order) == {seat: 1 if seat == 2 else 3 for seat in range(1, size + 1)}
