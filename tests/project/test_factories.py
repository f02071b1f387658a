"""The factories build what the rest of the suite tests against, so they must build what
the app itself would: deals with a result per seat, seats whose stored sums match their
deals (the standings read the sums), and the same tournament a file import gives."""

import pytest

from tests.factories import (
    DealFactory,
    PlayerFactory,
    RoundFactory,
    SheetFactory,
    TableFactory,
    TournamentFactory,
    make_players,
    played_tournament,
    seated_round,
)
from tests.seat_sums import from_deals, stored
from tournament.models import DealResult, Seat, SheetStatus, Table
from tournament.sheets.reading import confirmed_rows, sheet_of
from tournament.standings.services import tournament_standings
from tournament.tournament_file import writing

ROWS = [
    {"won": [6, 4, 10, 0, 8], "last_in": 5, "left_over": 24},
    {"won": [10, 10, 0, 12, 0], "last_in": 3, "left_over": 20},
]


def test_a_table_of_a_size_seats_new_players_of_its_tournament(db):
    table = TableFactory(size=4, round=RoundFactory(number=1))
    seats = list(table.seats.order_by("position"))
    assert [seat.position for seat in seats] == [1, 2, 3, 4]
    assert {seat.player.tournament for seat in seats} == {table.round.tournament}
    assert {seat.round for seat in seats} == {table.round}


def test_a_table_of_a_size_joins_a_tournament_that_has_players(db):
    tournament = TournamentFactory()
    round_ = seated_round(tournament, make_players(tournament, 12))
    table = TableFactory(round=round_, number=4, size=6)
    assert tournament.players.count() == 18
    assert table.seats.count() == 6


def test_a_table_seats_the_players_given_in_order(db):
    tournament = TournamentFactory()
    players = PlayerFactory.create_batch(3, tournament=tournament)
    table = TableFactory(round=RoundFactory(tournament=tournament), players=players[::-1])
    assert [seat.player for seat in table.seats.order_by("position")] == players[::-1]


def test_a_table_is_given_players_or_a_size_not_both(db):
    tournament = TournamentFactory()
    with pytest.raises(ValueError, match="either players or a size"):
        TableFactory(
            round=RoundFactory(tournament=tournament),
            players=[PlayerFactory(tournament=tournament)],
            size=5,
        )


def test_a_deal_has_a_result_per_seat_and_the_seats_sums_follow(db):
    table = TableFactory(size=5, round=RoundFactory(number=1))
    first = DealFactory(table=table, row=ROWS[0])
    second = DealFactory(table=table, row=ROWS[1])
    assert (first.number, second.number) == (1, 2)
    assert list(
        DealResult.objects.filter(deal=second).order_by("seat").values_list("won", flat=True)
    ) == [10, 10, 0, 12, 0]
    assert confirmed_rows(table) == ROWS
    assert stored(table) == from_deals(table)
    assert stored(table)[0].won == 16


def test_a_deal_without_a_row_is_a_valid_deal_of_its_table(db):
    deal = DealFactory(table=TableFactory(size=4, round=RoundFactory(number=1)))
    assert len(confirmed_rows(deal.table)[0]["won"]) == 4
    assert stored(deal.table) == from_deals(deal.table)


def test_a_table_built_with_deals_has_them_confirmed_and_its_sums_right(db):
    table = TableFactory(size=5, round=RoundFactory(number=1), deals=ROWS)
    assert confirmed_rows(table) == ROWS
    assert stored(table) == from_deals(table)
    sheet = sheet_of(table)
    assert sheet.status == SheetStatus.CONFIRMED
    # Two deals of the five a round of one rotation has.
    assert sheet.stopped_early


def test_a_sheet_defaults_to_not_started(db):
    assert SheetFactory().status == SheetStatus.NOT_STARTED


def test_a_seated_round_with_deals_counts_in_the_standings(db):
    tournament = TournamentFactory()
    players = PlayerFactory.create_batch(10, tournament=tournament)
    round_ = seated_round(
        tournament, players, released=True, deals=lambda table, size: ROWS[:1] * size
    )
    assert [table.seats.count() for table in round_.tables.all()] == [5, 5]
    for table in Table.objects.filter(round=round_):
        assert stored(table) == from_deals(table)
        assert not sheet_of(table).stopped_early
    # Both tables played the same deals: each seat scores what its opposite number does.
    # By player, not by name: two of the factories' random names may be the same.
    points = {row.key: row.points for row in tournament_standings(tournament).standings.rows}
    assert [points[p.pk] for p in players[:5]] == [points[p.pk] for p in players[5:]]
    assert len(set(points.values())) > 1


@pytest.mark.parametrize(
    "shape",
    [
        {"players": 12, "rounds": 2},
        {"players": 11, "rounds": 2, "rotations": 2, "absent": {2: [0, 1]}},
        {"players": 13, "rounds": 3, "stopped_early": {2: (1, 3)}, "date": "2026-12-05"},
    ],
)
def test_a_played_tournament_is_the_one_its_file_would_import(make_tournament, shape):
    imported = make_tournament(slug="imported", **shape)
    built = played_tournament(slug="built", **shape)
    assert Seat.objects.filter(round__tournament=built).count() > 0
    for table in Table.objects.filter(round__tournament=built):
        assert stored(table) == from_deals(table)

    def exported(tournament):
        data = writing.export_tournament(tournament)
        # Two tournaments of one installation: their rows' ids differ.
        del data["slug"], data["key"]
        for player in data["players"]:
            del player["key"]
        return data

    assert exported(built) == exported(imported)
    assert [
        (row.name, row.points, row.rank) for row in tournament_standings(built).standings.rows
    ] == [(row.name, row.points, row.rank) for row in tournament_standings(imported).standings.rows]
