"""The room on its phones, in real Chromium: the organiser starts round 2 from the laptop;
a player's phone finds their seat and reads the round's seating with no scores in it; the
projector seats the room with the clock running; the organiser releases the round and the
projector shows the standings within five seconds, with nobody reloading anything.

Screenshots go to artifacts/screenshots/room/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import fits, log_in
from tests.factories import played_tournament
from tournament.models import Round
from tournament.rounds import seating
from tournament.shared.public_changes import mark_changed

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}


def test_a_round_from_start_to_released_standings_as_the_room_sees_it(
    new_page, organiser, screenshot_dir
):
    shots = screenshot_dir("room")
    tournament = played_tournament(players=13, rounds=1, planned_rounds=3, owner=organiser)
    slug = tournament.slug
    round_two = seating.seat_next_round(tournament)
    # Someone at a table of round 2, with another player seated with them.
    seat = round_two.tables.order_by("number").first().seats.order_by("position")[1]
    player = seat.player
    mark_changed(tournament.pk)

    # The organiser starts round 2 on the round page, then starts the clock.
    laptop = new_page()
    log_in(laptop, "olive", f"/manage/{slug}/rounds/2/")
    laptop.get_by_role("button", name="Start round 2", exact=True).click()
    expect(laptop.locator("#seating h2")).to_contain_text(re.compile(r"^Round 2\s+started"))
    expect(laptop.get_by_role("link", name="Print score sheets")).to_be_visible()
    laptop.get_by_role("button", name=re.compile(r"^Start the clock")).click()
    expect(laptop.locator("#clock-controls [data-clock-time]")).to_have_text(
        re.compile(r"^4[45]:\d\d left$")
    )

    # A player's phone: the standings, then "Find my seat" with part of their name.
    phone = new_page(viewport=PHONE)
    phone.goto(f"/t/{slug}/")
    part = player.name.split()[-1][:4]
    box = phone.locator("form.find-seat").get_by_label("Find my seat")
    box.fill(part)
    box.press("Enter")
    answer = phone.locator(".seat-found li", has_text=player.name)
    expect(answer).to_contain_text("Table 1, seat 2 — deals second")
    fits(phone)
    phone.screenshot(path=shots / "01-phone-find-my-seat.png", full_page=True)

    # The round's page shows the seating and no scores.
    phone.goto(f"/t/{slug}/rounds/2/")
    expect(phone.get_by_text("results not released yet")).to_be_visible()
    expect(phone.locator("#table-1")).to_be_visible()
    expect(phone.locator(".round-table").first).to_contain_text(player.name)
    expect(phone.locator("table.round-results")).to_have_count(0)
    expect(phone.locator("main")).not_to_contain_text("Cards won")
    expect(phone.locator(".round-clock [data-clock-time]")).to_have_text(
        re.compile(r"^4[45]:\d\d left$")
    )
    fits(phone)
    phone.screenshot(path=shots / "02-phone-round-seating.png", full_page=True)

    # The projector: the seating, alphabetically, and the clock.
    screen = new_page(viewport=PROJECTOR)
    screen.goto(f"/t/{slug}/projector/")
    head = screen.locator(".board-head")
    expect(head).to_contain_text("Round 2 — find your table")
    expect(screen.locator(".board-head [data-clock-time]")).to_have_text(
        re.compile(r"^4[45]:\d\d left$")
    )
    screen.screenshot(path=shots / "03-projector-seating.png")
    screen.evaluate("window.stillTheSamePage = true")

    # The organiser releases the round (its scoring is the evening test's business): no
    # sheet is confirmed, so the release asks first, and goes ahead.
    laptop.get_by_role("button", name="Release results to the public").click()
    expect(laptop.locator("#confirm-release")).to_contain_text("have no confirmed sheet")
    laptop.get_by_role("button", name="Release round 2 anyway").click()
    expect(laptop.locator("#seating h2")).to_contain_text("results public")

    expect(head).to_contain_text("Standings after round 2 of 3 — provisional", timeout=5_000)
    expect(screen.locator(".board-page.current table.standings-board")).to_be_visible()
    assert screen.evaluate("window.stillTheSamePage === true"), "the projector reloaded"
    assert Round.objects.get(pk=round_two.pk).released
    screen.screenshot(path=shots / "04-projector-standings.png")
