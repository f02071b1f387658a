"""The room on its phones: an anonymous phone finds a seat of a started round, and a
player at the door checks in on a tablet and undoes it, with htmx and without
JavaScript; the door's Undo leaves an earlier check-in alone, and a private door lists
nobody from a letter. At 360 px nothing scrolls sideways.

Screenshots go to artifacts/screenshots/seats/.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import fits
from tournament.door import services as door
from tournament.models import Player, Round, Seat, Tournament

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
TABLET = {"width": 768, "height": 1024}


@pytest.mark.parametrize("javascript", [True, False])
def test_a_phone_finds_a_seat_of_the_started_round(
    new_page, seated_round, screenshot_dir, javascript
):
    tournament = seated_round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    mine = Seat.objects.select_related("player").get(
        round=seated_round, table__number=3, position=2
    )
    page = new_page(viewport=PHONE, java_script_enabled=javascript)
    page.goto(reverse("standings", args=[tournament.slug]))
    page.get_by_label("Find my seat").fill(mine.player.name.lower())
    if not javascript:
        page.get_by_role("button", name="Find seat").click()
    found = page.locator(".seat-found li")
    expect(found).to_have_count(1)
    expect(found).to_contain_text("Table 3, seat 2 — deals second")
    fits(page, PHONE["width"])
    shots = screenshot_dir("seats") if javascript else None
    if shots:
        page.screenshot(path=shots / "find-my-seat.png", full_page=True)

    page.goto(reverse("public_round", args=[tournament.slug, 1]))
    expect(page.get_by_text("results not released yet")).to_be_visible()
    expect(page.locator(".round-table")).to_have_count(3)
    fits(page, PHONE["width"])


@pytest.mark.parametrize("javascript", [True, False])
def test_a_player_checks_in_at_the_door_and_sees_their_table(
    new_page, seated_round, screenshot_dir, javascript
):
    tournament = seated_round.tournament
    mine = Seat.objects.select_related("player").get(
        round=seated_round, table__number=2, position=1
    )
    page = new_page(viewport=TABLET, java_script_enabled=javascript)
    page.goto(reverse("door:tablet", args=[tournament.slug, door.door_token(tournament)]))
    # A private tournament: a name is found by a whole word of it.
    page.get_by_label("Your name").fill(mine.player.name[-4:])
    if not javascript:
        page.get_by_role("button", name="Find").click()
    page.get_by_role("button", name=mine.player.name).click()
    expect(page.get_by_role("status")).to_contain_text(f"{mine.player.name}, you are checked in.")
    expect(page.get_by_role("status")).to_contain_text("table 2, seat 1 — deals first")
    assert Player.objects.get(pk=mine.player.pk).checked_in
    # Seated in the round being played: no Undo at the door, the desk sorts it out.
    expect(page.get_by_role("status")).to_contain_text("Not you? Please tell the organiser")
    expect(page.get_by_role("button", name="Undo — that is not me")).to_have_count(0)
    if javascript:
        page.screenshot(path=screenshot_dir("seats") / "door-checked-in.png", full_page=True)
    page.get_by_role("link", name="Next player").click()
    expect(page.get_by_label("Your name")).to_be_visible()
    fits(page, TABLET["width"])


@pytest.mark.parametrize("javascript", [True, False])
def test_a_player_checks_in_before_the_round_and_undoes_it(
    new_page, seated_round, screenshot_dir, javascript
):
    tournament = seated_round.tournament
    Round.objects.filter(pk=seated_round.pk).update(started=False)
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    page = new_page(viewport=PHONE, java_script_enabled=javascript)
    page.goto(reverse("door:tablet", args=[tournament.slug, door.door_token(tournament)]))
    page.get_by_label("Your name").fill(player.name)
    if not javascript:
        page.get_by_role("button", name="Find").click()
    page.get_by_role("button", name=player.name).click()
    expect(page.get_by_role("status")).to_contain_text(f"{player.name}, you are checked in.")
    page.get_by_role("button", name="Undo — that is not me").click()
    expect(page.get_by_role("status")).to_contain_text(f"{player.name} is not checked in.")
    assert not Player.objects.get(pk=player.pk).checked_in
    expect(page.get_by_role("button", name=f"Check in {player.name} again")).to_be_visible()
    fits(page, PHONE["width"])
    if javascript:
        page.screenshot(path=screenshot_dir("seats") / "door-undone-360.png", full_page=True)


def test_the_door_undo_after_an_earlier_check_in_leaves_the_player_checked_in(
    new_page, seated_round
):
    tournament = seated_round.tournament
    Round.objects.filter(pk=seated_round.pk).update(started=False)
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    Player.objects.filter(pk=player.pk).update(checked_in=True)  # by the organiser
    page = new_page(viewport=TABLET)
    page.goto(reverse("door:tablet", args=[tournament.slug, door.door_token(tournament)]))
    page.get_by_label("Your name").fill(player.name)
    page.get_by_role("button", name=player.name).click()
    expect(page.get_by_role("status")).to_contain_text(f"{player.name} was already checked in.")
    expect(page.get_by_role("button", name="Undo — that is not me")).to_have_count(0)
    assert Player.objects.get(pk=player.pk).checked_in


def test_a_private_door_lists_nobody_from_a_letter(new_page, seated_round):
    tournament = seated_round.tournament
    page = new_page(viewport=PHONE)
    page.goto(reverse("door:tablet", args=[tournament.slug, door.door_token(tournament)]))
    page.get_by_label("Your name").fill("P")
    expect(page.get_by_text("Type at least two letters of your name.")).to_be_visible()
    page.get_by_label("Your name").fill("Pl")
    expect(page.get_by_text("No name has the word “Pl”")).to_be_visible()
    expect(page.locator(".door-name")).to_have_count(0)
    page.get_by_label("Your name").fill("Player")
    expect(page.locator(".door-name")).to_have_count(12)


def test_the_door_runs_under_the_content_security_policy(new_page, seated_round):
    from tests.browser.pages import watch_for_violations

    tournament = seated_round.tournament
    page = new_page(viewport=TABLET)
    violations = watch_for_violations(page)
    page.goto(reverse("door:tablet", args=[tournament.slug, door.door_token(tournament)]))
    page.get_by_label("Your name").fill("Player 0001")
    page.get_by_role("button", name="Player 0001").click()
    expect(page.get_by_role("status")).to_contain_text("you are checked in")
    assert page.locator("head style").count() == 0
    assert violations == []


def test_after_a_check_in_the_door_goes_back_to_the_search_by_itself(
    new_page, seated_round, screenshot_dir
):
    """The next arrival finds the search, not the last one's Undo: the panel goes back
    after as long as the server lets this tablet undo (``door.UNDO_SECONDS``)."""
    tournament = seated_round.tournament
    Round.objects.filter(pk=seated_round.pk).update(started=False)
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    page = new_page(viewport=TABLET)
    page.clock.install()
    page.goto(reverse("door:tablet", args=[tournament.slug, door.door_token(tournament)]))
    page.get_by_label("Your name").fill(player.name)
    page.clock.run_for(400)  # the search's pause after typing
    page.get_by_role("button", name=player.name).click()
    status = page.get_by_role("status")
    expect(status).to_contain_text(f"{player.name}, you are checked in.")
    expect(status).to_contain_text("goes back to the search by itself in 20 seconds")
    page.screenshot(path=screenshot_dir("seats") / "door-checked-in-returns.png")
    page.clock.run_for((door.UNDO_SECONDS - 1) * 1000)
    expect(page.get_by_role("button", name="Undo — that is not me")).to_be_visible()
    page.clock.run_for(2000)
    expect(page.get_by_label("Your name")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_value("")
    expect(page.get_by_role("button", name="Undo — that is not me")).to_have_count(0)
    assert page.evaluate("new URL(location.href).search") == ""
    # The door has its icon.
    assert page.locator('head link[rel="icon"]').get_attribute("href").endswith("favicon.svg")
