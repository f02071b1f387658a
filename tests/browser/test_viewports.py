"""Every public page fits every screen, from a small phone to a wide monitor: nothing
scrolls sideways, and the rank, name and points of the first and last rows of each table
are on screen. The same at 360 px for the pages the desk uses on a phone: a table of six's
score sheet, the round desk and the players list.

Two tournaments: the demo (four released rounds), and a club night whose round 1 is
released and round 2 seated at two tables of six, started and not released. One browser
context per screen size. Screenshots at 360 px and 1366 px go to
artifacts/screenshots/viewports/ (the desk's in viewports/desk/).
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import PHONE, check_fits
from tests.factories import (
    RoundFactory,
    TournamentFactory,
    make_players,
    play_round,
    seated_round,
)
from tournament.door import services as door
from tournament.models import Player, Tournament

pytestmark = pytest.mark.browser

VIEWPORTS = [(360, 740), (390, 844), (768, 1024), (1366, 768), (1920, 1080)]
# The sizes whose screenshots are kept for a look: a phone's and a laptop's. Every size is
# measured; a full page's screenshot costs more than measuring it.
SHOWN = {360, 1366}
# Round 1 at tables of four: one rotation, seat 1 winning.
SHEET = [{"won": [20, 10, 10, 2], "last_in": 4, "left_over": 10}] * 4


@pytest.fixture
def club_night(organiser, scorer):
    """Round 1 released with its results; round 2 seated at two tables of six, started,
    not released."""
    tournament = TournamentFactory(
        name="Club Night", slug="club-night", owner=organiser, scorers=[scorer], published=True
    )
    players = make_players(tournament, 12)
    seated_round(tournament, players, number=1, released=True, deals=lambda n, size: SHEET)
    round_two = RoundFactory(tournament=tournament, number=2, started=True)
    play_round(round_two, [players[:6], players[6:]])
    return tournament


def public_pages(tournament: Tournament) -> dict[str, str]:
    """Every public page of the tournament a visitor can open on this version: its name
    for the screenshot, and its address."""
    slug = tournament.slug
    first = Player.objects.filter(tournament=tournament).order_by("pk").first()
    pages = {
        "standings": reverse("standings", args=[slug]),
        "results": reverse("final", args=[slug]),
        "player": reverse("player", args=[slug, first.pk]),
        "projector": reverse("projector", args=[slug]),
    }
    # Released rounds show their results; the round being played shows its seating.
    for round_ in tournament.rounds.filter(started=True).order_by("number"):
        pages[f"round-{round_.number}"] = reverse("public_round", args=[slug, round_.number])
    # "Find my seat" with several answers (a letter most names have).
    pages["find-my-seat"] = reverse("find_seat", args=[slug]) + "?q=e"
    return pages


def test_public_pages_fit_every_screen(new_page, club_night, screenshot_dir):
    shots = screenshot_dir("viewports")
    call_command("load_demo", "--no-users", stdout=io.StringIO())
    demo = Tournament.objects.get(slug="red-lion-winter-open")
    pages = {"home": reverse("home")}
    pages |= {f"demo-{name}": path for name, path in public_pages(demo).items()}
    pages |= {f"club-night-{name}": path for name, path in public_pages(club_night).items()}
    for width, height in VIEWPORTS:
        page = new_page(viewport={"width": width, "height": height}, is_mobile=width < 768)
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None, f"{name}: {path}"
            assert response.ok, f"{name}: {path}"
            check_fits(page, f"{name} at {width}×{height}")
            if width in SHOWN:
                page.screenshot(path=shots / f"{name}-{width}x{height}.png", full_page=True)


def test_the_desk_pages_fit_a_phone(new_page, club_night, screenshot_dir):
    shots = screenshot_dir("viewports/desk")
    slug = club_night.slug
    page = new_page(viewport=PHONE, is_mobile=True)
    page.goto(reverse("login"))
    page.get_by_label("User name").fill("olive")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out olive")).to_be_visible()
    pages = {
        "sheet-table-of-six": reverse("scorer:sheet", args=[slug, 2, 1]),
        "round-desk": reverse("scorer:desk", args=[slug, 2]),
        "players": reverse("organiser:players", args=[slug]),
        "door-setup": reverse("door:setup", args=[slug]),
        # The door's own page, as the tablet (or a phone) shows it, with a search.
        "door": reverse("door:tablet", args=[slug, door.door_token(club_night)]) + "?q=pl",
    }
    for name, path in pages.items():
        response = page.goto(path)
        assert response is not None, f"{name}: {path}"
        assert response.ok, f"{name}: {path}"
        check_fits(page, f"{name} at 360×740")
        page.screenshot(path=shots / f"{name}-360x740.png", full_page=True)
