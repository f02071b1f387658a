"""Browser tests: Debian's Chromium, driven by Playwright's sync API, against pytest-django's
live server (a real HTTP server in a thread, on the transactional test database).

Chromium is the system's (/usr/bin/chromium); Playwright never downloads a browser here.
Without it the tests skip, except in CI, which must run them.

Every page is checked with axe-core (``axe.min.js`` beside this file, vendored from the npm
package ``axe-core`` with its licence header; nothing is fetched when the tests run): each
route as each role at a phone's and a laptop's size once a run, by the sweep
(tests/browser/test_accessibility.py, tests/browser/sweep.py); after each test, each page
still open as it stands (the state the test's actions left it in), and every other address
its pages showed that the sweep does not check (by its route, the person's role and the
size) is opened again, once the test's contexts are closed, in a fresh context with the
same cookies (the same login), and checked. A serious or critical violation fails the test.

No page may show template text (``{#``, ``{%`` or ``{{``: a comment over two lines, a tag
misspelt) in what it says (``document.body.innerText``): every page a test opens is
scanned whenever it loads or changes (by a script the browser adds to each page, which
the page's Content-Security-Policy does not govern), and again, like axe-core's check,
after the test. Found, it fails the test, naming the address.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Frame, Page, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.browser.sweep import swept
from tournament.templatetags import live

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
AXE = Path(__file__).with_name("axe.min.js")
# What axe reports and how much of it: the rules of WCAG 2.0-2.2 A and AA and axe's best
# practices; only serious and critical violations fail a test.
AXE_RUN = """async () => {
  // A page that never lets axe finish fails the test rather than hanging it.
  const late = new Promise((_, fail) => setTimeout(() => fail(new Error("axe-core took over 30 s")), 30000));
  const result = await Promise.race([axe.run(document, {resultTypes: ["violations"]}), late]);
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ` + v.nodes.slice(0, 4)
      .map((n) => n.target.join(" ") + " — " + (n.failureSummary || "").replace(/\\s+/g, " "))
      .join("; "));
}"""

# Template text shown on a page: the mark and up to 40 characters either side.
LEAK = r"/.{0,40}(\{#|\{%|\{\{).{0,40}/"
LEAK_FIND = f"""() => {{
  const found = {LEAK}.exec(document.body ? document.body.innerText : "");
  return found ? found[0] : null;
}}"""
# Added to every page before its own scripts: scans the page once it has loaded and after
# each change (htmx's swaps, the page answering a save swapped in), at most every
# 100 ms, and reports what it finds to the test.
LEAK_WATCH = f"""(() => {{
  let timer = null;
  const scan = () => {{
    timer = null;
    const found = ({LEAK_FIND})();
    if (found) window.__templateText(location.href, found);
  }};
  const later = () => {{ if (timer === null) timer = setTimeout(scan, 100); }};
  new MutationObserver(later).observe(document, {{childList: true, subtree: true, characterData: true}});
  window.addEventListener("load", scan);
}})();"""

# A loaded 2-core machine can take longer than Playwright's 5 s default to answer.
expect.set_options(timeout=15_000)


@pytest.fixture(autouse=True)
def _quick_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live server runs in this process: the pages that follow the evening ask for
    themselves every second here, not every four, so what a test waits for comes sooner."""
    monkeypatch.setattr(live, "POLL_SECONDS", 1)


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


def template_text(page: Page) -> list[str]:
    """Template text the page shows as it stands, as ``address: …text…``."""
    found = page.evaluate(LEAK_FIND)
    return [f"{page.url}: template text shown: …{found}…"] if found else []


def axe_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page as it
    stands."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the browser's devtools protocol, which the page's
        # Content-Security-Policy does not govern: the page itself still runs no inline
        # script.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate(AXE_RUN)


class Visited:
    """The addresses each browser context's pages showed, in order, without repeats."""

    def __init__(self) -> None:
        self.addresses: dict[BrowserContext, list[str]] = {}
        self.watched: set[Page] = set()

    def watch(self, context: BrowserContext, page: Page) -> None:
        if page in self.watched:
            return
        self.watched.add(page)

        def navigated(frame: Frame) -> None:
            if frame == page.main_frame and frame.url.startswith("http"):
                seen = self.addresses.setdefault(context, [])
                if frame.url not in seen:
                    seen.append(frame.url)

        page.on("framenavigated", navigated)


def _who(context: BrowserContext) -> str:
    """Whose pages a context shows: its session, or nobody's."""
    return next((c["value"] for c in context.cookies() if c["name"] == "sessionid"), "")


@dataclass
class Revisit:
    """Addresses a context showed earlier, to open again as the same person."""

    state: Any
    viewport: Any
    urls: list[str]


def check_open_pages(
    contexts: list[BrowserContext], visited: Visited, scriptless: set[BrowserContext]
) -> tuple[list[str], list[Revisit]]:
    """axe-core's serious and critical violations on every page still open, and what each
    context showed before, to be opened again. An address shown to the same person in
    several contexts (one per screen size) is checked once. The pages of a context with
    JavaScript turned off cannot run axe-core (Chromium then runs no script, the
    devtools' included): they are all opened again, in a fresh context with it on."""
    problems: list[str] = []
    revisits: list[Revisit] = []
    checked: set[tuple[str, str]] = set()
    for context in contexts:
        who = _who(context)
        viewport = None
        for page in context.pages:
            viewport = page.viewport_size
            if page.url.startswith("http") and context not in scriptless:
                problems += [f"{page.url}: {found}" for found in axe_violations(page)]
                problems += template_text(page)
                checked.add((who, page.url))
        # What the sweep checks (tests/browser/test_accessibility.py) is not opened again.
        width = (viewport or LAPTOP)["width"]
        again = [
            url
            for url in visited.addresses.get(context, [])
            if (who, url) not in checked and not swept(context, url, width)
        ]
        checked.update((who, url) for url in again)
        if again:
            revisits.append(Revisit(context.storage_state(), viewport, again))
    return problems, revisits


def check_revisits(chromium: Browser, revisits: list[Revisit]) -> list[str]:
    """axe-core's serious and critical violations on the pages opened again, each person's
    in a fresh context of their own (their cookies), once the test's contexts are closed."""
    problems: list[str] = []
    for revisit in revisits:
        context = chromium.new_context(
            storage_state=revisit.state, viewport=revisit.viewport or LAPTOP
        )
        page = context.new_page()
        for url in revisit.urls:
            try:
                response = page.goto(url)
            except PlaywrightError:  # an address only a POST answers (405, no body)
                continue
            # A page that has gone since (a removed player) or that only a POST shows.
            if (
                response is None
                or not response.ok
                or "html" not in response.headers.get("content-type", "")
            ):
                continue
            problems += [f"{url}: {found}" for found in axe_violations(page)]
            problems += template_text(page)
        context.close()
    return problems


@pytest.fixture
def new_page(chromium: Browser, live_server, _backs_up) -> Iterator[Callable[..., Page]]:
    """Open a page in a fresh browser context (its own cookies: one person) on the live
    server, at a laptop's viewport unless told otherwise. JavaScript errors in any of the
    pages, serious or critical accessibility violations on any page they showed
    (axe-core), and template text shown on any of them, fail the test."""
    contexts: list[BrowserContext] = []
    scriptless: set[BrowserContext] = set()
    errors: list[str] = []
    leaks: dict[str, None] = {}  # in order, without repeats
    visited = Visited()

    def open_page(**context_args: object) -> Page:
        context = chromium.new_context(
            **{"base_url": live_server.url, "viewport": LAPTOP, **context_args}
        )
        if context_args.get("java_script_enabled") is False:
            scriptless.add(context)
        context.on("weberror", lambda error: errors.append(str(error.error)))
        context.expose_binding(
            "__templateText",
            lambda _source, url, text: leaks.setdefault(f"{url}: template text shown: …{text}…"),
        )
        context.add_init_script(LEAK_WATCH)
        context.on("page", lambda page: visited.watch(context, page))
        contexts.append(context)
        page = context.new_page()
        visited.watch(context, page)
        return page

    yield open_page
    try:
        problems, revisits = check_open_pages(contexts, visited, scriptless)
    finally:
        for context in contexts:
            context.close()
    problems += check_revisits(chromium, revisits)
    assert not errors, f"JavaScript errors in the pages: {errors}"
    # Seen while the test ran and again after it: said once.
    problems = list(dict.fromkeys([*problems, *leaks]))
    assert not problems, "Accessibility violations (axe-core), template text:\n" + "\n".join(
        problems
    )


@pytest.fixture
def screenshot_dir() -> Callable[[str], Path]:
    """A function giving the (emptied) folder for a test's screenshots:
    artifacts/screenshots/<name>/ from the repository root (git-ignored)."""

    def folder(name: str) -> Path:
        path = SCREENSHOTS / name
        path.mkdir(parents=True, exist_ok=True)
        # Tests that share a folder may run at once on two workers (run.py test).
        for old in path.glob("*.png"):
            old.unlink(missing_ok=True)
        return path

    return folder
