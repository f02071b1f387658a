import itertools
from dataclasses import astuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import DealFacts, dealer_of, make_deal
from scoring.rulesets import STANDARD
from scoring.systems import (
    ScoringSystem,
    SeatSums,
    classic_stakes,
    points_from_sums,
    score_deal,
    table_sums,
    winner_advantage,
)

TABLE_PARAMS = {table.players: table for table in STANDARD.tables}
WORKED_EXAMPLE = DealFacts(won=(6, 4, 10, 0, 8), last_in=5, left_over=24)


def test_worked_example_winner_advantage():
    assert winner_advantage(WORKED_EXAMPLE) == (3, 2, 5, 0, 16)


def test_worked_example_classic_stakes_with_seat_one_dealing():
    assert classic_stakes(WORKED_EXAMPLE, dealer=1) == (8, -4, -1, -6, 3)


@pytest.mark.parametrize(
    ("deal", "dealer", "winner_advantage_points", "classic_nets"),
    [
        # 3 players: stakes 4/3, prize 5, break-even 14.
        (DealFacts((20, 14, 4), 2, 14), 1, (10, 14, 2), (6, 2, -8)),
        # 4 players: stakes 3/2, prize 3, break-even 10; seat 4 deals deal 4.
        (DealFacts((12, 10, 8, 2), 1, 20), 4, (16, 5, 4, 1), (2, -2, -3, 3)),
        # 6 players: stakes 3/2, prize 5, break-even 6; seat 2 deals and is last in.
        (DealFacts((8, 6, 4, 2, 10, 0), 2, 22), 2, (4, 14, 2, 1, 5, 0), (-1, 13, -3, -4, 0, -5)),
    ],
)
def test_other_table_sizes(deal, dealer, winner_advantage_points, classic_nets):
    assert score_deal(deal, dealer, ScoringSystem.WINNER_ADVANTAGE) == winner_advantage_points
    assert score_deal(deal, dealer, ScoringSystem.CLASSIC_STAKES) == classic_nets


def _some_valid_deals(size):
    """Every way to spread 52 − left over over the seats in steps of 4 (a manageable sample)."""
    for left_over in (2, 12, 30):
        for won in itertools.product(range(0, 52, 4), repeat=size - 1):
            last = 52 - left_over - sum(won)
            if last >= 0 and last % 2 == 0:
                for last_in in (1, size):
                    yield make_deal([*won, last], last_in, left_over, size)


@pytest.mark.parametrize("size", sorted(TABLE_PARAMS))
def test_winner_advantage_hands_out_26_points_and_classic_stakes_is_zero_sum(size):
    checked = 0
    for deal in itertools.islice(_some_valid_deals(size), 0, 3000, 7):
        assert sum(winner_advantage(deal)) == 26
        for number in range(1, size + 1):
            assert sum(classic_stakes(deal, dealer_of(number, size))) == 0
        checked += 1
    assert checked > 20


@st.composite
def table_deals(draw):
    """A table size and a run of valid deals at it (numbered from 1)."""
    size = draw(st.sampled_from(sorted(TABLE_PARAMS)))
    deals = []
    for _ in range(draw(st.integers(min_value=0, max_value=3 * size))):
        left_over = 2 * draw(st.integers(min_value=1, max_value=26))
        pairs = (52 - left_over) // 2
        cuts = sorted(draw(st.lists(st.integers(0, pairs), min_size=size - 1, max_size=size - 1)))
        won = tuple(2 * (b - a) for a, b in zip([0, *cuts], [*cuts, pairs], strict=True))
        last_in = draw(st.integers(min_value=1, max_value=size))
        deals.append(DealFacts(won, last_in, left_over))
    return size, deals


@given(
    table_deals(), st.sampled_from([ScoringSystem.WINNER_ADVANTAGE, ScoringSystem.CLASSIC_STAKES])
)
def test_points_from_sums_equal_the_deals_scored_one_by_one(table, system):
    size, deals = table
    for seat in range(1, size + 1):
        numbered = list(enumerate(deals, start=1))
        dealt = [deal for number, deal in numbered if dealer_of(number, size) == seat]
        last = [deal for deal in deals if deal.last_in == seat]
        params = TABLE_PARAMS[size]
        sums = SeatSums(
            deals=len(deals),
            won=sum(deal.won[seat - 1] for deal in deals),
            last_in=len(last),
            last_in_left_over=sum(deal.left_over for deal in last),
            dealt=len(dealt),
            dealt_left_over=sum(deal.left_over for deal in dealt),
            stakes=len(dealt) * params.dealer_stake
            + (len(deals) - len(dealt)) * params.other_stake,
            prizes=len(last) * params.last_in_prize,
            break_even=len(deals) * params.break_even,
        )
        # The last two sums (an odd break-even's rounding, Caidis's payments) are
        # test_rulesets.py's: the standard table's break-evens are all even.
        assert astuple(table_sums(deals, size)[seat - 1])[:-2] == astuple(sums)[:-2]
        one_by_one = sum(
            score_deal(deal, dealer_of(number, size), system)[seat - 1] for number, deal in numbered
        )
        assert points_from_sums(sums, system) == one_by_one
