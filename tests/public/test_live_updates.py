"""Public pages answer a poll cheaply: an ETag from their cache key, ``304 Not Modified``
to ``If-None-Match`` without a query, a new ETag as soon as anything public changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Round
from tournament.public.cache import etag_matches, page_etag
from tournament.rounds import clock, seating
from tournament.rounds import services as rounds
from tournament.shared import public_changes

PAGES = ["standings", "projector", "final"]


@pytest.fixture
def playing(make_played):
    """Round 1 released, round 2 started and being played."""
    tournament = make_played(players=12, rounds=1, planned_rounds=3)
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    return tournament


def url(name, tournament, **query):
    return reverse(name, args=[tournament.slug])


@pytest.mark.parametrize("name", PAGES)
def test_a_poll_with_the_pages_etag_is_a_304_without_a_query(client, playing, name):
    first = client.get(url(name, playing))
    etag = first["ETag"]
    assert etag.startswith('W/"')
    assert "no-cache" in first["Cache-Control"]
    assert {"HX-Request", "Cookie"} <= {v.strip() for v in first["Vary"].split(",")}
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url(name, playing), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert "Cookie" in again["Vary"]
    # The worker read the tournament's generation for the first request.
    assert len(queries) == 0
    # Once it is older than a second, one query reads it again.
    public_changes.forget_generations()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url(name, playing), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert len(queries) == 1
    assert "public_changed" in queries[0]["sql"]


def test_the_etag_changes_with_the_page_and_the_htmx_fragment(client, playing):
    page = client.get(url("projector", playing))
    fragment = client.get(url("projector", playing), HTTP_HX_REQUEST="true")
    assert page["ETag"] != fragment["ETag"]
    standings = client.get(url("standings", playing))
    by_points = client.get(url("standings", playing), {"sort": "-points"})
    assert by_points["ETag"] != standings["ETag"]
    # The fragment's ETag does not answer the whole page's poll.
    assert (
        client.get(url("projector", playing), HTTP_IF_NONE_MATCH=fragment["ETag"]).status_code
        == 200
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda t: clock.start_clock(Round.objects.get(tournament=t, number=2)),
        lambda t: rounds.release_round(
            Round.objects.get(tournament=t, number=2), despite_missing=True
        ),
    ],
    ids=["clock started", "round released"],
)
def test_a_public_change_answers_the_poll_with_the_new_page(client, playing, change):
    before = client.get(url("projector", playing))
    change(playing)
    after = client.get(url("projector", playing), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content


def test_seating_a_round_nobody_sees_yet_keeps_answering_304(client, playing):
    rounds.release_round(Round.objects.get(tournament=playing, number=2), despite_missing=True)
    before = client.get(url("standings", playing))
    seating.seat_next_round(playing)
    poll = client.get(url("standings", playing), HTTP_IF_NONE_MATCH=before["ETag"])
    assert poll.status_code == 304


def test_logged_in_visitors_get_their_own_page_without_etag(organiser_client, playing):
    response = organiser_client.get(url("standings", playing), HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 200
    assert not response.has_header("ETag")


def test_an_unpublished_tournament_is_a_404_whatever_the_etag(client, playing):
    etag = client.get(url("standings", playing))["ETag"]
    playing.published = False
    playing.save(update_fields=["published"])
    assert client.get(url("standings", playing), HTTP_IF_NONE_MATCH=etag).status_code == 404


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('W/"abc"', True),
        ('"abc"', True),
        ('"x", W/"abc"', True),
        ("*", True),
        ('W/"abd"', False),
        ("", False),
        ("garbage", False),
    ],
)
def test_if_none_match_is_compared_weakly(header, matches):
    assert etag_matches(header, 'W/"abc"') is matches


def test_etags_differ_by_key():
    assert page_etag("a") != page_etag("b")
    assert page_etag("a") == page_etag("a")


@pytest.mark.parametrize("name", ["standings", "projector"])
def test_the_pages_opt_into_polling_with_their_etag(client, playing, name):
    response = client.get(url(name, playing))
    html = response.content.decode()
    assert 'src="/static/js/live.js"' in html
    etag = response["ETag"].replace('"', "&quot;")
    assert f'data-etag="{etag}"' in html
