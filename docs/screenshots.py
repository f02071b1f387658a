"""The pictures of the guide's organiser's evening (docs/evening.md), taken from the demo.

    .venv/bin/python docs/screenshots.py

Loads the demo into a database of its own (a temporary SQLite file), serves it, and, as
the demo's organiser, goes through the evening's pages with Chromium (/usr/bin/chromium,
driven by Playwright): seating the demo evening's next round and starting it on the way.
Each picture is written over its committed copy in docs/images/ as ``evening-NN-….png``.
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
    page.goto(f"{site}/print/{SLUG}/r{ROUND}/sheets/")
    shoot(page, "evening-07-score-sheets")
    page.goto(f"{site}/score/{SLUG}/r{ROUND}/desk/")
    shoot(page, "evening-08-round-desk")
    page.goto(f"{site}/score/{SLUG}/r{ROUND}/t1/")
    shoot(page, "evening-09-sheet-at-the-desk")
    page.goto(f"{site}/manage/{SLUG}/")
    shoot(page, "evening-10-overview")


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
                evening(browser.new_page(viewport=LAPTOP), site)
                page = browser.new_page(viewport=PHONE)
                page.goto(f"{site}/t/{SLUG}/")
                print("What the room sees:", flush=True)
                shoot(page, "evening-11-standings-phone")
                projector = browser.new_page(viewport={"width": 1920, "height": 1080})
                projector.goto(f"{site}/t/{SLUG}/projector/")
                shoot(projector, "evening-12-projector")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
