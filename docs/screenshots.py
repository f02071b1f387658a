"""The pictures of the guide's organiser's evening (docs/evening.md), taken from the demo.

    .venv/bin/python docs/screenshots.py

Loads the demo into a database of its own (a temporary SQLite file), serves it, and, as
the demo's organiser, goes through the evening's pages with Chromium (/usr/bin/chromium,
driven by Playwright): seating the demo evening's next round and starting it on the way.
Then a phone at table 1 types the first deals of its sheet, one count mistyped in deal 3
(the table's phone), and a player's phone says "This is me" (the player's phone). Each
picture is written over its committed copy in docs/images/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
SLUG = "red-lion-winter-open"
# The demo evening has played four rounds of the five it plans: the pictures seat the fifth.
ROUND = 5
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
# A larger phone, for a whole deal on one screen.
TALL_PHONE = {"width": 390, "height": 844}
# The first deals of a table of five: each seat's cards won, left over, who was last in.
DEALS = [([10, 8, 6, 4, 12], 12, 1), ([14, 2, 8, 10, 6], 12, 2), ([6, 6, 6, 6, 6], 22, 3)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, server: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            if server.poll() is not None:
                sys.exit("The demo server stopped before it answered.")
            if time.monotonic() > deadline:
                sys.exit(f"The demo server did not answer at {url}.")
            time.sleep(0.5)


def shoot(page: Page, name: str) -> None:
    """The first screen of the page as it stands, as a person sees it."""
    page.wait_for_load_state("networkidle")
    path = IMAGES / f"{name}.png"
    page.screenshot(path=path)
    print(f"  {path.relative_to(ROOT)}", flush=True)


def evening(page: Page, site: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.get_by_label("User name").fill("organiser")
    page.get_by_label("Password").fill("lld-demo")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{site}/manage/")
    shoot(page, "evening-01-my-tournaments")
    page.goto(f"{site}/manage/new/")
    shoot(page, "evening-02-new-tournament")
    page.goto(f"{site}/manage/{SLUG}/players/")
    shoot(page, "evening-03-players")
    page.goto(f"{site}/door/{SLUG}/")
    shoot(page, "evening-04-door")
    page.goto(f"{site}/manage/{SLUG}/rounds/")
    page.get_by_role("button", name="Seat next round").click()
    page.wait_for_url(f"{site}/manage/{SLUG}/rounds/{ROUND}/")
    shoot(page, "evening-05-seating")
    page.get_by_role("button", name=f"Start round {ROUND}", exact=True).click()
    page.get_by_role("link", name="Print score sheets").first.wait_for()
    shoot(page, "evening-06-started")
    code = page.locator(".table-code[data-table='1']").inner_text()
    page.goto(f"{site}/print/{SLUG}/r{ROUND}/sheets/")
    shoot(page, "evening-07-score-sheets")
    page.goto(f"{site}/score/{SLUG}/r{ROUND}/desk/")
    shoot(page, "evening-08-round-desk")
    page.goto(f"{site}/score/{SLUG}/r{ROUND}/t1/")
    shoot(page, "evening-09-sheet-at-the-desk")
    page.goto(f"{site}/manage/{SLUG}/")
    shoot(page, "evening-10-overview")
    return code


def fill_deal(page: Page, number: int, won: list[int], left_over: int, last_in: int) -> None:
    for seat, count in enumerate(won, start=1):
        page.locator(f"#d{number}_s{seat}").fill(str(count))
    page.locator(f"#d{number}_left_over").fill(str(left_over))
    page.locator(f"input[name='d{number}_last_in'][value='{last_in}']").check()


def table_phone(page: Page, site: str, code: str) -> None:
    """Table 1 types its sheet on a phone, by the code printed on it; seat 1's 6 cards in
    deal 3 mistyped as 5, which the page's count shows before anything is saved."""
    page.goto(f"{site}/e/")
    page.get_by_label("Table code").fill(code)
    page.get_by_role("button", name="Open").click()
    page.get_by_role("link", name="Start typing the sheet").click()
    for number, (won, left_over, last_in) in enumerate(DEALS[:2], start=1):
        fill_deal(page, number, won, left_over, last_in)
        page.get_by_role("button", name=f"Save deal {number} · next").click()
        page.get_by_role("heading", name=f"Deal {number + 1} of 10").wait_for()
    won, left_over, last_in = DEALS[2]
    fill_deal(page, 3, [5, *won[1:]], left_over, last_in)
    page.get_by_text("51 of 52").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "table-entry")


def players_phone(page: Page, site: str) -> None:
    """A player finds their seat, says "This is me", and sees their card on the standings."""
    page.goto(f"{site}/t/{SLUG}/seat/")
    page.get_by_label("Find my seat").fill("Ann Smith")
    page.get_by_role("button", name="This is me: Ann Smith").click()
    page.goto(f"{site}/t/{SLUG}/")
    page.locator("#my-card").get_by_text("My table").wait_for()
    shoot(page, "my-card")


def main() -> None:
    python = ROOT / ".venv" / "bin" / "python"
    with tempfile.TemporaryDirectory(prefix="lld-screenshots-") as scratch:
        port = free_port()
        site = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{Path(scratch) / 'demo.sqlite3'}",
            "DJANGO_DEBUG": "1",
            "PUBLIC_BASE_URL": site,
        }
        manage = [str(python), "manage.py"]
        subprocess.run(
            [*manage, "load_demo", "--migrate", "--site", site], cwd=ROOT, env=env, check=True
        )
        server = subprocess.Popen(
            [*manage, "runserver", "--noreload", "--skip-checks", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
        )
        try:
            wait_for(f"{site}/healthz", server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox"]
                )
                print("The organiser's evening, on a laptop:", flush=True)
                code = evening(browser.new_page(viewport=LAPTOP), site)
                page = browser.new_page(viewport=PHONE)
                page.goto(f"{site}/t/{SLUG}/")
                print("What the room sees:", flush=True)
                shoot(page, "evening-11-standings-phone")
                table_phone(browser.new_page(viewport=TALL_PHONE), site, code)
                players_phone(browser.new_page(viewport=PHONE), site)
                projector = browser.new_page(viewport={"width": 1920, "height": 1080})
                projector.goto(f"{site}/t/{SLUG}/projector/")
                shoot(projector, "evening-12-projector")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
