"""Recording a player who left mid-round at the desk, in a real browser with its scripts
(static/js/keep.js posts the form itself): Record redraws the sheet without saving, and
Save draft keeps the leave."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import open_sheet
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.models import Player, Sheet

pytestmark = pytest.mark.browser


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


def test_recording_a_leave_redraws_the_sheet_and_saving_keeps_it(new_page, scorer, table_of_five):
    page = new_page()
    open_sheet(page, scorer.username)
    expect(page.locator("tr.deal")).to_have_count(10)
    page.locator("#d1_s1").fill("10")
    page.select_option("#leave_seat", "3")
    page.fill("#leave_after", "7")
    page.get_by_role("button", name="Record").click()
    expect(page.get_by_text("Seat 3 (Player 0002) left after deal 7")).to_be_visible()
    expect(page.get_by_text("not saved yet", exact=False).first).to_be_visible()
    # Nine deals now; the leaver's cells after deal 7 are not typed in.
    expect(page.locator("tr.deal")).to_have_count(9)
    expect(page.locator("#d8_s3")).to_have_count(0)
    expect(page.locator("tr.deal[data-deal='8'] th")).to_contain_text("4 players")
    # What was typed before Record is still there.
    expect(page.locator("#d1_s1")).to_have_value("10")
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("draft saved", exact=False).first).to_be_visible()
    assert Sheet.objects.get(table__number=1).pending_left == [{"seat": 3, "after_deal": 7}]
    assert not Player.objects.get(name="Player 0002").active
