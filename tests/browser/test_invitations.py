"""An organiser invites a scorer, and the scorer, on a phone, opens the link, chooses a
password and confirms a sheet: no email, no administrator.

Screenshots go to artifacts/screenshots/invitations/ (the Scorers page and the pages of
the invitation, at 360 px and 1366 px).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import PHONE, check_fits, log_in
from tournament.models import Sheet, SheetStatus, Table
from tournament.sheets.saving import save_sheet

pytestmark = pytest.mark.browser

WIDE = {"width": 1366, "height": 768}
# One rotation at a table of four: the same deal four times.
SHEET = [{"won": [20, 10, 10, 2], "last_in": 4, "left_over": 10}] * 4


def test_an_invited_scorer_chooses_a_password_on_a_phone_and_confirms_a_sheet(
    new_page, seated_round, scorer, screenshot_dir
):
    shots = screenshot_dir("invitations")
    table = Table.objects.get(round=seated_round, number=1)
    save_sheet(table, scorer, SHEET, expected_version=0, final=True)  # awaits a second person
    slug = seated_round.tournament.slug
    scorers_path = reverse("organiser:scorers", args=[slug])

    olive = new_page(viewport=WIDE)
    log_in(olive, "olive", scorers_path)
    check_fits(olive, "the Scorers page at 1366 px")
    olive.screenshot(path=shots / "scorers-1366.png", full_page=True)
    olive.get_by_label("User name for the new scorer").fill("dora")
    olive.get_by_role("button", name="Make an invitation link").click()
    expect(olive.get_by_role("heading", name="Invitation of dora")).to_be_visible()
    expect(olive.locator(".invitation-qr svg")).to_be_visible()
    link = olive.locator(".invitation-address a").get_attribute("href")
    assert link
    assert "/accounts/invite/" in link
    check_fits(olive, "the new link at 1366 px")
    olive.screenshot(path=shots / "new-link-1366.png", full_page=True)

    # The organiser's phone: the Scorers page lists the invitation, and a second one's
    # link fits the screen.
    olive_phone = new_page(viewport=PHONE, is_mobile=True)
    log_in(olive_phone, "olive", scorers_path)
    invitations = olive_phone.locator("ul.invitation-list li")
    expect(invitations).to_have_count(1)
    expect(invitations).to_contain_text("dora")
    expect(invitations).to_contain_text("link works until")
    olive_phone.get_by_label("User name for the new scorer").fill("Eve Black")
    olive_phone.get_by_role("button", name="Make an invitation link").click()
    summary = olive_phone.locator("[data-error-summary]")
    expect(summary).to_contain_text("for example “eve.black”")
    expect(olive_phone.get_by_label("User name for the new scorer")).to_have_value("Eve Black")
    olive_phone.get_by_label("User name for the new scorer").fill("eve.black")
    olive_phone.get_by_role("button", name="Make an invitation link").click()
    expect(olive_phone.get_by_role("heading", name="Invitation of eve.black")).to_be_visible()
    eve_link = olive_phone.locator(".invitation-address a").get_attribute("href")
    check_fits(olive_phone, "the new link at 360 px")
    olive_phone.screenshot(path=shots / "new-link-360.png", full_page=True)
    olive_phone.get_by_role("link", name="Back to Scorers").click()
    expect(olive_phone.locator("ul.invitation-list li")).to_have_count(2)
    check_fits(olive_phone, "the Scorers page at 360 px")
    olive_phone.screenshot(path=shots / "scorers-360.png", full_page=True)

    # Dora, on her phone, opens the link, chooses a password and confirms table 1.
    dora = new_page(viewport=PHONE, is_mobile=True)
    dora.goto(link)
    expect(dora.get_by_role("heading", name="Score Test Open")).to_be_visible()
    expect(dora.locator(".invitation-name")).to_have_text("dora")
    check_fits(dora, "the invitation at 360 px")
    dora.screenshot(path=shots / "invitation-360.png", full_page=True)
    dora.get_by_label("Password", exact=True).fill("short")
    dora.get_by_label("The same password again").fill("short")
    dora.get_by_role("button", name="Choose this password and start scoring").click()
    expect(dora.locator("[data-error-summary]")).to_contain_text("too short")
    dora.screenshot(path=shots / "invitation-refused-360.png", full_page=True)
    dora.get_by_label("Password", exact=True).fill("lanterns-at-dusk-42")
    dora.get_by_label("The same password again").fill("lanterns-at-dusk-42")
    dora.get_by_role("button", name="Choose this password and start scoring").click()
    expect(dora.locator("ul.messages")).to_contain_text("Welcome, dora: you score Test Open.")
    expect(dora.get_by_role("button", name="Log out dora")).to_be_attached()
    dora.locator("li[data-table='1']").get_by_role("link", name="Confirm").click()
    dora.get_by_role("link", name="Review it against the paper").click()
    dora.get_by_role("button", name="Confirm: matches the paper").click()
    expect(dora.locator("ul.messages")).to_contain_text(
        "Round 1 · Table 1 confirmed: it now counts."
    )
    sheet = Sheet.objects.get(table=table)
    assert sheet.status == SheetStatus.CONFIRMED
    assert sheet.confirmed_by.get_username() == "dora"

    # The link worked once.
    response = dora.goto(link)
    assert response is not None
    assert response.status == 410
    expect(dora.get_by_role("heading", name="This link no longer works")).to_be_visible()
    check_fits(dora, "a used link at 360 px")
    dora.screenshot(path=shots / "used-link-360.png", full_page=True)

    wide = new_page(viewport=WIDE)
    wide.goto(eve_link)
    expect(wide.locator(".invitation-name")).to_have_text("eve.black")
    check_fits(wide, "the invitation at 1366 px")
    wide.screenshot(path=shots / "invitation-1366.png", full_page=True)
    wide.goto(link)
    expect(wide.get_by_text("This invitation has been used")).to_be_visible()
    wide.screenshot(path=shots / "used-link-1366.png", full_page=True)
