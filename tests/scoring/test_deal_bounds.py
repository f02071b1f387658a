"""The deal bounds (scoring.systems.deal_bounds): the lowest and highest points a seat can
score in one deal, as the dealer and as another seat, under every scoring system and rule
set. Never passed by a deal a score sheet accepts, and reached by one."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import make_deal
from scoring.rulesets import RULE_SETS, STANDARD, house_rules
from scoring.systems import DealBounds, ScoringSystem, allowed_sizes, deal_bounds, score_deal

# House rules that differ where the bounds could go wrong: the left over to the last in,
# odd break-evens (units rounded away from them), no prize, a dealer's stake far above
# the others'.
HOUSE = house_rules(
    {
        "left_over_to": "last-in",
        "tables": {
            "3": {
                "cards_each": 13,
                "table_cards": 13,
                "dealer_stake": 9,
                "other_stake": 1,
                "last_in_prize": 0,
                "break_even": 15,
            },
            "4": {
                "cards_each": 10,
                "table_cards": 12,
                "dealer_stake": 3,
                "other_stake": 2,
                "last_in_prize": 3,
                "break_even": 11,
            },
            "5": {
                "cards_each": 8,
                "table_cards": 12,
                "dealer_stake": 0,
                "other_stake": 4,
                "last_in_prize": 12,
                "break_even": 8,
            },
        },
    }
)
RULES = [*RULE_SETS.values(), HOUSE]
CASES = [
    (rule_set, system, size)
    for rule_set in RULES
    for system in ScoringSystem
    for size in allowed_sizes(system, rule_set)
]


def _case_id(case):
    rule_set, system, size = case
    return f"{rule_set.key}-{system.value}-{size}"


def _extremes(deals, system, rule_set):
    """The extremes of seat 1's points over ``deals`` (facts, dealer): as the dealer and
    as another seat."""
    dealer, other = [], []
    for facts, seat_dealing in deals:
        points = score_deal(facts, seat_dealing, system, rule_set)[0]
        (dealer if seat_dealing == 1 else other).append(points)
    return DealBounds((min(dealer), max(dealer)), (min(other), max(other)))


def _orders(size, last_in):
    """Two lying-down orders: seat 1 first out, and seat 1 last out."""
    out = [seat for seat in range(1, size + 1) if seat != last_in]
    return [tuple(out), tuple(reversed(out))]


def _shaped_deals(size, system):
    """Deals a sheet accepts where only seats 1 and 2 win cards: every split of the pack
    between seat 1, seat 2 and the left over, with seat 1, 2 or 3 last in and seat 1 or
    2 dealing. The deals that reach each bound are of this shape."""
    for won_one in range(0, 51, 2):
        for left_over in range(2, 53 - won_one, 2):
            won = [won_one, 52 - won_one - left_over] + [0] * (size - 2)
            for last_in, dealer in itertools.product((1, 2, 3), (1, 2)):
                orders = _orders(size, last_in) if system.needs_order else [None]
                for order in orders:
                    yield make_deal(won, last_in, left_over, size, laid_down=order), dealer


def _every_deal_of_three(system):
    """Every deal a sheet accepts at a table of three, seat 1 or 2 dealing."""
    for won in itertools.product(range(0, 51, 2), repeat=3):
        left_over = 52 - sum(won)
        if left_over < 2:
            continue
        for last_in, dealer in itertools.product((1, 2, 3), (1, 2)):
            orders = _orders(3, last_in) if system.needs_order else [None]
            for order in orders:
                yield make_deal(list(won), last_in, left_over, 3, laid_down=order), dealer


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_the_bounds_are_reached_by_deals_a_sheet_accepts(case):
    rule_set, system, size = case
    assert _extremes(_shaped_deals(size, system), system, rule_set) == deal_bounds(
        system, rule_set, size
    )


@pytest.mark.parametrize("rule_set", [STANDARD, HOUSE], ids=lambda rule_set: rule_set.key)
@pytest.mark.parametrize("system", list(ScoringSystem))
def test_no_deal_at_a_table_of_three_passes_the_bounds(rule_set, system):
    """Every deal a sheet accepts at three, enumerated: the bounds are the extremes."""
    found = _extremes(_every_deal_of_three(system), system, rule_set)
    assert found == deal_bounds(system, rule_set, 3)


@st.composite
def sheet_deals(draw):
    """A rule set, a scoring system, a table size it seats, a deal a sheet accepts at
    it and its dealer."""
    rule_set, system, size = draw(st.sampled_from(CASES))
    left_over = 2 * draw(st.integers(min_value=1, max_value=26))
    pairs = (52 - left_over) // 2
    cuts = sorted(draw(st.lists(st.integers(0, pairs), min_size=size - 1, max_size=size - 1)))
    won = [2 * (b - a) for a, b in zip([0, *cuts], [*cuts, pairs], strict=True)]
    last_in = draw(st.integers(min_value=1, max_value=size))
    order = None
    if system.needs_order:
        order = draw(st.permutations([seat for seat in range(1, size + 1) if seat != last_in]))
    dealer = draw(st.integers(min_value=1, max_value=size))
    facts = make_deal(won, last_in, left_over, size, laid_down=order)
    return rule_set, system, size, facts, dealer


@settings(max_examples=300, deadline=None)
@given(sheet_deals())
def test_no_seat_of_any_deal_passes_the_bounds(drawn):
    rule_set, system, size, facts, dealer = drawn
    bounds = deal_bounds(system, rule_set, size)
    for seat, points in enumerate(score_deal(facts, dealer, system, rule_set), start=1):
        low, high = bounds.dealer if seat == dealer else bounds.other
        assert low <= points <= high


@pytest.mark.parametrize(
    ("rule_set", "system", "size", "dealer", "other"),
    [
        # Winner-advantage: nothing, or the whole pack's 26 pairs, at any size.
        (STANDARD, ScoringSystem.WINNER_ADVANTAGE, 5, (0, 26), (0, 26)),
        # Classic stakes at five (stakes 3 / 2, prize 5, break-even 8): the dealer pays 3
        # and ends with at least the 2 cards left over, (2 − 8) / 2: −6; last in with the
        # whole pack: −3 + 5 + (52 − 8) / 2 = 24. Another seat: −2 + (0 − 8) / 2 = −6 to
        # −2 + 5 + (50 − 8) / 2 = 24.
        (STANDARD, ScoringSystem.CLASSIC_STAKES, 5, (-6, 24), (-6, 24)),
        # Du Coeur's eight (prize 11, odd break-even 5): −2 + 11 + (50 − 5 + 1) / 2 = 32.
        (RULE_SETS["du-coeur"], ScoringSystem.CLASSIC_STAKES, 8, (-5, 32), (-5, 32)),
        # Caidis at five: first out pays 4, last in is paid 4; the dealer's stake.
        (STANDARD, ScoringSystem.CAIDIS, 5, (-5, 4), (-4, 5)),
    ],
)
def test_worked_bounds(rule_set, system, size, dealer, other):
    assert deal_bounds(system, rule_set, size) == DealBounds(dealer, other)
