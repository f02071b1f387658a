"""Seating under a rule set: a tournament's rounds use the organiser's table sizes that
its rules allow (``rounds.seating_request.seating_sizes``), tables of 7 and 8 under du
Coeur's; and ``plan_seating --rule-set``."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from scoring.seating import SeatingError
from tests.factories import PlayerFactory, TournamentFactory
from tournament.models import Seat, Sheet, Tournament
from tournament.rounds import seating
from tournament.rounds.seating_request import seating_sizes
from tournament.rounds.services import start_round

# House rules seating four and six only: 10 cards each and 12 in the middle at four, 7
# and 10 at six (the numbers of the standard table).
FOURS_AND_SIXES = {
    "left_over_to": "dealer",
    "tables": {
        "4": {
            "cards_each": 10,
            "table_cards": 12,
            "dealer_stake": 3,
            "other_stake": 2,
            "last_in_prize": 3,
            "break_even": 10,
        },
        "6": {
            "cards_each": 7,
            "table_cards": 10,
            "dealer_stake": 3,
            "other_stake": 2,
            "last_in_prize": 5,
            "break_even": 6,
        },
    },
}


@pytest.mark.parametrize(
    ("fields", "sizes"),
    [
        ({"table_sizes": [4, 5, 6]}, (4, 5, 6)),
        ({"rule_set": "du-coeur", "table_sizes": [4, 5, 6, 7, 8]}, (4, 5, 6, 7, 8)),
        ({"rule_set": "du-coeur", "table_sizes": [5, 8]}, (5, 8)),
        # The standard rules seat no seven: the four stays.
        ({"table_sizes": [4, 5, 7]}, (4, 5)),
        # Nothing beside five is left: five and the nearest sizes on either side.
        ({"table_sizes": [5, 7, 8]}, (4, 5, 6)),
        ({"scoring": "caidis", "table_sizes": [5, 6]}, (4, 5)),
        ({"scoring": "caidis", "rule_set": "du-coeur", "table_sizes": [5, 7]}, (4, 5)),
        # Five alone, by choice, stays five alone.
        ({"rule_set": "du-coeur", "table_sizes": [5]}, (5,)),
        # House rules without five and none of the organiser's sizes.
        ({"rule_set": "house", "house_rules": FOURS_AND_SIXES, "table_sizes": [5]}, (4, 6)),
    ],
)
def test_the_sizes_a_round_uses_are_those_the_rules_allow(fields, sizes):
    assert seating_sizes(Tournament(**fields)) == sizes


def tournament_of(players, **settings):
    tournament = TournamentFactory(planned_rounds=3, **settings)
    PlayerFactory.create_batch(players, tournament=tournament)
    return tournament


def table_sizes_of(round_):
    seats = Seat.objects.filter(round=round_).values_list("table__number", flat=True)
    return sorted((list(seats).count(number) for number in set(seats)), reverse=True)


@pytest.mark.django_db
def test_du_coeurs_rules_seat_a_table_of_seven_round_after_round():
    tournament = tournament_of(12, rule_set="du-coeur", table_sizes=[5, 7])
    for number in (1, 2, 3):
        round_ = seating.seat_next_round(tournament)
        assert round_.number == number
        assert table_sizes_of(round_) == [7, 5]
        assert Sheet.objects.filter(table__round=round_).count() == 2
        start_round(round_)
        tournament.refresh_from_db()


@pytest.mark.django_db
def test_du_coeurs_rules_offer_one_table_of_eight_beside_two_of_four():
    tournament = tournament_of(8, rule_set="du-coeur", table_sizes=[4, 5, 8])
    assert seating.splits_for(tournament)[:2] == [(4, 4), (8,)]
    round_ = seating.seat_next_round(tournament, split=(8,))
    assert table_sizes_of(round_) == [8]
    assert sorted(Seat.objects.filter(round=round_).values_list("position", flat=True)) == list(
        range(1, 9)
    )


@pytest.mark.django_db
def test_a_size_the_rules_refuse_is_never_used():
    # Stored before the rule set was chosen: seven is not a standard table.
    tournament = tournament_of(12, table_sizes=[4, 5, 6, 7])
    assert all(7 not in split for split in seating.splits_for(tournament))
    assert table_sizes_of(seating.seat_next_round(tournament)) == [6, 6]


@pytest.mark.django_db
def test_caidis_scoring_seats_no_six():
    tournament = tournament_of(12, scoring="caidis", table_sizes=[5, 6])
    assert all(6 not in split for split in seating.splits_for(tournament))
    assert table_sizes_of(seating.seat_next_round(tournament)) == [4, 4, 4]


@pytest.mark.django_db
def test_a_chosen_split_the_rules_refuse_is_refused_in_words():
    tournament = tournament_of(12, table_sizes=[4, 5, 6])
    with pytest.raises(SeatingError, match="Tables seat 3 to 6 players under these rules"):
        seating.seat_next_round(tournament, split=(7, 5))


# --- plan_seating --rule-set -----------------------------------------------------------


def plan_seating(*args):
    out = io.StringIO()
    call_command("plan_seating", *args, stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize("key", ["du-coeur", "du-coeur-low-stakes"])
def test_plan_seating_seats_seven_at_one_table_under_du_coeurs_rules(key):
    data = plan_seating("--players", "7", "--rounds", "3", "--rule-set", key)
    assert data["players"] == 7
    assert [[sorted(table) for table in tables] for tables in data["rounds"]] == [
        [list(range(1, 8))]
    ] * 3
    # Everyone meets all six others every round: 21 pairs meet twice more.
    assert data["quality"] == {"repeat_meetings": 42, "max_meetings": 3, "lower_bound": 42}


def test_plan_seating_seats_eight_at_fours_or_at_one_table_of_eight():
    fours = plan_seating("--players", "8", "--rounds", "2", "--rule-set", "du-coeur")
    assert [[len(table) for table in tables] for tables in fours["rounds"]] == [[4, 4]] * 2
    eight = plan_seating(
        "--players", "8", "--rounds", "2", "--rule-set", "du-coeur", "--sizes", "8"
    )
    assert [[len(table) for table in tables] for tables in eight["rounds"]] == [[8]] * 2
    assert eight["quality"] == {"repeat_meetings": 28, "max_meetings": 2, "lower_bound": 28}


def test_plan_seating_in_text_names_every_seat_of_a_table_of_eight():
    out = io.StringIO()
    call_command(
        "plan_seating",
        *("--players", "16", "--rounds", "2", "--rule-set", "du-coeur", "--sizes", "8"),
        *("--format", "text"),
        stdout=out,
    )
    tables = [line for line in out.getvalue().splitlines() if line.startswith("  table")]
    assert len(tables) == 4
    assert all(len(line.split(":")[1].split()) == 8 for line in tables)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rule-set", "du-coer"], '"du-coer" is not a rule set; the rule sets are "standard"'),
        (
            ["--rule-set", "standard", "--sizes", "5,7"],
            'the rule set "standard" seats tables of 3 to 6 players, not 7$',
        ),
        (
            ["--sizes", "7,8"],
            "not 7 or 8; --rule-set du-coeur or du-coeur-low-stakes seats them",
        ),
        (["--rule-set", "du-coeur", "--sizes", "9"], "3 to 8 players, not 9"),
    ],
)
def test_plan_seating_refuses_a_rule_set_or_sizes_it_does_not_know(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("plan_seating", "--players", "15", "--rounds", "2", *args)
