"""Releasing a round with a table unscored, in real Chromium, on a phone (its pages then
on a wider phone and a laptop): the release asks first and names the table; once
released anyway, the public standings show that table's players as "no result yet",
without a rank, after the ranked players.

Screenshots go to artifacts/screenshots/release/ (the question and the public standings
at each width).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import fits, log_in
from tournament.models import Round, Seat
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet

pytestmark = pytest.mark.browser

SHEET = [{"won": [20, 10, 10, 2], "last_in": 4, "left_over": 10}] * 4
VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1366, "height": 768},
    "narrow": {"width": 360, "height": 740},
}


@pytest.fixture
def table_three_unscored(seated_round, scorer, second_scorer):
    """Round 1 published but not released; tables 1 and 2 confirmed, table 3's sheet
    typed and awaiting confirmation."""
    tournament = seated_round.tournament
    tournament.published = True
    tournament.save()
    for table in seated_round.tables.order_by("number"):
        save_sheet(table, scorer, SHEET, expected_version=0, final=True)
        if table.number < 3:
            confirm_sheet(table, second_scorer, expected_version=1)
    return seated_round


def test_a_release_with_a_table_unscored_asks_then_shows_no_result_yet(
    new_page, table_three_unscored, screenshot_dir
):
    """At the narrowest size; the pages it ends on are then looked at at the others."""
    size = "narrow"
    shots = screenshot_dir(f"release/{size}")
    viewport = VIEWPORTS[size]
    round_ = table_three_unscored
    slug = round_.tournament.slug
    late = [
        seat.player.name
        for seat in Seat.objects.select_related("player").filter(
            table__round=round_, table__number=3
        )
    ]

    organiser = new_page(viewport=viewport)
    log_in(organiser, "olive", reverse("organiser:round", args=[slug, 1]))
    organiser.get_by_role("button", name="Release results to the public").click()
    question = organiser.locator("#confirm-release")
    expect(question.get_by_role("alert")).to_have_text(
        "Round 1: table 3 has no confirmed sheet. Release round 1 anyway?"
    )
    expect(question.get_by_role("button", name="Release round 1 anyway")).to_be_visible()
    assert not Round.objects.get(pk=round_.pk).released
    fits(organiser, viewport["width"])
    question.scroll_into_view_if_needed()
    organiser.screenshot(path=shots / "01-release-question.png", full_page=True)

    question.get_by_role("button", name="Release round 1 anyway").click()
    expect(organiser.locator("ul.messages")).to_contain_text(
        "Round 1's confirmed results are now public."
    )
    assert Round.objects.get(pk=round_.pk).released

    public = new_page(viewport=viewport)
    public.goto(f"/t/{slug}/")
    expect(public.locator("#no-result-yet")).to_contain_text(
        "Table 3 of round 1 has no result yet."
    )
    rows = public.locator("table.standings tbody tr")
    expect(rows).to_have_count(12)
    # Table 3's four players come last, without a rank, each marked "no result yet".
    for index in range(8, 12):
        row = rows.nth(index)
        expect(row.locator("td.rank")).to_have_text("–")
        expect(row.locator("td").nth(3)).to_have_text("–")  # no points, not 0
        expect(row.locator(".no-result").first).to_be_visible()
        expect(row.locator(".no-result").first).to_contain_text(
            "No result yet for round 1 (table 3)"
        )
    assert sorted(rows.nth(i).locator("td.name a").first.inner_text() for i in range(8, 12)) == (
        sorted(late)
    )
    expect(rows.nth(7).locator("td.rank")).to_have_text("=5")
    fits(public, viewport["width"])
    public.screenshot(path=shots / "02-public-standings.png", full_page=True)

    for other in ("phone", "laptop"):
        shots = screenshot_dir(f"release/{other}")
        for page in (organiser, public):
            page.set_viewport_size(VIEWPORTS[other])
            fits(page, VIEWPORTS[other]["width"])
        expect(public.locator("#no-result-yet")).to_contain_text("Table 3 of round 1")
        expect(rows.nth(11).locator(".no-result").first).to_be_visible()
        public.screenshot(path=shots / "02-public-standings.png", full_page=True)
