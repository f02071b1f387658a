"""The task worker as a real process (``manage.py run_worker``), on the database the
suite runs on (a SQLite file, or a database of its own on the PostgreSQL server): a
release made by one process queues the chances, the worker works them out, and a task
whose worker died is run again."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import dj_database_url
import pytest
from django.conf import settings

from tests.environment import environment, run

SETUP = """
import django
django.setup()
from django.core.management import call_command
from tournament.demo import synthetic_tournament
from tournament.tournament_file import loading
call_command("migrate", verbosity=0)
data = synthetic_tournament(
    name="Worker Open", slug="worker-open",
    players=[(f"Player {i:02d}", "") for i in range(15)], rounds=2, rotations=1, seed=3,
)
tournament = loading.import_tournament(data).tournament
tournament.published = True
tournament.planned_rounds = 4
tournament.save(update_fields=["published", "planned_rounds"])
"""

DEAD = """
import django
django.setup()
from datetime import timedelta
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from tournament.models import PodiumChances
PodiumChances.objects.all().delete()
# The chances' task as a worker killed half-way leaves it: running, for minutes.
task = DBTaskResult.objects.filter(task_path__endswith="work_out_chances").first()
DBTaskResult.objects.filter(pk=task.pk).update(
    status="RUNNING", started_at=timezone.now() - timedelta(minutes=10)
)
"""

REPORT = """
import django, json
django.setup()
from django_tasks_db.models import DBTaskResult
from tournament.models import DerivedView, PodiumChances
print(json.dumps({
    "views": DerivedView.objects.count(),
    "chances": PodiumChances.objects.count(),
    "waiting": DBTaskResult.objects.filter(status="READY").count(),
    "failed": list(DBTaskResult.objects.filter(status="FAILED").values_list("traceback", flat=True)),
}))
"""


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A database for the child processes: a SQLite file, or on the suite's PostgreSQL
    server a database made for the test and dropped after it."""
    default = settings.DATABASES["default"]
    if default["ENGINE"] == "django.db.backends.sqlite3":
        yield f"sqlite:///{tmp_path / 'worker.sqlite3'}"
        return
    import psycopg

    name = f"lld_worker_{uuid.uuid4().hex[:12]}"
    server = dj_database_url.parse(os.environ["DATABASE_URL"])
    params = {
        "host": server["HOST"] or "127.0.0.1",
        "port": server["PORT"] or 5432,
        "user": server["USER"] or "postgres",
        "dbname": "postgres",
        "autocommit": True,
    }
    with psycopg.connect(**params) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{params['user']}@{params['host']}:{params['port']}/{name}"
    finally:
        with psycopg.connect(**params) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _child(code: str, env: dict[str, str]) -> str:
    done = run(["-c", code], env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_worker_works_out_what_a_change_queued_and_runs_a_dead_task_again(database_url):
    import json

    env = environment(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        TASKS_BACKEND="database",
        # What the worker does, not how precisely: a few hundred finishes, as in the tests.
        PODIUM_FINISHES="400",
    )
    _child(SETUP, env)
    # The import's commit worked out the views in its own process and queued the chances.
    before = json.loads(_child(REPORT, env))
    assert before["views"] == 2
    assert before["chances"] == 0
    assert before["waiting"] >= 1
    worker = run(["manage.py", "run_worker", "--batch"], env)
    assert worker.returncode == 0, worker.stderr[-3000:]
    after = json.loads(_child(REPORT, env))
    assert after["chances"] == 1
    assert after["waiting"] == 0
    # A task its worker died running is failed, queued again and run by the next sweep.
    _child(DEAD, env)
    again = run(["manage.py", "run_worker", "--batch"], env)
    assert again.returncode == 0, again.stderr[-3000:]
    report = json.loads(_child(REPORT, env))
    assert report["chances"] == 1
    assert any("the worker stopped" in each for each in report["failed"])
