"""A started round's seating is public before its results (unless the tournament keeps
seating private): the round's page, "Find my seat" on every public page, and the
"Now:" line of a player's page. Nothing of the round's sheets shows until it is
released."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RoundFactory, TournamentFactory
from tests.public_rounds import html, playing, seat
from tournament.models import Player, Seat, SheetStatus, Table
from tournament.public.room import deals_in_words

pytestmark = pytest.mark.usefixtures("empty_cache")


# The round's page ---------------------------------------------------------------------


def test_a_started_round_shows_its_tables_seats_and_first_dealer_and_no_scores(client, make_played):
    tournament = playing(make_played)
    # The round's sheets are confirmed: they must not show before the release.
    assert Table.objects.filter(
        round__tournament=tournament, round__number=2, sheet__status=SheetStatus.CONFIRMED
    ).exists()
    response = client.get(reverse("public_round", args=[tournament.slug, 2]))
    page = html(response)
    assert "results not released yet" in page
    for table in Table.objects.filter(round__tournament=tournament, round__number=2):
        assert f'id="table-{table.number}">Table {table.number}</h2>' in page
        names = [s.player.name for s in table.seats.order_by("position").select_related("player")]
        positions = [page.index(f">{name}</a>") for name in names]
        assert positions == sorted(positions), "seats in order"
    first = seat(tournament, 1, 1).player.name
    assert f'>{first}</a> <span class="badge ok">deals first</span>' in page
    assert "Late Larkin" in page
    assert "Sitting out" in page
    for result_word in ("Cards won", "Total", "table winner", "won by", "deals played"):
        assert result_word not in page
    assert "tables" not in response.context


def test_nothing_of_the_unreleased_round_shows_on_the_other_pages(client, make_played):
    tournament = playing(make_played)
    player = seat(tournament, 1, 2).player
    response = client.get(reverse("player", args=[tournament.slug, player.pk]))
    assert [r.round_number for r in response.context["rounds"]] == [1]
    page = html(response)
    assert page.count("of 4 deals") + page.count("of 5 deals") <= 1  # round 1's table only
    standings = client.get(reverse("standings", args=[tournament.slug]))
    assert standings.context["result"].standings.round_numbers == (1,)


def test_a_released_round_keeps_its_results(client, make_played):
    tournament = make_played(players=12, rounds=2)
    page = html(client.get(reverse("public_round", args=[tournament.slug, 2])))
    assert "Cards won" in page
    assert "results not released yet" not in page


def test_the_navigation_lists_the_seated_round(client, make_played):
    tournament = playing(make_played)
    seating_url = reverse("public_round", args=[tournament.slug, 2])
    for url in (
        reverse("standings", args=[tournament.slug]),
        reverse("final", args=[tournament.slug]),
        reverse("public_round", args=[tournament.slug, 1]),
        reverse("player", args=[tournament.slug, seat(tournament, 1, 1).player.pk]),
        reverse("find_seat", args=[tournament.slug]),
    ):
        page = html(client.get(url))
        assert f'href="{seating_url}">Round 2 <span class="tab-note">seating</span>' in page, url
        assert 'action="/t/test-open/seat/"' in page, url


def test_private_seating_is_no_page_and_is_not_listed(client, make_played):
    tournament = playing(make_played, seating_public=False)
    # As any round the public cannot see: to the nearest one it can.
    response = client.get(reverse("public_round", args=[tournament.slug, 2]))
    assert response.status_code == 302
    assert response["Location"] == reverse("public_round", args=[tournament.slug, 1])
    page = html(client.get(reverse("standings", args=[tournament.slug])))
    assert "/rounds/2/" not in page
    found = html(client.get(reverse("find_seat", args=[tournament.slug]), {"q": "Player"}))
    assert "The seating of round 2 is not published here" in found
    player = seat(tournament, 1, 1).player
    assert "Now:" not in html(client.get(reverse("player", args=[tournament.slug, player.pk])))


def test_a_round_not_started_or_of_another_number_goes_to_the_nearest_shown(client, make_played):
    tournament = playing(make_played)
    RoundFactory(tournament=tournament, number=3, started=False)
    for number in (3, 4):
        response = client.get(reverse("public_round", args=[tournament.slug, number]))
        assert response.status_code == 302
        # Round 2 is being played, its seating public.
        assert response["Location"] == reverse("public_round", args=[tournament.slug, 2])


def test_the_seating_page_queries_stay_flat(client, make_played, django_assert_num_queries):
    for players, slug in ((6, "small"), (40, "large")):
        tournament = playing(make_played, players=players, slug=slug)
        # The cache, the tournament, released rounds, current round, seats, byes.
        with django_assert_num_queries(6):
            html(client.get(reverse("public_round", args=[tournament.slug, 2])))


# Find my seat -------------------------------------------------------------------------


def find(client, tournament, q, **headers):
    return client.get(reverse("find_seat", args=[tournament.slug]), {"q": q}, **headers)


def test_find_my_seat_gives_table_seat_turn_and_opponents(client, make_played):
    tournament = playing(make_played)
    mine = seat(tournament, 2, 2)
    page = html(find(client, tournament, "  " + mine.player.name.upper() + " "))
    assert "Table 2, seat 2</strong> — deals second" in page
    for other in Seat.objects.filter(table=mine.table).exclude(pk=mine.pk):
        assert f'{other.player.name} <span class="muted">(seat {other.position})</span>' in page
    assert "1 match for" in page


def test_find_my_seat_lists_every_match_and_byes(client, make_played):
    tournament = playing(make_played)
    page = html(find(client, tournament, "player 000"))
    assert "10 matches" in page  # Player 0000 … Player 0009
    page = html(find(client, tournament, "lark"))
    assert 'Late Larkin</a> <span class="seat-where">sits out round 2</span>' in page


@pytest.mark.parametrize(
    ("q", "message"),
    [
        ("", "Type part of your name to find your seat."),
        ("   ", "Type part of your name to find your seat."),
        ("Nobody Here", "Nobody in round 2 has “Nobody Here” in their name"),
        ("x" * 101, "That is too long to look up (100 characters at most)"),
        ("x" * 201, "That is too long to look up (100 characters at most)"),
        ("x" * 5000, "That is too long to look up (100 characters at most)"),
        ("<script>", "Nobody in round 2 has “&lt;script&gt;” in their name"),
    ],
)
def test_find_my_seat_says_why_nothing_is_found(client, make_played, q, message):
    tournament = playing(make_played)
    assert message in html(find(client, tournament, q))


def test_find_my_seat_before_any_round_starts(client, db):
    tournament = TournamentFactory(slug="early", published=True)
    PlayerFactory(tournament=tournament, name="Ann")
    page = html(find(client, tournament, "Ann"))
    assert "No round has started yet" in page


def test_find_my_seat_in_a_released_round_says_so(client, make_played):
    tournament = make_played(players=12, rounds=2)
    page = html(find(client, tournament, seat(tournament, 1, 1).player.name))
    assert 'Round 2 <span class="muted">(results released)</span>' in page


def test_find_my_seat_answers_htmx_with_the_results_alone(client, make_played):
    tournament = playing(make_played)
    page = html(find(client, tournament, "Late", HTTP_HX_REQUEST="true"))
    assert "<html" not in page
    assert "sits out round 2" in page


def test_find_my_seat_of_a_private_tournament_is_a_404(client, make_played):
    tournament = playing(make_played, published=False)
    assert find(client, tournament, "Player").status_code == 404


def test_find_my_seat_queries_stay_flat(client, make_played, django_assert_num_queries):
    for players, slug in ((6, "small"), (40, "large")):
        tournament = playing(make_played, players=players, slug=slug)
        # The cache, the tournament, current round, seats, byes, released rounds.
        with django_assert_num_queries(6):
            html(find(client, tournament, "Player"))


def test_find_my_seat_reads_its_normalised_query(client, make_played):
    """A search is answered afresh, never stored (public.cache.SEARCHES), from the text as
    normalised."""
    tournament = playing(make_played)
    first = html(find(client, tournament, "player  0001"))
    assert html(find(client, tournament, " player 0001 ")) == first
    assert "Player 0001" in first


# The player's "Now:" line --------------------------------------------------------------


def test_the_player_page_says_where_they_sit_now(client, make_played):
    tournament = playing(make_played)
    mine = seat(tournament, 3, 2)
    page = html(client.get(reverse("player", args=[tournament.slug, mine.player.pk])))
    assert "Now: round 2, table 3, seat 2 — deals second" in page
    now = page[page.index("now-playing") :]
    now = now[: now.index("</p>")]
    for other in Seat.objects.filter(table=mine.table).exclude(pk=mine.pk):
        assert other.player.name in now
    assert mine.player.name not in now


def test_the_player_page_of_a_bye(client, make_played):
    tournament = playing(make_played)
    late = Player.objects.get(tournament=tournament, ref="late")
    page = html(client.get(reverse("player", args=[tournament.slug, late.pk])))
    assert "Now: sitting out round 2" in page


def test_no_now_line_once_the_round_is_released(client, make_played):
    tournament = make_played(players=12, rounds=2)
    page = html(
        client.get(reverse("player", args=[tournament.slug, seat(tournament, 1, 1).player.pk]))
    )
    assert "Now:" not in page


def test_the_player_page_pays_two_queries_for_now(client, make_played, django_assert_num_queries):
    for players, slug in ((6, "small"), (40, "large")):
        tournament = playing(make_played, players=players, slug=slug)
        url = reverse("player", args=[tournament.slug, seat(tournament, 1, 1).player.pk])
        # The page cache's lookup, the tournament, the public view and its chances, the
        # round being played and the player's table there, the player's tables of the
        # released rounds and their deals, and the view's tables of those rounds.
        with django_assert_num_queries(9):
            html(client.get(url))


@pytest.mark.parametrize(
    ("position", "words"), [(1, "deals first"), (2, "deals second"), (6, "deals sixth")]
)
def test_turns_in_words(position, words):
    assert deals_in_words(position) == words
