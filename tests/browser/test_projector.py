"""The projector runs the room, in real Chromium: the seating and a counting clock while a
round is played, the standings within seconds of the release, with no reload; the clock
agrees with the server's whatever the screen's own clock says, and says when time is up.

Screenshots go to artifacts/screenshots/projector-room/.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.models import Round
from tournament.rounds import clock
from tournament.rounds import services as rounds
from tournament.shared.public_changes import mark_changed

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
COUNTING = re.compile(r"^(4[0-5]|3\d):\d\d left$")


@pytest.fixture
def round_two(_backs_up):
    """Round 1 of 3 released; round 2 started, its sheets all confirmed, its clock running."""
    tournament = played_tournament(players=14, rounds=2, planned_rounds=3)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    mark_changed(tournament.pk)
    round_ = Round.objects.get(tournament=tournament, number=2)
    clock.start_clock(round_)
    return round_


def test_the_projector_seats_the_room_then_switches_to_standings_on_release(
    new_page, round_two, screenshot_dir
):
    shots = screenshot_dir("projector-room")
    slug = round_two.tournament.slug
    screen = new_page(viewport=PROJECTOR)
    screen.goto(f"/t/{slug}/projector/")
    head = screen.locator(".board-head")
    expect(head).to_contain_text("Round 2 — find your table")
    time = screen.locator(".board-head [data-clock-time]")
    expect(time).to_have_text(COUNTING)
    first = time.inner_text()
    expect(time).not_to_have_text(first, timeout=3_000)  # it counts
    assert screen.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
    screen.screenshot(path=shots / "01-seating-and-clock.png")
    screen.evaluate("window.stillTheSamePage = true")

    rounds.release_round(round_two)

    # live.js polls every 4 seconds: the standings are up within 5.
    expect(head).to_contain_text("Standings after round 2 of 3 — provisional", timeout=5_000)
    expect(screen.locator(".board-page.current table.standings-board")).to_be_visible()
    expect(screen.locator(".round-clock")).to_have_count(0)
    assert screen.evaluate("window.stillTheSamePage === true"), "the projector reloaded"
    screen.screenshot(path=shots / "02-standings-after-release.png")


def test_the_clock_counts_by_the_servers_time_and_says_when_time_is_up(
    new_page, round_two, screenshot_dir
):
    shots = screenshot_dir("projector-clock")
    slug = round_two.tournament.slug
    # A screen whose own clock is 20 minutes fast still shows the server's minutes.
    screen = new_page(viewport={"width": 1366, "height": 768})
    screen.clock.install(time=timezone.now() + datetime.timedelta(minutes=20))
    screen.clock.resume()
    screen.goto(f"/t/{slug}/projector/")
    time = screen.locator(".board-head [data-clock-time]")
    expect(time).to_have_text(re.compile(r"^4[45]:\d\d left$"))

    # The organiser leaves four seconds on the clock: the screens follow, then call time.
    Round.objects.filter(pk=round_two.pk).update(
        clock_ends=timezone.now() + datetime.timedelta(seconds=6)
    )
    mark_changed(round_two.tournament_id)
    expect(time).to_have_text(re.compile(r"^0:0\d left$"), timeout=5_000)
    expect(time).to_have_text("Time — finish the rotation you are in", timeout=8_000)
    expect(screen.locator(".board-head .round-clock")).to_have_class(re.compile(r"\bover\b"))
    screen.screenshot(path=shots / "01-time-is-up.png")


def test_without_javascript_the_projector_shows_when_time_is_up(new_page, round_two):
    slug = round_two.tournament.slug
    page = new_page(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page.goto(f"/t/{slug}/projector/")
    local = timezone.localtime(Round.objects.get(pk=round_two.pk).clock_ends)
    expect(page.locator(".board-head [data-clock-time]")).to_have_text(f"ends at {local:%H:%M}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
