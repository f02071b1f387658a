"""Two tablets at the door at the same moment: real requests, each in its own thread and
its own database connection, let go together (``run_together``: a Barrier).

The door never loses a check-in: two taps of one name check her in once, and an Undo
on one tablet meeting a tap of the same name on another leaves her checked in whichever
comes first. The threaded tests need PostgreSQL's row locks (set DATABASE_URL); the
one-after-the-other test runs on both databases.
"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.concurrency import run_together, slow_down
from tests.factories import TournamentFactory, make_players
from tournament.door import services as door
from tournament.models import Player
from tournament.players import services as player_service


@pytest.fixture(autouse=True)
def _searches_uncounted():
    # The door's counts and remembered taps live in the cache, which outlives a test.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(organiser):
    """A private tournament of 12 players before its first round, its door open."""
    tournament = TournamentFactory(name="Red Lion Loo", slug="red-lion", owner=organiser)
    make_players(tournament, 12)
    door.open_door(tournament, organiser)
    return tournament


def tap(tablet, tournament, player, *, undo=False):
    """Tap ``player``'s name on ``tablet`` (as the door shows it, with its key), or the
    tablet's Undo under it."""
    opened = door.current_door(tournament)
    name = "door:undo" if undo else "door:check_in"
    url = reverse(name, args=[tournament.slug, opened.token])
    return tablet.post(url, {"player": door.player_key(opened, player.pk)})


def late(call):
    """``call``, started a little late: the other thread is first into its transaction."""

    def started_late():
        time.sleep(0.1)
        return call()

    return started_late


def said(response):
    assert response.status_code == 200, response.content.decode()[:500]
    return response.content.decode()


def checked_in(player):
    return Player.objects.get(pk=player.pk).checked_in


def ann(tournament):
    return Player.objects.filter(tournament=tournament).order_by("pk").first()


@pytest.mark.django_db
def test_undo_after_her_name_was_tapped_on_another_tablet_leaves_her_checked_in(evening):
    """Tablet A tapped Ann by mistake; Ann, arriving, taps her own name on tablet B and is
    told she is in; A's Undo must not check her out behind her back."""
    player = ann(evening)
    tablet_a, tablet_b = Client(), Client()
    assert "you are checked in" in said(tap(tablet_a, evening, player))
    assert "was already checked in" in said(tap(tablet_b, evening, player))
    page = said(tap(tablet_a, evening, player, undo=True))
    assert f"{player.name} stays checked in: their name was tapped at the door again" in page
    assert checked_in(player)


@pytest.mark.django_db
def test_the_second_tap_is_known_to_every_worker_with_no_shared_cache(evening):
    """Without Redis each worker has its own memory: the tap on tablet B is recorded on the
    player, not in a cache that tablet A's worker may not share (or that was emptied)."""
    player = ann(evening)
    tablet_a, tablet_b = Client(), Client()
    said(tap(tablet_a, evening, player))
    said(tap(tablet_b, evening, player))
    cache.clear()  # tablet A's Undo is served by a worker that never saw B's tap
    page = said(tap(tablet_a, evening, player, undo=True))
    assert "stays checked in: their name was tapped at the door again since" in page
    assert checked_in(player)


@pytest.mark.django_db
def test_undo_of_the_tablets_own_tap_still_works(evening):
    player = ann(evening)
    tablet = Client()
    said(tap(tablet, evening, player))
    assert f"{player.name} is not checked in." in said(tap(tablet, evening, player, undo=True))
    assert not checked_in(player)


@pytest.mark.django_db(transaction=True)
def test_two_tablets_tapping_one_name_at_once_check_her_in_once(postgresql, evening, monkeypatch):
    player = ann(evening)
    tablet_a, tablet_b = Client(), Client()
    # Between reading the player and writing her: without the lock both would read
    # "not checked in" and both say "you are checked in", each offering its Undo.
    slow_down(monkeypatch, player_service, "set_status")

    first, second = run_together(
        lambda: tap(tablet_a, evening, player), lambda: tap(tablet_b, evening, player)
    )

    assert (first.error, second.error) == (None, None)
    pages = [said(first.value), said(second.value)]
    assert sorted("you are checked in" in page for page in pages) == [False, True]
    assert sorted("was already checked in" in page for page in pages) == [False, True]
    assert sum("Undo — that is not me" in page for page in pages) == 1
    assert checked_in(player)
    # The tablet told "already" cannot take the check-in back; the other one can.
    told_already = tablet_a if "was already checked in" in pages[0] else tablet_b
    tapped_first = tablet_b if told_already is tablet_a else tablet_a
    assert "stays checked in" in said(tap(told_already, evening, player, undo=True))
    assert checked_in(player)
    # The first tap's own Undo: the other tablet's tap came after it, so she stays in.
    assert "stays checked in" in said(tap(tapped_first, evening, player, undo=True))
    assert checked_in(player)


@pytest.mark.parametrize("undo_first", [True, False], ids=["undo first", "tap first"])
@pytest.mark.django_db(transaction=True)
def test_an_undo_meeting_a_tap_of_the_same_name_never_loses_her(
    postgresql, evening, monkeypatch, undo_first
):
    """Tablet A checked Ann in by mistake and taps Undo just as Ann taps her own name on
    tablet B. Whichever the server takes first, she ends checked in, and each tablet's
    page says what happened there."""
    player = ann(evening)
    tablet_a, tablet_b = Client(), Client()
    said(tap(tablet_a, evening, player))
    # The Undo lingers between its checks and its write: without the lock, a tap then
    # would be told "already checked in" and be undone a moment later.
    slow_down(monkeypatch, door, "_playing_round")

    def undo_on_a():
        return tap(tablet_a, evening, player, undo=True)

    def tap_on_b():
        return tap(tablet_b, evening, player)

    undo, arrival = run_together(
        undo_on_a if undo_first else late(undo_on_a),
        late(tap_on_b) if undo_first else tap_on_b,
    )

    assert (undo.error, arrival.error) == (None, None)
    undone, arrived = said(undo.value), said(arrival.value)
    assert checked_in(player)
    if "you are checked in" in arrived:
        # The Undo went first and checked her out; her own tap then checked her in.
        assert f"{player.name} is not checked in." in undone
    else:
        assert "was already checked in" in arrived
        assert "stays checked in: their name was tapped at the door again since" in undone


@pytest.mark.django_db(transaction=True)
def test_a_tap_and_the_desk_at_once_leave_one_state(postgresql, evening, organiser, monkeypatch):
    """The organiser checks Ann out at the desk as she taps her name at the door: one of
    them wins whole, and the door's page agrees with what is stored."""
    player = ann(evening)
    player_service.set_status(player, checked_in=True)
    desk = Client()
    desk.force_login(organiser)
    tablet = Client()
    slow_down(monkeypatch, player_service, "set_status")

    out, arrival = run_together(
        lambda: desk.post(reverse("organiser:player_check_out", args=[evening.slug, player.pk])),
        lambda: tap(tablet, evening, player),
    )

    assert (out.error, arrival.error) == (None, None)
    assert out.value.status_code == 302
    page = said(arrival.value)
    if "you are checked in" in page:
        assert checked_in(player)  # the desk went first, then her tap
    else:
        assert "was already checked in" in page
        assert not checked_in(player)  # her tap went first, then the desk's check-out
