"""Checking in a room on the organiser's players page, in real Chromium at a phone's
360 px (the page it ends on then at a laptop's 1366 px): a tap checks a player in where
they are on the page (htmx swaps the row, the count with it, the page does not jump to
the top, the focus stays on the button); after "Add player" the cursor is back in Name.

What the server answers (the page without JavaScript coming back at the row, "Check in
everyone not yet in" asking first, the rows htmx gets) is tested without a browser, in
tests/players/test_checking_in.py.

Screenshots go to artifacts/screenshots/checking-in/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import fits, signed_in
from tests.factories import TournamentFactory, make_players
from tournament.models import Player

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
# A finger's width: the least a button the organiser taps all evening may be high.
TAP_TARGET = 44


@pytest.fixture
def room(organiser):
    """23 players, 18 of them checked in, one dropped out."""
    tournament = TournamentFactory(name="Red Lion Loo", slug="red-lion", owner=organiser)
    players = make_players(tournament, 24)
    Player.objects.filter(pk__in=[p.pk for p in players[:18]]).update(checked_in=True)
    Player.objects.filter(pk=players[23].pk).update(active=False)
    return tournament


def tap_targets(page: Page) -> None:
    for button in page.locator("table.players form.actions button").all():
        if not button.is_visible():  # Drop out's own button, until its disclosure opens
            continue
        box = button.bounding_box()
        assert box is not None
        assert box["height"] >= TAP_TARGET, f"{button.inner_text()}: {box['height']} px high"


def row(page: Page, player: Player):
    return page.locator(f"#player-{player.pk}")


def test_a_tap_checks_a_player_in_where_they_are(new_page, live_server, room, screenshot_dir):
    """At a phone's size; the page it ends on is then looked at on a laptop."""
    shots = screenshot_dir("checking-in/360")
    page = new_page(viewport=PHONE)
    signed_in(page, live_server.url, "olive")
    page.goto(f"/manage/{room.slug}/players/")
    expect(page.get_by_text("18 of 23 checked in")).to_be_visible()
    fits(page)
    tap_targets(page)
    page.screenshot(path=shots / "players.png", full_page=True)

    waiting = Player.objects.filter(tournament=room, checked_in=False, active=True)
    player = waiting.order_by("name").last()
    button = row(page, player).get_by_role("button", name="Check in")
    button.scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    address = page.url
    button.click()
    expect(row(page, player).get_by_role("button", name="Undo check-in")).to_be_visible()
    expect(row(page, player).get_by_text("checked in", exact=True)).to_be_visible()
    expect(page.get_by_text("19 of 23 checked in")).to_be_visible()
    assert page.url == address
    assert page.evaluate("window.scrollY") == scrolled
    # The focus stays on the row's button, ready for the next tap or an undo.
    expect(row(page, player).get_by_role("button", name="Undo check-in")).to_be_focused()
    assert Player.objects.get(pk=player.pk).checked_in
    fits(page)
    tap_targets(page)
    page.screenshot(path=shots / "after-a-check-in.png")

    row(page, player).get_by_role("button", name="Undo check-in").click()
    expect(row(page, player).get_by_role("button", name="Check in")).to_be_focused()
    expect(page.get_by_text("18 of 23 checked in")).to_be_visible()
    assert not Player.objects.get(pk=player.pk).checked_in

    page.set_viewport_size(LAPTOP)
    fits(page)
    tap_targets(page)
    page.screenshot(path=screenshot_dir("checking-in/1366") / "players.png", full_page=True)


def test_after_add_player_the_cursor_is_back_in_name(new_page, live_server, room):
    page = new_page(viewport=LAPTOP)
    signed_in(page, live_server.url, "olive")
    page.goto(f"/manage/{room.slug}/players/")
    page.get_by_label("Name", exact=True).fill("Ithel Rowse")
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_text("Registered Ithel Rowse.")).to_be_visible()
    expect(page.get_by_label("Name", exact=True)).to_be_focused()
    page.keyboard.type("Bryn Tallis")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Registered Bryn Tallis.")).to_be_visible()
    assert Player.objects.filter(tournament=room, name="Bryn Tallis").exists()
