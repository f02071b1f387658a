"""The public pages read as an app on a phone (360 × 740 and 390 × 844): nothing scrolls
sideways, the standings' first row is on the first screen, every link, button, field and
disclosure on the whole page, the header included, is at least 24 × 24 px (but a link
inside a sentence), the main controls (the tab bar, the search box and its button, This
is me, the card's buttons) a finger high, 44 px, and there is one search box, not two.
The organiser's pages the same, at a phone's width and a laptop's.

The demo tournament (four of five rounds released, a table that stopped early) and its
series. Screenshots go to artifacts/screenshots/phone-design/.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.browser.layout import TAP_TARGETS
from tests.browser.pages import log_in
from tournament.models import Player, Tournament

pytestmark = pytest.mark.browser

PHONES = [(360, 740), (390, 844)]


def demo_pages() -> dict[str, str]:
    call_command("load_demo", "--no-users", stdout=io.StringIO())
    demo = Tournament.objects.get(slug="red-lion-winter-open")
    first = Player.objects.filter(tournament=demo).order_by("pk").first()
    assert first is not None
    pages = {
        "standings": reverse("standings", args=[demo.slug]),
        "round": reverse("public_round", args=[demo.slug, 2]),
        "player": reverse("player", args=[demo.slug, first.pk]),
        "final": reverse("final", args=[demo.slug]),
    }
    # The demo's season, which the demo tournament counts in.
    pages["series"] = reverse("series", args=["red-lion-season"])
    return pages


def test_public_pages_read_as_an_app_on_a_phone(new_page, screenshot_dir):
    shots = screenshot_dir("phone-design")
    pages = demo_pages()
    problems: list[str] = []
    for width, height in PHONES:
        page = new_page(viewport={"width": width, "height": height}, is_mobile=True)
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None, f"{name}: {path}"
            assert response.ok, f"{name}: {path}"
            where = f"{name} at {width}×{height}"
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                problems.append(f"{where}: the page is {scroll_width}px wide")
            if name == "standings":
                top = page.locator("#standings-table tbody tr").first.evaluate(
                    "(row) => row.getBoundingClientRect().top + window.scrollY"
                )
                if top >= height:
                    problems.append(f"{where}: the first row starts {top:.0f}px down")
            found = page.evaluate(TAP_TARGETS)
            problems += [f"{where}: under 24 × 24 px: {each}" for each in found["small"]]
            problems += [f"{where}: under 44 px high: {each}" for each in found["low"]]
            # A tournament's pages have one search box; a series' none.
            if found["searches"] != (0 if name == "series" else 1):
                problems.append(f"{where}: {found['searches']} search boxes")
            page.screenshot(path=shots / f"{name}-{width}x{height}.png")
    assert not problems, "\n".join(problems)


def test_the_organisers_pages_have_targets_a_finger_can_hit(new_page, screenshot_dir, organiser):
    """The organiser's pages, header and tabs included, at 360 px and at a laptop's
    1366 px: every control at least 24 × 24 px, the tab bar 44 px high, nothing sideways."""
    shots = screenshot_dir("phone-design/organiser")
    call_command("load_demo", "--no-users", stdout=io.StringIO())
    demo = Tournament.objects.get(slug="red-lion-winter-open")
    demo.owner = organiser
    demo.save()
    paths = {
        "dashboard": reverse("organiser:dashboard", args=[demo.slug]),
        "rules": reverse("organiser:rules", args=[demo.slug]),
        "players": reverse("organiser:players", args=[demo.slug]),
        "settings": reverse("organiser:edit", args=[demo.slug]),
    }
    problems: list[str] = []
    for width, height in [(360, 740), (1366, 768)]:
        page = new_page(viewport={"width": width, "height": height})
        log_in(page, organiser.username, paths["dashboard"])
        for name, path in paths.items():
            page.goto(path)
            where = f"{name} at {width}"
            if page.evaluate("document.documentElement.scrollWidth") > width:
                problems.append(f"{where}: scrolls sideways")
            found = page.evaluate(TAP_TARGETS)
            problems += [f"{where}: under 24 × 24 px: {each}" for each in found["small"]]
            problems += [f"{where}: under 44 px high: {each}" for each in found["low"]]
            # The current page's tab is on screen, even where the tab bar scrolls.
            current = page.locator("nav.tabs [aria-current=page]").first.bounding_box()
            if current["x"] < 0 or current["x"] + current["width"] > width:
                problems.append(f"{where}: the current tab is off screen")
            page.screenshot(path=shots / f"{name}-{width}.png")
    assert not problems, "\n".join(problems)
