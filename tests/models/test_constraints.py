"""The rules the database itself holds, whatever code writes the rows.

Each case breaks one rule with a direct write (no service, no form) and expects the
database to refuse it; the valid write beside it proves the setup is not what fails.
"""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import PlayerFactory, RoundFactory, TableFactory, record_deal, seat_table
from tournament.models import Bye, Deal, DealResult, Round, Seat, Table


@pytest.fixture
def table(db):
    table = TableFactory(number=1, round=RoundFactory(number=1, started=True))
    players = [PlayerFactory(tournament=table.round.tournament) for _ in range(5)]
    seat_table(table, players)
    return table


def _refused(write):
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def _deal(table, **changes):
    facts = {"table": table, "number": 1, "last_in": 5, "left_over": 24} | changes
    return Deal.objects.create(**facts)


@pytest.mark.parametrize(
    ("rule", "changes"),
    [
        ("left over is even", {"left_over": 23}),
        ("left over is at least 2", {"left_over": 0}),
        ("last in is a seat", {"last_in": 9}),
        ("last in is a seat", {"last_in": 0}),
        ("deal numbers start at 1", {"number": 0}),
    ],
)
def test_a_deal_breaking_a_rule_is_refused(table, rule, changes):
    _refused(lambda: _deal(table, **changes))
    assert not Deal.objects.exists()
    _deal(table)  # the same deal without the broken rule is stored


def test_deal_numbers_are_unique_per_table(table):
    _deal(table)
    _refused(lambda: _deal(table))
    other = TableFactory(number=2, round=table.round)
    _deal(other)  # the same number at another table is fine


@pytest.mark.parametrize(("rule", "won"), [("won is even", 7), ("won is not negative", -2)])
def test_a_result_breaking_a_rule_is_refused(table, rule, won):
    deal = _deal(table)
    _refused(lambda: DealResult.objects.create(deal=deal, seat=1, won=won))
    DealResult.objects.create(deal=deal, seat=1, won=6)


def test_one_result_per_seat_per_deal(table):
    deal = record_deal(table, 1, [6, 4, 10, 0, 8], last_in=5, left_over=24)
    _refused(lambda: DealResult.objects.create(deal=deal, seat=3, won=2))
    _refused(lambda: DealResult.objects.create(deal=deal, seat=9, won=2))


def test_a_player_sits_once_per_round(table):
    player = table.seats.get(position=1).player
    other_table = TableFactory(number=2, round=table.round)
    _refused(
        lambda: Seat.objects.create(table=other_table, round=table.round, position=1, player=player)
    )
    # ... even when the copy of the round on the seat is given wrongly.
    later = Round.objects.create(tournament=table.round.tournament, number=2)
    _refused(lambda: Seat.objects.create(table=other_table, round=later, position=1, player=player))
    later_table = Table.objects.create(round=later, number=1)
    Seat.objects.create(table=later_table, round=later, position=1, player=player)


def test_a_seat_cannot_move_to_another_rounds_table(table):
    later = Round.objects.create(tournament=table.round.tournament, number=2)
    later_table = Table.objects.create(round=later, number=1)
    seat = table.seats.get(position=1)
    _refused(lambda: Seat.objects.filter(pk=seat.pk).update(table=later_table))


@pytest.mark.parametrize("position", [0, 9])
def test_seat_positions_are_seats(table, position):
    player = PlayerFactory(tournament=table.round.tournament)
    other = TableFactory(number=2, round=table.round)
    _refused(
        lambda: Seat.objects.create(
            table=other, round=table.round, position=position, player=player
        )
    )


def test_seat_positions_are_unique_per_table(table):
    player = PlayerFactory(tournament=table.round.tournament)
    _refused(lambda: Seat.objects.create(table=table, round=table.round, position=2, player=player))


def test_round_and_table_numbers_are_unique(table):
    _refused(lambda: Round.objects.create(tournament=table.round.tournament, number=1))
    _refused(lambda: Table.objects.create(round=table.round, number=1))


def test_a_bye_once_per_round(table):
    player = PlayerFactory(tournament=table.round.tournament)
    Bye.objects.create(round=table.round, player=player)
    _refused(lambda: Bye.objects.create(round=table.round, player=player))
