"""A player's phone keeps the public pages it has shown: with the network gone, a round's
page still shows where the player sits, marked "Offline — as of HH:MM"; nothing else is
kept (an organiser's page, logging in, a scorer's, the door's or a table's page, a
logged-in user's pages): opened offline, those and a public page never visited show our
own offline page. The installed app's start page, the home page, opens offline. At a
phone's width, 360 px (static/js/sw.js).

The live server runs on localhost, where browsers allow service workers without HTTPS.
Screenshots go to artifacts/screenshots/offline/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import log_in
from tests.factories import TournamentFactory, make_players, seated_round
from tests.routes import url_for

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
    assert all(path == "/" or path.startswith(("/t/", "/static/", "/offline/")) for path in kept)

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

    # Never kept: the organiser's page and logging in open our offline page (each in a
    # tab of its own), as does a public page this phone never opened.
    for path in (manage, "/accounts/login/", f"/t/{slug}/final/"):
        tab = phone.context.new_page()
        tab.goto(path)
        expect(tab.get_by_role("heading", name="You are offline")).to_be_visible()
        expect(tab.get_by_role("link", name="Try again")).to_be_visible()
        assert tab.evaluate("() => getComputedStyle(document.body).backgroundColor") != (
            "rgba(0, 0, 0, 0)"
        ), "the offline page has its style"
        if path.endswith("/final/"):
            tab.screenshot(path=shots / "never-visited-offline-360.png")
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
    # The static files, and our offline page (fetched without cookies).
    assert all(path.startswith(("/static/", "/offline/")) for path in phone.evaluate(KEPT))

    phone.context.set_offline(True)
    # The worker asked the network, which failed, and had no copy to give: our offline
    # page, which names nobody.
    phone.reload()
    expect(phone.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(phone.get_by_role("button", name=re.compile("Log out"))).to_have_count(0)
    phone.context.set_offline(False)
    phone.goto(f"/t/{slug}/")


def test_the_installed_app_opens_offline_and_keeps_no_private_page(new_page, round_one, organiser):
    """The manifest's start page, the home page, lies in the worker's scope: opened once,
    it opens offline. Every kind of page that is not public, opened while online, leaves
    nothing on the phone."""
    tournament = round_one.tournament
    phone = new_page(**PHONE)
    controlled(phone, "/")
    inside = phone.evaluate(
        """async () => {
          const scope = (await navigator.serviceWorker.ready).scope;
          const manifest = await (await fetch("/manifest.webmanifest")).json();
          return new URL(manifest.start_url, location.href).href.startsWith(scope);
        }"""
    )
    assert inside, "the manifest's start page lies outside the worker's scope"
    private = [
        url_for(name, tournament)
        for name in (
            "organiser:dashboard",
            "scorer:desk",
            "door:tablet",
            "table:entry",
            "password_reset",
        )
    ]
    for path in private:
        phone.goto(path)
    log_in(phone, organiser.username, f"/manage/{tournament.slug}/")
    for path in private[:2]:
        phone.goto(path)
    phone.goto(f"/t/{tournament.slug}/")
    kept = phone.evaluate(KEPT)
    for prefix in ("/manage/", "/score/", "/e/", "/accounts/", "/door/", "/print/", "/admin/"):
        assert not [path for path in kept if path.startswith(prefix)], (prefix, kept)

    phone.context.set_offline(True)
    phone.goto("/")
    expect(phone.locator(".offline-note")).to_have_text(OFFLINE_NOTE)
    # Back online, the site answers the page's HEAD and the live home page comes back.
    with phone.expect_response(lambda r: r.request.method == "HEAD" and r.status == 200):
        phone.context.set_offline(False)
    expect(phone.locator(".offline-note")).to_have_count(0)
    expect(phone.get_by_role("heading", name="On now")).to_be_visible()
