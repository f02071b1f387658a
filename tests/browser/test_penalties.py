"""The pages a penalty shows on fit a phone's 360 px and a laptop's 1366 px: the
organiser's player page (its Record and Remove buttons a finger high), the players list
with the player's badge, the public standings (a tap on the badge under the name shows
the reason) and the player's public page. Nothing scrolls sideways.

Recording a penalty and what each page says of it are tested without a browser, in
tests/players/test_adjustments.py. Screenshots go to artifacts/screenshots/penalties/.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.pages import PHONE, fits, signed_in
from tournament.models import Player
from tournament.players import adjustments
from tournament.players.adjustments import NewAdjustment

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
TAP_TARGET = 44


def high_enough(page: Page, name: str) -> None:
    box = page.get_by_role("button", name=name).first.bounding_box()
    assert box is not None
    assert box["height"] >= TAP_TARGET, f"{name}: {box['height']} px high"


def test_the_pages_of_a_penalty_fit_a_phone_and_a_laptop(
    new_page, live_server, make_played, organiser, screenshot_dir
):
    tournament = make_played(players=8, rounds=2, owner=organiser, slug="spring")
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    assert player is not None
    adjustments.add_adjustment(tournament, NewAdjustment(player.pk, 2, -2, "misdeal"), organiser)
    olive = new_page(viewport=PHONE)
    signed_in(olive, live_server.url, "olive")
    olive.goto(f"/manage/{tournament.slug}/players/{player.pk}/#adjustments")
    players = new_page(viewport=PHONE)
    signed_in(players, live_server.url, "olive")
    players.goto(f"/manage/{tournament.slug}/players/")
    expect(players.locator(f"#player-{player.pk} .badge.penalty")).to_have_text("−2")
    visitor = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    visitor.goto(f"/t/{tournament.slug}/")
    row = visitor.locator("table.standings tbody tr").filter(has_text=player.name)
    badge = row.locator("details.adjustments summary")
    expect(badge).to_have_text("−2 penalty")
    badge.tap()
    expect(row.locator("details.adjustments li")).to_have_text("Round 2: −2 (misdeal)")
    card = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    card.goto(reverse("player", args=[tournament.slug, player.pk]))
    expect(card.locator("#round-2 ~ p.adjustment-line")).to_contain_text("Penalty −2 misdeal")

    for size, viewport in (("360", PHONE), ("1366", LAPTOP)):
        shots = screenshot_dir(f"penalties-{size}")
        for page in (olive, players, visitor, card):
            page.set_viewport_size(viewport)
            fits(page)
        high_enough(olive, "Record")
        high_enough(olive, "Remove −2 in round 2 (misdeal)")
        olive.locator("#adjustments").scroll_into_view_if_needed()
        olive.screenshot(path=shots / "01-organiser-player-page.png", full_page=True)
        players.screenshot(path=shots / "01b-organiser-players-list.png", full_page=False)
        visitor.screenshot(path=shots / "02-public-standings.png", full_page=True)
        card.screenshot(path=shots / "03-public-player-page.png", full_page=True)
