"""Two organisers' requests linking two players of one tournament to the same person at
the same moment: one is linked, the other is refused with the words of the check, never
an error page, and the person still plays once in the tournament.

Both requests pass the service's check before either saves (the save is slowed down), so
it is the database's constraint ``player_person_once_a_tournament`` that decides; the
real test needs PostgreSQL (see ``tests/test_concurrency.py``), where the second save
waits for the first transaction and then meets the constraint.
"""

import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, make_players
from tests.test_concurrency import run_together
from tournament.models import Player
from tournament.services import people


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("races between two writers need PostgreSQL's row locks: set DATABASE_URL")


@pytest.mark.django_db(transaction=True)
def test_two_links_of_one_person_at_once_link_one_player(postgresql, organiser, monkeypatch):
    tournament = TournamentFactory(name="Spring Cup", owner=organiser)
    first, second = make_players(tournament, 2)
    ann = people.add_person("Ann Lee", "", "M1")
    real_save = Player.save

    def slow_save(self, *args, **kwargs):
        # Both requests have looked and found nobody linked to Ann before either saves.
        time.sleep(0.3)
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(Player, "save", slow_save)

    def link(player):
        def post():
            client = Client()
            client.force_login(organiser)
            url = reverse("organiser:player_person", args=[tournament.slug, player.pk])
            return client.post(url, {"person": ann.pk}, headers={"HX-Request": "true"})

        return post

    outcomes = run_together(link(first), link(second))
    assert [outcome.error for outcome in outcomes] == [None, None]
    responses = [outcome.value for outcome in outcomes]
    assert [response.status_code for response in responses] == [200, 200]
    refused = [r for r in responses if "already plays in Spring Cup" in r.content.decode()]
    assert len(refused) == 1
    assert Player.objects.filter(tournament=tournament, person=ann).count() == 1
