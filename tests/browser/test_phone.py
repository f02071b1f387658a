"""The organiser's pages on a phone (375 px wide): nothing wider than the screen, and the
controls used most on the night (check in, drop out) in view without scrolling sideways.

Screenshots go to artifacts/screenshots/phone/.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.pages import log_in

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 800}


def overflow(page: Page) -> dict[str, int]:
    """How wide the page is, and how far its widest scrolling table reaches."""
    return page.evaluate(
        """() => ({
            page: document.documentElement.scrollWidth,
            table: Math.max(0, ...Array.from(document.querySelectorAll('.table-scroll'),
                                             (box) => box.scrollWidth - box.clientWidth)),
        })"""
    )


def test_organiser_pages_fit_a_phone(new_page, seated_round, screenshot_dir):
    shots = screenshot_dir("phone")
    slug = seated_round.tournament.slug
    page = new_page(viewport=PHONE)
    log_in(page, "olive", reverse("organiser:create"))
    pages = {
        "create": reverse("organiser:create"),
        "settings": reverse("organiser:edit", args=[slug]),
        "players": reverse("organiser:players", args=[slug]),
    }
    for name, path in pages.items():
        page.goto(path)
        page.screenshot(path=shots / f"{name}.png", full_page=True)
        assert overflow(page) == {"page": PHONE["width"], "table": 0}, name

    row = page.locator("table.players tbody tr").first
    for control in (row.get_by_role("button", name="Check in"), row.get_by_text("Drop out…")):
        expect(control).to_be_in_viewport()
        box = control.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"]
    expect(row.locator(".badge")).to_be_in_viewport()
    row.get_by_role("button", name="Check in").click()
    # Checked in in place: the row and the count change, the page stays where it was.
    first = page.locator("table.players tbody tr").first
    expect(first.locator(".badge")).to_have_text("checked in")
    expect(first.get_by_role("button", name="Undo check-in")).to_be_visible()
    expect(page.get_by_text("1 of", exact=False).first).to_be_visible()
