"""A penalty in real Chromium at a phone's 360 px, its pages then at a laptop's 1366 px:
the organiser records it on the player's page (the reasons offered, the page back at the
section), and the public standings mark the total, a tap on the badge under the name
showing the reason, and the player's public page lists it under its round. Neither page
scrolls sideways; the buttons are a finger's size.

Screenshots go to artifacts/screenshots/penalties/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import fits, log_in
from tournament.models import Player

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
TAP_TARGET = 44


def high_enough(page: Page, name: str) -> None:
    box = page.get_by_role("button", name=name).first.bounding_box()
    assert box is not None
    assert box["height"] >= TAP_TARGET, f"{name}: {box['height']} px high"


def test_a_penalty_from_the_player_page_to_the_public_standings(
    new_page, make_played, organiser, screenshot_dir
):
    """At a phone's size; the pages it ends on are then looked at on a laptop."""
    viewport = PHONE
    shots = screenshot_dir("penalties-360")
    tournament = make_played(players=8, rounds=2, owner=organiser, slug="spring")
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    assert player is not None
    page = new_page(viewport=viewport)
    log_in(page, "olive", f"/manage/{tournament.slug}/players/{player.pk}/")
    section = page.locator("#adjustments")
    expect(section.get_by_role("heading", name="Penalties and awards")).to_be_visible()
    expect(section.get_by_label("Round")).to_have_value("2")
    section.get_by_label("Points (below 0 for a penalty)").fill("-2")
    section.get_by_label("Reason").fill("misdeal")
    high_enough(page, "Record")
    section.get_by_role("button", name="Record").click()
    expect(page.locator("ul.messages")).to_contain_text("Recorded a penalty of −2 (misdeal)")
    expect(section.locator("ul.adjustment-list")).to_contain_text("−2 in round 2: misdeal")
    expect(section.locator("ul.adjustment-history")).to_contain_text("given by olive")
    high_enough(page, "Remove −2 in round 2 (misdeal)")
    fits(page)
    section.scroll_into_view_if_needed()
    page.screenshot(path=shots / "01-organiser-player-page.png", full_page=True)
    page.get_by_role("link", name="Players", exact=True).click()
    expect(page.locator(f"#player-{player.pk} .badge.penalty")).to_have_text("−2")
    fits(page)
    page.screenshot(path=shots / "01b-organiser-players-list.png", full_page=False)

    visitor = new_page(viewport=viewport, is_mobile=viewport is PHONE, has_touch=True)
    visitor.goto(f"/t/{tournament.slug}/")
    row = visitor.locator("table.standings tbody tr").filter(has_text=player.name)
    expect(row.locator(".adjusted-mark")).to_have_attribute(
        "title", "includes round 2: −2 (misdeal)"
    )
    badge = row.locator("details.adjustments summary")
    expect(badge).to_have_text("−2 penalty")
    badge.tap()
    expect(row.locator("details.adjustments li")).to_have_text("Round 2: −2 (misdeal)")
    fits(visitor)
    visitor.screenshot(path=shots / "02-public-standings.png", full_page=True)

    row.get_by_role("link", name=player.name).click()
    expect(visitor.locator("dl.player-summary")).to_contain_text("round 2: −2 (misdeal)")
    expect(visitor.locator("#round-2 ~ p.adjustment-line")).to_contain_text("Penalty −2 misdeal")
    fits(visitor)
    visitor.screenshot(path=shots / "03-public-player-page.png", full_page=True)

    laptop_shots = screenshot_dir("penalties-1366")
    for each in (page, visitor):
        each.set_viewport_size(LAPTOP)
    page.go_back()
    expect(section.locator("ul.adjustment-list")).to_contain_text("−2 in round 2: misdeal")
    high_enough(page, "Record")
    high_enough(page, "Remove −2 in round 2 (misdeal)")
    fits(page)
    page.screenshot(path=laptop_shots / "01-organiser-player-page.png", full_page=True)
    fits(visitor)
    visitor.screenshot(path=laptop_shots / "03-public-player-page.png", full_page=True)
    visitor.go_back()
    expect(row.locator(".adjusted-mark")).to_be_visible()
    fits(visitor)
    visitor.screenshot(path=laptop_shots / "02-public-standings.png", full_page=True)
