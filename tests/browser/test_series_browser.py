"""The series page, its ratings and a career page fit a phone and a laptop: nothing
scrolls sideways, the chart and the results list show, and axe-core finds no serious
violation (tests/browser/conftest.py). Screenshots go to
artifacts/screenshots/series/ (or to $SERIES_SHOTS when set)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import check_fits
from tournament.models import Person, Series, SeriesTournament
from tournament.shared import public_changes

pytestmark = pytest.mark.browser

SCREENS = [(360, 740), (390, 844), (1366, 768)]


@pytest.fixture
def season(make_played, organiser):
    people = [
        Person.objects.create(
            name=name, club="Red Lion" if i % 2 else "Crown & Anchor", member=f"M{i:04d}"
        )
        for i, name in enumerate(
            [
                "Anne-Marie Featherstonehaugh-Cholmondeley",
                "Bob Lee",
                "Zoë Öberg",
                "Carl Diaz",
                "Dee Evans",
                "Fay Grant",
                "Gus Hale",
                "Ivy Jones",
                "Kit Lowe",
                "Mo Nash",
            ]
        )
    ]
    series = Series.objects.create(
        name="Winter League 2026", slug="winter", owner=organiser, count_best=2
    )
    for number, seed in enumerate((3, 5, 8), start=1):
        tournament = make_played(
            players=10,
            rounds=3,
            seed=seed,
            slug=f"night-{number}",
            name=f"Winter Night {number}",
            date=f"2026-0{number}-10",
            owner=organiser,
        )
        # Linked in one quiet block, as an import writes: the tournament marked changed once, its
        # views worked out once, not after each player.
        with public_changes.quietly(tournament.pk):
            for player, person in zip(tournament.players.order_by("pk"), people, strict=True):
                player.person = person
                player.save(update_fields=["person"])
        SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    return series, people


def shots_dir(screenshot_dir) -> Path:
    chosen = os.environ.get("SERIES_SHOTS")
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return screenshot_dir("series")


def test_the_series_and_career_pages_fit_a_phone_and_a_laptop(new_page, season, screenshot_dir):
    series, people = season
    shots = shots_dir(screenshot_dir)
    pages = {
        "series": reverse("series", args=[series.slug]),
        "ratings": reverse("series_ratings", args=[series.slug]),
        "career": reverse("career", args=[people[0].identifier]),
        "club": reverse("club", args=["crown-anchor"]),
        # Each linked player's name has a link to their career beside it.
        "tournament-standings": reverse("standings", args=["night-1"]),
    }
    for width, height in SCREENS:
        page = new_page(viewport={"width": width, "height": height}, is_mobile=width < 768)
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None
            assert response.ok, f"{name}: {path}"
            check_fits(page, f"{name} at {width}×{height}")
            if name == "series":
                page.locator("details summary").first.click()
                assert page.locator("ul.series-results li").first.is_visible()
                assert page.get_by_text("not counted").first.is_visible()
            if name == "career":
                assert page.locator("svg[role=img]").first.is_visible()
            page.screenshot(path=shots / f"{name}-{width}x{height}.png", full_page=True)


def test_the_organisers_series_pages_fit_a_phone_and_a_laptop(new_page, season, screenshot_dir):
    series, _ = season
    shots = shots_dir(screenshot_dir)
    for width, height in (SCREENS[0], SCREENS[-1]):
        page = new_page(viewport={"width": width, "height": height}, is_mobile=width < 768)
        page.goto(reverse("login"))
        page.get_by_label("User name").fill("olive")
        page.get_by_label("Password").fill("pw")
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("button", name="Log out olive")).to_be_visible()
        page.goto(reverse("organiser:series_list"))
        check_fits(page, f"series list at {width}")
        page.screenshot(path=shots / f"organiser-series-list-{width}x{height}.png", full_page=True)
        page.goto(reverse("organiser:series_detail", args=[series.slug]))
        page.get_by_label("Points by place").fill("25, 18, x")
        page.get_by_role("button", name="Save settings").click()
        expect(page.get_by_role("alert")).to_contain_text("Place 3: “x” is not a whole number")
        check_fits(page, f"series settings at {width}")
        page.screenshot(path=shots / f"organiser-series-{width}x{height}.png", full_page=True)
