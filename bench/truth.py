"""One truth, worked out off the request: a release at 1,000 players, the door's check-ins
while the chances are worked out, and how long the chances take to reach the public
standings with one task worker.

Builds a published tournament of ``--players`` (1,000) players, two rounds played and
confirmed, round 2 not yet released, four planned, in a database of its own (a SQLite
file in a temp folder, or with ``--postgres`` a database made on the PostgreSQL server of
``DATABASE_URL``, dropped after). Starts one task worker (``manage.py run_worker``) as a
process of its own, then, in this process through Django's test client, as the
organiser:

1. ``release``: releases round 2 (the request, with the views worked out after its
   commit: the cheap part, in the request's process);
2. ``check-in``: checks players in and out, one after another, from when the worker
   takes the chances' task until it is done (at most ``--taps``; each tap an organiser's
   request, as the Players page sends it);
3. ``chances``: from the release, how long until the public standings show the chances
   (the page asked every 0.2 s).

Printed: each figure with its target (release under 1.5 s, check-in at most 50 ms at the
95th percentile while the chances task runs, chances within 15 s) and the ratio to it,
all measured in the same run. Run from the repository
root::

    .venv/bin/python bench/truth.py                  # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/truth.py --postgres
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"release": 1.5, "check-in p95": 0.050, "chances": 15.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--taps", type=int, default=200)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url, drop = _database(folder, args.postgres)
        env = dict(os.environ)
        env.update(
            DATABASE_URL=url,
            TASKS_BACKEND="database",
            DJANGO_SETTINGS_MODULE="config.settings",
            DJANGO_DEBUG="1",
        )
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        try:
            _run(args, env)
        finally:
            drop()


def _database(folder: str, postgres: bool):
    if not postgres:
        return f"sqlite:///{folder}/truth.sqlite3", lambda: None
    import dj_database_url
    import psycopg

    server = dj_database_url.parse(os.environ["DATABASE_URL"])
    params = {
        "host": server["HOST"] or "127.0.0.1",
        "port": server["PORT"] or 5432,
        "user": server["USER"] or "postgres",
        "dbname": "postgres",
        "autocommit": True,
    }
    name = f"lld_bench_truth_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(**params) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(**params) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"postgres://{params['user']}@{params['host']}:{params['port']}/{name}", drop


def _run(args: argparse.Namespace, env: dict[str, str]) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from tournament.demo import synthetic_tournament
    from tournament.models import Player, PodiumChances, Round, Tournament
    from tournament.tournament_file import loading

    setup_test_environment()
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    data = synthetic_tournament(
        name="Truth Open",
        slug="truth-open",
        players=[(f"Player {i:04d}", f"Club {i % 40}") for i in range(args.players)],
        rounds=2,
        rotations=1,
        seed=5,
    )
    tournament = loading.import_tournament(data).tournament
    organiser = get_user_model().objects.create_user("organiser", password="x")
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=4)
    tournament = Tournament.objects.get(pk=tournament.pk)
    tournament.published = True
    tournament.owner = organiser
    tournament.save()
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    from tournament.derived.build import work_out_views
    from tournament.shared.public_changes import mark_changed

    mark_changed(tournament.pk)
    work_out_views(tournament.pk)
    PodiumChances.objects.all().delete()
    print(f"built {args.players} players in {time.perf_counter() - started:.1f} s")

    worker = subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--interval", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    # Ready once it says so (Django started, its first sweep done).
    assert worker.stdout is not None
    assert "running" in worker.stdout.readline()
    try:
        client = Client()
        client.force_login(organiser)
        release_url = reverse("organiser:round_release", args=[tournament.slug, 2])
        began = time.perf_counter()
        response = client.post(release_url, {"confirm": "on"})
        release = time.perf_counter() - began
        assert response.status_code in (200, 302), response.status_code
        released_at = time.perf_counter()

        players = list(Player.objects.filter(tournament=tournament).values_list("pk", flat=True))
        taps: list[float] = []
        from django_tasks.base import TaskResultStatus
        from django_tasks_db.models import DBTaskResult

        chances_task = DBTaskResult.objects.filter(task_path__endswith="work_out_chances")

        def running() -> bool:
            return chances_task.filter(status=TaskResultStatus.RUNNING).exists()

        # The door's taps while the worker works the chances out: from when it takes the
        # task until it is done (or ``--taps`` taps).
        while not running() and not chances_task.filter(finished_at__isnull=False).exists():
            time.sleep(0.01)
        number = 0
        while running() and number < args.taps:
            pk = players[number % len(players)]
            name = "organiser:player_check_in" if number % 2 == 0 else "organiser:player_check_out"
            began = time.perf_counter()
            tapped = client.post(reverse(name, args=[tournament.slug, pk]))
            taps.append(time.perf_counter() - began)
            assert tapped.status_code in (200, 302), tapped.status_code
            number += 1
        running_during = len(taps)
        public = Client()
        standings = reverse("standings", args=[tournament.slug])
        deadline = released_at + 120
        chances = None
        while time.perf_counter() < deadline:
            page = public.get(standings).content.decode()
            if "Win · top 3" in page:
                chances = time.perf_counter() - released_at
                break
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=30)

    if len(taps) < 2:
        sys.exit("the chances task ended before the taps could be measured")
    p95 = statistics.quantiles(taps, n=20)[-1]
    figures = {"release": release, "check-in p95": p95, "chances": chances}
    database = "PostgreSQL" if args.postgres else "SQLite"
    print(f"{database}, {args.players} players, one task worker")
    for name, seconds in figures.items():
        target = TARGETS[name]
        if seconds is None:
            print(f"{name:>14}: never within 120 s (target {target} s)")
            continue
        print(
            f"{name:>14}: {seconds * 1000:8.1f} ms  target {target * 1000:6.0f} ms  "
            f"ratio {seconds / target:.2f}"
        )
    print(
        f"check-ins: median {statistics.median(taps) * 1000:.1f} ms, max {max(taps) * 1000:.1f} ms "
        f"over {len(taps)} taps, all while the chances task was running ({running_during})"
    )


if __name__ == "__main__":
    main()
