"""A player who leaves the table mid-round (docs/rules.md, "A player leaves"): the deal
passes among the seats left, every one of them still deals as often as the round's
rotations say, the deals after the leave are dealt and staked at the smaller size, and
the leaver's cards won are blank in them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.plays import TablePlay
from scoring.plays import table_sums as play_sums
from scoring.rules import (
    DealFacts,
    Leave,
    absent_seats,
    dealer_at,
    dealers,
    deals_in_round,
    leaves_of,
    make_deal,
    missing_value,
    validate_deal,
    validate_leaves,
)
from scoring.rulesets import STANDARD
from scoring.systems import ScoringSystem, classic_stakes, points_from_sums, score_deal, table_sums

TABLE_PARAMS = {table.players: table for table in STANDARD.tables}


def test_the_leavers_turns_to_deal_are_skipped():
    # Five players, two rotations; seat 3 leaves after deal 7 (seat 2's second deal).
    order = dealers(5, 2, [Leave(after_deal=7, seat=3)])
    assert order == (1, 2, 3, 4, 5, 1, 2, 4, 5)
    assert deals_in_round(5, 2, [Leave(7, 3)]) == 9
    # Each seat left deals twice; seat 3 dealt once, before it left.
    assert {seat: order.count(seat) for seat in range(1, 6)} == {1: 2, 2: 2, 3: 1, 4: 2, 5: 2}


def test_leaving_at_ones_own_turn_to_deal_costs_the_others_no_deal():
    # W. H. Peel's rule for Loo: withdraw when it is your turn to deal. Seat 3 would deal
    # deal 3 of a one-rotation round; the round is then the other four's turns.
    assert dealers(5, 1, [Leave(2, 3)]) == (1, 2, 4, 5)
    assert dealers(5, 1, [Leave(3, 3)]) == (1, 2, 3, 4, 5)


def test_two_leavers_and_the_dealer_at_any_deal():
    leaves = [Leave(2, 5), Leave(4, 1)]
    assert dealers(6, 1, leaves) == (1, 2, 3, 4, 6)
    assert [dealer_at(d, 6, leaves) for d in range(1, 6)] == [1, 2, 3, 4, 6]
    assert absent_seats(3, leaves) == {5}
    assert absent_seats(5, leaves) == {1, 5}
    assert leaves_of([{"seat": 1, "after_deal": 4}, {"seat": 5, "after_deal": 2}]) == (
        Leave(2, 5),
        Leave(4, 1),
    )


@pytest.mark.parametrize(
    ("leaves", "size", "message"),
    [
        ([Leave(7, 6)], 5, "seat 6 left after deal 7: there is no seat 6 at a table of 5"),
        ([Leave(0, 2)], 5, "seat 2 left after deal 0: a player who leaves before deal 1"),
        ([Leave(3, 2), Leave(4, 2)], 5, "seat 2 left after deal 4: seat 2 has already left"),
        ([Leave(3, 2)], 3, "seat 2 left after deal 3: 2 players would be left"),
        ([Leave(10, 2)], 5, "seat 2 left after deal 10: the round has 10 deals"),
    ],
)
def test_impossible_leaves_are_named_by_seat_and_deal(leaves, size, message):
    (problem,) = validate_leaves(leaves, size, 2)
    assert problem.startswith(message)


def test_a_deal_after_a_leave_is_checked_at_its_own_size():
    absent = frozenset({3})
    # Four players: 10 cards each and 12 on the table, still 52 in all.
    assert validate_deal([10, 8, None, 12, 4], 1, 18, 5, absent) == []
    deal = make_deal([10, 8, "", 12, 4], 1, 18, 5, absent)
    assert deal.won == (10, 8, None, 12, 4)
    assert deal.players == 4
    problems = [str(p) for p in validate_deal([10, 8, 2, 12, 4], 3, 18, 5, absent)]
    assert problems == [
        "seat 3: 2 cards won, but seat 3 had left the table — leave its count blank",
        "last in: seat 3 had left the table — name a seat still playing",
    ]
    # The checksum counts the seats still playing.
    (checksum,) = validate_deal([10, 8, None, 12, 4], 1, 20, 5, absent)
    assert str(checksum) == "cards won plus left over is 54, not 52"
    assert missing_value([10, 8, None, None, 4], 18, absent) == ("won", 4, 12)


def test_classic_stakes_after_a_leave_use_the_smaller_tables_stakes():
    deal = DealFacts((10, 8, None, 12, 4), 1, 18)
    # Four players: stakes 3/2, last-in prize 3, break-even 10; seat 2 deals.
    nets = classic_stakes(deal, 2)
    assert nets == (-2 + 3 + 0, -3 + 8, 0, -2 + 1, -2 - 3)
    assert sum(nets) == 0


@st.composite
def table_with_leaves(draw):
    size = draw(st.sampled_from([4, 5, 6]))
    rotations = draw(st.integers(1, 2))
    leavers = draw(st.lists(st.integers(1, size), unique=True, max_size=size - 3))
    leaves = []
    for seat in leavers:
        total = deals_in_round(size, rotations, leaves)
        after = draw(st.integers(1, total - 1))
        if not validate_leaves([*leaves, Leave(after, seat)], size, rotations):
            leaves.append(Leave(after, seat))
    total = deals_in_round(size, rotations, leaves)
    deals = []
    for number in range(1, draw(st.integers(0, total)) + 1):
        absent = absent_seats(number, leaves)
        playing = [seat for seat in range(1, size + 1) if seat not in absent]
        left_over = 2 * draw(st.integers(1, 26))
        pairs = (52 - left_over) // 2
        cuts = sorted(
            draw(
                st.lists(
                    st.integers(0, pairs), min_size=len(playing) - 1, max_size=len(playing) - 1
                )
            )
        )
        counts = iter(2 * (b - a) for a, b in zip([0, *cuts], [*cuts, pairs], strict=True))
        won = [None if seat in absent else next(counts) for seat in range(1, size + 1)]
        last_in = draw(st.sampled_from(playing))
        order = draw(st.permutations([seat for seat in playing if seat != last_in]))
        deals.append(make_deal(won, last_in, left_over, size, absent, order))
    return size, tuple(sorted(leaves)), deals


@given(table_with_leaves(), st.sampled_from(list(ScoringSystem)))
def test_the_sums_score_a_table_with_leaves_as_its_deals_one_by_one(table, system):
    size, leaves, deals = table
    sums = table_sums(deals, size, leaves)
    for seat in range(1, size + 1):
        one_by_one = sum(
            score_deal(deal, dealer_at(number, size, leaves), system)[seat - 1]
            for number, deal in enumerate(deals, start=1)
        )
        assert points_from_sums(sums[seat - 1], system) == one_by_one
        assert sums[seat - 1].deals == sum(deal.won[seat - 1] is not None for deal in deals)
    if system is not ScoringSystem.WINNER_ADVANTAGE:
        assert sum(points_from_sums(seat, system) for seat in sums) == 0
    play = play_sums(TablePlay(1, tuple(range(size)), tuple(enumerate(deals, 1)), leaves), system)
    assert play.points == tuple(points_from_sums(seat, system) for seat in sums)
    assert [play.deals_of(i) for i in range(size)] == [seat.deals for seat in sums]
    assert set(TABLE_PARAMS) >= {deal.players for deal in deals}


def test_a_leave_after_the_last_deal_of_the_round_it_shortens_is_refused():
    # Seat 5 would deal deal 10: leaving after deal 9 skips that turn, so deal 9 is the
    # round's last and there is nothing left to leave.
    (problem,) = validate_leaves([Leave(9, 5)], 5, 2)
    assert problem == (
        "seat 5 left after deal 9: the round has 9 deals, so after deal 9 there is nothing "
        "left to leave (leaving skips seat 5's later turns to deal, so the round ends at "
        "deal 9)"
    )
    assert validate_leaves([Leave(8, 5)], 5, 2) == []
    (one_rotation,) = validate_leaves([Leave(4, 5)], 5, 1)
    assert one_rotation.startswith("seat 5 left after deal 4: the round has 4 deals")


def test_too_many_leavers_are_named_together_whatever_order_they_were_typed_in():
    leaves = [Leave(1, 5), Leave(1, 4), Leave(1, 3)]
    for order in (leaves, leaves[::-1]):
        assert validate_leaves(order, 5, 2) == [
            "seat 3 left after deal 1, seat 4 left after deal 1 and seat 5 left after deal 1: "
            "2 players would be left, and a table needs at least 3 — mark the table as "
            "stopped early instead"
        ]
    # A leave refused for itself (before deal 1) is not counted among those who left.
    assert validate_leaves([Leave(0, 2)], 3, 1) == [
        "seat 2 left after deal 0: a player who leaves before deal 1 did not play — re-seat "
        "the table instead"
    ]
