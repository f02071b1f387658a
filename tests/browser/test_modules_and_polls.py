"""The front end in modules, on a phone: a sheet that the keep.js before the modules kept
in the phone's storage (typed cells, and a save waiting for the network) comes back
after the upgrade; a page makes one poll, answered 304 until the tournament's generation
moves, with the player's card fetched again only then; and without JavaScript a deal is
submitted at the table and a sheet saved at the desk, as plain forms."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Request, Response, expect

from tests.browser.pages import DEALS, expect_message, fill_deal, log_in, open_sheet
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import SheetVersion, Table
from tournament.printing.views.printouts import entry_path
from tournament.shared import public_changes

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHEET = "/score/five-open/r1/t1/"
KEY = "Kept-before-the-modules_1"
RESTORED = re.compile(r"\bkeep-restored\b")

# What the keep.js before the modules wrote: "lld-keep:<data-keep>" for cells typed,
# "lld-keep-pending:<data-keep-table>" for a save on its way, with no format number.
SEED_OLD = """([name, entry]) => {
  entry.at = Date.now();
  localStorage.setItem(name, JSON.stringify(entry));
}"""
KEPT_NAMES = "Object.keys(localStorage).filter((name) => name.startsWith('lld-keep')).sort()"


@pytest.fixture
def table_of_five(db, organiser, scorer):
    tournament = TournamentFactory(
        name="Five Open",
        slug="five-open",
        owner=organiser,
        scorers=[scorer],
        rotations_per_round=2,
        published=True,
    )
    return Table.objects.get(round=seated_round(tournament, make_players(tournament, 5)))


def type_sheet(page: Page) -> None:
    for number, (won, left_over, last_in) in enumerate(DEALS, start=1):
        for seat, count in enumerate(won, start=1):
            page.locator(f"#{cell_name(number, WON, seat)}").fill(str(count))
        page.locator(f"#{cell_name(number, LEFT_OVER)}").fill(str(left_over))
        page.locator(f"#{cell_name(number, LAST_IN)}").fill(str(last_in))


def keys_of(page: Page) -> tuple[str, str]:
    form = page.locator("form.sheet-form")
    keep, table = form.get_attribute("data-keep"), form.get_attribute("data-keep-table")
    assert keep
    assert table
    return keep, table


def test_cells_kept_by_the_keep_js_before_the_modules_come_back_after_the_upgrade(
    new_page, scorer, table_of_five
):
    page = new_page(viewport=PHONE)
    open_sheet(page, scorer.username)
    keep, table = keys_of(page)
    old = {"table": table, "version": 0, "fields": {"d1_s1": ["10"], "d2_left_over": ["12"]}}
    page.evaluate(SEED_OLD, [f"lld-keep:{keep}", old])

    page.reload()
    expect(page.locator("#d1_s1")).to_have_value("10")
    expect(page.locator("#d2_left_over")).to_have_value("12")
    expect(page.locator("#d1_s1")).to_have_class(RESTORED)
    expect(page.locator(".keep-banner")).to_contain_text(
        "2 cells typed on this device are not saved yet"
    )
    # Kept on under this format's name; the old one is gone.
    assert page.evaluate(KEPT_NAMES) == [f"lld-keep-cells:{keep}"]

    page.get_by_role("button", name="Save draft").click()
    expect_message(page, "draft saved")
    assert page.evaluate(KEPT_NAMES) == []


def test_a_save_the_keep_js_before_the_modules_was_waiting_to_send_is_sent_once(
    new_page, scorer, table_of_five
):
    page = new_page(viewport=PHONE)
    open_sheet(page, scorer.username)
    keep, table = keys_of(page)
    type_sheet(page)
    fields = page.evaluate("""() => [...new FormData(document.querySelector("form.sheet-form"))]""")
    cells = page.evaluate(
        """() => {
          const kept = {};
          document.querySelectorAll("form.sheet-form input.cell").forEach((cell) => {
            kept[cell.name] = [cell.value];
          });
          return kept;
        }"""
    )
    # The phone as the old keep.js left it, the network gone before the save got through.
    page.evaluate("localStorage.clear()")
    page.evaluate(SEED_OLD, [f"lld-keep:{keep}", {"table": table, "version": 0, "fields": cells}])
    pending = {
        "url": page.url,
        "form": keep,
        "fields": [*fields, ["action", "final"], ["key", KEY]],
    }
    page.evaluate(SEED_OLD, [f"lld-keep-pending:{table}", pending])

    page.on("dialog", lambda dialog: dialog.accept())
    page.reload()
    expect_message(page, "saved: it now awaits confirmation")
    assert list(SheetVersion.objects.values_list("key", flat=True)) == [KEY]
    assert page.evaluate(KEPT_NAMES) == []


def test_a_page_makes_one_poll_and_fetches_the_card_only_when_the_generation_moves(
    new_page, make_played
):
    tournament = make_played(players=12, rounds=1, slug="poll-open")
    me = tournament.players.order_by("pk").first()
    page = new_page(viewport=PHONE)
    standings = f"/t/{tournament.slug}/"
    page.goto(standings)
    page.evaluate(
        "([key, me]) => localStorage.setItem(key, JSON.stringify(me))",
        [f"lld:me:{tournament.slug}", {"pk": me.pk, "name": me.name}],
    )
    polls: list[int] = []
    cards: list[str] = []

    def on_request(request: Request) -> None:
        if request.resource_type == "fetch" and f"/players/{me.pk}/card/" in request.url:
            cards.append(request.url)

    def on_response(response: Response) -> None:
        if response.request.resource_type == "fetch" and response.url.endswith(standings):
            polls.append(response.status)

    page.on("request", on_request)
    page.on("response", on_response)
    page.reload()
    expect(page.get_by_role("region", name=re.compile(f"Me: {me.name}"))).to_be_visible()

    # Four polls (a second apart in the tests): each a 304, and no card asked for again.
    page.wait_for_function(
        """(path) => performance.getEntriesByType("resource")
          .filter((e) => e.initiatorType === "fetch" && new URL(e.name).pathname === path)
          .length >= 4""",
        arg=standings,
    )
    assert polls[:4] == [304, 304, 304, 304]
    assert len(cards) == 1  # the card the page opened with

    # Something public changes: the next poll brings the new page, and the card is
    # fetched again, once.
    public_changes.mark_page_changed(tournament.pk)
    page.wait_for_function(
        """(pk) => performance.getEntriesByType("resource")
          .filter((e) => e.initiatorType === "fetch" && e.name.includes(`/players/${pk}/card/`))
          .length >= 2""",
        arg=me.pk,
    )
    assert 200 in polls
    seen = len(polls)
    page.wait_for_function(
        """([path, seen]) => performance.getEntriesByType("resource")
          .filter((e) => e.initiatorType === "fetch" && new URL(e.name).pathname === path)
          .length >= seen + 2""",
        arg=[standings, seen],
    )
    assert len(cards) == 2


def test_without_javascript_a_deal_is_submitted_at_the_table(new_page, table_of_five):
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    phone.goto(entry_path(table_of_five.code))
    phone.get_by_role("link", name="Start typing the sheet").click()
    expect(phone.get_by_role("heading", name="Deal 1 of 10")).to_be_visible()
    won, left_over, last_in = DEALS[0]
    fill_deal(phone, 1, won, left_over, last_in)
    phone.get_by_role("button", name="Save deal 1").click()
    expect(phone.get_by_role("heading", name="Deal 2 of 10")).to_be_visible()
    # Deal 1 is kept by the server: opened again, it shows what was typed.
    phone.go_back()
    phone.reload()
    expect(phone.locator(f"#{cell_name(1, WON, 1)}")).to_have_value(str(won[0]))


def test_without_javascript_a_sheet_is_saved_at_the_desk(new_page, scorer, table_of_five):
    page = new_page(viewport=PHONE, java_script_enabled=False)
    log_in(page, scorer.username, SHEET)
    type_sheet(page)
    page.get_by_role("button", name="Save sheet").click()
    expect_message(page, "saved: it now awaits confirmation")
    assert SheetVersion.objects.count() == 1


def test_the_live_check_never_posts_to_the_save_buttons_address(new_page, scorer, table_of_five):
    page = new_page(viewport=PHONE)
    open_sheet(page, scorer.username)
    posted: list[str] = []
    page.on(
        "response",
        lambda response: posted.append(response.url) if response.request.method == "POST" else None,
    )
    # Enter in the last cell goes on to "Save sheet" (htmx remembers it as the form's
    # button, with its formaction); leaving the cell and the key let go there each check.
    last = page.locator(f"#{cell_name(10, LAST_IN)}")
    last.fill("5")
    last.press("Enter")
    expect(page.get_by_role("button", name="Save sheet")).to_be_focused()
    for _ in range(100):
        if len(posted) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(posted) >= 2
    assert all(url.endswith("/check/") for url in posted), posted
    assert SheetVersion.objects.count() == 0
