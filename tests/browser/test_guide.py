"""The guide at /guide/ in real Chromium: its navigation and its search work under the
page's own Content-Security-Policy with nothing blocked, nothing is fetched from another
site, and the organiser's and scorers' pages open it at the part about them."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.pages import PHONE, fits, log_in, watch_for_violations

pytestmark = pytest.mark.browser


@pytest.fixture
def guide_served(built_guide, settings):
    settings.GUIDE_ROOT = built_guide
    return built_guide


def watch_requests(page, live_server) -> list[str]:
    """Every address the page asks for that is not the site's own."""
    elsewhere: list[str] = []
    own = urlsplit(live_server.url).netloc

    def on_request(request) -> None:
        if request.url.startswith("http") and urlsplit(request.url).netloc != own:
            elsewhere.append(request.url)

    page.on("request", on_request)
    return elsewhere


def test_navigation_and_search_work_under_the_policy_offline(
    new_page, guide_served, live_server, screenshot_dir
):
    folder = screenshot_dir("guide")
    page = new_page()
    violations = watch_for_violations(page)
    elsewhere = watch_requests(page, live_server)
    page.goto("/guide/")
    expect(page.get_by_role("heading", name="Laugh and Lie Down", level=1)).to_be_visible()
    page.screenshot(path=folder / "start-1366.png")
    # The navigation, in the order a reader needs.
    page.locator(".md-nav--primary").get_by_role("link", name="The evening step by step").click()
    expect(page.get_by_role("heading", name="The organiser's evening", level=1)).to_be_visible()
    assert urlsplit(page.url).path == "/guide/evening/"
    expect(page.locator("img[src$='evening-05-seating.png']")).to_be_visible()
    # Search runs in the browser, from the index built with the pages (a web worker).
    search = page.get_by_role("textbox", name="Search")
    search.click()
    # Typed key by key, as a reader types: the theme searches on a key's release (and, once,
    # when its index is ready), so a value set without keys is searched only if the index
    # was still being built when it was set.
    search.press_sequentially("tiebreak")
    results = page.locator(".md-search-result__item")
    # The index is built in the browser's web worker when the page opens: on a busy
    # machine that takes longer than a page's usual wait.
    expect(results.first).to_be_visible(timeout=60_000)
    page.screenshot(path=folder / "search-1366.png")
    results.filter(has_text="Standings").first.click()
    expect(page.locator("article h1")).to_be_visible()
    assert urlsplit(page.url).path.startswith("/guide/")
    assert violations == []
    assert elsewhere == []


def test_the_guide_fits_a_phone(new_page, guide_served, screenshot_dir):
    folder = screenshot_dir("guide-phone")
    page = new_page(viewport=PHONE)
    violations = watch_for_violations(page)
    page.goto("/guide/scorers/")
    expect(page.get_by_role("heading", name="Scorers", level=1)).to_be_visible()
    fits(page)
    page.screenshot(path=folder / "scorers-360.png")
    # The navigation is a drawer on a phone.
    page.locator("label.md-header__button[for='__drawer']").click()
    expect(page.locator(".md-nav--primary").get_by_role("link", name="Start")).to_be_visible()
    page.screenshot(path=folder / "drawer-360.png")
    assert violations == []


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1366, "height": 768}])
def test_the_organisers_help_opens_the_guide_where_it_tells_of_the_page(
    new_page, guide_served, seated_round, organiser, screenshot_dir, viewport
):
    folder = screenshot_dir(f"guide-help-{viewport['width']}")
    page = new_page(viewport=viewport)
    slug = seated_round.tournament.slug
    log_in(page, organiser.username, f"/manage/{slug}/scorers/")
    help_link = page.locator("header.site").get_by_role("link", name="Help")
    box = help_link.bounding_box()
    assert box is not None
    assert box["height"] >= 24
    assert box["width"] >= 24
    fits(page)
    page.screenshot(path=folder / f"scorers-{viewport['width']}.png")
    help_link.click()
    expect(page.get_by_role("heading", name="How to invite a scorer")).to_be_in_viewport()
    assert urlsplit(page.url).path == "/guide/scorers/"
    assert urlsplit(page.url).fragment == "how-to-invite-a-scorer"


def test_the_scorers_desk_has_help_and_public_pages_have_none(
    new_page, guide_served, seated_round, scorer
):
    page = new_page(viewport=PHONE)
    slug = seated_round.tournament.slug
    log_in(page, scorer.username, f"/score/{slug}/r1/desk/")
    fits(page)
    page.locator("header.site").get_by_role("link", name="Help").click()
    expect(page.get_by_role("heading", name="Score entry at the desk")).to_be_in_viewport()
    page.goto(f"/t/{slug}/")
    expect(page.locator("header.site").get_by_role("link", name="Help")).to_have_count(0)
