"""One truth on every screen: a set of evenings with every state the standings know (a
table released without a result at round 1 and at a later round, a player waiting on two
rounds, a player who left, a penalty and an award, a correction after confirmation, a
withheld round, a bye), and for every player, every surface saying what its view says:
the standings page, the projector, the final page, a round's page, the player's page,
the card, the CSV, the ``standings`` command's JSON, the series' inputs; and the
organiser's view on the organiser's pages and the command."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import player_of
from tournament.models import Bye, Deal, Player, Round, Sheet, Table, Tournament
from tournament.players.adjustments import NewAdjustment, add_adjustment
from tournament.public.projector import _standings_board as standings_board
from tournament.rounds.services import withhold_round
from tournament.series.administration import SeriesSettings, create_series
from tournament.series.facts import counted_tournaments, gather_facts
from tournament.shared.derived import (
    DerivedState,
    load_view,
    organiser_view,
    public_view,
    rank_label,
)
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.facts import write_seat_sums
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.saving import save_sheet
from tournament.standings.files import file_rank


def _unscore(table: Table) -> None:
    """The table's result taken away, as if its sheet had never been confirmed."""
    Deal.objects.filter(table=table).delete()
    write_seat_sums(table, [])
    Sheet.objects.filter(table=table).delete()


def _table(tournament: Tournament, number: int, table: int) -> Table:
    return Table.objects.get(round__tournament=tournament, round__number=number, number=table)


@pytest.fixture
def evening(make_played, organiser, scorer, second_scorer):
    """Four rounds planned, three played: round 1's table 2 and round 2's table of one of
    its players without a result (that player waits on both), round 3 withheld, a
    player who dropped out, a penalty and an award, a confirmed sheet corrected, and a
    bye in round 2."""
    tournament = make_played(
        players=15, rounds=3, planned_rounds=5, absent={2: [14]}, slug="one-truth"
    )
    tournament.owner = organiser
    tournament.save()
    tournament.scorers.add(scorer, second_scorer)
    # Round 1, table 2 released without a result; round 2's table of one of its players
    # too: that player waits on two rounds.
    first = _table(tournament, 1, 2)
    twice = first.seats.order_by("position")[0].player
    _unscore(first)
    second = Table.objects.get(round__tournament=tournament, round__number=2, seats__player=twice)
    _unscore(second)
    # A bye in round 2 for the player who was not seated.
    absent = Player.objects.get(tournament=tournament, ref="p15")
    Bye.objects.create(round=Round.objects.get(tournament=tournament, number=2), player=absent)
    # A player who dropped out.
    gone = player_of(tournament, 3, 1, 2)
    gone.active = False
    gone.save(update_fields=["active"])
    # A penalty and an award.
    penalised = player_of(tournament, 1, 1, 1)
    awarded = player_of(tournament, 3, 2, 3)
    add_adjustment(tournament, NewAdjustment(penalised.pk, 1, -5, "misdeal"), organiser)
    add_adjustment(tournament, NewAdjustment(awarded.pk, 3, 4, "dispute settled"), organiser)
    # A correction of a confirmed sheet (round 2, table 3): the last deal's counts of
    # seats 1 and 2 swapped, typed at the desk and confirmed by someone else.
    corrected = _table(tournament, 2, 3)
    rows = [dict(row) for row in confirmed_rows(corrected)]
    won = list(rows[-1]["won"])
    won[0], won[1] = won[1], won[0]
    rows[-1] = {**rows[-1], "won": won}
    sheet = Sheet.objects.get(table=corrected)
    saved = save_sheet(corrected, scorer, rows, expected_version=sheet.version, final=True)
    confirm_sheet(corrected, second_scorer, expected_version=saved.sheet.version)
    # Round 3 withheld: the organiser's view counts it, the public's does not.
    withhold_round(Round.objects.get(tournament=tournament, number=3))
    tournament.refresh_from_db()
    return {
        "tournament": tournament,
        "twice": twice,
        "bye": absent,
        "gone": gone,
        "penalised": penalised,
        "awarded": awarded,
    }


def _state(tournament: Tournament) -> DerivedState:
    tournament.refresh_from_db()
    state = public_view(tournament)
    assert state is not None
    return state


def test_the_evening_holds_every_state(evening):
    tournament = evening["tournament"]
    state = _state(tournament)
    assert state.round_numbers == (1, 2)
    twice = evening["twice"].pk
    assert [number for number, _ in state.waits[twice]] == [1, 2]
    assert state.standing_of(twice).waiting_words.startswith("No result yet for round 1 (table 2)")
    # The bye counts, the withheld round does not, the penalty (round 1) does.
    assert state.byes[evening["bye"].pk] == frozenset({2})
    penalised = state.rows[evening["penalised"].pk].tally
    assert [each.points for each in penalised.adjustments] == [-5]
    organiser = organiser_view(tournament)
    assert organiser is not None
    assert organiser.round_numbers == (1, 2, 3)
    awarded = organiser.rows[evening["awarded"].pk].tally
    assert [each.points for each in awarded.adjustments] == [4]


def _words(state: DerivedState, pk: int) -> tuple[str, str, str]:
    standing = state.standing_of(pk)
    return standing.rank_label, standing.points_words, standing.waiting_words


def test_every_public_surface_says_what_the_public_view_says(client, evening):
    tournament = evening["tournament"]
    state = _state(tournament)
    slug = tournament.slug
    players = list(Player.objects.filter(tournament=tournament))

    standings = client.get(reverse("standings", args=[slug]))
    records = {
        int(record["url"].rstrip("/").rpartition("/")[2]): record
        for record in standings.context["table"].data.data
    }
    # Round 3 withheld is being played again as far as the room can tell: the projector
    # shows its seating; its standings board is the one drawn once the round is out.
    projector = client.get(reverse("projector", args=[slug]))
    assert projector.context["mode"] == "seating"
    board = {
        line.row.key: line
        for page in standings_board(tournament)["layout"].pages
        for column in page
        for line in column
    }
    final = client.get(reverse("final", args=[slug]))
    final_rows = {line["row"].key: line for line in final.context["rows"]}
    table_csv = list(
        csv.DictReader(
            io.StringIO(
                client.get(reverse("standings_csv", args=[slug])).content.decode().lstrip("\ufeff")
            )
        )
    )
    by_name_csv = {row["name"]: row for row in table_csv}
    out = io.StringIO()
    call_command("standings", slug, "--public", "--format", "json", stdout=out)
    json_rows = {row["player_id"]: row for row in json.loads(out.getvalue())["rows"]}

    for player in players:
        row = state.rows[player.pk]
        rank, points_words, waiting = _words(state, player.pk)
        where = f"{player.name} ({player.ref})"
        # The standings page.
        record = records[player.pk]
        assert record["rank"] == rank, where
        assert record["waiting"] == waiting, where
        # The projector and the final page: the same rank; no points for a result to come.
        assert rank_label(board[player.pk].row) == rank, where
        assert board[player.pk].scored == (not waiting and row.has_result), where
        assert final_rows[player.pk]["rank"] == rank, where
        # The files.
        assert by_name_csv[player.name]["rank"] == str(file_rank(row)), where
        assert by_name_csv[player.name]["points"] == str(row.points), where
        assert json_rows[player.ref]["rank"] == row.rank, where
        assert json_rows[player.ref]["points"] == row.points, where
        assert json_rows[player.ref]["no_result_yet"] == [
            n for n, _ in state.waits.get(player.pk, ())
        ]
        # The player's page and the card say it in the same words.
        page = client.get(reverse("player", args=[slug, player.pk])).content.decode()
        card = client.get(reverse("player_card", args=[slug, player.pk])).content.decode()
        summary = re.search(r'<dl class="facts player-summary">.*?</dl>', page, re.S)
        standing = re.search(r'<p class="my-card-standing">.*?</p>', card, re.S)
        assert summary, where
        assert standing, where
        for shown in (summary.group(0), standing.group(0)):
            if waiting:
                assert waiting in shown, where
            if points_words:
                assert points_words in shown, where
            zero = re.search(r"(?<![\d>])0 points", shown)
            assert zero is None or (row.points == 0 and row.has_result), where
        if row.rank is not None:
            assert f"{rank} of {state.field_size}" in page, where


def test_a_player_waiting_is_never_given_points_nobody_scored(client, evening):
    tournament = evening["tournament"]
    state = _state(tournament)
    twice = evening["twice"]
    row = state.rows[twice.pk]
    # Round 1 and round 2 at tables without a result: no result at all yet.
    assert not row.has_result
    card = client.get(reverse("player_card", args=[tournament.slug, twice.pk])).content.decode()
    page = client.get(reverse("player", args=[tournament.slug, twice.pk])).content.decode()
    assert "No result yet for round 1 (table 2) and round 2" in card
    assert "No result yet for round 1 (table 2) and round 2" in page
    assert re.search(r"\b0</strong> points", card) is None
    assert "Points</dt><dd>none yet" in page


def test_a_round_page_shows_the_view_s_tables(client, evening):
    tournament = evening["tournament"]
    state = _state(tournament)
    response = client.get(reverse("public_round", args=[tournament.slug, 1]))
    tables = {table.number: table for table in response.context["tables"]}
    assert tables[2].without_result
    for table in tables.values():
        for result in table.results:
            if table.without_result:
                continue
            # The round's total at the table is the row's round total, less its penalty.
            row = state.rows[result.seat.player_id]
            adjusted = sum(a.points for a in row.tally.adjustments if a.round_number == 1)
            assert row.tally.rounds[0] == result.points + adjusted


def test_the_series_reads_the_public_view(evening, organiser):
    tournament = evening["tournament"]
    state = _state(tournament)
    create_series("truth-season", SeriesSettings(name="Truth season"), [tournament.slug])
    from tournament.models import Series

    series = Series.objects.get(slug="truth-season")
    facts = gather_facts(counted_tournaments(series))[tournament.pk]
    places = {pk: (rank, points) for pk, _, rank, _, points in facts.places}
    ranked = {row.key: (row.rank, row.points) for row in state.standings.rows if row.rank}
    assert places == ranked


def test_the_organiser_s_pages_and_command_read_the_organiser_s_view(organiser_client, evening):
    tournament = evening["tournament"]
    state = organiser_view(tournament)
    assert state is not None
    response = organiser_client.get(reverse("organiser:standings", args=[tournament.slug]))
    records = {
        int(record["url"].rstrip("/").rpartition("/")[2]): record
        for record in response.context["table"].data.data
    }
    out = io.StringIO()
    call_command("standings", tournament.slug, "--format", "json", stdout=out)
    rows = {row["player_id"]: row for row in json.loads(out.getvalue())["rows"]}
    for player in Player.objects.filter(tournament=tournament):
        row = state.rows[player.pk]
        assert records[player.pk]["rank"] == rank_label(row)
        assert rows[player.ref]["rank"] == row.rank
        assert rows[player.ref]["points"] == row.points
    assert response.context["result"].standings.round_numbers == (1, 2, 3)


def test_the_views_are_stored_with_what_they_were_made_from(evening):
    tournament = evening["tournament"]
    for kind in ("public", "organiser"):
        state = load_view(tournament, kind)
        assert state is not None
        assert state.made_for == tournament.standings_version
        assert len(state.fingerprint) == 64
