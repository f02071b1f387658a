"""The home page puts tonight's tournament first: one in play (a round started, the
standings not final) or dated today, large, with the rest listed below it."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import RoundFactory, TournamentFactory
from tournament.public.views.standings import tonight_first

pytestmark = pytest.mark.django_db


def names(tournaments) -> list[str]:
    return [each.name for each in tournaments]


def test_a_tournament_in_play_comes_first_then_one_dated_today(client):
    today = timezone.localdate()
    TournamentFactory(name="Last Month", published=True, date=today - datetime.timedelta(days=30))
    # Newest first otherwise: a tournament planned for next week is listed at the top.
    TournamentFactory(name="Next Week", published=True, date=today + datetime.timedelta(days=7))
    TournamentFactory(name="Dated Today", published=True, date=today)
    playing = TournamentFactory(
        name="In Play", published=True, date=today - datetime.timedelta(days=1), planned_rounds=3
    )
    RoundFactory(tournament=playing, number=1, started=True, released=True)
    RoundFactory(tournament=playing, number=2, started=True)
    finished = TournamentFactory(
        name="All Released",
        published=True,
        date=today - datetime.timedelta(days=2),
        planned_rounds=1,
    )
    RoundFactory(tournament=finished, number=1, started=True, released=True)
    TournamentFactory(name="Not Published", published=False, date=today)

    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert names(response.context["tonight"]) == ["In Play", "Dated Today"]
    assert names(response.context["tournaments"]) == ["Next Week", "All Released", "Last Month"]
    html = response.content.decode()
    # Tonight's card, with its way to the standings and seating, comes before the rest.
    assert html.index("In Play") < html.index("Dated Today") < html.index("Next Week")
    assert "Standings and seating" in html


def test_with_nothing_on_tonight_the_list_is_the_page(client):
    TournamentFactory(name="Some Open", published=True, date=datetime.date(2020, 1, 1))

    response = client.get(reverse("home"))

    assert response.context["tonight"] == []
    assert "On now" not in response.content.decode()
    assert "Some Open" in response.content.decode()


def test_tonight_first_keeps_the_given_order():
    today = datetime.date(2026, 11, 27)
    first = TournamentFactory.build(name="A", date=today, planned_rounds=3)
    second = TournamentFactory.build(name="B", date=today, planned_rounds=3)
    other = TournamentFactory.build(name="C", date=None, planned_rounds=3)

    tonight, rest = tonight_first([other, first, second], today)

    assert names(tonight) == ["A", "B"]
    assert names(rest) == ["C"]


def test_a_tournament_left_unfinished_long_ago_is_not_tonights():
    today = datetime.date(2026, 11, 27)
    old = TournamentFactory.build(name="Old", date=datetime.date(2026, 3, 1), planned_rounds=3)
    late = TournamentFactory.build(name="Late", date=datetime.date(2026, 11, 26), planned_rounds=3)
    for each in (old, late):
        each.any_started = True
        each.last_released = 1

    tonight, rest = tonight_first([old, late], today)

    assert names(tonight) == ["Late"]
    assert names(rest) == ["Old"]
