"""A tournament file's rule set scores its deals: ``manage.py standings SLUG --format json``
gives, for a file imported under each preset (and under house rules), the points that
rule set defines. Every expected number is worked out by hand in the comments, from the
numbers docs/rules.md gives each rule set."""

import io
import json

from django.core.management import call_command

from tournament.models import Tournament
from tournament.tournament_file import writing
from tournament.tournament_file.loading import import_tournament

# Two deals at a table of four (seat 1 deals deal 1, seat 2 deal 2). Each adds to 52.
FOUR = [
    # 10 + 8 + 6 + 4 = 28 won, 28 + 24 = 52.
    {"won": [10, 8, 6, 4], "last_in": 2, "left_over": 24},
    # 12 + 2 + 10 + 6 = 30 won, 30 + 22 = 52.
    {"won": [12, 2, 10, 6], "last_in": 4, "left_over": 22},
]
# One deal at a table of seven, seat 1 dealing: 8+6+4+10+2+6+4 = 40 won, 40 + 12 = 52.
SEVEN = {"won": [8, 6, 4, 10, 2, 6, 4], "last_in": 3, "left_over": 12}
# One deal at a table of eight, seat 1 dealing: 6+4+8+0+2+10+4+6 = 40 won, 40 + 12 = 52.
EIGHT = {"won": [6, 4, 8, 0, 2, 10, 4, 6], "last_in": 5, "left_over": 12}


def a_file(scoring, tables, rule_set=None):
    """A version-4 file of one released round; ``tables`` are (seats, deals) pairs."""
    count = sum(len(seats) for seats, _ in tables)
    data = {
        "format": "lld-tournament/4",
        "name": "Rules Night",
        "slug": "rules-night",
        "scoring": scoring,
        "published": True,
        "players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, count + 1)],
        "rounds": [
            {
                "number": 1,
                "started": True,
                "released": True,
                "tables": [
                    {"number": number, "seats": seats, "deals": deals}
                    for number, (seats, deals) in enumerate(tables, start=1)
                ],
            }
        ],
    }
    if rule_set is not None:
        data["rule_set"] = rule_set
    return data


def seats(first, size):
    return [f"p{i}" for i in range(first, first + size)]


def standings_points(data):
    import_tournament(data)
    out = io.StringIO()
    call_command("standings", data["slug"], "--format", "json", stdout=out)
    printed = json.loads(out.getvalue())
    return printed["scoring"], {row["player_id"]: row["points"] for row in printed["rows"]}


def test_parlett_winner_advantage_under_the_standard_table(db):
    # One point a pair, the left over to the last in.
    # Deal 1: seat 2 last in: (8 + 24) / 2 = 16; the others 10/2, 6/2, 4/2 = 5, 3, 2.
    # Deal 2: seat 4 last in: (6 + 22) / 2 = 14; the others 6, 1, 5.
    # p1 5 + 6 = 11, p2 16 + 1 = 17, p3 3 + 5 = 8, p4 2 + 14 = 16.
    data = a_file("winner-advantage", [(seats(1, 4), FOUR)])
    assert "rule_set" not in data
    scoring, points = standings_points(data)
    assert scoring == "winner-advantage"
    assert points == {"p1": 11, "p2": 17, "p3": 8, "p4": 16}


def test_classic_stakes_under_the_standard_table(db):
    # Standard four: stakes 3 (dealer) / 2, prize 3, break-even 10; left over to the dealer.
    # Deal 1, seat 1 deals and takes the 24: final 34.
    #   s1 -3 + (34-10)/2 = 9; s2 -2 + 3 + (8-10)/2 = 0; s3 -2 + (6-10)/2 = -4;
    #   s4 -2 + (4-10)/2 = -5.  (0 in all)
    # Deal 2, seat 2 deals and takes the 22: final 24.
    #   s1 -2 + (12-10)/2 = -1; s2 -3 + (24-10)/2 = 4; s3 -2 + 0 = -2;
    #   s4 -2 + 3 + (6-10)/2 = -1.  (0 in all)
    # p1 9 - 1 = 8, p2 0 + 4 = 4, p3 -4 - 2 = -6, p4 -5 - 1 = -6.
    data = a_file("classic-stakes", [(seats(1, 4), FOUR)], "standard")
    _, points = standings_points(data)
    assert points == {"p1": 8, "p2": 4, "p3": -6, "p4": -6}


def test_willughbys_four_handed_larger_pot(db):
    # Willughby's four at thirteen: stakes 4 (dealer) / 3, prize 7, break-even 10.
    # Deal 1: s1 -4 + (34-10)/2 = 8; s2 -3 + 7 - 1 = 3; s3 -3 - 2 = -5; s4 -3 - 3 = -6.
    # Deal 2: s1 -3 + 1 = -2; s2 -4 + (24-10)/2 = 3; s3 -3 + 0 = -3; s4 -3 + 7 - 2 = 2.
    # p1 8 - 2 = 6, p2 3 + 3 = 6, p3 -5 - 3 = -8, p4 -6 + 2 = -4.
    data = a_file("classic-stakes", [(seats(1, 4), FOUR)], "willughby-four-thirteen")
    _, points = standings_points(data)
    assert points == {"p1": 6, "p2": 6, "p3": -8, "p4": -4}


def test_du_coeurs_tables_of_seven_and_eight(db):
    # Seven: 6 cards each, 10 in the middle; stakes 3 / 2, prize 10, break-even 6.
    # Seat 1 deals and takes the 12 left over: final 20.
    #   s1 -3 + (20-6)/2 = 4; s2 -2 + 0 = -2; s3 -2 + 10 + (4-6)/2 = 7; s4 -2 + 2 = 0;
    #   s5 -2 - 2 = -4; s6 -2 + 0 = -2; s7 -2 - 1 = -3.  (0 in all)
    # Eight: 5 cards each, 12 in the middle; stakes 3 / 2, prize 11, break-even 5, odd:
    # a pile above it wins (final - 5 + 1)/2, one below loses (5 - final + 1)/2.
    # Seat 1 (of the eight, p8) deals and takes the 12: final 18.
    #   s1 -3 + (18-5+1)/2 = 4; s2 (4) -2 - 1 = -3; s3 (8) -2 + 2 = 0; s4 (0) -2 - 3 = -5;
    #   s5 (2, last in) -2 + 11 - 2 = 7; s6 (10) -2 + 3 = 1; s7 (4) -2 - 1 = -3;
    #   s8 (6) -2 + 1 = -1.  (0 in all)
    data = a_file("classic-stakes", [(seats(1, 7), [SEVEN]), (seats(8, 8), [EIGHT])], "du-coeur")
    _, points = standings_points(data)
    assert points == {
        "p1": 4,
        "p2": -2,
        "p3": 7,
        "p4": 0,
        "p5": -4,
        "p6": -2,
        "p7": -3,
        "p8": 4,
        "p9": -3,
        "p10": 0,
        "p11": -5,
        "p12": 7,
        "p13": 1,
        "p14": -3,
        "p15": -1,
    }


def test_du_coeurs_low_stakes_at_eight(db):
    # Eight at low stakes: stakes 2 (dealer) / 1, prize 3, break-even 5 (odd, as above).
    #   s1 (18) -2 + 7 = 5; s2 (4) -1 - 1 = -2; s3 (8) -1 + 2 = 1; s4 (0) -1 - 3 = -4;
    #   s5 (2, last in) -1 + 3 - 2 = 0; s6 (10) -1 + 3 = 2; s7 (4) -1 - 1 = -2;
    #   s8 (6) -1 + 1 = 0.  (0 in all)
    data = a_file("classic-stakes", [(seats(1, 8), [EIGHT])], "du-coeur-low-stakes")
    _, points = standings_points(data)
    assert points == {
        "p1": 5,
        "p2": -2,
        "p3": 1,
        "p4": -4,
        "p5": 0,
        "p6": 2,
        "p7": -2,
        "p8": 0,
    }


def test_caidis_scores_the_order_the_seats_lay_down(db):
    # The k-th of n = 4 to lie down nets 2k - 5 (-3, -1, +1), the last in +3; then the
    # seat with the most cards (the left over on the dealer's pile) wins 1 from the dealer.
    # Deal 1, seat 1 deals; down: seat 4, seat 3, seat 1; seat 2 last in.
    #   s4 -3, s3 -1, s1 +1, s2 +3. Most cards: seat 1, 10 + 24 = 34, the dealer: no
    #   change.  s1 1, s2 3, s3 -1, s4 -3.
    # Deal 2, seat 2 deals; down: seat 2, seat 1, seat 3; seat 4 last in.
    #   s2 -3, s1 -1, s3 +1, s4 +3. Most cards: seat 1's 26 (the dealer has 2 + 8 = 10):
    #   seat 1 wins 1 from seat 2.  s1 0, s2 -4, s3 1, s4 3.
    # p1 1 + 0 = 1, p2 3 - 4 = -1, p3 -1 + 1 = 0, p4 -3 + 3 = 0.
    deals = [
        {**FOUR[0], "laid_down": [4, 3, 1]},
        {"won": [26, 2, 10, 6], "last_in": 4, "left_over": 8, "laid_down": [2, 1, 3]},
    ]
    data = a_file("caidis", [(seats(1, 4), deals)], "standard")
    scoring, points = standings_points(data)
    assert scoring == "caidis"
    assert points == {"p1": 1, "p2": -1, "p3": 0, "p4": 0}


HOUSE = {
    "left_over_to": "last-in",
    "tables": {
        "5": {
            "cards_each": 8,
            "table_cards": 12,
            "dealer_stake": 3,
            "other_stake": 2,
            "last_in_prize": 5,
            "break_even": 8,
        },
        "4": {
            "cards_each": 10,
            "table_cards": 12,
            "dealer_stake": 5,
            "other_stake": 1,
            "last_in_prize": 4,
            "break_even": 12,
        },
    },
}


def test_house_rule_numbers_score_as_the_file_gives_them(db):
    # The house four: stakes 5 (dealer) / 1, prize 4, break-even 12; the left over goes
    # to the last in. Not zero-sum: each deal's nets add up to -8 + 4 + (52 - 48)/2 = -2.
    # Deal 1, seat 1 deals, seat 2 last in takes the 24: final 32.
    #   s1 -5 + (10-12)/2 = -6; s2 -1 + 4 + (32-12)/2 = 13; s3 -1 + (6-12)/2 = -4;
    #   s4 -1 + (4-12)/2 = -5.  (-2 in all)
    # Deal 2, seat 2 deals, seat 4 last in takes the 22: final 28.
    #   s1 -1 + 0 = -1; s2 -5 + (2-12)/2 = -10; s3 -1 + (10-12)/2 = -2;
    #   s4 -1 + 4 + (28-12)/2 = 11.  (-2 in all)
    # p1 -6 - 1 = -7, p2 13 - 10 = 3, p3 -4 - 2 = -6, p4 -5 + 11 = 6.
    data = a_file("classic-stakes", [(seats(1, 4), FOUR)], HOUSE)
    _, points = standings_points(data)
    assert points == {"p1": -7, "p2": 3, "p3": -6, "p4": 6}
    tournament = Tournament.objects.get()
    assert tournament.rule_set == "house"
    # Kept in RuleSet.as_data's shape: every size's six numbers, the smallest first.
    assert tournament.house_rules == {"left_over_to": "last-in", "tables": {**HOUSE["tables"]}}
    assert list(tournament.house_rules["tables"]) == ["4", "5"]
    exported = writing.export_tournament(tournament)
    assert exported["rule_set"] == tournament.house_rules
