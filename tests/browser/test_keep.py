"""Nothing typed is lost (static/js/keep.js) on a phone at the desk's sheet page: typed
cells come back after a reload or a Back, marked "not saved yet"; leaving asks first; a
save without network waits for it and is recorded exactly once, even across a reload or
when the answer is lost; cells typed into a version someone has saved over are offered,
and saving them shows both versions."""

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.pages import DEALS, expect_message, log_in, open_sheet
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import SheetVersion, Table
from tournament.sheets.saving import save_sheet

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHEET = "/score/five-open/r1/t1/"


@pytest.fixture
def table_of_five(db, organiser, scorer, second_scorer):
    tournament = TournamentFactory(
        name="Five Open",
        slug="five-open",
        owner=organiser,
        scorers=[scorer, second_scorer],
        rotations_per_round=2,
    )
    return seated_round(tournament, make_players(tournament, 5))


def on_phone(new_page, scorer) -> Page:
    page = new_page(viewport=PHONE)
    open_sheet(page, scorer.username)
    return page


def type_sheet(page: Page, deals=DEALS) -> None:
    for number, (won, left_over, last_in) in enumerate(deals, start=1):
        for seat, count in enumerate(won, start=1):
            page.locator(f"#{cell_name(number, WON, seat)}").fill(str(count))
        page.locator(f"#{cell_name(number, LEFT_OVER)}").fill(str(left_over))
        page.locator(f"#{cell_name(number, LAST_IN)}").fill(str(last_in))


def expect_sheet(page: Page, deals=DEALS) -> None:
    for number, (won, left_over, last_in) in enumerate(deals, start=1):
        for seat, count in enumerate(won, start=1):
            expect(page.locator(f"#{cell_name(number, WON, seat)}")).to_have_value(str(count))
        expect(page.locator(f"#{cell_name(number, LEFT_OVER)}")).to_have_value(str(left_over))
        expect(page.locator(f"#{cell_name(number, LAST_IN)}")).to_have_value(str(last_in))


def versions() -> int:
    return SheetVersion.objects.filter(sheet__table__round__tournament__slug="five-open").count()


def posted_key(route: Route) -> str:
    return parse_qs(route.request.post_data or "")["key"][0]


RESTORED = re.compile(r"\bkeep-restored\b")


def test_typed_cells_come_back_after_a_reload_marked_until_discarded(
    new_page, scorer, table_of_five
):
    page = on_phone(new_page, scorer)
    page.locator("#d1_s1").fill("10")
    page.locator("#d1_s2").fill("8")
    page.locator("#d2_left_over").fill("12")
    page.get_by_label("The table stopped early").check()
    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()

    expect(page.locator("#d1_s1")).to_have_value("10")
    expect(page.locator("#d1_s2")).to_have_value("8")
    expect(page.locator("#d2_left_over")).to_have_value("12")
    expect(page.get_by_label("The table stopped early")).to_be_checked()
    for cell in ("#d1_s1", "#d1_s2", "#d2_left_over"):
        expect(page.locator(cell)).to_have_class(RESTORED)
    expect(page.locator("#d1_s3")).not_to_have_class(RESTORED)
    banner = page.locator("form.sheet-form .keep-banner")
    expect(banner).to_contain_text("4 cells typed on this device are not saved yet")
    # The live check sees them as typed.
    expect(page.locator("#sheet-check")).to_contain_text("deal 2: seat 1")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    banner.get_by_role("button", name="Discard them").click()
    expect(banner).to_have_count(0)
    expect(page.locator("#d1_s1")).to_have_value("")
    expect(page.get_by_label("The table stopped early")).not_to_be_checked()
    page.reload()
    expect(page.locator("#d1_s1")).to_have_value("")
    expect(page.locator(".keep-banner")).to_have_count(0)


def test_typed_cells_come_back_after_round_desk_and_back(new_page, scorer, table_of_five):
    page = on_phone(new_page, scorer)
    page.locator("#d1_s1").fill("14")
    page.locator("#d1_last_in").fill("2")
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("link", name="Round desk").click()
    expect(page.get_by_role("heading", name=re.compile("desk", re.I))).to_be_visible()
    page.go_back()
    expect(page.locator("#d1_s1")).to_have_value("14")
    expect(page.locator("#d1_last_in")).to_have_value("2")
    expect(page.locator(".keep-banner")).to_contain_text("2 cells typed on this device")


def test_a_sheet_saved_without_network_waits_and_is_recorded_once_after_a_reload(
    new_page, scorer, table_of_five
):
    page = on_phone(new_page, scorer)
    type_sheet(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Save sheet").click()
    waiting = page.get_by_role("status").filter(has_text="Waiting for the network")
    expect(waiting).to_contain_text("your sheet will be saved when it is back")
    expect(page.get_by_role("button", name="Save sheet")).to_be_disabled()
    assert versions() == 0

    # Chromium cannot reload a page offline; the network comes back for the page, but
    # every save is still lost on the way until after the reload.
    keys: list[str] = []

    def no_way_through(route: Route) -> None:
        if route.request.method == "POST":
            keys.append(posted_key(route))
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(f"**{SHEET}", no_way_through)
    page.context.set_offline(False)
    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()
    expect_sheet(page)
    expect(waiting).to_be_visible()
    assert versions() == 0
    page.unroute(f"**{SHEET}")
    # Back online: the browser says so, and the waiting save goes through at once.
    page.context.set_offline(True)
    page.context.set_offline(False)
    expect_message(page, "saved: it now awaits confirmation")
    assert versions() == 1
    # Every try, before the reload and after it, sent the submission's one key.
    assert len(keys) >= 1
    assert len(set(keys)) == 1
    assert list(SheetVersion.objects.values_list("key", flat=True)) == keys[:1]
    page.goto(SHEET)
    expect(page.locator(".keep-banner")).to_have_count(0)


def test_a_save_whose_answer_is_lost_is_sent_again_and_recorded_once(
    new_page, scorer, table_of_five
):
    page = on_phone(new_page, scorer)
    type_sheet(page)
    keys: list[str] = []

    def lose_the_first_answer(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(posted_key(route))
        if len(keys) == 1:
            route.fetch(max_redirects=0)  # the server saves it...
            route.abort("connectionreset")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route(f"**{SHEET}", lose_the_first_answer)
    page.get_by_role("button", name="Save sheet").click()
    expect_message(page, "was already saved with these numbers: nothing changed")
    assert len(keys) == 2
    assert keys[0] == keys[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", keys[0])
    assert versions() == 1


def test_leaving_with_unsaved_cells_asks_first(new_page, scorer, table_of_five):
    page = on_phone(new_page, scorer)
    dialogs: list[str] = []

    def stay(dialog) -> None:
        dialogs.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", stay)
    page.locator("#d1_s1").fill("10")
    page.get_by_role("link", name="Round desk").click(no_wait_after=True)
    for _ in range(100):
        if dialogs:
            break
        page.wait_for_timeout(100)
    assert dialogs == ["beforeunload"]
    expect(page.locator("#d1_s1")).to_have_value("10")
    expect(page.get_by_role("heading", name="Round 1 · Table 1")).to_be_visible()

    # Once saved, leaving asks nothing.
    page.get_by_role("button", name="Save draft").click()
    expect_message(page, "draft saved")
    page.get_by_role("link", name="Round desk").click()
    expect(page.get_by_role("heading", name=re.compile("desk", re.I))).to_be_visible()
    assert dialogs == ["beforeunload"]


def test_cells_typed_into_an_older_version_are_offered_and_saving_them_shows_both(
    new_page, scorer, second_scorer, table_of_five
):
    page = on_phone(new_page, scorer)
    page.locator("#d1_s1").fill("10")
    page.locator("#d1_s2").fill("8")
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto("/score/five-open/")

    # Meanwhile another scorer saves a draft of the same table.
    table = Table.objects.get(round__tournament__slug="five-open", number=1)
    theirs = [{"won": [12, 8, 6, 4, 10], "left_over": 12, "last_in": 1}]
    save_sheet(table, second_scorer, theirs, expected_version=0, final=False)

    page.goto(SHEET)
    expect(page.locator("#d1_s1")).to_have_value("12")  # the saved version
    banner = page.locator(".keep-banner")
    expect(banner).to_contain_text("typed on this device into an older version")
    expect(banner).to_contain_text("version 0")
    banner.get_by_role("button", name="Restore them").click()
    expect(page.locator("#d1_s1")).to_have_value("10")
    expect(page.locator("#d1_s1")).to_have_class(RESTORED)
    expect(page.locator("input[name=expected_version]")).to_have_value("0")
    expect(banner).to_contain_text("not saved yet")

    page.get_by_role("button", name="Save draft").click()
    expect(
        page.get_by_role("heading", name="This sheet changed while you were typing")
    ).to_be_visible()
    expect(page.get_by_text("The sheet as saved")).to_be_visible()
    expect(page.locator("#d1_s1")).to_have_value("10")
    assert versions() == 1

    # Reloading the conflict page keeps them, still against the version they were typed into.
    page.reload()
    expect(page.locator("#d1_s1")).to_have_value("10")
    expect(page.locator("input[name=expected_version]")).to_have_value("0")


def test_a_blind_retype_comes_back_after_a_reload_and_is_cleared_once_confirmed(
    new_page, scorer, second_scorer, table_of_five
):
    table = Table.objects.get(round__tournament__slug="five-open", number=1)
    rows = [{"won": won, "left_over": left, "last_in": last} for won, left, last in DEALS]
    save_sheet(table, scorer, rows, expected_version=0, final=True)
    page = new_page(viewport=PHONE)
    retype = "/score/five-open/r1/t1/confirm/?mode=retype"
    log_in(page, second_scorer.username, retype)
    page.wait_for_load_state("load")
    type_sheet(page, DEALS[:1])
    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()
    banner = page.locator(".keep-banner")
    expect(banner).to_contain_text("7 cells typed on this device are not saved yet")
    expect(banner).to_contain_text("confirm it to record them")
    type_sheet(page, DEALS)
    page.get_by_role("button", name="Confirm").click()
    expect_message(page, "Round 1 · Table 1 confirmed: it now counts.")
    page.goto(retype)
    expect(page.get_by_text("This sheet is not awaiting confirmation")).to_be_visible()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('lld-keep'))") == []
