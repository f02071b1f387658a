"""Re-importing a big tournament file: ``import_tournament --replace`` beside a fresh import.

Writes the tournament file of 1,000 players, 10 rounds and 2 rotations a round (about
20,000 deals and 100,000 per-seat results) to a temp folder, then times the management
command in this process (Django's start-up left out), alternating:

- a fresh import: the slug is free (the tournament was deleted, untimed, before);
- a replace: ``import_tournament --replace`` of the same file over the tournament.

It prints the median of ``--repeat`` runs of each and their ratio, measured in the same
run, and the queries of one replace that touch the tournament row (the public pages'
mark: one, at the end) and that delete. Run from the repository root, on SQLite (a file
in a temp folder) or on PostgreSQL::

    .venv/bin/python bench/import_replace.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/lld_bench \
        .venv/bin/python bench/import_replace.py

The PostgreSQL database named in the URL is dropped and created afresh.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.standings import reset_postgres  # noqa: E402

SLUG = "federation"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--rotations", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    temp = tempfile.TemporaryDirectory()
    url = os.environ.setdefault("DATABASE_URL", f"sqlite:///{temp.name}/bench.sqlite3")
    if url.startswith("postgres"):
        reset_postgres(url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.setdefault(
        "DJANGO_SECRET_KEY", "bench-only-secret-key-not-for-production-0123456789"
    )

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from tournament.demo import synthetic_tournament
    from tournament.models import Tournament
    from tournament.tournament_file import file_format, loading

    call_command("migrate", verbosity=0)
    print(f"Database: {connection.vendor} ({url.split('@')[-1]})")
    data = synthetic_tournament(
        name="Federation Championship",
        slug=SLUG,
        players=[(f"Player {i:04d}", f"Club {i % 60}") for i in range(args.players)],
        rounds=args.rounds,
        rotations=args.rotations,
        seed=3,
    )
    path = Path(temp.name) / "federation.json"
    path.write_text(file_format.dumps(data))
    print(
        f"File: {args.players} players, {args.rounds} rounds x {args.rotations} rotations, "
        f"{path.stat().st_size / 1e6:.1f} MB"
    )

    def command(*options: str) -> float:
        start = time.perf_counter()
        call_command("import_tournament", str(path), *options, stdout=io.StringIO())
        return time.perf_counter() - start

    def delete() -> None:
        tournament = Tournament.objects.filter(slug=SLUG).first()
        if tournament is not None:
            loading.delete_tournament(tournament)

    fresh: list[float] = []
    replace: list[float] = []
    for _ in range(args.repeat):
        delete()
        fresh.append(command())
        replace.append(command("--replace"))

    queries: list[str] = []

    def logged(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(logged):
        command("--replace")
    marks = [q for q in queries if q.startswith("UPDATE") and "public_changed" in q]
    deletes = [q for q in queries if q.startswith("DELETE")]

    fresh_s, replace_s = statistics.median(fresh), statistics.median(replace)
    print(f"{'':<28} {'median s':>9}   runs")
    print(f"{'fresh import':<28} {fresh_s:9.2f}   " + " ".join(f"{t:.2f}" for t in fresh))
    print(f"{'import --replace':<28} {replace_s:9.2f}   " + " ".join(f"{t:.2f}" for t in replace))
    print(f"replace / fresh: {replace_s / fresh_s:.2f}")
    print(
        f"one replace: {len(queries)} queries, {len(deletes)} DELETE, "
        f"{len(marks)} marking the public pages changed"
    )
    temp.cleanup()


if __name__ == "__main__":
    main()
