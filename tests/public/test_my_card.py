"""The player's card ("This is me", public.views.pages.player_card): what a phone that
knows its player shows at the top of every page of the tournament, and the state word
its nudge compares."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.public_rounds import html, playing, seat
from tournament.models import Player, Round
from tournament.public.room import NowPlaying, Progress
from tournament.public.views.pages import card_state
from tournament.shared import public_changes

pytestmark = pytest.mark.usefixtures("empty_cache")


def card(client, tournament, pk):
    return client.get(reverse("player_card", args=[tournament.slug, pk]))


def test_while_a_round_is_played_the_card_names_my_table_and_seat(client, make_played):
    tournament = playing(make_played)
    mine = seat(tournament, 3, 2)
    page = html(card(client, tournament, mine.player.pk))
    assert 'data-state="seated-2-t3s2"' in page
    assert "My table: <strong>Table 3, seat 2</strong>" in page
    assert "Round 2 · deals second" in page
    assert 'data-nudge="Your table is ready: table 3, seat 2."' in page
    # Rank and points after the released round 1, provisional.
    assert "after round 1" in page.lower()
    assert "provisional" in page
    for other in mine.table.seats.exclude(pk=mine.pk).select_related("player"):
        assert other.player.name in page
    # A fragment, not a page: the phone puts it at the top of the page it shows.
    assert "<html" not in page
    assert "<body" not in page


def test_a_player_sitting_the_round_out_is_told_so(client, make_played):
    tournament = playing(make_played)
    late = Player.objects.get(tournament=tournament, ref="late")
    page = html(card(client, tournament, late.pk))
    assert 'data-state="bye-2"' in page
    assert "sitting out round 2" in page


def test_after_a_release_the_card_gives_rank_and_points(client, make_played):
    tournament = make_played(players=12, rounds=2)
    mine = seat(tournament, 1, 1)
    page = html(card(client, tournament, mine.player.pk))
    assert 'data-state="released-2"' in page
    assert "My table" not in page
    assert "Rank " in page
    assert "points" in page
    assert 'data-nudge="Round 2 results are out: rank ' in page


def test_the_card_follows_the_release_and_answers_304_until_then(client, make_played):
    tournament = playing(make_played)
    pk = seat(tournament, 1, 1).player.pk
    first = card(client, tournament, pk)
    assert 'data-state="seated-2-t1s1"' in html(first)
    etag = first["ETag"]
    assert (
        card(
            client,
            tournament,
            pk,
        ).status_code
        == 200
    )
    again = client.get(reverse("player_card", args=[tournament.slug, pk]), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    Round.objects.filter(tournament=tournament, number=2).update(released=True)
    public_changes.mark_changed(tournament.pk)
    after = client.get(reverse("player_card", args=[tournament.slug, pk]), HTTP_IF_NONE_MATCH=etag)
    assert 'data-state="released-2"' in html(after)


def test_no_card_for_a_player_of_another_tournament_or_a_private_one(client, make_played):
    tournament = playing(make_played)
    other = playing(make_played, slug="other-open")
    stranger = seat(other, 1, 1).player.pk
    assert card(client, tournament, stranger).status_code == 404
    private = playing(make_played, slug="private-open", published=False)
    assert card(client, private, seat(private, 1, 1).player.pk).status_code == 404


def test_every_public_page_of_the_tournament_has_the_card_slot_and_this_is_me(client, make_played):
    tournament = playing(make_played)
    pk = seat(tournament, 2, 1).player.pk
    slot = f'data-card-url="/t/{tournament.slug}/players/0/card/"'
    for name, args in (
        ("standings", []),
        ("public_round", [2]),
        ("player", [pk]),
        ("final", []),
        ("find_seat", []),
    ):
        page = html(client.get(reverse(name, args=[tournament.slug, *args])))
        assert slot in page, name
    player_page = html(client.get(reverse("player", args=[tournament.slug, pk])))
    assert f'data-this-is-me data-player="{pk}"' in player_page
    found = html(client.get(reverse("find_seat", args=[tournament.slug]), {"q": "Player"}))
    assert found.count("data-this-is-me") == 12
    # The projector is the room's, not a phone's: no card there.
    assert slot not in html(client.get(reverse("projector", args=[tournament.slug])))


def test_a_player_who_left_the_tournament_is_told_so(client, make_played):
    tournament = playing(make_played)
    gone = Player.objects.get(tournament=tournament, ref="late")
    gone.active = False
    gone.save()
    public_changes.mark_changed(tournament.pk)
    page = html(card(client, tournament, gone.pk))
    assert "You have left the tournament" in page
    assert "ask the organiser" not in page


@pytest.mark.parametrize(
    ("now", "after", "final", "state"),
    [
        (NowPlaying(3, None, bye=True), 2, False, "bye-3"),
        (NowPlaying(3, None, bye=False), 2, False, "out-3"),
        (None, 2, False, "released-2"),
        (None, 4, True, "final-4"),
        (None, 0, False, "waiting"),
    ],
)
def test_card_states(now, after, final, state):
    progress = Progress(after_round=after, planned_rounds=4, final=final)
    assert card_state(now, progress) == state
