import pytest

from scoring.errors import UserError
from scoring.rules import (
    DealError,
    dealer_of,
    make_deal,
    missing_value,
    validate_deal,
)
from scoring.rulesets import STANDARD

TABLE_PARAMS = {table.players: table for table in STANDARD.tables}


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_every_table_size_deals_the_whole_pack(size):
    params = TABLE_PARAMS[size]
    assert params.players * params.cards_each + params.table_cards == 52


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_classic_pot_equals_the_stakes_and_pays_out_exactly(size):
    params = TABLE_PARAMS[size]
    assert params.dealer_stake + (size - 1) * params.other_stake == params.pot
    assert params.pot == params.last_in_prize + (52 - size * params.break_even) // 2


@pytest.mark.parametrize("size", [2, 7, 0])
def test_table_sizes_outside_three_to_six_are_refused_by_the_standard_rule_set(size):
    with pytest.raises(UserError, match=f"a table of {size} players cannot play"):
        STANDARD.params(size)


@pytest.mark.parametrize(
    ("deal_number", "size", "dealer"),
    [(1, 5, 1), (2, 5, 2), (5, 5, 5), (6, 5, 1), (10, 5, 5), (4, 3, 1), (7, 6, 1), (8, 4, 4)],
)
def test_the_deal_passes_to_the_left(deal_number, size, dealer):
    assert dealer_of(deal_number, size) == dealer


def test_the_worked_example_is_a_valid_deal():
    assert validate_deal([6, 4, 10, 0, 8], 5, 24, 5) == []
    deal = make_deal([6, 4, 10, 0, 8], 5, 24, 5)
    assert deal.won == (6, 4, 10, 0, 8)
    assert deal.table_size == 5


@pytest.mark.parametrize(
    ("won", "last_in", "left_over", "size", "messages"),
    [
        (
            [6, 4, 10, 8],
            5,
            24,
            5,
            ["4 counts of cards won for a table of 5; give one count per seat"],
        ),
        (
            [6, 4, 10, 0, 8, 2],
            5,
            22,
            5,
            ["6 counts of cards won for a table of 5; give one count per seat"],
        ),
        ([6, 4, 7, 0, 8], 5, 24, 5, ["seat 3: 7 cards won is odd — cards are won in pairs"]),
        ([6, -4, 10, 0, 8], 5, 24, 5, ["seat 2: -4 cards won is negative"]),
        ([6, "x", 10, 0, 8], 5, 24, 5, ["seat 2: “x” is not a whole number"]),
        ([6, 4.5, 10, 0, 8], 5, 24, 5, ["seat 2: 4.5 is not a whole number"]),
        ([6, True, 10, 0, 8], 5, 24, 5, ["seat 2: True is not a whole number"]),
        ([6, None, 10, 0, 8], 5, 24, 5, ["seat 2: cards won is missing"]),
        ([6, 4, 10, 0, 8], 6, 24, 5, ["last in: seat 6 is not a seat at this table (seats 1–5)"]),
        ([6, 4, 10, 0, 8], 0, 24, 5, ["last in: seat 0 is not a seat at this table (seats 1–5)"]),
        ([6, 4, 10, 0, 8], None, 24, 5, ["last in: missing — which seat was last in?"]),
        ([6, 4, 10, 0, 8], "five", 24, 5, ["last in: “five” is not a seat number"]),
        ([6, 4, 10, 0, 8], 5, 23, 5, ["left over: 23 is odd — cards are left over in pairs"]),
        (
            [6, 4, 10, 2, 30],
            5,
            0,
            5,
            ["left over: 0 is less than 2 — the last-in player always still holds cards"],
        ),
        ([6, 4, 10, 0, 8], 5, None, 5, ["left over: missing"]),
        ([6, 4, 10, 0, 8], 5, "lots", 5, ["left over: “lots” is not a whole number"]),
        ([6, 4, 10, 0, 8], 5, 22, 5, ["cards won plus left over is 50, not 52"]),
        ([6, 4, 10, 0, 8], 5, 26, 5, ["cards won plus left over is 54, not 52"]),
        ([10**30, 4, 10, 0, 8], 5, 24, 5, [f"cards won plus left over is {10**30 + 46}, not 52"]),
        (
            [7, 4, 9, 0, 8],
            9,
            3,
            5,
            [
                "seat 1: 7 cards won is odd — cards are won in pairs",
                "seat 3: 9 cards won is odd — cards are won in pairs",
                "left over: 3 is odd — cards are left over in pairs",
                "last in: seat 9 is not a seat at this table (seats 1–5)",
            ],
        ),
    ],
)
def test_every_broken_rule_is_reported_at_once_in_words_a_scorer_understands(
    won, last_in, left_over, size, messages
):
    assert [str(p) for p in validate_deal(won, last_in, left_over, size)] == messages


def test_problems_name_their_seat_and_field():
    problems = validate_deal([6, 4, 7, 0, 8], 5, 23, 5)
    assert [(p.field, p.seat) for p in problems] == [("won", 3), ("left_over", None)]


def test_make_deal_raises_with_every_problem():
    with pytest.raises(DealError) as caught:
        make_deal([6, 4, 7, 0, 8], 7, 24, 5)
    assert len(caught.value.problems) == 2
    assert "seat 3: 7 cards won is odd" in str(caught.value)
    assert isinstance(caught.value, UserError)


@pytest.mark.parametrize(
    ("won", "left_over", "expected"),
    [
        ([6, 4, 10, None, 8], 24, ("won", 4, 0)),
        ([6, None, 10, 0, 8], 24, ("won", 2, 4)),
        ([6, 4, 10, 0, 8], None, ("left_over", None, 24)),
        ([6, None, 10, None, 8], 24, None),  # two blanks: nothing can be derived
        ([6, 4, 10, 0, 8], 24, None),  # nothing blank
        ([30, 4, 10, None, 8], 24, None),  # would need a negative count
        ([6, 4, 10, 2, 30], None, None),  # left over would be 0
        ([5, 4, 10, None, 8], 24, None),  # would need an odd count
    ],
)
def test_the_one_missing_number_that_makes_a_row_add_up(won, left_over, expected):
    assert missing_value(won, left_over) == expected
