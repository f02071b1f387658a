"""The standings widget framed by another site, and the broadcast overlay, in real
Chromium: a page served from another origin (a second local server) frames the widget,
which loads and shows the standings, while the same page's frame of the standings page
itself stays empty; the overlay's page is transparent, its type large, and it follows a
release without a reload. The Publish page's copy button copies the snippet.

Screenshots go to artifacts/screenshots/embed-framed/, overlay/ and publish-page/.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.layout import layout_problems
from tests.browser.pages import log_in
from tests.factories import played_tournament
from tournament.models import Round
from tournament.rounds import services as rounds
from tournament.shared.public_changes import mark_changed

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
STREAM = {"width": 1920, "height": 1080}


@pytest.fixture
def evening(_backs_up):
    """A published tournament of 14 players: round 1 released of 3, round 2 played and
    confirmed but not released yet."""
    tournament = played_tournament(
        players=14, rounds=2, planned_rounds=3, slug="guild-open", name="Guild Open"
    )
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    mark_changed(tournament.pk)
    return tournament


@pytest.fixture
def guild_site(live_server) -> Iterator[Callable[..., str]]:
    """A guild's own site: a second HTTP server, on 127.0.0.1 at a port of its own (so
    another origin than the live server's), serving one page that frames the addresses
    it is given."""
    framed: dict[str, list[str]] = {"urls": []}

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            frames = "".join(
                f'<iframe src="{url}" title="Frame {n}" width="100%" height="420" '
                f'id="frame-{n}"></iframe>'
                for n, url in enumerate(framed["urls"], 1)
            )
            body = (
                '<!doctype html><html lang="en"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                "<title>The guild</title></head><body><main><h1>Our guild</h1>"
                f"{frames}</main></body></html>"
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def site(*urls: str) -> str:
        framed["urls"] = list(urls)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield site
    server.shutdown()
    server.server_close()


def test_another_site_frames_the_widget_and_not_the_standings_page(
    new_page, live_server, evening, guild_site, screenshot_dir
):
    shots = screenshot_dir("embed-framed")
    # The live server answers at localhost, the guild's site at 127.0.0.1: two origins.
    assert "localhost" in live_server.url
    widget = f"{live_server.url}{reverse('embed', args=[evening.slug])}"
    standings = f"{live_server.url}{reverse('standings', args=[evening.slug])}"
    site = guild_site(widget, standings)
    for viewport in (PHONE, LAPTOP):
        page = new_page(viewport=viewport)
        page.goto(site)
        frame = page.frame_locator("#frame-1")
        expect(frame.get_by_role("heading", name="Guild Open")).to_be_visible()
        expect(frame.locator("table.embed-standings tbody tr")).to_have_count(14)
        expect(frame.locator(".progress")).to_contain_text("After round 1 of 3 — provisional")
        # The standings page itself refuses the frame: the browser shows its error page.
        page.wait_for_load_state("load")
        refused = page.locator("#frame-2").element_handle().content_frame()
        assert refused is not None
        assert refused.url.startswith("chrome-error:"), refused.url
        inside = next(f for f in page.frames if "/embed/" in f.url)
        assert inside.evaluate("document.documentElement.scrollWidth") <= inside.evaluate(
            "window.innerWidth"
        ), "the widget scrolls sideways in its frame"
        page.screenshot(path=shots / f"guild-site-{viewport['width']}.png", full_page=True)

    # The widget follows the evening in its frame: round 2 released, no reload.
    page.evaluate("window.stillTheSamePage = true")
    rounds.release_round(Round.objects.get(tournament=evening, number=2))
    expect(frame.locator(".progress")).to_contain_text(
        "After round 2 of 3 — provisional", timeout=10_000
    )
    assert page.evaluate("window.stillTheSamePage === true")


def test_the_framed_widget_works_without_the_visitors_cookies(
    new_page, live_server, evening, guild_site, organiser
):
    """Someone logged in here who visits the guild's site: their browser sends the
    session cookie (SameSite=Lax) to no frame of another site's page, and the widget
    needs none. It is the anonymous visitors' page, from the public cache (an ETag), not
    their own (private, no ETag)."""
    page = new_page()
    log_in(page, "olive", reverse("organiser:home"))
    assert any(cookie["name"] == "sessionid" for cookie in page.context.cookies())
    own = page.goto(reverse("embed", args=[evening.slug]))
    assert own is not None
    assert "no-store" in own.headers["cache-control"]
    site = guild_site(f"{live_server.url}{reverse('embed', args=[evening.slug])}")
    with page.expect_response(lambda response: "/embed/" in response.url) as framed:
        page.goto(site)
    response = framed.value
    assert response.status == 200
    assert "etag" in response.headers, "the framed widget was served as someone's own page"
    assert "no-store" not in response.headers.get("cache-control", "")
    expect(page.frame_locator("#frame-1").locator("table.embed-standings tbody tr")).to_have_count(
        14
    )


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1366"])
def test_the_widget_alone_fits_a_phone_and_a_laptop(new_page, evening, screenshot_dir, viewport):
    shots = screenshot_dir(f"embed-{viewport['width']}")
    page = new_page(viewport=viewport)
    page.goto(reverse("embed", args=[evening.slug]))
    expect(page.locator("table.embed-standings tbody tr")).to_have_count(14)
    assert layout_problems(page, viewport["width"]) == []
    page.screenshot(path=shots / "embed.png", full_page=True)


def test_the_overlay_is_transparent_in_large_type_and_follows_a_release(
    new_page, evening, screenshot_dir
):
    shots = screenshot_dir("overlay")
    page = new_page(viewport=STREAM)
    page.goto(reverse("overlay", args=[evening.slug]) + "?show=standings&top=5")
    rows = page.locator("table.overlay-standings tbody tr")
    expect(rows).to_have_count(5)
    for element in ("html", "body"):
        background = page.evaluate(
            f"getComputedStyle(document.querySelector('{element}')).backgroundColor"
        )
        assert background == "rgba(0, 0, 0, 0)", (element, background)
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('td.name')).fontSize)")
    assert size >= 40, f"the overlay's rows are {size}px at 1920 × 1080"
    heading = page.evaluate("parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
    assert heading >= 50
    page.screenshot(path=shots / "standings-1920.png", omit_background=True)
    page.evaluate("window.stillTheSamePage = true")

    rounds.release_round(Round.objects.get(tournament=evening, number=2))

    expect(page.locator(".sub")).to_contain_text("after round 2 of 3", timeout=10_000)
    assert page.evaluate("window.stillTheSamePage === true"), "the overlay reloaded"
    page.screenshot(path=shots / "standings-after-release-1920.png", omit_background=True)

    # Thirty rows, the most, fit the canvas with nothing cut off.
    crowd = played_tournament(players=36, rounds=1, slug="crowd-open", name="Crowd Open")
    full = new_page(viewport=STREAM)
    full.goto(reverse("overlay", args=[crowd.slug]) + "?top=30")
    expect(full.locator("table.overlay-standings tbody tr")).to_have_count(30)
    bottom = full.evaluate("document.querySelector('.panel').getBoundingClientRect().bottom")
    assert bottom <= STREAM["height"], f"thirty rows end at {bottom}px"
    full.screenshot(path=shots / "standings-thirty-1920.png", omit_background=True)

    table = new_page(viewport=STREAM)
    table.goto(reverse("overlay", args=[evening.slug]) + "?show=table&round=2&table=1")
    expect(table.get_by_role("heading", name="Round 2 · Table 1")).to_be_visible()
    table.screenshot(path=shots / "table-1920.png", omit_background=True)
    for viewport in (PHONE, LAPTOP):
        small = new_page(viewport=viewport)
        small.goto(reverse("overlay", args=[evening.slug]))
        expect(small.locator("table.overlay-standings tbody tr")).to_have_count(10)
        assert layout_problems(small, viewport["width"]) == []
        small.screenshot(path=shots / f"standings-{viewport['width']}.png", omit_background=True)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1366"])
def test_the_publish_page_copies_the_widgets_code(
    new_page, evening, organiser, screenshot_dir, viewport
):
    shots = screenshot_dir(f"publish-page-{viewport['width']}")
    evening.owner = organiser
    evening.save(update_fields=["owner"])
    page = new_page(viewport=viewport, permissions=["clipboard-read", "clipboard-write"])
    log_in(page, "olive", reverse("organiser:publish", args=[evening.slug]))
    expect(page.get_by_role("heading", name="Standings on your guild’s site")).to_be_visible()
    snippet = page.get_by_label("The widget’s code")
    origin = page.url.split("/manage/")[0]
    assert snippet.input_value().startswith(f'<iframe src="{origin}/t/guild-open/embed/"')
    button = page.locator("button[data-copy=widget-snippet]")
    expect(button).to_have_text("Copy the code")
    button.click()
    expect(button).to_have_text("Copied")
    expect(button).to_be_focused()
    assert page.evaluate("navigator.clipboard.readText()") == snippet.input_value()
    # The widget as the guild's site will show it.
    preview = page.frame_locator("iframe.preview")
    expect(preview.locator("table.embed-standings tbody tr")).to_have_count(14)
    assert layout_problems(page, viewport["width"]) == []
    page.screenshot(path=shots / "publish.png", full_page=True)
