"""A phone at the table, 360 px wide: a deal of a table of eight fits the screen, and a
Caidis deal is typed with its lying-down order, a shared place refused and put right."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import PHONE, check_fits, expect_message, fill_deal, fill_places
from tests.factories import CAIDIS_ROWS, EIGHT_ROWS, table_of
from tournament.models import Sheet

pytestmark = pytest.mark.browser

ON_A_PHONE = {"viewport": PHONE, "is_mobile": True, "has_touch": True}


def test_a_deal_of_a_table_of_eight_fits_a_phone(new_page, transactional_db):
    table = table_of(8, slug="eight-night", rule_set="du-coeur")
    phone = new_page(**ON_A_PHONE)
    phone.goto(reverse("table:deal", args=[table.code, 1]))
    expect(phone.get_by_role("heading", name="Deal 1 of 8")).to_be_visible()
    expect(phone.locator("input[data-count]")).to_have_count(9)
    check_fits(phone, "deal 1 of a table of eight")
    row = EIGHT_ROWS[0]
    fill_deal(phone, 1, row["won"], row["left_over"], row["last_in"])
    expect(phone.locator("[data-checksum]")).to_have_text("52 of 52: the deal adds up.")
    phone.get_by_role("button", name="Save deal 1 · next").click()
    expect(phone.get_by_role("heading", name="Deal 2 of 8")).to_be_visible()
    check_fits(phone, "deal 2 of a table of eight, deal 1 in the totals")


def test_a_caidis_deal_is_typed_with_its_lying_down_order(new_page, transactional_db):
    table = table_of(4, slug="caidis-night", scoring="caidis", table_sizes=[3, 4, 5])
    phone = new_page(**ON_A_PHONE)
    phone.goto(reverse("table:deal", args=[table.code, 1]))
    row = CAIDIS_ROWS[0]  # out 2, 3, 1; seat 4 last in
    fill_deal(phone, 1, row["won"], row["left_over"], row["last_in"])
    # The last in's place stays blank: its box says so once it is chosen.
    expect(phone.locator("#d1_o4")).to_have_attribute("placeholder", "last in")
    fill_places(phone, 1, row["laid_down"], 4)
    phone.locator("#d1_o3").fill("1")  # seat 3 read as out first, as seat 2 is
    check_fits(phone, "a Caidis deal with its order")
    phone.get_by_role("button", name="Save deal 1 · next").click()
    expect(phone.locator(".error-summary")).to_contain_text(
        "Deal 1: lying-down order: seat 3 is out 1st, as is seat 2"
    )
    expect(phone.locator("#d1_o3")).to_have_value("1")
    expect(phone.locator("#d1_o3")).to_have_attribute("aria-invalid", "true")
    phone.locator("#d1_o3").fill("2")
    phone.get_by_role("button", name="Save deal 1 · next").click()
    expect_message(phone, "Deal 1 saved")
    expect(phone.get_by_role("heading", name="Deal 2 of 4")).to_be_visible()
    assert Sheet.objects.get(table=table).pending[0]["laid_down"] == [2, 3, 1]
