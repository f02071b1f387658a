"""What a tournament tells its webhooks, and when: a round started (its seating public),
released, withheld; the final results out; made private; the standings changed, told
once for every change within the debounce. Never inside the request that made the
change, and never by a rehearsal."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from standardwebhooks.webhooks import Webhook

from tests.factories import TournamentFactory, make_players, seated_round
from tournament.models import DerivedView, Round, WebhookDelivery, WebhookEndpoint
from tournament.rounds import services as rounds
from tournament.tournaments import services as tournaments
from tournament.webhooks import delivery, services
from tournament.webhooks.messages import EVENT_KEYS, PING, ROUND_RELEASED, STANDINGS_CHANGED
from tournament.webhooks.tasks import STANDINGS_DEBOUNCE

pytestmark = pytest.mark.django_db

SITE = "https://scores.example.org"


def types(receiver):
    return [json.loads(request.body)["type"] for request in receiver.requests]


def test_a_rounds_life_and_the_final_results(allow_private, queued, receiver, worker):
    tournament = TournamentFactory(slug="crown", published=True, planned_rounds=2)
    players = make_players(tournament, 8)
    first = seated_round(tournament, players, number=1, started=False)
    events = [event for event in EVENT_KEYS if event != STANDINGS_CHANGED]
    services.add_endpoint(tournament, receiver.url, events, site=SITE)

    rounds.start_round(first)
    rounds.release_round(first, despite_missing=True)
    rounds.withhold_round(first)
    rounds.release_round(first, despite_missing=True)
    assert receiver.requests == []
    worker()
    assert types(receiver) == [
        "round.started",
        "round.released",
        "round.withheld",
        "round.released",
    ]
    started = json.loads(receiver.requests[0].body)["data"]
    assert started == {
        "tournament": "crown",
        "round": 1,
        "links": {
            "round": f"{SITE}/api/v1/tournaments/crown/rounds/1",
            "page": f"{SITE}/t/crown/seat/",
        },
    }

    # Seating kept private: no round.started. The last planned round out: final results.
    tournament.seating_public = False
    tournament.save()
    second = seated_round(tournament, players, number=2, started=False)
    rounds.start_round(second)
    rounds.release_round(second, despite_missing=True)
    tournaments.set_published(tournament, False)
    worker()
    assert types(receiver)[4:] == [
        "round.released",
        "tournament.finished",
        "tournament.unpublished",
    ]
    finished = json.loads(receiver.requests[5].body)["data"]
    assert finished["links"] == {
        "standings": f"{SITE}/api/v1/tournaments/crown/standings",
        "page": f"{SITE}/t/crown/",
    }
    # Private now: nothing about its rounds is told.
    rounds.withhold_round(second)
    worker()
    assert len(receiver.requests) == 7


def test_the_final_reveal_tells_each_round_and_the_final_results(
    allow_private, queued, receiver, worker
):
    tournament = TournamentFactory(
        slug="reveal", published=True, planned_rounds=2, hold_back_rounds=2
    )
    players = make_players(tournament, 8)
    seated_round(tournament, players, number=1)
    seated_round(tournament, players, number=2)
    services.add_endpoint(tournament, receiver.url, EVENT_KEYS[:5], site=SITE)
    rounds.reveal_final_results(tournament, despite_missing=True)
    worker()
    told = [json.loads(request.body) for request in receiver.requests]
    assert [
        (m["type"], m["data"].get("round")) for m in told if m["type"] != STANDINGS_CHANGED
    ] == [
        ("round.released", 1),
        ("round.released", 2),
        ("tournament.finished", None),
    ]


def test_no_delivery_inside_the_request(
    allow_private, queued, receiver, worker, organiser, organiser_client, make_played
):
    tournament = make_played(players=8, rounds=2, slug="pub-night", owner=organiser)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    made = services.add_endpoint(tournament, receiver.url, [ROUND_RELEASED], site=SITE)
    response = organiser_client.post(
        reverse("organiser:round_release", args=[tournament.slug, 2]), {}
    )
    assert response.status_code in (200, 302)
    assert Round.objects.get(tournament=tournament, number=2).released
    # The request is over and the change committed: the delivery waits for the worker.
    assert receiver.requests == []
    waiting = WebhookDelivery.objects.get()
    assert (waiting.event, waiting.state, waiting.attempts) == (ROUND_RELEASED, "waiting", 0)
    assert DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__endswith="deliver_webhook"
    ).exists()
    worker()
    (request,) = receiver.requests
    payload = Webhook(made.secret).verify(request.body, request.headers)
    assert (payload["type"], payload["data"]["round"]) == (ROUND_RELEASED, 2)


def test_the_standings_are_told_once_for_changes_close_together(
    allow_private, queued, receiver, worker, make_played
):
    tournament = make_played(players=8, rounds=2, slug="busy-pub")
    worker(timezone.now() + timedelta(hours=1))  # what the setup queued
    services.add_endpoint(tournament, receiver.url, [STANDINGS_CHANGED], site=SITE)
    second = Round.objects.get(tournament=tournament, number=2)
    before = timezone.now()
    rounds.withhold_round(second)
    rounds.release_round(second)
    rounds.withhold_round(second)
    worker()
    announcing = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__endswith="announce_standings"
    )
    (waiting,) = announcing
    assert waiting.run_after >= before + STANDINGS_DEBOUNCE
    assert receiver.requests == [], "not before the debounce is over"
    worker(waiting.run_after)
    (request,) = receiver.requests
    assert json.loads(request.body)["data"]["links"]["standings"].endswith(
        "/api/v1/tournaments/busy-pub/standings"
    )
    endpoint = WebhookEndpoint.objects.get()
    assert (
        endpoint.announced_standings
        == DerivedView.objects.get(tournament=tournament, kind="public").fingerprint
    )
    # Nothing new: nothing told.
    services.standings_moved(tournament.pk)
    worker(timezone.now() + timedelta(hours=1))
    assert len(receiver.requests) == 1


def test_a_rehearsal_never_sends(allow_private, queued, receiver, worker, make_played):
    tournament = make_played(players=8, rounds=1, slug="real-night")
    rehearsal = TournamentFactory(
        slug="real-night-rehearsal", rehearsal_of=tournament, rehearsal_token="private-token"
    )
    with pytest.raises(Exception, match="A rehearsal never sends webhooks"):
        services.add_endpoint(rehearsal, receiver.url, list(EVENT_KEYS), site=SITE)
    # Even one made by hand on a rehearsal sends nothing.
    endpoint = WebhookEndpoint.objects.create(
        tournament=rehearsal,
        url=receiver.url,
        events=list(EVENT_KEYS),
        secret="whsec_" + "A" * 43 + "=",
        site=SITE,
    )
    players = make_players(rehearsal, 8)
    first = seated_round(rehearsal, players, number=1, started=False)
    rounds.start_round(first)
    rounds.release_round(first, despite_missing=True)
    services.standings_moved(rehearsal.pk)
    with pytest.raises(Exception, match="A rehearsal never sends webhooks"):
        services.ping(endpoint)
    worker(timezone.now() + timedelta(hours=1))
    assert not WebhookDelivery.objects.exists()
    kept = WebhookDelivery.objects.create(
        endpoint=endpoint, message_id="msg_x", event=PING, body="{}"
    )
    assert delivery.try_delivery(kept.pk).outcome == "not sent"
    assert receiver.requests == []


def test_marking_it_finished_tells_the_final_results_once(
    allow_private, queued, receiver, worker, make_played
):
    tournament = make_played(players=8, rounds=1, slug="early-end", planned_rounds=3)
    services.add_endpoint(tournament, receiver.url, ["tournament.finished"], site=SITE)
    tournaments.set_finished(tournament, True)
    tournaments.set_finished(tournament, True)
    worker()
    assert types(receiver) == ["tournament.finished"]
