"""The round clock: its state at a given moment, the organiser's changes, and where it
shows (the organiser's round page, the round desk, the public round page, the projector)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import Round
from tournament.rounds import clock
from tournament.rounds import services as rounds
from tournament.rounds.clock import ClockState, clock_state

NOON = datetime.datetime(2026, 11, 24, 12, 0, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    return NOON + datetime.timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("ends", "left", "remaining", "running", "paused", "over", "minutes_left"),
    [
        # Not started.
        (None, None, None, False, False, False, 0),
        # Running: whole seconds, rounded up, so "0" only once the end has passed.
        (at(45 * 60), None, 2700, True, False, False, 45),
        (at(0.2), None, 1, True, False, False, 1),
        (at(61), None, 61, True, False, False, 2),
        (at(0), None, 0, True, False, True, 0),
        (at(-300), None, 0, True, False, True, 0),
        # Paused with 12 minutes and a bit left: "12 min left" rounds up.
        (None, 12 * 60, 720, False, True, False, 12),
        (None, 11 * 60 + 1, 661, False, True, False, 12),
    ],
)
def test_clock_state_at_a_moment(ends, left, remaining, running, paused, over, minutes_left):
    state = clock_state(Round(number=2, clock_ends=ends, clock_left=left), now=NOON)
    assert state.remaining == remaining
    assert state.started is (remaining is not None)
    assert (state.running, state.paused, state.over) == (running, paused, over)
    assert state.minutes_left == minutes_left
    assert state.ends_at == ends


def test_a_paused_clock_has_no_end():
    assert clock_state(Round(clock_left=60), now=NOON) == ClockState(60, None, True)


# The service ------------------------------------------------------------------------


@pytest.fixture
def round_one(seated_round):
    return seated_round


def test_start_pause_resume_add_and_clear(round_one, settings):
    tournament = round_one.tournament
    tournament.round_minutes = 40
    tournament.save(update_fields=["round_minutes"])
    before = timezone.now()
    started = clock.start_clock(round_one)
    assert started.clock_left is None
    assert before + datetime.timedelta(minutes=40) <= started.clock_ends
    assert started.clock_ends <= timezone.now() + datetime.timedelta(minutes=40)

    paused = clock.pause_clock(round_one)
    assert paused.clock_ends is None
    assert 39 * 60 < paused.clock_left <= 40 * 60
    left = paused.clock_left

    added = clock.add_minutes(round_one, 5)
    assert added.clock_left == left + 300

    resumed = clock.resume_clock(round_one)
    assert resumed.clock_left is None
    expected = timezone.now() + datetime.timedelta(seconds=left + 300)
    assert abs((resumed.clock_ends - expected).total_seconds()) < 2

    later = clock.add_minutes(round_one, 120)
    assert later.clock_ends - resumed.clock_ends == datetime.timedelta(minutes=120)

    cleared = clock.reset_clock(round_one)
    assert (cleared.clock_ends, cleared.clock_left) == (None, None)
    round_one.refresh_from_db()
    assert not clock_state(round_one).started


def test_minutes_added_after_time_is_up_run_from_now(round_one):
    Round.objects.filter(pk=round_one.pk).update(
        clock_ends=timezone.now() - datetime.timedelta(minutes=10)
    )
    added = clock.add_minutes(round_one, 3)
    remaining = (added.clock_ends - timezone.now()).total_seconds()
    assert 170 < remaining <= 180


def test_a_clock_change_clears_the_public_pages_cache(round_one):
    tournament = round_one.tournament
    before = type(tournament).objects.get(pk=tournament.pk).public_changed
    clock.start_clock(round_one)
    after = type(tournament).objects.get(pk=tournament.pk).public_changed
    assert after > before


@pytest.mark.parametrize(
    ("setup", "change", "message"),
    [
        ("not started", lambda r: clock.start_clock(r), "round 1 has not started"),
        ("released", lambda r: clock.start_clock(r), "round 1's results are released"),
        ("not started", lambda r: clock.add_minutes(r, 5), "round 1 has not started"),
        ("no clock", lambda r: clock.pause_clock(r), "round 1's clock has not been started"),
        ("no clock", lambda r: clock.resume_clock(r), "round 1's clock is not paused"),
        ("no clock", lambda r: clock.add_minutes(r, 5), "round 1's clock has not been started"),
        ("paused", lambda r: clock.pause_clock(r), "round 1's clock is already paused"),
        ("running", lambda r: clock.resume_clock(r), "round 1's clock is not paused"),
        ("over", lambda r: clock.pause_clock(r), "round 1's time is already up"),
        ("running", lambda r: clock.add_minutes(r, 0), "add between 1 and 120 minutes"),
        ("running", lambda r: clock.add_minutes(r, 500), "not 500"),
        ("paused", lambda r: clock.add_minutes(r, -3), "add between 1 and 120 minutes"),
    ],
)
def test_refused_clock_changes_say_why_and_change_nothing(round_one, setup, change, message):
    fields = {
        "not started": {"started": False},
        "released": {"released": True},
        "no clock": {},
        "paused": {"clock_left": 600},
        "running": {"clock_ends": timezone.now() + datetime.timedelta(minutes=5)},
        "over": {"clock_ends": timezone.now() - datetime.timedelta(minutes=5)},
    }[setup]
    Round.objects.filter(pk=round_one.pk).update(**fields)
    before = Round.objects.values_list("clock_ends", "clock_left").get(pk=round_one.pk)
    with pytest.raises(UserError, match=re.escape(message)):
        change(round_one)
    assert Round.objects.values_list("clock_ends", "clock_left").get(pk=round_one.pk) == before


# The organiser's buttons --------------------------------------------------------------


def clock_url(name, tournament, number=1):
    return reverse(f"organiser:clock_{name}", args=[tournament.slug, number])


def test_the_organiser_runs_the_clock_from_the_round_page(organiser_client, round_one):
    tournament = round_one.tournament
    page = reverse("organiser:round", args=[tournament.slug, 1])
    html = organiser_client.get(page).content.decode()
    assert "Start the clock (45 min)" in html
    response = organiser_client.post(clock_url("start", tournament), follow=True)
    html = response.content.decode()
    assert "Round 1&#x27;s clock is running: 45 minutes." in html
    assert "data-clock" in html
    assert "Pause" in html
    assert "Add minutes" in html

    response = organiser_client.post(clock_url("pause", tournament), follow=True)
    assert "paused with 45 min left" in response.content.decode()
    assert "paused, 45 min left" in response.content.decode()

    response = organiser_client.post(clock_url("add", tournament), {"minutes": "10"}, follow=True)
    assert "10 minutes added to round 1" in response.content.decode()
    round_one.refresh_from_db()
    assert 54 * 60 < round_one.clock_left <= 55 * 60

    organiser_client.post(clock_url("resume", tournament))
    round_one.refresh_from_db()
    assert round_one.clock_ends is not None

    response = organiser_client.post(clock_url("reset", tournament), follow=True)
    assert "clock is cleared" in response.content.decode()
    round_one.refresh_from_db()
    assert (round_one.clock_ends, round_one.clock_left) == (None, None)


def test_an_htmx_post_gets_the_clock_controls_back(organiser_client, round_one):
    response = organiser_client.post(
        clock_url("start", round_one.tournament), HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert 'id="clock-controls"' in html
    assert "<html" not in html
    assert "clock is running" in html


@pytest.mark.parametrize(
    ("minutes", "message"),
    [
        ("0", "Round 1: add between 1 and 120 minutes to round 1&#x27;s clock, not 0."),
        ("500", "not 500"),
        ("abc", "Round 1: type the minutes to add as a whole number from 1 to 120."),
        ("", "type the minutes to add as a whole number"),
        ("9" * 5000, "add between 1 and 120 minutes"),
    ],
)
def test_bad_minutes_are_refused_with_a_message(organiser_client, round_one, minutes, message):
    tournament = round_one.tournament
    organiser_client.post(clock_url("start", tournament))
    round_one.refresh_from_db()
    before = round_one.clock_ends
    response = organiser_client.post(
        clock_url("add", tournament), {"minutes": minutes}, follow=True
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    round_one.refresh_from_db()
    assert round_one.clock_ends == before


def test_pausing_a_paused_clock_says_so(organiser_client, round_one):
    Round.objects.filter(pk=round_one.pk).update(clock_left=300)
    response = organiser_client.post(clock_url("pause", round_one.tournament), follow=True)
    assert "Round 1&#x27;s clock is already paused." in response.content.decode()


def test_a_clock_on_a_round_not_started_is_refused(organiser_client, round_one):
    Round.objects.filter(pk=round_one.pk).update(started=False)
    response = organiser_client.post(clock_url("start", round_one.tournament), follow=True)
    assert "Round 1 has not started: start the round before its clock" in (
        response.content.decode()
    )
    round_one.refresh_from_db()
    assert round_one.clock_ends is None


@pytest.mark.parametrize("name", ["start", "pause", "resume", "add", "reset"])
def test_scorers_outsiders_and_anonymous_visitors_cannot_touch_the_clock(
    client, scorer_client, outsider_client, round_one, name
):
    url = clock_url(name, round_one.tournament)
    assert scorer_client.post(url, {"minutes": "5"}).status_code == 403
    assert outsider_client.post(url, {"minutes": "5"}).status_code == 404
    response = client.post(url, {"minutes": "5"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert client.get(url).status_code in (302, 405)
    round_one.refresh_from_db()
    assert (round_one.clock_ends, round_one.clock_left) == (None, None)


def test_a_round_that_does_not_exist_is_a_404(organiser_client, round_one):
    assert organiser_client.post(clock_url("start", round_one.tournament, 9)).status_code == 404


# Where it shows --------------------------------------------------------------------------


def test_the_round_desk_shows_the_clock(scorer_client, round_one):
    clock.start_clock(round_one)
    desk = reverse("scorer:desk", args=[round_one.tournament.slug, 1])
    html = scorer_client.get(desk).content.decode()
    assert 'class="round-clock"' in html
    ends = re.search(r'data-ends="([^"]+)"', html).group(1)
    now = re.search(r'data-now="([^"]+)"', html).group(1)
    assert datetime.datetime.fromisoformat(ends) > datetime.datetime.fromisoformat(now)
    # The desk refreshes itself: its region carries the clock too.
    fragment = scorer_client.get(desk, HTTP_HX_REQUEST="true").content.decode()
    assert "data-clock" in fragment


def test_a_released_rounds_page_shows_no_clock(client, round_one):
    tournament = round_one.tournament
    tournament.published = True
    tournament.save(update_fields=["published"])
    clock.start_clock(round_one)
    rounds.release_round(round_one, despite_missing=True)
    # A released round's play is over: no clock.
    page = reverse("public_round", args=[tournament.slug, 1])
    assert "round-clock" not in client.get(page).content.decode()


def test_a_cached_page_carries_the_server_time_of_its_serving(client, make_played):
    from tournament.rounds import seating
    from tournament.rounds.services import start_round

    tournament = make_played(players=12, rounds=1)
    round_two = seating.seat_next_round(tournament)
    start_round(round_two)
    clock.start_clock(round_two)
    url = reverse("projector", args=[tournament.slug])
    first = client.get(url).content.decode()
    assert "ends at " in first
    second = client.get(url).content.decode()
    now = re.search(r'data-now="([^"]+)"', second).group(1)
    served = datetime.datetime.fromisoformat(now)
    assert abs((timezone.now() - served).total_seconds()) < 5
    assert "lld-server-now" not in second


def test_the_public_round_page_partial_finds_the_clock_of_a_round_being_played(round_one):
    from django.template.loader import render_to_string

    tournament = round_one.tournament

    def shown():
        return render_to_string("public/_clock.html", {"tournament": tournament, "number": 1})

    assert "round-clock" not in shown()
    clock.start_clock(round_one)
    html = shown()
    round_one.refresh_from_db()
    local = timezone.localtime(round_one.clock_ends).strftime("%H:%M")
    # Without JavaScript: when time is up.
    assert f"data-clock-time>ends at {local}</span>" in html
    clock.pause_clock(round_one)
    assert "paused, 45 min left" in shown()
    Round.objects.filter(pk=round_one.pk).update(
        clock_left=None, clock_ends=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert "Time — finish the rotation you are in" in shown()
