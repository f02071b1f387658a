"""Each seat keeps its sums over its table's confirmed deals, and they always match the
deals: written by an import, filled in by the migration that added them (confirmations
and corrections: tests/sheets/test_sheets.py). The standings read them, so a stale sum would be
a wrong standing."""

import importlib

import pytest
from django.apps import apps

from scoring.plays import Entrant, TablePlay
from scoring.rules import DealFacts
from scoring.standings import compute_standings as compute
from scoring.systems import ScoringSystem, SeatSums
from tests.seat_sums import from_deals, stored
from tournament.models import Seat, Tournament
from tournament.sheets.reading import confirmed_rows
from tournament.standings.services import tournament_standings
from tournament.tournament_file import loading, writing


def test_an_imported_tournament_stores_the_sums_of_its_deals(make_tournament):
    source = make_tournament(players=12, rounds=2, rotations=1, slug="source")
    data = writing.export_tournament(source)
    data["slug"] = "copy"
    copy = loading.import_tournament(data).tournament
    tables = [seat.table for seat in Seat.objects.filter(round__tournament=copy, position=1)]
    assert len(tables) >= 4
    for table in tables:
        assert stored(table) == from_deals(table)
        assert stored(table)[0].deals == len(table.seats.all())  # one rotation


def test_the_migration_fills_in_the_sums_of_existing_deals(make_tournament):
    tournament = make_tournament(players=11, rounds=2, rotations=2, slug="old")
    tables = {seat.table for seat in Seat.objects.filter(round__tournament=tournament)}
    expected = {table.pk: from_deals(table) for table in tables}
    assert any(sums[0].deals for sums in expected.values())
    Seat.objects.update(**Seat.sum_values(SeatSums(0, 0, 0, 0, 0, 0)))

    migration = importlib.import_module("tournament.migrations.0006_seat_sums")
    migration.fill_seat_sums(apps, None)
    classic = importlib.import_module("tournament.migrations.0014_leaves_and_adjustments")
    classic.fill_classic_sums(apps, None)
    assert {table.pk: stored(table) for table in tables} == expected


def test_the_classic_sums_are_filled_in_at_each_tables_size(make_tournament):
    tournament = make_tournament(players=11, rounds=1, rotations=1, slug="sizes")
    tables = {seat.table for seat in Seat.objects.filter(round__tournament=tournament)}
    expected = {table.pk: from_deals(table) for table in tables}
    assert len({len(sums) for sums in expected.values()}) > 1  # tables of two sizes
    Seat.objects.update(sum_stakes=0, sum_prizes=0, sum_break_even=0)

    classic = importlib.import_module("tournament.migrations.0014_leaves_and_adjustments")
    classic.fill_classic_sums(apps, None)
    assert {table.pk: stored(table) for table in tables} == expected


@pytest.mark.parametrize("system", ["winner-advantage", "classic-stakes"])
def test_standings_from_the_stored_sums_equal_scoring_each_deal(make_tournament, system):
    tournament = make_tournament(players=13, rounds=3, rotations=2, slug="both")
    Tournament.objects.filter(pk=tournament.pk).update(scoring=system)
    tournament.refresh_from_db()
    plays = []
    for table in {seat.table for seat in Seat.objects.filter(round__tournament=tournament)}:
        players = tuple(table.seats.order_by("position").values_list("player_id", flat=True))
        rows = confirmed_rows(table)
        deals = tuple(
            (n, DealFacts(tuple(r["won"]), r["last_in"], r["left_over"]))
            for n, r in enumerate(rows, start=1)
        )
        plays.append(TablePlay(table.round.number, players, deals))
    entrants = [Entrant(p.pk, p.name) for p in tournament.players.all()]
    one_by_one = compute(
        entrants, plays, ScoringSystem(system), tournament.tiebreaks, (1, 2, 3)
    ).rows
    assert tournament_standings(tournament).standings.rows == one_by_one
