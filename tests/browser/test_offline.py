"""A player's phone keeps the public pages it has shown: with the network gone, a round's
page still shows where the player sits, marked "Offline — as of HH:MM"; nothing else is
kept (an organiser's page, logging in, a logged-in user's pages), so those fail offline as
they would without the app. At a phone's width, 360 px (static/js/sw.js).

The live server runs on localhost, where browsers allow service workers without HTTPS.
Screenshots go to artifacts/screenshots/offline/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.pages import log_in
from tests.factories import TournamentFactory, make_players, seated_round

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
OFFLINE_NOTE = re.compile(r"^Offline — as of \d\d:\d\d$")
# Every address the worker has kept, in any of its caches.
KEPT = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) kept.push(new URL(request.url).pathname);
  }
  return kept;
}"""


@pytest.fixture
def round_one(db, organiser):
    tournament = TournamentFactory(
        name="Harbour Open", slug="harbour-open", owner=organiser, published=True
    )
    return seated_round(tournament, make_players(tournament, 8))


def controlled(page: Page, path: str) -> None:
    """Open ``path`` and wait until the service worker controls it (and so has kept it)."""
    page.goto(path)
    assert page.evaluate("() => window.isSecureContext && 'serviceWorker' in navigator")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_round_page_shows_offline_where_the_player_sits_and_nothing_else_is_kept(
    new_page, round_one, screenshot_dir
):
    shots = screenshot_dir("offline")
    slug = round_one.tournament.slug
    round_page = f"/t/{slug}/rounds/1/"
    manage = f"/manage/{slug}/"
    phone = new_page(**PHONE)
    controlled(phone, round_page)
    player = phone.get_by_text("Player 0006")
    expect(player).to_be_visible()
    expect(phone.locator(".offline-note")).to_have_count(0)

    # While online: an organiser's page (which asks to log in), a POST and a page fetched
    # from the public page itself all go to the network; none is kept.
    phone.goto(manage)
    expect(phone.get_by_role("heading", name="Log in")).to_be_visible()
    controlled(phone, round_page)
    status = phone.evaluate(
        """async (manage) => [
          (await fetch(manage)).status,
          (await fetch("/accounts/login/")).status,
          (await fetch(location.href, {method: "POST"})).status,
        ]""",
        manage,
    )
    assert status == [200, 200, 403], status  # a POST without a CSRF token is refused
    kept = phone.evaluate(KEPT)
    assert round_page in kept
    assert all(path.startswith(("/t/", "/static/")) for path in kept), kept

    phone.context.set_offline(True)
    phone.reload()
    expect(player).to_be_visible()
    note = phone.locator("main > .offline-note:first-child")
    expect(note).to_have_text(OFFLINE_NOTE)
    expect(note).to_be_in_viewport()
    # The page's own style and scripts, from the phone's copy.
    assert (
        phone.evaluate("() => getComputedStyle(document.querySelector('header.site')).display")
        == "flex"
    )
    phone.screenshot(path=shots / "round-offline-360.png")
    phone.screenshot(path=shots / "round-offline-360-full.png", full_page=True)
    phone.set_viewport_size({"width": 1366, "height": 768})
    expect(note).to_be_in_viewport()
    phone.screenshot(path=shots / "round-offline-1366.png")
    phone.set_viewport_size(PHONE["viewport"])
    # The live page's polls fail offline and are tried again: the page stays as it is.
    for _ in range(2):
        with phone.expect_event("requestfailed", lambda request: round_page in request.url):
            pass
    expect(player).to_be_visible()
    expect(note).to_be_visible()

    # Never kept: the organiser's page and logging in fail as without the app (each in a
    # tab of its own, closed with the browser's error page).
    for path in (manage, "/accounts/login/"):
        tab = phone.context.new_page()
        with pytest.raises(PlaywrightError, match="net::ERR_INTERNET_DISCONNECTED"):
            tab.goto(path)
        tab.close()

    # Back online, the live page again, without the note.
    phone.goto(round_page)
    expect(note).to_be_visible()
    phone.context.set_offline(False)
    expect(phone.locator(".offline-note")).to_have_count(0)
    expect(player).to_be_visible()


def test_a_logged_in_users_pages_are_never_kept(new_page, round_one, organiser):
    """A logged-in page carries its user's name and a CSRF token: private, no-store."""
    slug = round_one.tournament.slug
    phone = new_page(**PHONE)
    log_in(phone, organiser.username, f"/manage/{slug}/")
    controlled(phone, f"/t/{slug}/rounds/1/")
    expect(phone.get_by_role("button", name=f"Log out {organiser.username}")).to_be_visible()
    assert all(path.startswith("/static/") for path in phone.evaluate(KEPT))

    phone.context.set_offline(True)
    # The worker asked the network, which failed, and had no copy to give.
    with pytest.raises(PlaywrightError, match="net::ERR_FAILED"):
        phone.reload()
    phone.context.set_offline(False)
    phone.goto(f"/t/{slug}/")
