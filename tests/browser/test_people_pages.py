"""The organiser's pages of people in a real browser, on a phone and a laptop: the
register, a person, merging, linking a tournament's players (a row swapped by htmx) and
people offered while typing a new player's name. Nothing scrolls sideways at 360 px.
Screenshots go to artifacts/screenshots/people/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import check_fits, log_in
from tests.factories import TournamentFactory, make_players
from tournament.models import Player
from tournament.people import services as people

pytestmark = pytest.mark.browser

SIZES = [(360, 740), (1366, 768)]


@pytest.fixture
def register(organiser):
    tournament = TournamentFactory(name="Spring Cup", slug="spring-cup", owner=organiser)
    players = make_players(tournament, 6)
    ann = people.add_person("Ann Lee-Featherstonehaugh", "The Red Lion Card Club", "M0001")
    people.add_person("Anne Lee-Featherstonehaugh", "The Red Lion Card Club")
    people.add_person("Zoë Ånström", "Le Café", "M0123")
    people.add_person(players[1].name + "e", players[1].club)
    people.link(players[0], ann)
    return tournament


def test_the_people_pages_fit_a_phone_and_a_laptop(new_page, register, screenshot_dir):
    shots = screenshot_dir("people")
    ann = people.search("M0001")[0]
    pages = {
        "register": reverse("people:list"),
        "register-search": reverse("people:list") + "?q=lee",
        "person": reverse("people:edit", args=[ann.pk]),
        "merge": reverse("people:merge", args=[ann.pk]),
        "link": reverse("organiser:players_people", args=[register.slug]),
        "players-find": reverse("organiser:players", args=[register.slug]) + "?name=zoe",
    }
    for width, height in SIZES:
        page = new_page(viewport={"width": width, "height": height}, is_mobile=width < 768)
        log_in(page, "olive", reverse("login"))
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None
            assert response.ok, f"{name}: {path}"
            check_fits(page, f"{name} at {width}×{height}")
            page.screenshot(path=shots / f"{name}-{width}x{height}.png", full_page=True)


def test_typing_a_name_offers_people_and_choosing_one_links_the_player(new_page, register):
    page = new_page(viewport={"width": 360, "height": 740}, is_mobile=True)
    log_in(page, "olive", reverse("login"))
    page.goto(reverse("organiser:players", args=[register.slug]))
    page.get_by_label("Name", exact=True).press_sequentially("zoe an")
    choice = page.get_by_label("Zoë Ånström")
    expect(choice).to_be_visible()
    choice.check()
    page.get_by_role("button", name="Add player").click()
    expect(page.locator(".messages")).to_contain_text("Registered zoe an, linked to Zoë Ånström.")
    player = Player.objects.get(tournament=register, name="zoe an")
    assert (player.person.member, player.club) == ("M0123", "Le Café")


def test_accepting_a_near_match_swaps_the_row(new_page, register, screenshot_dir):
    shots = screenshot_dir("people/link")
    second = Player.objects.filter(tournament=register).order_by("pk")[1]
    page = new_page(viewport={"width": 360, "height": 740}, is_mobile=True)
    log_in(page, "olive", reverse("login"))
    page.goto(reverse("organiser:players_people", args=[register.slug]))
    row = page.locator(f"#player-{second.pk}")
    row.get_by_role("button", name=f"This is {second.name}e").click()
    expect(row).to_contain_text("not this person")
    page.screenshot(path=shots / "accepted-360x740.png", full_page=True)
    second.refresh_from_db()
    assert second.person.name == second.name + "e"
