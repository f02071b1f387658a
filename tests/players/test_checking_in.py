"""Checking in a room on the organiser's players page: each player checked in or out
where they are (htmx swaps their row; without JavaScript the page comes back at it), a
count of who is in, "Check in everyone not yet in" after a confirmation, and the Name
field ready for the next player after "Add player"."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import TournamentFactory, make_players
from tournament.models import Player
from tournament.players import services as player_service

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def evening(organiser, scorer):
    """A tournament of 12 players before its first round, nobody checked in yet."""
    tournament = TournamentFactory(
        name="Red Lion Loo", slug="red-lion", owner=organiser, scorers=[scorer]
    )
    make_players(tournament, 12)
    return tournament


def url(name, tournament, *args):
    return reverse(f"organiser:{name}", args=[tournament.slug, *args])


def players_of(tournament):
    return list(Player.objects.filter(tournament=tournament).order_by("pk"))


def checked_in(player):
    return Player.objects.get(pk=player.pk).checked_in


def page(client, tournament):
    response = client.get(url("players", tournament))
    assert response.status_code == 200
    return response.content.decode()


def row_of(html, player):
    """The player's row of the players table, as the page shows it."""
    match = re.search(rf'<tr [^>]*id="player-{player.pk}".*?</tr>', html, re.S)
    assert match, f"no row for {player.name}"
    return match.group(0)


def without_csrf(html):
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


# The count of who is in ----------------------------------------------------------------


def test_the_count_leaves_out_players_who_dropped_out(evening):
    first, second, third, *_ = players_of(evening)
    player_service.set_status(first, checked_in=True)
    player_service.set_status(second, checked_in=True)
    player_service.set_status(third, checked_in=True, active=False)
    count = player_service.check_in_count(evening)
    assert (count.checked_in, count.playing, count.dropped, count.waiting) == (2, 11, 1, 9)


def test_the_page_says_how_many_are_in_and_offers_the_rest(organiser_client, evening):
    for player in players_of(evening)[:5]:
        player_service.set_status(player, checked_in=True)
    html = page(organiser_client, evening)
    assert "<strong>5 of 12 checked in</strong>" in html
    assert url("players_check_in_everyone", evening) in html
    assert "Check in everyone not yet in" in html


def test_once_everyone_is_in_the_page_offers_nothing_more(organiser_client, evening):
    Player.objects.filter(tournament=evening).update(checked_in=True)
    html = page(organiser_client, evening)
    assert "<strong>12 of 12 checked in</strong>" in html
    assert "Check in everyone not yet in" not in html


def test_the_players_page_costs_the_same_queries_for_a_bigger_room(organiser_client, evening):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            page(organiser_client, evening)
        return len(captured)

    few = queries()
    Player.objects.bulk_create(
        Player(tournament=evening, ref=f"p{n}", name=f"Late {n}", checked_in=n % 2 == 0)
        for n in range(13, 43)
    )
    assert queries() == few


# One player, in place ---------------------------------------------------------------------


def test_without_javascript_a_check_in_comes_back_at_the_players_row(organiser_client, evening):
    player = players_of(evening)[3]
    response = organiser_client.post(url("player_check_in", evening, player.pk))
    assert response.status_code == 302
    assert response.url == f"{url('players', evening)}#player-{player.pk}"
    assert checked_in(player)
    html = organiser_client.get(response.url).content.decode()
    assert f"{player.name} is checked in." in html
    assert "Undo check-in" in row_of(html, player)
    assert "<strong>1 of 12 checked in</strong>" in html


def test_without_javascript_a_check_out_comes_back_at_the_players_row(organiser_client, evening):
    player = players_of(evening)[3]
    player_service.set_status(player, checked_in=True)
    response = organiser_client.post(url("player_check_out", evening, player.pk))
    assert response.url == f"{url('players', evening)}#player-{player.pk}"
    assert not checked_in(player)


def test_htmx_gets_the_players_row_and_the_count_alone(organiser_client, evening):
    player = players_of(evening)[3]
    response = organiser_client.post(url("player_check_in", evening, player.pk), **HTMX)
    assert response.status_code == 200
    assert checked_in(player)
    html = response.content.decode()
    assert html.startswith(f'<tr id="player-{player.pk}">')
    assert "<html" not in html
    assert html.count("<tr") == 1
    assert "Undo check-in" in html
    # The row's Drop out button still posts without htmx: its form carries the token.
    assert 'name="csrfmiddlewaretoken"' in html
    oob = re.search(
        r'<template><div id="check-in-summary" hx-swap-oob="innerHTML">(.*?)</div>'
        r"</template>",
        html,
        re.S,
    )
    assert oob, html
    assert "<strong>1 of 12 checked in</strong>" in oob.group(1)
    # Nothing is left waiting to show on the next page: the row said it.
    assert f"{player.name} is checked in." not in page(organiser_client, evening)


def test_the_swapped_row_is_the_row_the_page_shows(organiser_client, evening):
    player = players_of(evening)[3]
    Player.objects.filter(pk=players_of(evening)[4].pk).update(name=player.name.upper())
    swapped = organiser_client.post(url("player_check_in", evening, player.pk), **HTMX)
    row = swapped.content.decode().split("<template>")[0]
    assert "same name as another player" in row
    assert without_csrf(row) == without_csrf(row_of(page(organiser_client, evening), player))


def test_htmx_checks_out_in_place_too(organiser_client, evening):
    player = players_of(evening)[0]
    player_service.set_status(player, checked_in=True)
    response = organiser_client.post(url("player_check_out", evening, player.pk), **HTMX)
    html = response.content.decode()
    assert not checked_in(player)
    assert ">Check in</button>" in html
    assert "<strong>0 of 12 checked in</strong>" in html


def test_the_check_in_button_is_swapped_in_place_and_keeps_its_focus(organiser_client, evening):
    player = players_of(evening)[0]
    row = row_of(page(organiser_client, evening), player)
    (button,) = re.findall(r'<button [^>]*id="check-in-[^>]*>', row)
    check_in = url("player_check_in", evening, player.pk)
    assert f'formaction="{check_in}"' in button
    assert f'hx-post="{check_in}"' in button
    assert 'hx-target="closest tr"' in button
    assert 'hx-swap="outerHTML"' in button
    # htmx gives the focus back to the element of the same id in the new row.
    swapped = organiser_client.post(check_in, **HTMX).content.decode()
    assert f'id="check-in-{player.pk}"' in swapped


@pytest.mark.parametrize("name", ["player_check_in", "player_check_out"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_only_the_organiser_checks_players_in(
    client, scorer_client, outsider_client, evening, name, headers
):
    player = players_of(evening)[0]
    player_service.set_status(player, checked_in=name == "player_check_out")
    before = checked_in(player)
    target = url(name, evening, player.pk)
    assert scorer_client.post(target, **headers).status_code == 403
    assert outsider_client.post(target, **headers).status_code == 404
    response = client.post(target, **headers)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert checked_in(player) == before


def test_another_tournaments_player_is_a_404(organiser_client, evening, make_played):
    other = make_played(players=4, rounds=1, slug="other-club")
    stranger = Player.objects.filter(tournament=other).first()
    response = organiser_client.post(url("player_check_in", evening, stranger.pk), **HTMX)
    assert response.status_code == 404
    assert not checked_in(stranger)


# Everyone not yet in ------------------------------------------------------------------


def test_check_in_everyone_checks_in_only_those_named(evening):
    players = players_of(evening)
    dropped, already = players[:2]
    player_service.set_status(dropped, active=False)
    player_service.set_status(already, checked_in=True)
    named = [p.pk for p in players[:8]]
    assert player_service.check_in_everyone(evening, named) == 6
    states = {p.pk: (p.checked_in, p.active) for p in players_of(evening)}
    assert states[dropped.pk] == (False, False)
    assert states[already.pk] == (True, True)
    assert all(states[p.pk] == (True, True) for p in players[2:8])
    assert not any(states[p.pk][0] for p in players[8:])
    assert player_service.check_in_everyone(evening, named) == 0


def test_check_in_everyone_leaves_other_tournaments_alone(evening, make_played):
    other = make_played(players=4, rounds=1, slug="other-club")
    stranger = Player.objects.filter(tournament=other).first()
    Player.objects.filter(pk=stranger.pk).update(checked_in=False)
    assert player_service.check_in_everyone(evening, [stranger.pk]) == 0
    assert not checked_in(stranger)


def test_the_confirmation_names_who_will_be_checked_in(organiser_client, evening):
    players = players_of(evening)
    player_service.set_status(players[0], checked_in=True)
    player_service.set_status(players[1], active=False)
    response = organiser_client.get(url("players_check_in_everyone", evening))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Check in these 10 players?" in html
    for player in players[2:]:
        assert player.name in html
    assert players[0].name not in html
    assert players[1].name not in html
    assert "confirm(" not in html
    assert f'href="{url("players", evening)}"' in html  # Cancel
    assert all(not checked_in(p) for p in players[1:])  # looking changes nothing


def test_confirming_checks_in_those_named_and_not_a_player_added_since(organiser_client, evening):
    confirmation = organiser_client.get(url("players_check_in_everyone", evening))
    named = re.search(r'name="players" value="([^"]*)"', confirmation.content.decode())
    late = player_service.add_player(evening, "Late Arrival")
    response = organiser_client.post(
        url("players_check_in_everyone", evening), {"players": named.group(1)}, follow=True
    )
    assert response.redirect_chain[-1][0] == url("players", evening)
    html = response.content.decode()
    assert "Checked in 12 players." in html
    assert "<strong>12 of 13 checked in</strong>" in html
    assert not checked_in(late)


def test_confirming_twice_checks_in_nobody_more(organiser_client, evening):
    named = ",".join(str(p.pk) for p in players_of(evening))
    organiser_client.post(url("players_check_in_everyone", evening), {"players": named})
    response = organiser_client.post(
        url("players_check_in_everyone", evening), {"players": named}, follow=True
    )
    assert "Nobody was checked in: they were all in already." in response.content.decode()


def test_with_everyone_in_the_confirmation_says_so(organiser_client, evening):
    Player.objects.filter(tournament=evening).update(checked_in=True)
    html = organiser_client.get(url("players_check_in_everyone", evening)).content.decode()
    assert "Everyone playing is checked in." in html
    assert 'method="post"' not in html.split("<main")[1]


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ({}, "No players were named: open the confirmation again."),
        ({"players": ""}, "No players were named: open the confirmation again."),
        ({"players": "1,two"}, "could not be read: open the confirmation again."),
        ({"players": "1,,2"}, "could not be read"),
        ({"players": "9" * 40}, "could not be read"),
        ({"players": "١٢"}, "could not be read"),
        ({"players": "1," * 100_001}, "could not be read"),
    ],
    ids=["missing", "empty", "a word", "a gap", "huge number", "other digits", "too long"],
)
def test_junk_posted_to_check_in_everyone_is_a_message(organiser_client, evening, posted, message):
    response = organiser_client.post(url("players_check_in_everyone", evening), posted, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode() or (
        "Ensure this value has at most" in response.content.decode()
    )
    assert not Player.objects.filter(tournament=evening, checked_in=True).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_organiser_checks_in_everyone(
    client, scorer_client, outsider_client, evening, method
):
    target = url("players_check_in_everyone", evening)
    data = {"players": ",".join(str(p.pk) for p in players_of(evening))}
    assert getattr(scorer_client, method)(target, data).status_code == 403
    assert getattr(outsider_client, method)(target, data).status_code == 404
    response = getattr(client, method)(target, data)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not Player.objects.filter(tournament=evening, checked_in=True).exists()


# Adding players one after another -----------------------------------------------------------


def test_after_add_player_the_name_field_has_the_focus(organiser_client, evening):
    response = organiser_client.post(url("players", evening), {"name": "Ithel Rowse", "club": ""})
    assert response.status_code == 302
    assert response.url == f"{url('players', evening)}?added"
    html = organiser_client.get(response.url).content.decode()
    assert "Registered Ithel Rowse." in html
    (name,) = re.findall(r'<input type="text" name="name"[^>]*>', html)
    assert " autofocus" in name
    assert 'id="add-player"' in html


def test_the_players_page_itself_does_not_jump_to_the_name_field(organiser_client, evening):
    html = page(organiser_client, evening)
    (name,) = re.findall(r'<input type="text" name="name"[^>]*>', html)
    assert "autofocus" not in name


def test_enter_in_the_name_field_adds_the_player(organiser_client, evening):
    """Enter presses a form's first button: Add player, not the register search (a GET
    that would put the form's token in its address)."""
    html = page(organiser_client, evening)
    form = html.split(f'action="{url("players", evening)}" class="stack">')[1].split("</form>")[0]
    first = re.search(r"<button[^>]*>([^<]*)</button>", form)
    assert first.group(1) == "Add player"
    assert "formmethod" not in first.group(0)
