"""Rehearsing the evening in real Chromium, at 360 px and 1366 px: "Rehearse" in Settings
makes the private copy; its round 1 is started and played by the simulator, confirmed and
released; the private link opens its standings and projector, each marked "Rehearsal",
while the same address without the link is a 404.

Screenshots go to artifacts/screenshots/rehearsal/<size>/.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.factories import TournamentFactory, make_players
from tournament.models import Sheet, SheetStatus, Tournament
from tournament.sheets.confirming import confirm_sheet

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "narrow": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 768},
}


@pytest.fixture
def evening(organiser):
    tournament = TournamentFactory(
        name="Red Lion Club Night", slug="red-lion-club-night", owner=organiser, published=True
    )
    make_players(tournament, 13)
    return tournament


def log_in(page: Page, path: str) -> None:
    page.goto(path)
    page.get_by_label("User name").fill("olive")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out olive")).to_be_visible()


def fits(page: Page, width: int) -> None:
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= width, f"the page is {page_width}px wide at {width}px"


def tall_enough(page: Page, name: str, least: int = 44) -> None:
    box = page.get_by_role("button", name=name, exact=True).bounding_box()
    assert box is not None
    assert box["height"] >= least, f"“{name}” is {box['height']}px tall"


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_rehearsal_from_settings_to_the_projector(
    new_page, evening, organiser, screenshot_dir, size
):
    shots = screenshot_dir(f"rehearsal/{size}")
    viewport = VIEWPORTS[size]

    page = new_page(viewport=viewport)
    log_in(page, reverse("organiser:edit", args=[evening.slug]))
    section = page.locator("#rehearse")
    section.scroll_into_view_if_needed()
    tall_enough(page, "Rehearse")
    fits(page, viewport["width"])
    page.screenshot(path=shots / "01-settings.png", full_page=True)
    section.screenshot(path=shots / "01-settings-rehearse.png")
    section.get_by_role("button", name="Rehearse").click()

    banner = page.locator(".rehearsal-banner")
    expect(banner).to_contain_text("Rehearsal")
    expect(page.locator("ul.messages")).to_contain_text("a private copy of “Red Lion Club Night”")
    rehearsal = Tournament.objects.get(rehearsal_of=evening)
    link = page.get_by_label("Private link to its public pages", exact=False).input_value()
    assert link.endswith(f"/t/{rehearsal.slug}/rehearsal/{rehearsal.rehearsal_token}/")
    fits(page, viewport["width"])
    page.screenshot(path=shots / "02-overview.png", full_page=True)

    page.goto(reverse("organiser:round", args=[rehearsal.slug, 1]))
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator("ul.messages")).to_contain_text("Round 1 has started")
    tall_enough(page, "Play this round")
    page.get_by_role("button", name="Play this round").click()
    expect(page.locator("ul.messages")).to_contain_text(
        "Round 1 is played: its sheets are entered, awaiting your confirmation"
    )
    sheets = Sheet.objects.filter(table__round__tournament=rehearsal)
    assert {sheet.status for sheet in sheets} == {SheetStatus.ENTERED}
    expect(banner).to_be_visible()
    expect(page.locator("#rehearsal-play")).to_contain_text("every table’s sheet is typed")
    fits(page, viewport["width"])
    page.screenshot(path=shots / "03-round-played.png", full_page=True)

    # The organiser confirms at the desk (tests/rehearsals has it by the pages), releases.
    for sheet in sheets.select_related("table"):
        confirm_sheet(sheet.table, organiser, expected_version=sheet.version)
    page.reload()
    page.get_by_role("button", name="Release results to the public").click()
    expect(page.locator("ul.messages")).to_contain_text("confirmed results are now public")

    visitor = new_page(viewport=viewport)
    response = visitor.goto(reverse("projector", args=[rehearsal.slug]))
    assert response is not None
    assert response.status == 404
    visitor.goto(link)
    expect(visitor.locator(".rehearsal-banner")).to_contain_text("Rehearsal")
    expect(visitor.locator("table.standings tbody tr")).to_have_count(13)
    fits(visitor, viewport["width"])
    visitor.screenshot(path=shots / "04-public-standings.png", full_page=True)
    visitor.goto(reverse("projector", args=[rehearsal.slug]))
    expect(visitor.locator(".rehearsal-banner")).to_be_visible()
    expect(visitor.locator("#board")).to_contain_text("Player 00")
    visitor.screenshot(path=shots / "05-projector.png")
