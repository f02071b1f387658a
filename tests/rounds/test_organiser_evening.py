"""The organiser's evening: printing first on a started round, the question before starting
a round while the round before has unconfirmed sheets, each round's progress on the
overview, the seating bound the table sizes force, and user names matched ignoring case."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import SheetFactory, TournamentFactory, make_players, play_round
from tournament.models import Round, SheetStatus, Table
from tournament.rounds import seating, seating_quality, swaps


def _round_url(name, round_or_tournament, number=None):
    if number is None:
        return reverse(f"organiser:{name}", args=[round_or_tournament.slug])
    return reverse(f"organiser:{name}", args=[round_or_tournament.slug, number])


def _sheet(round_, table_number, status):
    SheetFactory(table=Table.objects.get(round=round_, number=table_number), status=status)


@pytest.fixture
def second_round(seated_round):
    """Round 2 seated as a draft after ``seated_round`` (three tables of four)."""
    return seating.seat_next_round(seated_round.tournament, seed=1)


def _start(client, round_, **extra):
    data = {"seating": swaps.seating_token(round_), **extra}
    return client.post(_round_url("round_start", round_.tournament, round_.number), data)


# Printing is the main action of a started round


def test_a_started_round_leads_with_printing(organiser_client, seated_round):
    html = organiser_client.get(_round_url("round", seated_round.tournament, 1)).content.decode()
    printing = html.index('class="round-print"')
    assert printing < html.index("Release results to the public")
    sheets = reverse("print:sheets", args=[seated_round.tournament.slug, 1])
    assert f'<a class="button big" href="{sheets}">Print score sheets</a>' in html
    assert "Print seating list" in html
    assert "Print rules cards" in html
    # Releasing is there, but not the main button.
    assert re.search(r'<button type="submit" class="secondary">Release results', html)


# Starting a round while the one before is unfinished


def test_starting_asks_first_and_names_the_tables(organiser_client, second_round):
    response = _start(organiser_client, second_round)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1: tables 1, 2 and 3 have no confirmed sheet. Start round 2 anyway?" in html
    assert 'name="confirm" value="on"' in html
    assert "Start round 2 anyway" in html
    second_round.refresh_from_db()
    assert not second_round.started


def test_confirming_starts_the_round(organiser_client, second_round):
    response = _start(organiser_client, second_round, confirm="on")
    assert response.status_code == 302
    second_round.refresh_from_db()
    assert second_round.started
    page = organiser_client.get(response["Location"]).content.decode()
    assert "Round 2 has started: print the score sheets." in page


def test_only_the_tables_without_a_confirmed_sheet_are_named(
    organiser_client, seated_round, second_round
):
    _sheet(seated_round, 1, SheetStatus.CONFIRMED)
    _sheet(seated_round, 2, SheetStatus.ENTERED)  # typed, awaiting the second person
    _sheet(seated_round, 3, SheetStatus.CONFIRMED)
    html = _start(organiser_client, second_round).content.decode()
    assert "Round 1: table 2 has no confirmed sheet. Start round 2 anyway?" in html


def test_with_every_sheet_confirmed_it_starts_at_once(organiser_client, seated_round, second_round):
    for number in (1, 2, 3):
        _sheet(seated_round, number, SheetStatus.CONFIRMED)
    assert _start(organiser_client, second_round).status_code == 302
    second_round.refresh_from_db()
    assert second_round.started


def test_the_first_round_starts_at_once(organiser_client, organiser):
    tournament = TournamentFactory(slug="first-night", owner=organiser)
    round_ = Round.objects.create(tournament=tournament, number=1)
    play_round(round_, [make_players(tournament, 4)])
    assert _start(organiser_client, round_).status_code == 302
    round_.refresh_from_db()
    assert round_.started


def test_a_stale_seating_is_still_refused_when_confirming(organiser_client, second_round):
    response = organiser_client.post(
        _round_url("round_start", second_round.tournament, 2),
        {"seating": "not-the-seating-shown", "confirm": "on"},
        follow=True,
    )
    assert "Round 2 was seated again, or had players swapped" in response.content.decode()
    second_round.refresh_from_db()
    assert not second_round.started


def test_the_rounds_page_warns_before_seating_the_next_round(organiser_client, seated_round):
    _sheet(seated_round, 2, SheetStatus.CONFIRMED)
    html = organiser_client.get(_round_url("rounds", seated_round.tournament)).content.decode()
    assert (
        "Round 1: tables 1 and 3 have no confirmed sheet yet. You may seat round 2 now; "
        "starting it will ask first." in html
    )
    _sheet(seated_round, 1, SheetStatus.CONFIRMED)
    _sheet(seated_round, 3, SheetStatus.CONFIRMED)
    html = organiser_client.get(_round_url("rounds", seated_round.tournament)).content.decode()
    assert "no confirmed sheet" not in html


def test_a_draft_round_is_not_warned_about(organiser_client, second_round):
    html = organiser_client.get(_round_url("rounds", second_round.tournament)).content.decode()
    assert "no confirmed sheet" not in html


def test_outsiders_and_scorers_cannot_start(outsider_client, scorer_client, client, second_round):
    assert _start(outsider_client, second_round, confirm="on").status_code == 404
    assert _start(scorer_client, second_round, confirm="on").status_code == 403
    assert _start(client, second_round, confirm="on").status_code == 302
    second_round.refresh_from_db()
    assert not second_round.started


# The overview's progress


def test_the_overview_shows_tables_confirmed_of_total(organiser_client, seated_round):
    _sheet(seated_round, 1, SheetStatus.CONFIRMED)
    _sheet(seated_round, 2, SheetStatus.DRAFT)
    html = organiser_client.get(_round_url("dashboard", seated_round.tournament)).content.decode()
    item = re.search(r'<li data-round="1">(.*?)</li>', html, re.S).group(1)
    assert "1 of 3 tables confirmed" in item


def test_the_overview_counts_in_one_query_however_many_rounds(organiser_client, organiser):
    counts = []
    for rounds in (1, 4):
        tournament = TournamentFactory(slug=f"rounds-{rounds}", owner=organiser)
        players = make_players(tournament, 8)
        for number in range(1, rounds + 1):
            round_ = Round.objects.create(tournament=tournament, number=number, started=True)
            play_round(round_, [players[:4], players[4:]])
        with CaptureQueriesContext(connection) as captured:
            html = organiser_client.get(_round_url("dashboard", tournament)).content.decode()
        assert html.count("0 of 2 tables confirmed") == rounds
        counts.append(len(captured))
    assert counts[0] == counts[1]


# The bound the table sizes force


def test_thirteen_players_at_five_four_four_must_meet_again_four_times(organiser_client, organiser):
    tournament = TournamentFactory(slug="thirteen", owner=organiser)
    players = make_players(tournament, 13)
    first = Round.objects.create(tournament=tournament, number=1, started=True)
    play_round(first, [players[:5], players[5:9], players[9:]])
    second = seating.seat_next_round(tournament, seed=1, split=(5, 4, 4))
    assert sorted(second.tables.values_list("number", flat=True)) == [1, 2, 3]
    html = organiser_client.get(_round_url("round", tournament, 2)).content.decode()
    assert "at least 4 repeats forced by the table sizes and who has met" in html
    figures = seating_quality.round_quality(second).quality
    assert figures.lower_bound == 4 <= figures.repeat_meetings


# User names ignoring case and surrounding spaces


def test_adding_a_scorer_ignores_case_and_spaces(organiser_client, organiser, django_user_model):
    tournament = TournamentFactory(slug="names", owner=organiser)
    user = django_user_model.objects.create_user("sarah", password="pw")
    response = organiser_client.post(
        _round_url("scorers", tournament), {"username": "  Sarah "}, follow=True
    )
    assert "sarah may now enter and confirm sheets." in response.content.decode()
    assert list(tournament.scorers.all()) == [user]


def test_an_exact_match_wins_and_otherwise_the_page_asks(
    organiser_client, organiser, django_user_model
):
    tournament = TournamentFactory(slug="names", owner=organiser)
    upper = django_user_model.objects.create_user("Sam", password="pw")
    django_user_model.objects.create_user("sam", password="pw")
    organiser_client.post(_round_url("scorers", tournament), {"username": " Sam "})
    assert list(tournament.scorers.all()) == [upper]
    response = organiser_client.post(_round_url("scorers", tournament), {"username": "SAM"})
    assert (
        "The user names “Sam”, “sam” differ only in capital letters: type the one you mean "
        "exactly." in response.content.decode()
    )
    assert list(tournament.scorers.all()) == [upper]


def test_an_unknown_name_is_named_stripped(organiser_client, organiser):
    tournament = TournamentFactory(slug="names", owner=organiser)
    response = organiser_client.post(_round_url("scorers", tournament), {"username": " nobody "})
    assert "No account is called “nobody”" in response.content.decode()
