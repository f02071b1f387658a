"""Standings and every tiebreak key, each with a small worked example.

``wa_deal`` builds a winner-advantage deal that gives exactly the listed points: every
seat won two cards per point, except that the last-in seat's pile includes the two
left-over cards.
"""

import itertools
import random

import pytest

from scoring.errors import UserError
from scoring.plays import Entrant, TablePlay
from scoring.ranking import check_tiebreaks
from scoring.rules import make_deal
from scoring.standings import compute_standings, ranks_after_each_round
from scoring.systems import ScoringSystem
from scoring.tiebreaks import DEFAULT_TIEBREAKS, tiebreak_keys
from tests.plays import entrants, play, wa_deal


def table(standings):
    return [(row.rank, row.shared, row.name, row.points, row.decided_by) for row in standings.rows]


def test_last_in_breaks_a_tie_on_points():
    standings = compute_standings(
        entrants("ABC"), [play(1, "ABC", wa_deal((8, 8, 10), last_in=2))], tiebreaks=["last_in"]
    )
    assert table(standings) == [
        (1, False, "C", 10, None),
        (2, False, "B", 8, "points"),
        (3, False, "A", 8, "last_in"),
    ]


def test_table_wins_shared_top_counts_for_both_and_shared_ranks_skip():
    plays = [
        play(1, "ABC", wa_deal((10, 6, 10), last_in=3)),
        play(1, "DEF", wa_deal((10, 11, 5), last_in=2)),
    ]
    standings = compute_standings(entrants("ABCDEF"), plays, tiebreaks=["table_wins"])
    assert table(standings) == [
        (1, False, "E", 11, None),
        (2, True, "A", 10, "points"),
        (2, True, "C", 10, None),
        (4, False, "D", 10, "table_wins"),
        (5, False, "B", 6, "points"),
        (6, False, "F", 5, "points"),
    ]
    assert {row.name: row.table_wins for row in standings.rows} == dict(
        A=1, B=0, C=1, D=0, E=1, F=0
    )


def test_a_table_with_no_deals_yet_has_no_winner():
    standings = compute_standings(entrants("ABC"), [play(1, "ABC")])
    assert [row.table_wins for row in standings.rows] == [0, 0, 0]
    # Nobody has a result for the round: it ranks nobody lower, and nobody has 0 for it.
    assert [row.rounds for row in standings.rows] == [(None,), (None,), (None,)]
    assert [row.waiting for row in standings.rows] == [(1,), (1,), (1,)]
    assert [(row.rank, row.shared) for row in standings.rows] == [(1, True)] * 3


def test_a_table_with_no_result_yet_is_listed_unranked_after_the_ranked_players():
    # Round 2: table ABC has a result, table DEF none yet. D, E and F would otherwise be
    # ranked below A, B and C with 0 for the round, as if they had lost every deal.
    plays = [
        play(1, "ABC", wa_deal((12, 6, 8), last_in=3)),
        play(1, "DEF", wa_deal((14, 2, 10), last_in=2)),
        play(2, "ABC", wa_deal((12, 6, 8), last_in=3)),
        play(2, "DEF"),
    ]
    standings = compute_standings(entrants("FEDCBA"), plays, tiebreaks=["opponents"])
    assert table(standings) == [
        (1, False, "A", 24, None),
        (2, False, "C", 16, "points"),
        (3, False, "B", 12, "points"),
        (None, False, "D", 14, None),
        (None, False, "E", 2, None),
        (None, False, "F", 10, None),
    ]
    d = standings.rows[3]
    assert (d.rounds, d.waiting, d.ranked) == ((14, None), (2,), False)
    # The table without a result adds nothing: no deals, no win, no opponents.
    assert (d.deals, d.table_wins, d.opponents) == (1, 1, 12)
    ranks = ranks_after_each_round(entrants("ABCDEF"), plays, tiebreaks=["opponents"])
    assert [(r.rank, r.points) for r in ranks["D"]] == [(1, 14), (None, 14)]
    assert [(r.rank, r.points) for r in ranks["A"]] == [(2, 12), (1, 24)]


def test_a_result_coming_in_ranks_the_table_again():
    plays = [
        play(1, "ABC", wa_deal((12, 6, 8), last_in=3)),
        play(1, "DEF", wa_deal((14, 2, 10), last_in=2)),
    ]
    standings = compute_standings(entrants("ABCDEF"), plays)
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4, 5, 6]
    assert all(row.waiting == () for row in standings.rows)


def test_countback_compares_the_latest_round_first_and_a_missed_round_counts_zero():
    plays = [
        play(1, "ABC", wa_deal((10, 5, 11), last_in=1)),
        play(2, "ABD", wa_deal((5, 10, 11), last_in=1)),
    ]
    standings = compute_standings(entrants("ABCD"), plays, tiebreaks=["countback"])
    assert table(standings) == [
        (1, False, "B", 15, None),
        (2, False, "A", 15, "countback"),
        (3, False, "D", 11, "points"),
        (4, False, "C", 11, "countback"),
    ]
    rounds = {row.name: row.rounds for row in standings.rows}
    assert rounds == {"A": (10, 5), "B": (5, 10), "C": (11, None), "D": (None, 11)}


def test_best_round_is_the_highest_single_round():
    plays = [
        play(1, "ABC", wa_deal((9, 7, 10), last_in=1)),
        play(2, "ABC", wa_deal((6, 8, 12), last_in=1)),
    ]
    standings = compute_standings(entrants("ABC"), plays, tiebreaks=["best_round"])
    assert table(standings) == [
        (1, False, "C", 22, None),
        (2, False, "A", 15, "points"),
        (3, False, "B", 15, "best_round"),
    ]
    assert [row.best_round for row in standings.rows] == [12, 9, 8]


def test_opponents_sums_the_final_totals_of_everyone_met():
    plays = [
        play(1, "ACD", wa_deal((8, 9, 9), last_in=1)),
        play(1, "BEF", wa_deal((8, 9, 9), last_in=1)),
        play(2, "CEG", wa_deal((20, 3, 3), last_in=1)),
    ]
    standings = compute_standings(entrants("ABCDEFG"), plays, tiebreaks=["opponents"])
    by_name = {row.name: row for row in standings.rows}
    assert by_name["A"].opponents == 29 + 9  # C and D
    assert by_name["B"].opponents == 12 + 9  # E and F
    # A and B are equal on points (8): strength of field alone puts A above B.
    assert (by_name["A"].points, by_name["B"].points) == (8, 8)
    assert not by_name["A"].shared
    assert by_name["B"].rank == by_name["A"].rank + 1
    assert by_name["B"].decided_by == "opponents"


def test_the_default_chain_applies_keys_in_order_and_names_the_deciding_one():
    # A and B tie on points and deals last in; A won its table, B did not.
    plays = [
        play(1, "ACE", wa_deal((10, 6, 10), last_in=2)),
        play(1, "BDF", wa_deal((10, 14, 2), last_in=2)),
    ]
    standings = compute_standings(entrants("ABCDEF"), plays)
    assert standings.tiebreaks == DEFAULT_TIEBREAKS
    by_name = {row.name: row for row in standings.rows}
    assert by_name["A"].rank < by_name["B"].rank
    assert by_name["B"].decided_by == "table_wins"


def test_players_equal_on_every_key_share_a_rank_listed_by_name():
    plays = [play(1, "ZYX", wa_deal((8, 8, 10), last_in=3)), play(1, "MNO", wa_deal((8, 8, 10), 3))]
    standings = compute_standings(entrants("MNOXYZ"), plays)
    assert table(standings) == [
        (1, True, "O", 10, None),
        (1, True, "X", 10, None),
        (3, True, "M", 8, "points"),
        (3, True, "N", 8, None),
        (3, True, "Y", 8, None),
        (3, True, "Z", 8, None),
    ]


def test_within_a_shared_rank_names_are_listed_ignoring_case():
    plays = [play(1, ["Zed", "anne", "Bob"], wa_deal((8, 8, 10), last_in=3))]
    standings = compute_standings(entrants(["Zed", "anne", "Bob"]), plays)
    # By code point "Zed" would come first (capitals sort before small letters).
    assert [row.name for row in standings.rows if row.points == 8] == ["anne", "Zed"]


def test_classic_stakes_ranks_by_net_units_and_the_dealer_follows_the_deal_number():
    worked = make_deal([6, 4, 10, 0, 8], 5, 24, 5)
    standings = compute_standings(
        entrants("ABCDE"), [play(1, "ABCDE", worked)], system=ScoringSystem.CLASSIC_STAKES
    )
    assert {row.name: row.points for row in standings.rows} == dict(A=8, B=-4, C=-1, D=-6, E=3)
    # The same facts as deal 2: seat 2 deals and takes the left-over cards.
    second = TablePlay(1, tuple("ABCDE"), ((2, worked),))
    standings = compute_standings(entrants("ABCDE"), [second], system=ScoringSystem.CLASSIC_STAKES)
    assert {row.name: row.points for row in standings.rows} == dict(A=-3, B=7, C=-1, D=-6, E=3)


def test_mixed_table_sizes_missed_rounds_and_an_incomplete_table():
    six = play(1, "ABCDEF", *[wa_deal((4, 4, 4, 4, 4, 6), last_in=6)] * 6)
    three = play(1, "GHI", *[wa_deal((6, 10, 10), last_in=2)] * 2)  # stopped after 2 of 3
    four = play(2, "ABGH", *[wa_deal((5, 5, 8, 8), last_in=3)] * 4)
    five = play(2, "CDEFI", *[wa_deal((4, 4, 6, 6, 6), last_in=5)] * 5)
    standings = compute_standings(entrants("ABCDEFGHIJ"), [six, three, four, five])
    by_name = {row.name: row for row in standings.rows}
    assert by_name["A"].rounds == (24, 20)
    assert by_name["A"].deals == 10
    assert by_name["G"].rounds == (12, 32)
    assert by_name["G"].deals == 6
    assert by_name["I"].rounds == (20, 30)
    assert by_name["I"].last_in == 5
    assert by_name["J"].rounds == (None, None)
    assert (by_name["J"].points, by_name["J"].deals, by_name["J"].best_round) == (0, 0, None)
    assert standings.rows[-1].name == "J"
    assert standings.round_numbers == (1, 2)


def test_rounds_that_exist_but_were_not_played_are_listed():
    standings = compute_standings(
        entrants("ABC"), [play(1, "ABC", wa_deal((8, 8, 10), 3))], round_numbers=[1, 2]
    )
    assert standings.rows[0].rounds == (10, None)


def test_rescoring_the_same_facts_under_the_other_system_changes_the_order():
    deals = [make_deal([6, 4, 10, 0, 8], 5, 24, 5)]
    plays = [play(1, "ABCDE", *deals)]
    winner = compute_standings(entrants("ABCDE"), plays, ScoringSystem.WINNER_ADVANTAGE)
    classic = compute_standings(entrants("ABCDE"), plays, ScoringSystem.CLASSIC_STAKES)
    assert [row.name for row in winner.rows] == ["E", "C", "A", "B", "D"]
    assert [row.name for row in classic.rows] == ["A", "E", "C", "B", "D"]


@pytest.mark.parametrize(
    ("keys", "problems"),
    [
        (["last_in", "countback"], []),
        ([], []),
        (["points"], ["tiebreak 1: points always comes first; list only the keys after it"]),
        (
            ["last_in", "luck"],
            [
                "tiebreak 2: unknown key 'luck' (known keys: last_in, table_wins, countback, "
                "best_round, opponents)"
            ],
        ),
        (["countback", "countback"], ["tiebreak 2: 'countback' is listed twice"]),
    ],
)
def test_tiebreak_orders_are_checked(keys, problems):
    assert check_tiebreaks(keys) == problems


def test_an_unknown_tiebreak_is_refused_when_computing():
    with pytest.raises(UserError, match="unknown key 'luck'"):
        compute_standings(entrants("A"), [], tiebreaks=["luck"])


# best_round before countback: once countback finds every round equal, the best round is
# equal too, so the other order could never show best_round deciding.
FULL_CHAIN = ("last_in", "table_wins", "best_round", "countback", "opponents")


def _chain_values(row):
    opponents = row.opponents
    countback = tuple(total or 0 for total in reversed(row.rounds))
    best = -(10**9) if row.best_round is None else row.best_round
    return {
        "points": row.points,
        "last_in": row.last_in,
        "table_wins": row.table_wins,
        "countback": countback,
        "best_round": best,
        "opponents": opponents,
    }


def _small_random_tournament(seed):
    """Six players at tables of three over three rounds, one deal a table: small numbers,
    so ties at every depth of the chain are common."""
    rng = random.Random(seed)
    names = list("ABCDEF")
    plays = []
    for round_number in (1, 2, 3):
        order = names[:]
        rng.shuffle(order)
        for seats in (order[:3], order[3:]):
            if rng.random() < 0.15:
                continue  # this table sat out the round
            points = [rng.choice([2, 4, 6, 8, 10]) for _ in range(2)]
            points.append(26 - sum(points))
            plays.append(play(round_number, seats, wa_deal(points, rng.randint(1, 3))))
    return entrants(names), plays


def test_ties_at_every_level_of_the_chain_are_decided_in_order():
    seen = set()
    for seed in range(400):
        players, plays = _small_random_tournament(seed)
        standings = compute_standings(players, plays, tiebreaks=FULL_CHAIN)
        chain = ("points", *FULL_CHAIN)
        rows = standings.rows
        for above, below in itertools.pairwise(rows):
            a, b = _chain_values(above), _chain_values(below)
            if below.decided_by is None:
                assert a == b
                assert below.rank == above.rank
                assert above.shared
                assert below.shared
                assert above.name < below.name
                seen.add("shared")
            else:
                level = chain.index(below.decided_by)
                assert all(a[key] == b[key] for key in chain[:level])
                assert a[below.decided_by] > b[below.decided_by]
                assert below.rank == rows.index(below) + 1
                seen.add(below.decided_by)
    assert seen == {"shared", *chain}


def test_a_bye_scores_the_setting_as_that_rounds_total():
    plays = [play(1, "ABC", wa_deal((8, 8, 10), last_in=3))]
    standings = compute_standings(entrants("ABCD"), plays, byes=[(1, "D")], bye_points=26)
    by_name = {row.name: row for row in standings.rows}
    assert (by_name["D"].points, by_name["D"].rounds, by_name["D"].deals) == (26, (26,), 0)
    assert by_name["D"].table_wins == 0
    assert by_name["D"].opponents == 0
    zero = compute_standings(entrants("ABCD"), plays, byes=[(1, "D")])
    assert {row.name: row.rounds for row in zero.rows}["D"] == (0,)


def _standings_after_each_round(players, plays, round_numbers, byes, bye_points, tiebreaks):
    """The plain recomputation: the standings over the rounds up to each round, afresh."""
    ranks = {player.key: [] for player in players}
    for last in round_numbers:
        standings = compute_standings(
            players,
            [p for p in plays if p.round_number <= last],
            tiebreaks=tiebreaks,
            round_numbers=[n for n in round_numbers if n <= last],
            byes=[(n, key) for n, key in byes if n <= last],
            bye_points=bye_points,
        )
        for row in standings.rows:
            ranks[row.key].append((last, row.rank, row.shared, row.points))
    return ranks


@pytest.mark.parametrize(
    "tiebreaks", [FULL_CHAIN, (), ("opponents", "countback"), tuple(reversed(tiebreak_keys()))]
)
def test_ranks_after_each_round_equal_the_standings_over_each_prefix_of_rounds(tiebreaks):
    """Random small fields with a bye, a late arrival (G, from round 2) and a dropped
    player (one of the first round's, gone after it): ties are common at every depth."""
    seen = set()
    for seed in range(150):
        players, plays = _small_random_tournament(seed)
        rng = random.Random(seed)
        dropped = rng.choice("ABCDEF")
        plays = [p for p in plays if p.round_number == 1 or dropped not in p.seats]
        players = [*players, Entrant("G", "G")]
        byes = [(2, "G"), (3, "G")] if seed % 2 else [(3, "G")]
        bye_points = 26 * (seed % 3 == 0)
        expected = _standings_after_each_round(
            players, plays, (1, 2, 3), byes, bye_points, tiebreaks
        )
        made = ranks_after_each_round(
            players,
            plays,
            tiebreaks=tiebreaks,
            round_numbers=(1, 2, 3),
            byes=byes,
            bye_points=bye_points,
        )
        assert {
            key: [(r.round_number, r.rank, r.shared, r.points) for r in ranks]
            for key, ranks in made.items()
        } == expected
        seen.update("shared" for ranks in made.values() for r in ranks if r.shared)
    assert seen == {"shared"}


def test_ranks_after_each_round_count_a_round_nobody_played():
    plays = [play(1, "ABC", wa_deal((8, 8, 10), last_in=3)), play(3, "ABC", wa_deal((10, 8, 8), 1))]
    made = ranks_after_each_round(entrants("ABC"), plays, round_numbers=(1, 2, 3))
    assert [r.round_number for r in made["A"]] == [1, 2, 3]
    assert [r.points for r in made["C"]] == [10, 10, 18]
