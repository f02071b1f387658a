"""How long a table code that opens no sheet takes to answer: a code whose sheet is
confirmed (closed to phones) against a code that does not exist. A guesser who could tell
them apart by the time would learn which codes are real; the two take the same path (one
query, the same rule: ``sheets.at_table.table_for_code``), and this shows it.

Builds a published tournament of 20 players with round 1 started and table 1's sheet
confirmed, then alternates the two codes, ``--batch`` calls each per batch, and prints
the median over ``--repeat`` batches of one call's process CPU and wall time, and the
ratio closed/unknown within the same run:

- the lookup alone (``table_for_code``, refused either way);
- the whole request through Django's handler (``GET /e/<code>/``, every middleware, no
  network), with the wrong-code limit switched off so that it does not answer 429.

Run from the repository root (``DATABASE_URL`` for PostgreSQL, as the other benches)::

    .venv/bin/python bench/table_codes.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(calls: dict[str, Callable[[], object]], batch: int, repeat: int) -> dict[str, tuple]:
    """Each call's median (CPU µs, wall µs) over ``repeat`` batches, the calls alternated
    within each batch so that a drift of the machine's speed touches them alike."""
    for call in calls.values():
        call()
    cpu: dict[str, list[float]] = {name: [] for name in calls}
    wall: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        spent = {name: [0.0, 0.0] for name in calls}
        for _ in range(batch):
            for name, call in calls.items():
                cpu_start, wall_start = time.process_time(), time.perf_counter()
                call()
                spent[name][0] += time.process_time() - cpu_start
                spent[name][1] += time.perf_counter() - wall_start
        for name, (cpu_s, wall_s) in spent.items():
            cpu[name].append(cpu_s / batch * 1e6)
            wall[name].append(wall_s / batch * 1e6)
    return {name: (statistics.median(cpu[name]), statistics.median(wall[name])) for name in calls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    temp = tempfile.TemporaryDirectory()
    os.environ["DJANGO_PLAIN_HTTP"] = "1"
    from bench.standings import setup_django

    url = setup_django(temp.name)
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings

    from tournament.models import Player, Table, Tournament
    from tournament.rounds import seating
    from tournament.rounds import services as rounds
    from tournament.sheets import at_table as entry
    from tournament.sheets.saving import save_sheet

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    # Without the two-person check a sheet saved as complete is confirmed at once.
    tournament = Tournament.objects.create(
        name="Code Open", slug="code-open", published=True, two_person_check=False
    )
    Player.objects.bulk_create(
        Player(tournament=tournament, ref=f"p{n}", name=f"Player {n:02d}") for n in range(20)
    )
    round_ = seating.seat_next_round(tournament)
    rounds.start_round(round_)
    table = Table.objects.select_related("round__tournament").get(round=round_, number=1)
    won = [52 - 2 * table.size - 2 * (table.size - 1)] + [2] * (table.size - 1)
    rows = [{"won": won, "last_in": 1, "left_over": 2 * table.size}]
    save_sheet(table, None, rows, expected_version=0, final=True, stopped_early=True).or_raise()
    closed = table.code
    unknown = "ZZZZ9999" if closed != "ZZZZ9999" else "YYYY9999"
    if entry.open_at_table(table):
        sys.exit("table 1's sheet should be confirmed, its code closed")

    def lookup(code: str) -> Callable[[], object]:
        def call() -> object:
            try:
                return entry.table_for_code(code)
            except entry.TableCodeRefusedError:
                return None

        return call

    client = Client()

    def request(code: str) -> Callable[[], object]:
        def call() -> object:
            response = client.get(f"/e/{code}/")
            if response.status_code != 404:
                sys.exit(f"/e/{code}/ answered {response.status_code}, not 404")
            return response

        return call

    print(f"{url.split('://')[0]}, {args.repeat} batches of {args.batch} calls each")
    print(f"{'':<34} {'closed µs CPU':>14} {'unknown µs CPU':>15} {'ratio':>6}  (wall µs)")
    results = timed({"closed": lookup(closed), "unknown": lookup(unknown)}, args.batch, args.repeat)
    show("lookup (table_for_code)", results)
    with override_settings(RATELIMIT_ENABLE=False):
        results = timed(
            {"closed": request(closed), "unknown": request(unknown)}, args.batch, args.repeat
        )
    show("whole request (GET /e/<code>/)", results)
    temp.cleanup()


def show(label: str, results: dict[str, tuple]) -> None:
    closed_cpu, closed_wall = results["closed"]
    unknown_cpu, unknown_wall = results["unknown"]
    print(
        f"{label:<34} {closed_cpu:14.1f} {unknown_cpu:15.1f} {closed_cpu / unknown_cpu:6.2f}"
        f"  ({closed_wall:.1f} / {unknown_wall:.1f}, {closed_wall / unknown_wall:.2f})"
    )


if __name__ == "__main__":
    main()
