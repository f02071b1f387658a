import itertools

import pytest

from scoring.rules import TABLE_PARAMS, Deal, dealer_of, make_deal
from scoring.systems import ScoringSystem, classic_stakes, score_deal, winner_advantage

WORKED_EXAMPLE = Deal(won=(6, 4, 10, 0, 8), last_in=5, left_over=24)


def test_worked_example_winner_advantage():
    assert winner_advantage(WORKED_EXAMPLE) == (3, 2, 5, 0, 16)


def test_worked_example_classic_stakes_with_seat_one_dealing():
    assert classic_stakes(WORKED_EXAMPLE, dealer=1) == (8, -4, -1, -6, 3)


@pytest.mark.parametrize(
    ("deal", "dealer", "winner_advantage_points", "classic_nets"),
    [
        # 3 players: stakes 4/3, prize 5, break-even 14.
        (Deal((20, 14, 4), 2, 14), 1, (10, 14, 2), (6, 2, -8)),
        # 4 players: stakes 3/2, prize 3, break-even 10; seat 4 deals deal 4.
        (Deal((12, 10, 8, 2), 1, 20), 4, (16, 5, 4, 1), (2, -2, -3, 3)),
        # 6 players: stakes 3/2, prize 5, break-even 6; seat 2 deals and is last in.
        (Deal((8, 6, 4, 2, 10, 0), 2, 22), 2, (4, 14, 2, 1, 5, 0), (-1, 13, -3, -4, 0, -5)),
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
