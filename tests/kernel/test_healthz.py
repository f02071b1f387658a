"""``/healthz`` for load balancers: 200 while the database answers, saying how the cache
and the task queue are; 503 ``database: unreachable`` (never a traceback) when it does
not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError, connection
from django.utils import timezone

DATABASE_BACKEND = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
}


def test_the_queue_is_a_line_of_the_answer(db, settings, client):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DATABASE_BACKEND
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content.decode().splitlines()[-1] == "queue: 0 waiting, oldest 0 s"
    DBTaskResult.objects.create(
        args_kwargs={"args": [1], "kwargs": {}},
        task_path="tournament.derived.tasks.derive_views",
        backend_name="default",
        run_after=timezone.now() - timedelta(seconds=1),
    )
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(seconds=90))
    lines = client.get("/healthz").content.decode().splitlines()
    assert lines[-1].startswith("queue: 1 waiting, oldest 9")
    # A queue waiting for its worker is no reason to leave the rotation.
    assert client.get("/healthz").status_code == 200


def test_without_a_queue_there_is_no_queue_line(db, client):
    assert "queue:" not in client.get("/healthz").content.decode()


def test_a_database_it_cannot_reach_is_a_503_in_words(db, monkeypatch, caplog, client):
    def unreachable(*args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    with monkeypatch.context() as patched:
        patched.setattr(connection, "cursor", unreachable)
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content.decode() == "database: unreachable\n"
    assert "Traceback" not in caplog.text
    assert any("database is unreachable" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("method", ["post", "put"])
def test_only_get(db, client, method):
    assert getattr(client, method)("/healthz").status_code == 405
