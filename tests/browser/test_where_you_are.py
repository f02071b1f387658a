"""A phone at the table says where it is: a refused save brings its reason into view with
the focus on it, however far down the page the button was, and each saved deal says so on
the next deal's page, also when the save waited for the network and went through later.
At a phone's width (360 and 390 px) and a laptop's (1366 px). The desk's sheet alike.

Screenshots go to artifacts/screenshots/where-you-are/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import DEALS, fill_deal, open_sheet
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.kernel.cells import LAST_IN, cell_name
from tournament.models import Sheet, Table
from tournament.printing.views.printouts import entry_path
from tournament.sheets.reading import current_rows
from tournament.sheets.rows import trim

pytestmark = pytest.mark.browser

SCREENS = {
    "360": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True},
    "390": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "1366": {"viewport": {"width": 1366, "height": 768}},
}


@pytest.fixture
def table_of_five(db, organiser, scorer):
    tournament = TournamentFactory(
        name="Five Open", slug="five-open", owner=organiser, scorers=[scorer], rotations_per_round=2
    )
    return Table.objects.get(round=seated_round(tournament, make_players(tournament, 5)))


def saved_deals(table: Table) -> int:
    sheet = Sheet.objects.filter(table=table).first()
    return len(trim(current_rows(sheet))) if sheet else 0


def open_deal(page: Page, table: Table) -> None:
    page.goto(entry_path(table.code))
    page.get_by_role("link", name="Start typing the sheet").click()
    expect(page.get_by_role("heading", name="Deal 1 of 10")).to_be_visible()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_refused_save_comes_into_view_with_the_focus_and_a_saved_one_says_so(
    new_page, table_of_five, screen, screenshot_dir
):
    shots = screenshot_dir(f"where-you-are/{screen}")
    table = table_of_five
    phone = new_page(**SCREENS[screen])
    open_deal(phone, table)
    for number, (won, left_over, last_in) in enumerate(DEALS[:3], start=1):
        fill_deal(phone, number, won, left_over, last_in)
        phone.get_by_role("button", name=f"Save deal {number}").click()
        expect(phone.get_by_role("heading", name=f"Deal {number + 1} of 10")).to_be_visible()
        saved = phone.locator("ul.messages li")
        # Said once, on the next deal's page only.
        expect(saved).to_have_text(f"Deal {number} saved ✓")
    expect(phone.locator("ul.messages li")).to_be_in_viewport()
    phone.screenshot(path=shots / "deal-3-saved.png", full_page=True)

    # Deal 4 without its last in: the button is pressed at the foot of the form.
    won, left_over, _ = DEALS[3]
    fill_deal(phone, 4, won, left_over, 1)
    phone.locator(f"input[name='{cell_name(4, LAST_IN)}']:checked").evaluate(
        "radio => { radio.checked = false; }"
    )
    save = phone.get_by_role("button", name="Save deal 4 · next")
    save.scroll_into_view_if_needed()
    save.click()
    summary = phone.locator("[data-error-summary]")
    expect(summary).to_contain_text("Deal 4 was not saved")
    expect(summary).to_contain_text("last in")
    expect(summary).to_be_focused()
    expect(summary).to_be_in_viewport()
    # Brought to the top of the screen, whole, not merely a corner of it showing.
    box = summary.bounding_box()
    assert box is not None
    assert 0 <= box["y"] < SCREENS[screen]["viewport"]["height"] / 4, box
    phone.screenshot(path=shots / "deal-4-refused.png")
    assert saved_deals(table) == 3

    # Corrected and saved, it says so on deal 5; the refusal is gone.
    phone.locator(f"input[name='{cell_name(4, LAST_IN)}'][value='{DEALS[3][2]}']").check()
    phone.get_by_role("button", name="Save deal 4 · next").click()
    expect(phone.get_by_role("heading", name="Deal 5 of 10")).to_be_visible()
    expect(phone.locator("ul.messages li")).to_have_text("Deal 4 saved ✓")
    expect(phone.locator("[data-error-summary]")).to_have_count(0)


def test_a_save_sent_again_when_the_network_came_back_says_it_went_through(
    new_page, table_of_five, screenshot_dir
):
    shots = screenshot_dir("where-you-are/offline")
    table = table_of_five
    phone = new_page(**SCREENS["390"])
    open_deal(phone, table)
    won, left_over, last_in = DEALS[0]
    fill_deal(phone, 1, won, left_over, last_in)
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save deal 1 · next").click()
    expect(phone.get_by_role("status").filter(has_text="Waiting for the network")).to_be_visible()
    assert saved_deals(table) == 0
    phone.context.set_offline(False)  # the browser says "online", and keep.js sends it
    expect(phone.get_by_role("heading", name="Deal 2 of 10")).to_be_visible()
    expect(phone.locator("ul.messages li")).to_have_text(
        "Deal 1 saved ✓ (sent again when the network came back)"
    )
    phone.screenshot(path=shots / "deal-1-sent-again.png", full_page=True)
    assert saved_deals(table) == 1


def test_a_refused_desk_sheet_comes_into_view_with_the_focus(
    new_page, organiser, scorer, table_of_five, screenshot_dir
):
    shots = screenshot_dir("where-you-are/desk")
    page = new_page(viewport=SCREENS["1366"]["viewport"])
    open_sheet(page, scorer.username)
    page.locator("#d1_s1").fill("3")  # odd, and the rest blank
    save = page.get_by_role("button", name="Save sheet")
    save.scroll_into_view_if_needed()
    save.click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_contain_text("The sheet was not saved")
    expect(summary).to_contain_text("Deal 1: seat 1: 3 cards won is odd")
    expect(summary).to_be_focused()
    expect(summary).to_be_in_viewport()
    page.screenshot(path=shots / "sheet-refused.png")
    # Its links take the cursor to the cell, as the live check's do.
    summary.get_by_role("link", name=re.compile("^Deal 1: seat 1")).click()
    expect(page.locator("#d1_s1")).to_be_focused()
