"""The task queue's parts that are ours (shared.tasks, derived.tasks): one task at a time
per key, a claim of a dead task taken over, a task that stops when what it works out
moved on, no task queued twice, dead tasks queued again and old ones pruned, and the
organiser's overview when no worker runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tournament.derived import chances as derived_chances
from tournament.derived.tasks import derive_views, work_out_chances
from tournament.models import Adjustment, PodiumChances, Round, TaskClaim
from tournament.shared.derived import load_view
from tournament.shared.tasks import claim, enqueue_once, housekeeping

DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


@pytest.mark.django_db
def test_one_task_at_a_time_per_key_and_a_dead_claim_is_taken_over():
    with claim("chances:1") as first:
        assert first
        with claim("chances:1") as second:
            assert not second
        with claim("chances:2") as other:
            assert other
    assert not TaskClaim.objects.exists()
    TaskClaim.objects.create(key="chances:1", claimed_at=timezone.now() - timedelta(minutes=6))
    with claim("chances:1") as taken_over:
        assert taken_over


@pytest.mark.django_db
def test_a_task_that_finds_the_claim_held_leaves_the_work_to_it(make_played):
    tournament = make_played(players=10, rounds=1, planned_rounds=3)
    PodiumChances.objects.all().delete()
    TaskClaim.objects.create(key=f"chances:{tournament.pk}", claimed_at=timezone.now())
    assert work_out_chances.call(tournament.pk) == "left to the task working them out"
    assert not PodiumChances.objects.exists()


@pytest.mark.django_db
def test_the_chances_stop_when_a_change_moves_the_key_and_end_up_made_for_the_last(
    make_played, monkeypatch, after_commit
):
    """A change while the chances are worked out: the task stops between blocks of
    finishes and works out the new ones; what is stored is for the last change."""
    tournament = make_played(players=30, rounds=1, planned_rounds=3)
    real = derived_chances.work_out
    calls = []

    def with_a_change_half_way(tournament, state, *args, keep_going=None, **kwargs):
        calls.append(state.chances_key)
        if len(calls) == 1:
            # A penalty given while the first figures are worked out: the key moves.
            Adjustment.objects.create(
                tournament=tournament,
                player=tournament.players.first(),
                round=Round.objects.get(tournament=tournament, number=1),
                points=-3,
                reason="slow play",
            )
            after_commit()
        return real(tournament, state, *args, keep_going=keep_going, **kwargs)

    PodiumChances.objects.all().delete()
    monkeypatch.setattr(derived_chances, "work_out", with_a_change_half_way)
    monkeypatch.setattr("tournament.derived.tasks.work_out", with_a_change_half_way)
    # The change's own after-commit task is the one that would run next: left out here.
    monkeypatch.setattr("tournament.derived.refresh.enqueue_once", lambda *args: None)
    assert work_out_chances.call(tournament.pk) == "worked out"
    assert len(calls) == 2
    assert calls[0] != calls[1]
    state = load_view(tournament, "public")
    assert PodiumChances.objects.get().fingerprint == state.chances_key == calls[1]


@pytest.mark.django_db
def test_a_task_waiting_with_the_same_arguments_is_not_queued_twice(settings):
    settings.TASKS = DATABASE
    enqueue_once(derive_views, 7)
    enqueue_once(derive_views, 7)
    enqueue_once(derive_views, 8)
    assert DBTaskResult.objects.filter(status=TaskResultStatus.READY).count() == 2


@pytest.mark.django_db
def test_housekeeping_queues_dead_tasks_again_frees_claims_and_prunes(settings):
    settings.TASKS = DATABASE
    now = timezone.now()
    dead = derive_views.enqueue(5).db_result
    DBTaskResult.objects.filter(pk=dead.pk).update(
        status=TaskResultStatus.RUNNING, started_at=now - timedelta(minutes=10)
    )
    alive = derive_views.enqueue(6).db_result
    DBTaskResult.objects.filter(pk=alive.pk).update(
        status=TaskResultStatus.RUNNING, started_at=now - timedelta(minutes=1)
    )
    old = derive_views.enqueue(9).db_result
    DBTaskResult.objects.filter(pk=old.pk).update(
        status=TaskResultStatus.SUCCESSFUL, finished_at=now - timedelta(days=2)
    )
    TaskClaim.objects.create(key="chances:5", claimed_at=now - timedelta(minutes=9))
    done = housekeeping(prune=True)
    assert done == {"queued again": 1, "claims freed": 1, "pruned": 1}
    assert DBTaskResult.objects.get(pk=dead.pk).status == TaskResultStatus.FAILED
    assert DBTaskResult.objects.get(pk=alive.pk).status == TaskResultStatus.RUNNING
    again = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert again.args_kwargs == {"args": [5], "kwargs": {}}
    assert not DBTaskResult.objects.filter(pk=old.pk).exists()


@pytest.mark.django_db
def test_the_overview_says_when_no_worker_takes_the_tasks(settings, organiser_client, organiser):
    from tests.factories import TournamentFactory

    settings.TASKS = DATABASE
    tournament = TournamentFactory(owner=organiser)
    url = reverse("organiser:dashboard", args=[tournament.slug])
    assert "Waiting for the task worker" not in organiser_client.get(url).content.decode()
    waiting = derive_views.enqueue(tournament.pk).db_result
    DBTaskResult.objects.filter(pk=waiting.pk).update(
        enqueued_at=timezone.now() - timedelta(minutes=7)
    )
    html = organiser_client.get(url).content.decode()
    assert "Waiting for the task worker (nothing run for 7 minutes)" in html
