"""The simulator: every deal it plays passes the rules of a score sheet and scores as its
system says; a seed gives the same deals; the distribution of what is won is stable from
seed to seed and tells the strategies apart; and the rules of the play (mournivals,
prials, the pair laid down out of turn, going out, claims) on deals written out."""

import math
import random
from collections import Counter

import pytest

from scoring.errors import UserError
from scoring.rules import make_deal
from scoring.rulesets import DU_COEUR, RULE_SETS, STANDARD, balance
from scoring.simulation import (
    CAIDIS,
    PARLETT,
    deal,
    play_deal,
    player,
    rigged,
    shuffled_pack,
    simulate,
    strategy_named,
)
from scoring.simulation.cards import (
    cards_of,
    count,
    four,
    held,
    one,
    rank_bits,
    text_of,
    three,
    two,
)
from scoring.simulation.constants import PACK
from scoring.simulation.strategies import naive, willughby
from scoring.systems import ScoringSystem, allowed_sizes, score_deal

COMBINATIONS = [(key, system) for key in RULE_SETS for system in ScoringSystem]


def tables(size):
    """The tables every combination is played by: each strategy alone, careful and
    careless, and a table of mixed skill."""
    return {
        "willughby": [player("willughby")] * size,
        "naive": [player("naive")] * size,
        "careless": [player("willughby", 0.2)] * size,
        "mixed": [player("naive" if seat % 2 else "willughby", seat / 10) for seat in range(size)],
    }


# 52 sizes across the presets and systems, 4 tables each, 500 deals: 104,000 deals, about
# 6 s on one core.
DEALS_EACH = 500


def test_a_packed_count_says_which_ranks_it_holds_once_twice_three_and_four_times():
    cards = cards_of("k a 22 333 4444")
    assert text_of(cards) == "A223334444K"
    assert text_of(held(cards)) == "A234K"
    assert (text_of(one(cards)), text_of(two(cards))) == ("AK", "2")
    assert (text_of(three(cards)), text_of(four(cards))) == ("3", "4")
    assert [count(cards, bit) for bit in rank_bits(held(cards))] == [1, 2, 3, 4, 1]
    with pytest.raises(UserError, match="“X” is not a rank"):
        cards_of("AX")


def test_a_shuffled_pack_is_the_pack_in_another_order():
    rng = random.Random(0)
    first, second = shuffled_pack(rng), shuffled_pack(rng)
    assert sorted(first) == sorted(second) == sorted(PACK)
    assert first != second


@pytest.mark.parametrize(("key", "system"), COMBINATIONS)
def test_every_simulated_deal_passes_the_rules_with_its_lying_down_order(key, system):
    rule_set = RULE_SETS[key]
    seed = 0
    for size in allowed_sizes(system, rule_set):
        for name, table in tables(size).items():
            seed += 1
            for simulated in simulate(rule_set, system, table, DEALS_EACH, seed):
                facts = simulated.facts
                checked = make_deal(
                    facts.won,
                    facts.last_in,
                    facts.left_over,
                    size,
                    laid_down=facts.laid_down,
                    order_needed=True,
                )
                assert checked == facts, (key, system, size, name, seed, simulated.number)


@pytest.mark.parametrize(("key", "system"), COMBINATIONS)
def test_the_points_of_every_simulated_deal_add_up_as_the_system_says(key, system):
    rule_set = RULE_SETS[key]
    for size in allowed_sizes(system, rule_set):
        low_high = balance(rule_set.params(size))
        sums = Counter()
        for simulated in simulate(rule_set, system, tables(size)["mixed"], 300, size):
            points = score_deal(simulated.facts, simulated.dealer, system, rule_set)
            sums[sum(points)] += 1
        if system is ScoringSystem.WINNER_ADVANTAGE:
            assert set(sums) == {26}
        elif system is ScoringSystem.CAIDIS:
            assert set(sums) == {0}
        else:
            assert low_high.lowest <= min(sums) <= max(sums) <= low_high.highest


def test_the_deal_passes_left_from_seat_one_and_play_starts_left_of_the_dealer():
    run = list(simulate(STANDARD, ScoringSystem.CAIDIS, 4, 8, seed=5))
    assert [deal.dealer for deal in run] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert [deal.number for deal in run] == list(range(1, 9))


def test_a_seed_gives_the_same_deals_and_a_longer_run_begins_with_a_shorter_one():
    table = tables(5)["mixed"]
    first = list(simulate(STANDARD, ScoringSystem.CLASSIC_STAKES, table, 200, seed=7))
    again = list(simulate(STANDARD, ScoringSystem.CLASSIC_STAKES, table, 300, seed=7))
    other = list(simulate(STANDARD, ScoringSystem.CLASSIC_STAKES, table, 200, seed=8))
    assert again[:200] == first
    assert other != first


def won_last_in_and_left_over(strategy, seed, deals=10_000):
    """Three samples of a run at five: the cards each seat won, the last in's place after
    the dealer (0 for the dealer), the left over."""
    won, last_in, left_over = Counter(), Counter(), Counter()
    table = [player(strategy)] * 5
    for simulated in simulate(STANDARD, ScoringSystem.WINNER_ADVANTAGE, table, deals, seed):
        facts = simulated.facts
        won.update(facts.won)
        last_in[(facts.last_in - simulated.dealer) % 5] += 1
        left_over[facts.left_over] += 1
    return won, last_in, left_over


def chi_square(sample, other):
    """Two samples' chi-square of homogeneity and its critical value at p = 0.0005
    (Wilson–Hilferty); values seen fewer than 20 times in both are pooled."""
    scale = math.sqrt(sum(other.values()) / sum(sample.values()))
    pooled = [0, 0]
    bins = []
    for value in sorted(set(sample) | set(other)):
        if sample[value] + other[value] < 20:
            pooled[0] += sample[value]
            pooled[1] += other[value]
        else:
            bins.append((sample[value], other[value]))
    if sum(pooled):
        bins.append(tuple(pooled))
    statistic = sum((a * scale - b / scale) ** 2 / (a + b) for a, b in bins)
    free = len(bins) - 1
    z = 3.29
    critical = free * (1 - 2 / (9 * free) + z * math.sqrt(2 / (9 * free))) ** 3
    return statistic, critical


def test_what_is_won_is_distributed_alike_from_seed_to_seed_and_tells_strategies_apart():
    """Two runs of different seeds are two samples of one distribution; the naive
    strategy's run is a sample of another, which the same test tells apart."""
    first = won_last_in_and_left_over("willughby", seed=1)
    second = won_last_in_and_left_over("willughby", seed=2)
    naive_run = won_last_in_and_left_over("naive", seed=1)
    for sample, alike, unlike in zip(first, second, naive_run, strict=True):
        assert sample != alike
        statistic, critical = chi_square(sample, alike)
        assert statistic < critical
        statistic, critical = chi_square(sample, unlike)
        assert statistic > critical


# Seat k holds a mournival, a prial and the fourth card of seat k-1's prial; the middle
# is three mournivals.
MOURNIVALS_AND_PRIALS = rigged(
    ["4444 999 K", "5555 TTT 9", "6666 JJJ T", "7777 QQQ J", "8888 KKK Q"],
    "AAAA 2222 3333",
)


def test_mournivals_in_the_middle_are_left_over_and_in_hand_are_won_with_a_pair_of_each_prial():
    """Foreplay: every seat wins its mournival (4) and a pair of its prial (2), keeping
    the third; the middle's three mournivals are set aside. Seat 2 (eldest) cannot take
    anything and lies down 9 T; seat 3 takes the T; seat 4 lies down Q J; seat 5 takes
    the Q, seat 1 the 9; seat 3 takes the J with its last card and is out; seat 5 lies
    down its K, and seat 1 is last in with the other K, the K and the 12 set aside left
    over."""
    facts = play_deal(MOURNIVALS_AND_PRIALS, 1, [player()] * 5, PARLETT, random.Random(0))
    assert facts.won == (8, 6, 10, 6, 8)
    assert (facts.last_in, facts.left_over) == (1, 14)
    assert facts.laid_down == (2, 4, 3, 5)


def test_caidis_gives_the_last_in_a_last_turn():
    """Compendium Caidis: seat 1, last in, takes the K in the middle with its own; the
    mournivals set aside are left over."""
    facts = play_deal(MOURNIVALS_AND_PRIALS, 1, [player()] * 5, CAIDIS, random.Random(0))
    assert facts.won == (10, 6, 10, 6, 8)
    assert (facts.last_in, facts.left_over) == (1, 12)


def test_a_pair_is_laid_down_when_another_takes_its_rank_but_not_as_the_last_cards_in_play():
    """The middle is eleven mournivals, set aside, and a Q. Seat 2 takes the Q; seat 3
    lays down its QQ at once and, holding a J, lies down; seat 1 takes that J with its
    only card and is out. Seat 2's JJ would be laid down, but it is the last hand: seat
    2 keeps it and is last in."""
    dealt = rigged(["J", "QJJ", "QQJ"])
    facts = play_deal(dealt, 1, [player()] * 3, PARLETT, random.Random(0))
    assert facts.won == (2, 2, 2)
    assert (facts.last_in, facts.left_over) == (2, 46)
    assert facts.laid_down == (3, 1)


def test_two_players_go_out_at_once_and_the_turn_passes_to_the_next_still_holding_cards():
    """Seat 1 (eldest) takes the Q with its only card; seat 2 lays down its QQ, all it
    holds: both are out, seat 1 first. Seat 3 plays next and takes a 5 from the middle
    with its only card; seat 4 is last in."""
    dealt = rigged(["Q", "QQ", "5", "5"])
    facts = play_deal(dealt, 4, [player()] * 4, PARLETT, random.Random(0))
    assert facts.won == (2, 2, 2, 0)
    assert (facts.last_in, facts.left_over) == (4, 46)
    assert facts.laid_down == (1, 2, 3)


def test_a_pair_overlooked_and_lying_in_the_middle_is_claimed_by_the_next_player_who_sees_it():
    """Seat 3 overlooks everything: it does not lay down its QQ when seat 2 takes the Q,
    and lies down with a J it could have taken from the JJJ in the middle. The QQ, dead
    in the middle, goes to seat 1, the first to its left; the JJJJ stays there. Seat 1
    takes a K with its last card; seat 2 is last in with the other K."""
    dealt = rigged(["K", "QK", "QQJ"])
    table = [player(), player(), player(oversight=1.0)]
    facts = play_deal(dealt, 1, table, PARLETT, random.Random(0))
    assert facts.won == (4, 2, 0)
    assert (facts.last_in, facts.left_over) == (2, 46)
    assert facts.laid_down == (3, 1)


def test_a_mournival_dealt_to_the_middle_is_always_left_over():
    """Without the rule, the last in's hand and its mates would often be all that is
    left over; with it, the four set aside come on top."""
    rng = random.Random(3)
    params = STANDARD.params(5)
    seen = 0
    while seen < 50:
        dealt = deal(shuffled_pack(rng), params)
        if not four(dealt.middle):
            continue
        seen += 1
        facts = play_deal(dealt, 1, [player("naive")] * 5, PARLETT, rng)
        assert facts.left_over >= 4 * four(dealt.middle).bit_count() + 2


@pytest.mark.parametrize(
    ("hand", "middle", "others", "taken"),
    [
        # All three of a prial in the middle, before anything else.
        ("5 K", "555 K", "KK", ("5", 1, 3)),
        # A simple mate (someone else holds the rank) before a certain one.
        ("5 9", "5 99", "9 55", ("5", 1, 1)),
        # A pair in hand whose pair lies in the middle is kept for last...
        ("55 9", "55 9", "99", ("9", 1, 1)),
        # ...and taken one pair at a time when nothing else is left.
        ("55 J", "55", "J", ("5", 1, 1)),
        # The fourth of a prial in hand (a pair of it laid down), lying in the middle:
        # nobody else can take it, so the simple mate goes first.
        ("5 9", "5 9", "99", ("9", 1, 1)),
    ],
)
def test_willughbys_advice(hand, middle, others, taken):
    hand, middle, others = cards_of(hand), cards_of(middle), cards_of(others)
    capturable = held(hand) & held(middle)
    bit, from_hand, from_middle = willughby(capturable, hand, middle, others, True, None)
    assert (text_of(bit), from_hand, from_middle) == taken


def test_naive_takes_a_pair_with_a_pair_only_where_the_rules_allow_it():
    hand, middle = cards_of("55 9"), cards_of("55 9")
    capturable = held(hand) & held(middle)
    rng = random.Random(0)
    parlett = {naive(capturable, hand, middle, 0, True, rng) for _ in range(200)}
    caidis = {naive(capturable, hand, middle, 0, False, rng) for _ in range(200)}
    five, nine = cards_of("5"), cards_of("9")
    assert parlett == {(five, 1, 1), (five, 2, 2), (nine, 1, 1)}
    assert caidis == {(five, 1, 1), (nine, 1, 1)}


@pytest.mark.parametrize(
    ("rule_set", "system", "players", "deals", "message"),
    [
        (STANDARD, ScoringSystem.WINNER_ADVANTAGE, 7, 1, "a table of 7 players cannot play"),
        (DU_COEUR, ScoringSystem.CAIDIS, 6, 1, "it seats 3 to 5 players"),
        (STANDARD, ScoringSystem.CLASSIC_STAKES, 5, 0, "at least 1 deal, not 0"),
    ],
)
def test_a_run_the_rules_do_not_allow_is_refused_in_words(
    rule_set, system, players, deals, message
):
    with pytest.raises(UserError, match=message):
        simulate(rule_set, system, players, deals)


def test_unknown_strategies_impossible_oversights_and_wrong_packs_are_refused():
    with pytest.raises(UserError, match="“clever” is not a strategy"):
        strategy_named("clever")
    with pytest.raises(UserError, match=r"from 0 to 1, not 1\.5"):
        player(oversight=1.5)
    with pytest.raises(UserError, match="5 × A"):
        rigged(["AAAAA"])
    with pytest.raises(UserError, match="3 × K"):
        rigged(["K"], "AAAA 2222 3333 4444 5555 6666 7777 8888 9999 TTTT JJJJ QQQQ KK")
    with pytest.raises(UserError, match="seat 2 has none"):
        rigged(["A", ""])
