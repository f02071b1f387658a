"""Helpers the browser tests share: logging in (through the form, or by a session's
cookie), the phone's viewport and whether a page fits it, a sheet opened at the desk and its deals, a deal typed on a phone (with its
lying-down order), messages, and Content-Security-Policy violations watched for."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tournament.kernel.cells import LAST_IN, LEFT_OVER, ORDER, WON, cell_name

PHONE = {"width": 360, "height": 740}


def check_fits(page: Page, where: str) -> None:
    """Nothing scrolls sideways, and every cell shown of each table's first and last rows
    is inside the screen; ranked tables keep rank, name and points among them."""
    width = page.evaluate("window.innerWidth")
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{where}: the page is {scroll_width}px wide in {width}px"
    for index, table in enumerate(page.locator("main table").all()):
        if not table.is_visible():
            continue
        rows = table.evaluate(ROW_CELLS)
        for which, cells in zip(("first", "last"), rows, strict=False):
            for cell in cells:
                spans = (
                    f"{where}: table {index + 1}, {which} row, cell {cell['text']!r} "
                    f"spans {cell['left']:.0f}–{cell['right']:.0f}px of {width}px"
                )
                assert cell["left"] >= -0.5, spans
                assert cell["right"] <= width + 0.5, spans
            if "ranked" in (table.get_attribute("class") or ""):
                # Rank, player and points: the first, second and fourth columns.
                shown = {cell["column"] for cell in cells}
                assert {0, 1, 3} <= shown, f"{where}: {which} row shows columns {shown}"


def watch_for_violations(page: Page) -> list[str]:
    violations: list[str] = []

    def on_console(message) -> None:
        if "Content Security Policy" in message.text:
            violations.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    return violations


# A clean sheet of a table of five, two rotations: cards won by seats 1-5, left over,
# last in; each row adds up to 52, counts are even.
DEALS = [
    ([10, 8, 6, 4, 12], 12, 1),
    ([14, 2, 8, 10, 6], 12, 2),
    ([6, 6, 6, 6, 6], 22, 3),
    ([20, 4, 2, 0, 8], 18, 4),
    ([8, 10, 12, 4, 2], 16, 5),
    ([4, 4, 10, 16, 6], 12, 1),
    ([12, 2, 2, 8, 10], 18, 2),
    ([0, 18, 6, 6, 4], 18, 3),
    ([10, 10, 4, 8, 2], 18, 4),
    ([2, 6, 14, 10, 8], 12, 5),
]


def open_sheet(page: Page, username: str) -> None:
    log_in(page, username, "/score/five-open/r1/t1/")
    expect(page.get_by_role("heading", name="Round 1 · Table 1")).to_be_visible()
    # sheet.js is deferred: a person's first key comes after it has run.
    page.wait_for_load_state("load")


def log_in(page: Page, username: str, path: str) -> None:
    """Open ``path``, which asks to log in first, and log in through the form."""
    page.goto(path)
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out {username}")).to_be_visible()


def signed_in(page: Page, base_url: str, username: str) -> None:
    """The page's context logged in as ``username`` by its session cookie, without the login
    form: for a test whose subject is another page (logging in has tests of its own)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    session = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": base_url}])


def fits(page: Page, width: int | None = None) -> None:
    """Nothing scrolls sideways: the page is no wider than ``width`` pixels (the
    window's, unless told)."""
    page_width = page.evaluate("document.documentElement.scrollWidth")
    screen = width if width is not None else page.evaluate("window.innerWidth")
    assert page_width <= screen, f"{page.url} scrolls sideways: {page_width}px in {screen}px"


def expect_message(page: Page, text: str) -> None:
    expect(page.locator("ul.messages")).to_contain_text(text)


def public_points(page: Page, player: str) -> Locator:
    """The cell of ``player``'s points in the public standings table."""
    standings = page.locator("table.standings")
    expect(standings).to_be_visible()
    headings = [heading.strip() for heading in standings.locator("thead th").all_inner_texts()]
    row = standings.locator("tbody tr").filter(has_text=player)
    return row.locator("td").nth(headings.index("Points"))


def fill_deal(page: Page, number: int, won, left_over, last_in) -> None:
    for seat, count in enumerate(won, start=1):
        page.locator(f"#{cell_name(number, WON, seat)}").fill(str(count))
    page.locator(f"#{cell_name(number, LEFT_OVER)}").fill(str(left_over))
    page.locator(f"input[name='{cell_name(number, LAST_IN)}'][value='{last_in}']").check()


def fill_places(page: Page, number: int, laid_down, size: int) -> None:
    """Each seat's place in deal ``number``'s lying-down order (``laid_down``: the seats
    first out first), the last in's left blank."""
    for seat in range(1, size + 1):
        place = str(laid_down.index(seat) + 1) if seat in laid_down else ""
        page.locator(f"#{cell_name(number, ORDER, seat)}").fill(place)


# For a table's first and last body rows: every cell the page shows (a phone hides some
# columns: their values are under the name), with its left and right edges once the row
# is scrolled into view vertically.
ROW_CELLS = """(table) => {
  const rows = Array.from(table.tBodies[0] ? table.tBodies[0].rows : []);
  if (!rows.length) return [];
  return [rows[0], rows[rows.length - 1]].map((row) => {
    row.scrollIntoView({block: "center"});
    return Array.from(row.cells)
      .filter((cell) => getComputedStyle(cell).display !== "none")
      .map((cell) => {
        const box = cell.getBoundingClientRect();
        return {text: cell.innerText.trim().split("\\n")[0], column: cell.cellIndex,
                left: box.left, right: box.right};
      });
  });
}"""
