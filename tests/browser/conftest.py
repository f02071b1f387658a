"""Browser tests: Debian's Chromium, driven by Playwright's sync API, against pytest-django's
live server (a real HTTP server in a thread, on the transactional test database).

Chromium is the system's (/usr/bin/chromium); Playwright never downloads a browser here.
Without it the tests skip, except in CI, which must run them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LAPTOP = {"width": 1280, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

# A loaded 2-core machine can take longer than Playwright's 5 s default to answer.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="package")
def chromium_executable() -> str:
    if CHROMIUM.exists():
        return str(CHROMIUM)
    if os.environ.get("CI") == "true":
        pytest.fail(
            f"{CHROMIUM} does not exist, and CI must run the browser tests: "
            "apt-get install chromium",
            pytrace=False,
        )
    pytest.skip("Chromium not installed: apt-get install chromium")


# Not named "browser": pytest-playwright would then parametrize the tests by browser name.
@pytest.fixture(scope="package")
def chromium(chromium_executable: str, pytestconfig: pytest.Config) -> Iterator[Browser]:
    # Playwright's sync API keeps an asyncio event loop running in this thread for as long
    # as it is started, and Django refuses ORM calls from a thread with a running loop
    # (SynchronousOnlyOperation) unless DJANGO_ALLOW_ASYNC_UNSAFE is set. The tests' ORM
    # use (creating users, flushing the transactional database after each test) is plain
    # synchronous code that merely shares the thread with the loop, so it is safe. The
    # variable is set only while Playwright runs, so that the rest of the suite keeps
    # Django's check.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(
                executable_path=chromium_executable,
                args=CHROMIUM_ARGS,
                # pytest-playwright's --headed and --slowmo, for watching a test locally.
                headless=not pytestconfig.getoption("--headed", default=False),
                slow_mo=pytestconfig.getoption("--slowmo", default=0) or 0,
            )
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(chromium: Browser, live_server, _backs_up) -> Iterator[Callable[..., Page]]:
    """Open a page in a fresh browser context (its own cookies: one person) on the live
    server, at a laptop's viewport unless told otherwise. JavaScript errors in any of the
    pages fail the test."""
    contexts = []
    errors: list[str] = []

    def open_page(**context_args: object) -> Page:
        context = chromium.new_context(
            **{"base_url": live_server.url, "viewport": LAPTOP, **context_args}
        )
        context.on("weberror", lambda error: errors.append(str(error.error)))
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the pages: {errors}"


@pytest.fixture
def screenshot_dir() -> Callable[[str], Path]:
    """A function giving the (emptied) folder for a test's screenshots:
    artifacts/screenshots/<name>/ from the repository root (git-ignored)."""

    def folder(name: str) -> Path:
        path = SCREENSHOTS / name
        path.mkdir(parents=True, exist_ok=True)
        for old in path.glob("*.png"):
            old.unlink()
        return path

    return folder
