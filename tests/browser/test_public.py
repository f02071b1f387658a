"""The public leaderboard in real Chromium: the standings on a phone, and the projector
screen following a sheet confirmed while it is showing, without being reloaded.

Screenshots go to artifacts/screenshots/public/ (the standings) and
artifacts/screenshots/public-projector/ (the projector).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tournament.models import Seat
from tournament.rounds import services as rounds
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
# One rotation at a table of four: the same deal four times, seat 1 winning 20 cards
# (10 points a deal, 40 in all under winner-advantage scoring).
SHEET = [{"won": [20, 10, 10, 2], "last_in": 4, "left_over": 10}] * 4


def points_cell(page: Page, table_selector: str, name: str) -> Locator:
    """The cell of ``name``'s points in the table ``table_selector``."""
    table = page.locator(table_selector)
    expect(table).to_be_visible()
    headings = [heading.strip() for heading in table.locator("thead th").all_inner_texts()]
    row = table.locator("tbody tr").filter(has_text=name)
    return row.locator("td").nth(headings.index("Points"))


@pytest.fixture
def released_round(seated_round, scorer, second_scorer):
    """Round 1 released to the public, tables 1 and 2 confirmed, table 3 entered and
    awaiting confirmation."""
    tournament = seated_round.tournament
    tournament.published = True
    tournament.save()
    for table in seated_round.tables.order_by("number"):
        save_sheet(table, scorer, SHEET, expected_version=0, final=True)
        if table.number < 3:
            confirm_sheet(table, second_scorer, expected_version=1)
    # Asked and confirmed: table 3's players show as "no result yet" meanwhile.
    rounds.release_round(seated_round, despite_missing=True)
    return seated_round


def seat_one_of(round_, table_number: int) -> str:
    seat = Seat.objects.select_related("player").get(
        table__round=round_, table__number=table_number, position=1
    )
    return seat.player.name


def test_standings_on_a_phone_find_a_player(new_page, released_round, screenshot_dir):
    shots = screenshot_dir("public")
    slug = released_round.tournament.slug
    winner = seat_one_of(released_round, 1)
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"/t/{slug}/")
    expect(phone.locator("p.headline")).to_contain_text(winner)
    expect(points_cell(phone, "table.standings", winner)).to_have_text("40")
    # The table fits the phone's width or scrolls inside its own box; the page never does.
    page_width = phone.evaluate("document.documentElement.scrollWidth")
    assert page_width <= PHONE["width"], f"the page is {page_width}px wide on a phone"
    phone.screenshot(path=shots / "01-standings-phone.png", full_page=True)

    phone.get_by_label("Find a player").fill(winner)
    rows = phone.locator("table.standings tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(winner)
    phone.screenshot(path=shots / "02-standings-phone-search.png", full_page=True)


def test_projector_follows_a_confirmation_without_reloading(
    new_page, released_round, second_scorer, screenshot_dir
):
    shots = screenshot_dir("public-projector")
    slug = released_round.tournament.slug
    late = seat_one_of(released_round, 3)
    screen = new_page(viewport=PROJECTOR)
    screen.goto(f"/t/{slug}/projector/")
    expect(screen.locator(".board-head")).to_contain_text("Standings after round 1")
    # Table 3's sheet awaits confirmation: no result yet, so no points (not 0).
    expect(points_cell(screen, "table.board", late)).to_have_text("–")
    expect(screen.locator(".board-missing")).to_contain_text("Table 3 of round 1 has no result yet")
    # A page of standings fits the screen: nothing to scroll across the room.
    assert screen.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
    screen.screenshot(path=shots / "01-projector-before.png")
    screen.evaluate("window.stillTheSamePage = true")

    confirm_sheet(released_round.tables.get(number=3), second_scorer, expected_version=1)

    expect(points_cell(screen, "table.board", late)).to_have_text("40")
    assert screen.evaluate("window.stillTheSamePage === true"), "the projector reloaded"
    screen.screenshot(path=shots / "02-projector-after.png")


def test_the_projector_on_a_phone_shows_rank_name_and_points_without_scrolling(
    new_page, released_round, screenshot_dir
):
    shots = screenshot_dir("public-projector")
    slug = released_round.tournament.slug
    winner = seat_one_of(released_round, 1)
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"/t/{slug}/projector/")
    expect(points_cell(phone, "table.board", winner)).to_have_text("40")
    page_width = phone.evaluate("document.documentElement.scrollWidth")
    assert page_width <= PHONE["width"], f"the projector is {page_width}px wide on a phone"
    # The tiebreak values are on the standings page; a wide screen shows them here too.
    expect(phone.locator("table.board th.tiebreak").first).to_be_hidden()
    phone.screenshot(path=shots / "03-projector-phone.png", full_page=True)
