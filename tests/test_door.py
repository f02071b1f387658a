"""Door check-in: the organiser or a scorer opens the door and hands a tablet over; at
the door a player finds their name, checks in, sees their table, and can undo it. The
door address works without a login, for its tournament only, while the door is open."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, make_players
from tournament.models import OpenDoor, Player, Seat
from tournament.services import door

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(seated_round):
    """club-night: private, round 1 started at three tables of four."""
    return seated_round.tournament


def address(tournament, token=None):
    return reverse("door:tablet", args=[tournament.slug, token or door.door_token(tournament)])


def tap(client, tournament, player, *, undo=False, token=None, **headers):
    name = "door:undo" if undo else "door:check_in"
    url = reverse(name, args=[tournament.slug, token or door.door_token(tournament)])
    return client.post(url, {"player": getattr(player, "pk", player)}, **headers)


def text(response, status=200):
    assert response.status_code == status
    return response.content.decode()


def links(page):
    return re.findall(r'(?:href|action|hx-get|hx-post)="([^"]*)"', page)


# The staff page -------------------------------------------------------------------------


def test_the_organiser_opens_the_door_and_sees_its_address(organiser_client, tournament):
    page = text(organiser_client.get(reverse("door:setup", args=[tournament.slug])))
    assert "The door is closed" in page
    response = organiser_client.post(reverse("door:open", args=[tournament.slug]), follow=True)
    page = text(response)
    assert "The door is open: open its address on the tablet." in page
    opened = door.current_door(tournament)
    assert opened is not None
    assert opened.opened_by == "olive"
    assert address(tournament, opened.token) in page
    assert "<svg" in page  # the QR code of the address


def test_a_scorer_may_open_and_close_the_door(scorer_client, tournament):
    scorer_client.post(reverse("door:open", args=[tournament.slug]))
    assert door.current_door(tournament) is not None
    response = scorer_client.post(reverse("door:close", args=[tournament.slug]), follow=True)
    assert "The door is closed: its address no longer works." in text(response)
    assert door.current_door(tournament) is None
    response = scorer_client.post(reverse("door:close", args=[tournament.slug]), follow=True)
    assert "The door was already closed." in text(response)


def test_outsiders_and_anonymous_visitors_cannot_open_the_door(client, outsider_client, tournament):
    for page in ("door:setup", "door:open", "door:close", "door:hand_over"):
        url = reverse(page, args=[tournament.slug])
        method = outsider_client.get if page == "door:setup" else outsider_client.post
        assert method(url).status_code == 404, page
        anonymous = (client.get if page == "door:setup" else client.post)(url)
        assert anonymous.status_code == 302, page
        assert anonymous.url.startswith(reverse("login")), page
    assert door.current_door(tournament) is None


def test_a_new_address_ends_the_old_one(organiser_client, client, tournament):
    old = door.door_token(tournament)
    organiser_client.post(reverse("door:open", args=[tournament.slug]))
    page = text(client.get(address(tournament, old)), 403)
    assert "has a newer address: this one no longer works" in page
    assert text(client.get(address(tournament))).count("Check in") >= 1


def test_handing_the_device_over_logs_out_and_opens_the_door(organiser_client, tournament):
    response = organiser_client.post(reverse("door:hand_over", args=[tournament.slug]))
    assert response.status_code == 302
    assert response.url == address(tournament)
    # The tablet is nobody's now: the organiser's pages ask for a login.
    dashboard = organiser_client.get(reverse("organiser:dashboard", args=[tournament.slug]))
    assert dashboard.status_code == 302
    assert dashboard.url.startswith(reverse("login"))
    assert "Check in" in text(organiser_client.get(response.url))


# At the door ----------------------------------------------------------------------------


def test_a_player_finds_their_name_checks_in_and_sees_their_table(client, tournament):
    mine = Seat.objects.select_related("player", "table").get(
        round__tournament=tournament, table__number=2, position=3
    )
    page = text(client.get(address(tournament), {"q": "  " + mine.player.name.lower()}))
    assert f'<span class="door-name-text">{mine.player.name}</span>' in page
    assert 'name="player"' in page

    page = text(tap(client, tournament, mine.player))
    mine.player.refresh_from_db()
    assert mine.player.checked_in
    assert f"✓ {mine.player.name}, you are checked in." in page
    assert "Round 1: <strong>table 2, seat 3</strong> — deals third" in page
    for other in Seat.objects.filter(table=mine.table).exclude(pk=mine.pk):
        assert other.player.name in page
    assert "Undo — that is not me" in page


def test_undo_is_one_tap_and_can_be_undone(client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    tap(client, tournament, player)
    page = text(tap(client, tournament, player, undo=True))
    player.refresh_from_db()
    assert not player.checked_in
    assert f"{player.name} is no longer checked in." in page
    assert f"Check in {player.name} again" in page
    tap(client, tournament, player)
    player.refresh_from_db()
    assert player.checked_in


def test_an_already_checked_in_player_is_told_so_and_offered_undo(client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    Player.objects.filter(pk=player.pk).update(checked_in=True)
    listed = text(client.get(address(tournament), {"q": player.name}))
    assert '<span class="badge ok">checked in</span>' in listed
    page = text(tap(client, tournament, player))
    assert f"{player.name} was already checked in." in page
    assert "Undo — that is not me" in page


def test_a_dropped_out_player_is_not_checked_in(client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    Player.objects.filter(pk=player.pk).update(active=False)
    listed = text(client.get(address(tournament), {"q": player.name}))
    assert '<span class="badge warn">dropped out</span>' in listed
    page = text(tap(client, tournament, player))
    player.refresh_from_db()
    assert not player.checked_in
    assert "has dropped out of the tournament, so is not checked in" in page
    assert "Undo" not in page


def test_before_any_round_starts_the_door_says_where_to_look(client, db):
    tournament = TournamentFactory(slug="early")
    (player,) = make_players(tournament, 1)
    page = text(tap(client, tournament, player))
    assert "Tables are drawn when the next round starts" in page


def test_a_late_arrival_not_in_the_started_round_is_sent_to_the_organiser(client, tournament):
    late = Player.objects.create(tournament=tournament, ref="late", name="Late Larkin")
    page = text(tap(client, tournament, late))
    assert "You are not seated in round 1: please tell the organiser." in page


@pytest.mark.parametrize(
    ("q", "message"),
    [
        ("zzz", "Nobody registered has “zzz” in their name"),
        ("x" * 101, "That is too long (100 characters at most)"),
        ("Player", "Tap your name:"),
    ],
)
def test_searching_says_what_it_found(client, tournament, q, message):
    assert message in text(client.get(address(tournament), {"q": q}))


def test_an_empty_search_shows_the_box_alone(client, tournament):
    page = text(client.get(address(tournament), {"q": "   "}))
    assert 'id="door-q"' in page
    assert "Tap your name" not in page


def test_many_matches_ask_for_more_of_the_name(client, tournament):
    make_players_named = [
        Player(tournament=tournament, ref=f"x{i}", name=f"Smith {i:02d}") for i in range(15)
    ]
    Player.objects.bulk_create(make_players_named)
    page = text(client.get(address(tournament), {"q": "smith"}))
    assert page.count('class="door-name"') == door.SHOWN_MAX
    assert "… and 3 more: type more of your name." in page


@pytest.mark.parametrize("value", ["", "abc", "-1", "987654321", "\x00", "x" * 5000])
def test_a_junk_player_is_refused_with_a_message(client, tournament, value):
    page = text(tap(client, tournament, value))
    assert "That name is not registered for this tournament" in page
    assert not Player.objects.filter(checked_in=True).exists()


def test_another_tournaments_player_is_refused(client, tournament, make_played):
    other = make_played(players=6, rounds=1, slug="other-open")
    stranger = Player.objects.filter(tournament=other).first()
    page = text(tap(client, tournament, stranger))
    assert "That name is not registered for this tournament" in page
    stranger.refresh_from_db()
    assert not stranger.checked_in


def test_the_door_offers_nothing_else(client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    prefix = f"/door/{tournament.slug}/{door.door_token(tournament)}/"
    for page in (
        text(client.get(address(tournament))),
        text(client.get(address(tournament), {"q": "Player"})),
        text(tap(client, tournament, player)),
        text(tap(client, tournament, player, undo=True)),
    ):
        targets = [t for t in links(page) if not t.startswith("/static/")]
        assert targets
        assert all(t.startswith(prefix) for t in targets), targets
        assert 'class="site"' not in page
        assert "Log in" not in page


def test_the_door_pages_are_never_cached(client, tournament):
    response = client.get(address(tournament))
    assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]


def test_htmx_gets_the_results_and_the_panel_alone(client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    results = text(client.get(address(tournament), {"q": "Player"}, HTTP_HX_REQUEST="true"))
    assert "<html" not in results
    assert "Tap your name" in results
    panel = text(tap(client, tournament, player, HTTP_HX_REQUEST="true"))
    assert panel.lstrip().startswith('<div id="door-panel"')


# Addresses that do not open the door ------------------------------------------------------


def assert_refused(client, tournament, token, reason):
    player = Player.objects.filter(tournament=tournament).first()
    url = reverse("door:tablet", args=[tournament.slug, token])
    assert reason in text(client.get(url), 403)
    assert reason in text(tap(client, tournament, player, token=token), 403)
    assert reason in text(tap(client, tournament, player, token=token, undo=True), 403)
    player.refresh_from_db()
    assert not player.checked_in


@pytest.mark.parametrize(
    "token",
    ["junk", "1.abc", "1.abc:forged", "x" * 300, "%00", "::::"],
)
def test_a_forged_address_is_refused(client, tournament, token):
    door.open_door(tournament, None)
    assert_refused(client, tournament, token, "This door address is not valid")


def test_a_tampered_address_is_refused(client, tournament):
    token = door.door_token(tournament)
    value, signature = token.split(":")
    assert_refused(client, tournament, f"{value}x:{signature}", "This door address is not valid")


def test_another_tournaments_address_is_refused(client, tournament, make_played):
    other = make_played(players=6, rounds=1, slug="other-open")
    token = door.door_token(other)
    assert_refused(client, tournament, token, "This door address belongs to another tournament")


def test_a_closed_door_is_refused(client, tournament):
    token = door.door_token(tournament)
    assert door.close_door(tournament)
    assert_refused(client, tournament, token, "The door check-in of Test Open is closed")


def test_a_door_closes_itself(client, tournament, monkeypatch):
    token = door.door_token(tournament)
    later = timezone.now() + timedelta(hours=door.DOOR_HOURS, minutes=1)
    monkeypatch.setattr(door.timezone, "now", lambda: later)
    assert door.current_door(tournament) is None
    assert_refused(client, tournament, token, "closed itself at")


def test_an_htmx_request_to_a_closed_door_reloads_the_page(client, tournament):
    token = door.door_token(tournament)
    door.close_door(tournament)
    response = client.get(address(tournament, token), {"q": "a"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert response["HX-Refresh"] == "true"


def test_a_tournament_has_one_door_record_and_closing_one_leaves_another_open(
    client, tournament, organiser
):
    other = TournamentFactory(owner=organiser, published=True)
    first = door.door_token(tournament, organiser)
    door.open_door(tournament, organiser)
    theirs = door.door_token(other, organiser)
    assert OpenDoor.objects.filter(tournament=tournament).count() == 1
    assert door.current_door(tournament).token != first
    door.close_door(tournament)
    assert door.current_door(tournament) is None
    assert door.current_door(other).token == theirs
    assert client.get(address(other, theirs)).status_code == 200


def test_the_address_is_the_one_the_tablet_reaches(organiser_client, tournament, settings):
    token = door.door_token(tournament)
    setup = reverse("door:setup", args=[tournament.slug])
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    page = text(organiser_client.get(setup))
    assert f'href="http://192.168.1.20:8000{address(tournament, token)}"' in page
    assert "names this computer only" not in page
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    assert "names this computer only" in text(organiser_client.get(setup))
