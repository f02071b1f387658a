"""Every public page has a meta description of its own, naming what the page is about:
what a search engine shows under the link, and what a phone shows when the link is
shared. Pages that give none have the app's general one (templates/base.html)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tournament.models import Person, Series, SeriesTournament

DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')


def description(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    found = DESCRIPTION.findall(response.content.decode())
    assert len(found) == 1, path
    return html.unescape(found[0])


@pytest.fixture
def evening(make_played, organiser):
    """A published tournament of two released rounds, its players linked to people of one
    club, in a series."""
    tournament = make_played(
        players=8, rounds=2, slug="meta-open", name="Meta Open", owner=organiser
    )
    for number, player in enumerate(tournament.players.order_by("pk")):
        player.person = Person.objects.create(name=f"Person {number:02d}", club="Red Lion")
        player.save(update_fields=["person"])
    series = Series.objects.create(name="Meta League", slug="meta-league", owner=organiser)
    SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    return tournament


def test_each_public_page_describes_itself(client, evening):
    player = evening.players.order_by("pk").first()
    person = player.person
    pages = {
        reverse("home"): "tournaments",
        reverse("standings", args=[evening.slug]): "Meta Open standings",
        reverse("player", args=[evening.slug, player.pk]): f"{player.name} at Meta Open",
        reverse("public_round", args=[evening.slug, 1]): "Round 1 of Meta Open",
        reverse("public_round", args=[evening.slug, 2]): "Round 2 of Meta Open",
        reverse("final", args=[evening.slug]): "of Meta Open",
        reverse("find_seat", args=[evening.slug]): "at Meta Open",
        reverse("series", args=["meta-league"]): "Meta League series standings",
        reverse("series_ratings", args=["meta-league"]): "Meta League ratings",
        reverse("career", args=[person.identifier]): f"{person.name}’s career",
        reverse("club", args=["red-lion"]): "Red Lion:",
    }
    described = {path: description(client, path) for path in pages}
    default = description(client, reverse("login"))
    assert default.strip()
    for path, expected in pages.items():
        text = described[path]
        assert expected in text, (path, text)
        assert text != default, path
        assert text.endswith("."), (path, text)
        assert "{%" not in text, path
        assert "{{" not in text, path
    # No two pages share a description.
    assert len(set(described.values())) == len(described)


def test_a_name_with_quotes_cannot_break_out_of_the_attribute(client, make_played):
    tournament = make_played(players=4, rounds=1, slug="quoted", name='The "Quoted" <Open>')
    text = description(client, reverse("standings", args=[tournament.slug]))
    assert text.startswith('The "Quoted" <Open> standings')
