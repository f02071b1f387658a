"""Typing a sheet at the desk with the keyboard only: where the cursor starts, Enter to
"Save sheet" at the end, a pasted word refused naming its cell, problems that take the
cursor to their deal, and the number of keys a clean sheet takes (stated in the guide)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import DEALS, expect_message, open_sheet
from tests.factories import TournamentFactory, make_players, seated_round

pytestmark = pytest.mark.browser

# The keys to type DEALS from the desk: every digit, an Enter after each cell (the last
# one moves to "Save sheet"), and the Enter that presses it. The guide's scorers page
# (docs/scorers.md, "Score entry at the desk") states this number: a change to the page
# that makes it grow must say so there.
KEYS_FOR_A_CLEAN_SHEET = 167


@pytest.fixture
def table_of_five(db, organiser, scorer):
    tournament = TournamentFactory(
        name="Five Open",
        slug="five-open",
        owner=organiser,
        scorers=[scorer],
        rotations_per_round=2,
    )
    return seated_round(tournament, make_players(tournament, 5))


def test_a_clean_sheet_of_ten_deals_takes_a_known_number_of_keys(new_page, scorer, table_of_five):
    page = new_page()
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    open_sheet(page, scorer.username)
    expect(page.locator("#d1_s1")).to_be_focused()  # no click, no Tab to start
    keys = 0
    for won, left_over, last_in in DEALS:
        for value in (*won, left_over, last_in):
            # As fast as a keyboard goes: the live checks typed over are dropped while one
            # is on its way (never cut off, which htmx reports as console errors).
            page.keyboard.type(str(value))
            page.keyboard.press("Enter")
            keys += len(str(value)) + 1
    expect(page.get_by_role("button", name="Save sheet")).to_be_focused()
    page.keyboard.press("Enter")
    keys += 1
    expect_message(page, "awaits confirmation")
    assert keys == KEYS_FOR_A_CLEAN_SHEET
    assert console_errors == []


def test_a_pasted_word_is_refused_naming_the_cell(new_page, scorer, table_of_five):
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_sheet(page, scorer.username)
    page.evaluate("navigator.clipboard.writeText('1O')")
    page.locator("#d3_s2").focus()
    page.keyboard.press("Control+V")
    refusal = page.locator("#typed-refusal")
    expect(refusal).to_have_text("deal 3, seat 2: “1O” is not a number: type digits only")
    expect(page.locator("#d3_s2")).to_have_value("")
    page.keyboard.type("10")
    expect(refusal).to_be_hidden()
    expect(page.locator("#d3_s2")).to_have_value("10")


def test_a_problem_takes_the_cursor_to_its_deal(new_page, scorer, table_of_five):
    page = new_page()
    open_sheet(page, scorer.username)
    page.locator("#d2_s1").fill("3")
    page.locator("#d2_s1").dispatch_event("change")
    problem = page.locator("#sheet-check a.problem-link").filter(has_text="deal 2: seat 1")
    expect(problem).to_have_text(re.compile("3 cards won is odd"))
    problem.click()
    expect(page.locator("#d2_s1")).to_be_focused()
