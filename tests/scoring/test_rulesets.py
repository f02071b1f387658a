"""Rule sets: every preset deals the whole pack, pays off as its source says, and scores
the same deal by deal as from the sums the database keeps."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import UserError
from scoring.rules import DealFacts, dealer_of
from scoring.rulesets import (
    DU_COEUR,
    DU_COEUR_LOW_STAKES,
    RULE_SETS,
    STANDARD,
    WILLUGHBY_FOUR_THIRTEEN,
    LeftOverTo,
    balance,
    house_rules,
    rule_set,
    sizes_text,
    table_problems,
    units,
    with_table,
)
from scoring.systems import (
    ScoringSystem,
    allowed_sizes,
    caidis,
    classic_stakes,
    points_from_sums,
    score_deal,
    table_sums,
    winner_advantage,
)

PRESET_TABLES = [(preset, table) for preset in RULE_SETS.values() for table in preset.tables]


@pytest.mark.parametrize(("preset", "table"), PRESET_TABLES)
def test_every_preset_deals_the_whole_pack_and_its_pot_is_its_stakes(preset, table):
    assert table.players * table.cards_each + table.table_cards == 52
    assert table.pot == table.dealer_stake + (table.players - 1) * table.other_stake
    assert table_problems(table.players, vars(table)) == []


@pytest.mark.parametrize(
    ("preset", "size", "numbers"),
    [
        # Willughby's four-handed larger pot: 4-3-3-3 makes 13, 7 to the last in.
        (WILLUGHBY_FOUR_THIRTEEN, 4, (10, 12, 4, 3, 13, 7, 10)),
        # du Coeur: six dealt 6 with 16 in the middle; seven 6 with 10, pot 15, 10 last in.
        (DU_COEUR, 6, (6, 16, 3, 2, 13, 5, 6)),
        (DU_COEUR, 7, (6, 10, 3, 2, 15, 10, 6)),
        # Eight: 5 each, 12 in the middle, pot 17, 11 last in; low stakes: 2/1, 9, 3.
        (DU_COEUR, 8, (5, 12, 3, 2, 17, 11, 5)),
        (DU_COEUR_LOW_STAKES, 8, (5, 12, 2, 1, 9, 3, 5)),
        (STANDARD, 5, (8, 12, 3, 2, 11, 5, 8)),
    ],
)
def test_the_presets_numbers_are_their_sources(preset, size, numbers):
    table = preset.params(size)
    assert (
        table.cards_each,
        table.table_cards,
        table.dealer_stake,
        table.other_stake,
        table.pot,
        table.last_in_prize,
        table.break_even,
    ) == numbers


def test_the_sizes_of_each_preset_and_of_caidis():
    assert STANDARD.sizes == WILLUGHBY_FOUR_THIRTEEN.sizes == (3, 4, 5, 6)
    assert DU_COEUR.sizes == DU_COEUR_LOW_STAKES.sizes == (3, 4, 5, 6, 7, 8)
    assert allowed_sizes(ScoringSystem.CAIDIS, DU_COEUR) == (3, 4, 5)
    assert allowed_sizes(ScoringSystem.WINNER_ADVANTAGE, DU_COEUR) == DU_COEUR.sizes
    with pytest.raises(UserError, match="a table of 7 players cannot play under"):
        STANDARD.params(7)
    with pytest.raises(UserError, match='"poker" is not a rule set'):
        rule_set("poker")
    assert sizes_text((3, 4, 5, 6)) == "3 to 6"
    assert sizes_text((4, 6)) == "4 or 6"


@pytest.mark.parametrize(("preset", "table"), PRESET_TABLES)
def test_zero_sum_where_the_source_says_so(preset, table):
    found = balance(table)
    if table.players == 8:
        # du Coeur: no break-even at eight, "six stakes go to the leftover cards": the
        # nets sum to half of (players above 5 cards - players below), -2 to +4 (all
        # eight below would need 8 x 4 = 32 < 52 cards at most: impossible).
        assert not found.zero_sum
        assert (found.lowest, found.highest) == (-3, 4)
    else:
        assert found.zero_sum


def test_an_odd_break_even_rounds_away_from_it():
    # du Coeur's eight: 6 cards win one, 4 lose one, 0 loses three, 8 wins two.
    assert [units(final, 5) for final in (0, 2, 4, 6, 8, 10)] == [-3, -2, -1, 1, 2, 3]
    assert units(12, 8) == 2
    assert units(4, 8) == -2


def _deals(size):
    """Deals at ``size`` with each seat last in and laying down in seat order."""

    @st.composite
    def deal(draw):
        left_over = 2 * draw(st.integers(min_value=1, max_value=26))
        pairs = (52 - left_over) // 2
        cuts = sorted(draw(st.lists(st.integers(0, pairs), min_size=size - 1, max_size=size - 1)))
        won = tuple(2 * (b - a) for a, b in zip([0, *cuts], [*cuts, pairs], strict=True))
        last_in = draw(st.integers(min_value=1, max_value=size))
        others = [seat for seat in range(1, size + 1) if seat != last_in]
        order = tuple(draw(st.permutations(others)))
        return DealFacts(won, last_in, left_over, order)

    return deal()


@st.composite
def preset_deals(draw):
    preset = draw(st.sampled_from(list(RULE_SETS.values())))
    size = draw(st.sampled_from(preset.sizes))
    deals = draw(st.lists(_deals(size), min_size=1, max_size=2 * size))
    return preset, size, deals


@settings(max_examples=150, deadline=None)
@given(preset_deals())
def test_every_preset_scores_a_deal_as_its_sums_do(table):
    preset, size, deals = table
    sums = table_sums(deals, size, (), preset)
    for system in ScoringSystem:
        if size not in allowed_sizes(system, preset):
            continue
        for seat in range(1, size + 1):
            one_by_one = sum(
                score_deal(deal, dealer_of(number, size), system, preset)[seat - 1]
                for number, deal in enumerate(deals, start=1)
            )
            assert points_from_sums(sums[seat - 1], system, preset) == one_by_one


@settings(max_examples=150, deadline=None)
@given(preset_deals(), st.integers(min_value=1, max_value=8))
def test_winner_advantage_hands_out_26_and_stakes_sum_as_the_balance_says(table, dealer):
    preset, size, deals = table
    dealer = (dealer - 1) % size + 1
    params = preset.params(size)
    found = balance(params)
    for deal in deals:
        assert sum(winner_advantage(deal)) == 26
        assert found.lowest <= sum(classic_stakes(deal, dealer, preset)) <= found.highest
        if size <= 5:
            assert sum(caidis(deal, dealer, preset)) == 0


# Compendium Caidis, five players, seat 1 deals. Seats lie down 2, 4, 1, 3; seat 5 is last
# in. Lying down pays one stake to each still in: seat 2 pays 4 (-4), seat 4 pays 3 and
# got 1 (-2), seat 1 pays 2 and got 2 (0), seat 3 pays 1 and got 3 (+2), seat 5 got 4 (+4).
# The dealer (seat 1) takes the 24 left over: 6 + 24 = 30 cards, the most pairs, so it
# wins back its own stake.
CAIDIS_DEAL = DealFacts((6, 4, 10, 0, 8), 5, 24, (2, 4, 1, 3))


def test_caidis_pays_the_lying_down_and_the_most_pairs_wins_the_dealers_stake():
    assert caidis(CAIDIS_DEAL, 1) == (0, -4, 2, -2, 4)
    # Seat 2 deals: seat 2 ends with 4 + 24 = 28, the most: it wins its own stake back.
    assert caidis(CAIDIS_DEAL, 2) == (0, -4, 2, -2, 4)
    # Seat 4 deals and takes the 2 left over: 6, 4, 10, 2, 30 - seat 5 has the most
    # pairs and wins seat 4's stake.
    small = DealFacts((6, 4, 10, 0, 30), 5, 2, (2, 4, 1, 3))
    assert caidis(small, 4) == (0, -4, 2, -2 - 1, 4 + 1)


def test_caidis_ties_for_most_pairs_leave_the_stake_with_the_dealer():
    tied = DealFacts((10, 10, 8, 8, 14), 5, 2, (1, 2, 3, 4))
    # Seat 4 deals and takes 2: 10, 10, 8, 10, 14 - seat 5 has most alone: wins the stake.
    assert caidis(tied, 4) == (-4, -2, 0, 2 - 1, 4 + 1)
    # Seat 5 deals: 16 - seat 5 itself has most: its stake comes back.
    assert caidis(tied, 5) == (-4, -2, 0, 2, 4)
    level = DealFacts((12, 12, 8, 8, 10), 5, 2, (1, 2, 3, 4))
    # Seat 3 deals, takes 2: 12, 12, 10, 8, 10 - seats 1 and 2 tie: the stake stays.
    assert caidis(level, 3) == (-4, -2, 0, 2, 4)


def test_house_rules_are_checked_and_named_by_table_size():
    bad = {
        "tables": {
            "4": {
                "cards_each": 11,
                "table_cards": 12,
                "dealer_stake": 4,
                "other_stake": 3,
                "last_in_prize": 7,
                "break_even": 10,
            },
            "9": dict(vars(STANDARD.params(5))),
            "5": {"cards_each": "eight"},
        }
    }
    with pytest.raises(UserError) as caught:
        house_rules(bad)
    message = str(caught.value)
    assert "table of 4: 4 × 11 cards each and 12 in the middle deal 56 cards, not 52" in message
    assert "table of 9: tables seat 3 to 8 players" in message
    assert "table of 5: cards each 'eight' is not a whole number" in message
    assert "table of 5: break-even is missing" in message


def test_house_rules_round_trip_and_say_whether_they_are_zero_sum():
    four = STANDARD.params(4)
    made = with_table(STANDARD, type(four)(4, 10, 12, 4, 3, 13, 5, 10))
    again = house_rules(made.as_data())
    assert again.tables == made.tables
    assert again.left_over_to is LeftOverTo.DEALER
    # Stakes of 13 with a prize of 5: the pot keeps 2 units a deal.
    assert balance(again.params(4)).text() == "not zero-sum: the nets of every deal sum to -2"
    assert balance(again.params(5)).text() == "zero-sum: the nets of every deal sum to 0"


def test_left_over_to_the_last_in_under_stakes():
    made = house_rules({**STANDARD.as_data(), "left_over_to": "last-in"})
    deal = DealFacts((6, 4, 10, 0, 8), 5, 24)
    # Seat 5 ends with 32: -2 + 5 + (32 - 8) / 2 = 15; seat 1 with 6: -3 - 1 = -4.
    assert classic_stakes(deal, 1, made) == (-4, -4, -1, -6, 15)


def test_caidis_gives_the_left_over_to_the_dealer_whatever_the_house_rules_say_of_stakes():
    made = house_rules({**STANDARD.as_data(), "left_over_to": "last-in"})
    assert caidis(CAIDIS_DEAL, 1, made) == caidis(CAIDIS_DEAL, 1) == (0, -4, 2, -2, 4)
    assert sizes_text(()) == "no"
