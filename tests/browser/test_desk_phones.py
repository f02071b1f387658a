"""The round desk on a phone, with sheets typed at the tables: it still fits 360 px, each
table says who has its sheet, and tapping a table's status opens its sheet."""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import PHONE, check_fits
from tests.pages import ROWS
from tournament.models import Table
from tournament.sheets.authors import AtTable
from tournament.sheets.saving import save_sheet


def test_the_desk_on_a_phone_shows_who_is_typing_and_opens_a_sheet(new_page, seated_round):
    first, second = Table.objects.filter(round=seated_round).order_by("number")[:2]
    save_sheet(first, AtTable("a"), ROWS[:2], expected_version=0, final=False)
    save_sheet(second, AtTable("b"), ROWS, expected_version=0, final=True)
    slug = seated_round.tournament.slug
    page = new_page(viewport=PHONE, is_mobile=True)
    page.goto(reverse("login"))
    page.get_by_label("User name").fill("olive")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out olive")).to_be_visible()

    page.goto(reverse("scorer:desk", args=[slug, 1]))
    rows = page.locator("table.desk tbody tr")
    expect(rows.nth(0).locator("td.status")).to_contain_text("Being entered at the table")
    expect(rows.nth(0).locator("td.status time")).to_have_text("just now")
    expect(rows.nth(2).locator("td.status")).to_have_text("Not started")
    check_fits(page, "the round desk at 360×740")

    page.get_by_role("link", name="Submitted by the table").click()
    expect(page).to_have_url(
        re.compile(re.escape(reverse("scorer:sheet", args=[slug, 1, 2])) + "$")
    )
    expect(page.locator(".sheet-status")).to_contain_text("entered by table 2, phone 1")
