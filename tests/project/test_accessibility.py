"""What every page carries for keyboard and screen-reader users: a skip link, a favicon,
the current page marked in each navigation, an error summary when a form fails, and
empty pages that say what to do next. (axe-core checks the rendered pages in the browser
tests: tests/browser/conftest.py.)"""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import TournamentFactory


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def test_every_page_has_a_skip_link_a_favicon_and_the_focus_script(client):
    html = client.get(reverse("login")).content.decode()
    assert '<a class="skip-link" href="#main">Skip to the content</a>' in html
    assert '<main id="main" tabindex="-1">' in html
    assert re.search(r'<link rel="icon" href="/static/favicon.svg"', html)
    assert re.search(r'<script src="/static/js/focus.js" defer></script>', html)
    assert (settings.BASE_DIR / "static/favicon.svg").read_text().startswith("<svg")
    # The login page is marked as the current one in the header.
    assert re.search(r'href="/accounts/login/[^"]*" aria-current="page">Log in<', html)


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("dashboard", "Overview"),
        ("players", "Players"),
        ("rounds", "Rounds"),
        ("scorers", "Scorers"),
        ("edit", "Settings"),
        ("standings", "Standings"),
    ],
)
def test_the_organiser_navigation_marks_the_current_page(organiser_client, tournament, name, label):
    html = organiser_client.get(reverse(f"organiser:{name}", args=[tournament.slug])).content
    current = re.findall(r'<a href="[^"]*" aria-current="page">([^<]+)</a>', html.decode())
    assert current == [label]


def test_the_public_navigation_marks_the_current_page(client, make_played):
    tournament = make_played(players=8, rounds=2)
    html = client.get(reverse("public_round", args=[tournament.slug, 2])).content.decode()
    assert re.findall(r'aria-current="page">([^<]+)</a>', html) == ["Round 2"]
    html = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert re.findall(r'aria-current="page">([^<]+)</a>', html) == ["Standings"]


def test_a_failed_form_starts_with_a_summary_linking_to_each_field(organiser_client, tournament):
    response = organiser_client.post(
        reverse("organiser:players", args=[tournament.slug]), {"name": "", "club": ""}
    )
    html = response.content.decode()
    summary = re.search(r'<div class="error-summary"[^>]*>(.*?)</div>', html, re.S)
    assert summary, "no error summary"
    assert "data-error-summary" in html
    assert 'tabindex="-1"' in summary.group(0)
    assert re.search(r'<a href="#id_name">Name: [^<]+</a>', summary.group(1))


def test_a_failed_login_starts_with_a_summary(client, organiser):
    response = client.post(reverse("login"), {"username": "olive", "password": "wrong"})
    html = response.content.decode()
    assert '<div class="error-summary"' in html
    assert "There is a problem" in html


def test_a_form_without_problems_has_no_summary(organiser_client, tournament):
    html = organiser_client.get(reverse("organiser:edit", args=[tournament.slug])).content
    assert b"error-summary" not in html


def test_empty_pages_say_what_to_do_next(client, organiser_client, organiser):
    assert "a tournament appears here once its organiser publishes it" in (
        client.get(reverse("home")).content.decode()
    )
    home = organiser_client.get(reverse("organiser:home")).content.decode()
    assert "You do not organise or score any tournament yet. Create one" in home
    empty = TournamentFactory(slug="empty-night", owner=organiser)
    players = organiser_client.get(reverse("organiser:players", args=[empty.slug])).content
    assert b"No players yet: add them one by one below, or import a list (CSV)." in players
    rounds = organiser_client.get(reverse("organiser:rounds", args=[empty.slug])).content
    assert b"No round seated yet. Add the players first" in rounds
    scorers = organiser_client.get(reverse("organiser:scorers", args=[empty.slug])).content
    assert b"No scorers yet: you enter and confirm the sheets yourself." in scorers
