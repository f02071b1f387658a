"""Reading a photo of a paper sheet at the desk, in a browser: the photo sent from the
sheet's page, read, the form filled with its doubtful cells marked ("Check") and each
cell's crop beside it, saved by the scorer, then confirmed blind by a second scorer typing
it by hand. Screenshots of each page at 360 and 1366 px (artifacts/screenshots/photos/)."""

import pytest
from playwright.sync_api import Page, expect

from scoring.sheet_reading.decode import DealReading
from scoring.sheet_reading.identity import SheetIdentity
from tests.browser.pages import PHONE, check_fits, expect_message, fits, log_in
from tests.factories import TournamentFactory, make_players, seated_round
from tests.photos import synthetic_photo
from tests.sheet_photos import scribbling_over
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import SheetPhoto, Table
from tournament.sheets.photos.layouts import layout_of

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}
DEALS = (
    DealReading((10, 4, 10, 0), 4, 28, None),
    DealReading((12, 10, 10, 10), 1, 10, None),
    DealReading((8, 8, 8, 8), 2, 20, None),
    DealReading((20, 0, 4, 6), 3, 22, None),
)
# The seventh and eighth digits written are scribbled over: deal 1's seat 1 and its left over.
SCRIBBLED = (cell_name(1, WON, 1), cell_name(1, LEFT_OVER))


@pytest.fixture
def table_of_four(db, organiser, scorer, second_scorer):
    tournament = TournamentFactory(
        name="Photo Open", slug="photo-open", owner=organiser, scorers=[scorer, second_scorer]
    )
    seated_round(tournament, make_players(tournament, 4))
    return Table.objects.select_related("round__tournament").get(round__tournament=tournament)


def _shots(page: Page, folder, name: str) -> None:
    """The page at a phone's width and a laptop's, looked at: nothing scrolls sideways."""
    for label, viewport in (("360", PHONE), ("1366", DESKTOP)):
        page.set_viewport_size(viewport)
        fits(page)
        page.screenshot(path=folder / f"{name}-{label}.png", full_page=True)


def _tap_targets(page: Page, selector: str, least: int) -> None:
    for target in page.locator(selector).all():
        box = target.bounding_box()
        assert box is not None
        assert box["height"] >= least, (selector, box)


def test_a_photo_read_fills_the_form_then_a_second_scorer_confirms_by_hand(
    new_page, scorer, second_scorer, table_of_four, screenshot_dir
):
    folder = screenshot_dir("photos")
    photo = synthetic_photo(
        layout_of(table_of_four),
        SheetIdentity("photo-open", 1, 1),
        "https://scores.example.org/t/ABCD/",
        DEALS,
        rotate=3,
        perspective=0.2,
        hand=scribbling_over(7, 8),
    )
    page = new_page()
    log_in(page, scorer.username, "/score/photo-open/r1/t1/")
    page.get_by_role("link", name="Read a photo").click()
    expect(page.get_by_role("heading", name="Read a photo · Round 1 · Table 1")).to_be_visible()
    _shots(page, folder, "send")
    check_fits(page, "the photo's sending page")
    _tap_targets(page, "main button, main input[type=file]", 44)
    page.get_by_label("Photo of the sheet").set_input_files(
        files=[{"name": "IMG_2001.jpg", "mimeType": "image/jpeg", "buffer": photo}]
    )
    page.get_by_role("button", name="Read the photo").click()
    expect(page.get_by_text("All read.")).to_be_visible()
    _shots(page, folder, "read")
    page.get_by_role("link", name="Check and save table 1").click()

    expect(page.get_by_role("heading", name="Filled from a photo: not saved yet")).to_be_visible()
    reading = SheetPhoto.objects.get().reading
    doubtful = {cell_name(c["deal"], c["field"], c["seat"]) for c in reading["doubtful"]}
    # The scribbled boxes are among the cells the reader was not sure of.
    assert set(SCRIBBLED) <= doubtful
    expect(page.get_by_text(f"{len(doubtful)} cells marked “Check”")).to_be_visible()
    expect(page.locator("input.doubtful")).to_have_count(len(doubtful))
    for name in sorted(doubtful):
        expect(page.locator(f"#{name}")).to_have_class("cell doubtful")
        # Marked in words beside the cell, not by its border alone, with the photo's crop.
        expect(page.locator(f"#{name}-doubtful")).to_have_text("Check")
        crop = page.locator(f"td:has(#{name}) img.crop")
        crop.scroll_into_view_if_needed()
        expect(crop).to_be_visible()
        assert crop.evaluate("image => image.complete && image.naturalWidth > 0")
    _shots(page, folder, "filled")
    # The cells the reader was sure of are as written; the doubtful ones the scorer
    # corrects from the paper (and the crops).
    for number, deal in enumerate(DEALS, start=1):
        values = {cell_name(number, WON, seat): won for seat, won in enumerate(deal.won, 1)}
        values[cell_name(number, LEFT_OVER)] = deal.left_over
        values[cell_name(number, LAST_IN)] = deal.last_in
        for name, value in values.items():
            cell = page.locator(f"#{name}")
            if name in doubtful:
                cell.fill(str(value))
            else:
                expect(cell).to_have_value(str(value))
    crops = page.locator("img.crop")
    expect(crops).to_have_count(len(DEALS) * 6)
    page.set_viewport_size(DESKTOP)
    page.get_by_role("button", name="Save sheet").click()
    expect_message(page, "saved: it now awaits confirmation by a different person")

    # The second entry: blind, typed by hand from the paper; no photo is offered there.
    other = new_page()
    log_in(other, second_scorer.username, "/score/photo-open/r1/t1/confirm/?mode=retype")
    other.wait_for_load_state("load")
    expect(other.get_by_role("link", name="Read a photo")).to_have_count(0)
    for number, deal in enumerate(DEALS, start=1):
        for seat, won in enumerate(deal.won, start=1):
            other.locator(f"#{cell_name(number, WON, seat)}").fill(str(won))
        other.locator(f"#{cell_name(number, LEFT_OVER)}").fill(str(deal.left_over))
        other.locator(f"#{cell_name(number, LAST_IN)}").fill(str(deal.last_in))
    other.get_by_role("button", name="Confirm").click()
    expect_message(other, "Round 1 · Table 1 confirmed: it now counts.")

    # The history keeps the photo and the reading.
    page.goto("/score/photo-open/r1/t1/history/")
    expect(page.get_by_text("IMG_2001.jpg")).to_be_visible()
    _shots(page, folder, "history")
