"""Standings benchmark at federation scale, beside the floor of one bare SELECT.

Builds a published tournament of 1,000 players, 10 rounds and 2 rotations a round
(about 20,000 deals and 100,000 per-seat results), then reports the median time of:

- the floor: one bare ``SELECT`` fetching every per-seat result row with its deal's facts
  (the rows the standings are made of), through a plain database cursor;
- computing the standings (``tournament_standings``: its queries plus the scoring);
- rendering the public standings page (the whole request): cold (every cache empty, so
  the tournament's public results are made first), and with the public results already
  made (as every page after the first after a change);
- searching the standings for a player (a page cache miss each time, results shared);
- rendering a player's public page: cold (every cache empty) and for one player after
  another, as a crawler walks them (each page a cache miss, the tournament's public
  results already made by the first);
- refilling every player's page after a change: the public cache marked changed, then
  every player's page rendered once (wall time, and this process's CPU time: with
  SQLite that includes the database's work, with PostgreSQL the server's is apart);
- saving a table's sheet: the number of queries, for a short and a full sheet.

and the ratios to the floor. Run from the repository root, on SQLite (a file in a temp
folder) or on PostgreSQL::

    .venv/bin/python bench/standings.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/lld_bench .venv/bin/python bench/standings.py

The PostgreSQL database named in the URL is dropped and created afresh. ``--players``,
``--rounds`` and ``--repeat`` change the size and the number of timed runs; ``--walk``
how many players' pages the refill renders (all by default).
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

SLUG = "federation"


def median_ms(
    function: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None
) -> float:
    """The median time of ``function``, each run after ``setup`` (not timed)."""
    function()  # warm up: caches, connection, imported templates
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


class QueryCounter:
    """Counts the queries run on a connection (a wrapper, so no query log is needed)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.count += 1
        return execute(sql, params, many, context)


def count_queries(connection, function: Callable[[], object]) -> int:  # type: ignore[no-untyped-def]
    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        function()
    return counter.count


def setup_django(temp: str) -> str:
    """Django on the production settings (no debug bookkeeping, hashed static files) and a
    scratch database: the one ``DATABASE_URL`` names, a PostgreSQL one dropped and made
    afresh, or else SQLite in the folder ``temp``. Returns the database's URL."""
    url = os.environ.setdefault("DATABASE_URL", f"sqlite:///{temp}/bench.sqlite3")
    if url.startswith("postgres"):
        reset_postgres(url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault(
        "DJANGO_SECRET_KEY", "bench-only-secret-key-not-for-production-0123456789"
    )
    os.environ["DJANGO_STATIC_ROOT"] = f"{temp}/static"

    import django

    django.setup()
    return url


def reset_postgres(url: str) -> None:
    import psycopg

    head, _, name = url.rpartition("/")
    with psycopg.connect(f"{head}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--rotations", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--walk", type=int, default=0, help="players refilled (0: all)")
    args = parser.parse_args()

    temp = tempfile.TemporaryDirectory()
    url = setup_django(temp.name)
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from tournament.demo import synthetic_tournament
    from tournament.models import Deal, DealResult, Player, Table, Tournament
    from tournament.public.results import public_results
    from tournament.rounds import seating
    from tournament.rounds import services as rounds
    from tournament.shared.public_changes import mark_changed
    from tournament.sheets.saving import save_sheet
    from tournament.standings.services import tournament_standings
    from tournament.tournament_file import loading

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    print(f"Database: {connection.vendor} ({url.split('@')[-1]})")
    start = time.perf_counter()
    data = synthetic_tournament(
        name="Federation Championship",
        slug=SLUG,
        players=[(f"Player {i:04d}", f"Club {i % 60}") for i in range(args.players)],
        rounds=args.rounds,
        rotations=args.rotations,
        seed=3,
    )
    tournament = loading.import_tournament(data, replace=True).tournament
    tournament.published = True
    tournament.save()
    deals = Deal.objects.filter(table__round__tournament=tournament).count()
    results = DealResult.objects.filter(deal__table__round__tournament=tournament).count()
    players = Player.objects.filter(tournament=tournament).count()
    print(
        f"Built {players} players, {args.rounds} rounds x {args.rotations} rotations: "
        f"{deals} deals, {results} per-seat results ({time.perf_counter() - start:.1f} s)"
    )

    floor_sql = (
        "SELECT d.table_id, d.number, d.last_in, d.left_over, r.seat, r.won "
        "FROM tournament_dealresult r JOIN tournament_deal d ON d.id = r.deal_id "
        "JOIN tournament_table t ON t.id = d.table_id "
        "JOIN tournament_round o ON o.id = t.round_id WHERE o.tournament_id = %s"
    )

    def floor() -> int:
        with connection.cursor() as cursor:
            cursor.execute(floor_sql, [tournament.pk])
            return len(cursor.fetchall())

    assert floor() == results

    def compute() -> object:
        return tournament_standings(tournament, released_only=True)

    client = Client()
    page_url = reverse("standings", args=[SLUG])

    def page() -> object:
        cache.clear()  # the page as computed, not as served from the public pages' cache
        # secure: production redirects plain HTTP to HTTPS.
        response = client.get(page_url, secure=True)
        assert response.status_code == 200, response.status_code
        return response

    def results_made() -> None:
        cache.clear()
        # As the pages load it: the instance above predates its latest public change.
        public_results(Tournament.objects.get(pk=tournament.pk))

    def page_shared() -> object:
        response = client.get(page_url, secure=True)
        assert response.status_code == 200, response.status_code
        return response

    searches = iter(range(10**6))

    def search() -> object:
        response = client.get(page_url, {"q": f"Player {next(searches) % 1000:04d}"}, secure=True)
        assert response.status_code == 200, response.status_code
        return response

    player_ids = list(Player.objects.filter(tournament=tournament).values_list("pk", flat=True))
    walk = iter(player_ids[1:] * 2)

    def player_page(pk: int) -> object:
        response = client.get(reverse("player", args=[SLUG, pk]), secure=True)
        assert response.status_code == 200, response.status_code
        return response

    def player_cold() -> object:
        cache.clear()
        return player_page(player_ids[0])

    def player_next() -> object:
        return player_page(next(walk))

    compute_queries = count_queries(connection, compute)
    page_queries = count_queries(connection, page)
    results_made()
    page_shared_queries = count_queries(connection, page_shared)
    search_queries = count_queries(connection, search)
    player_cold_queries = count_queries(connection, player_cold)
    player_next_queries = count_queries(connection, player_next)

    floor_ms = median_ms(floor, args.repeat)
    compute_ms = median_ms(compute, args.repeat)
    page_ms = median_ms(page, args.repeat)
    page_shared_ms = median_ms(page_shared, args.repeat, setup=results_made)
    search_ms = median_ms(search, args.repeat)
    player_cold_ms = median_ms(player_cold, args.repeat)
    cache.clear()
    player_next_ms = median_ms(player_next, args.repeat)

    print(f"median of {args.repeat} runs after a warm-up")
    print(f"{'':<44} {'ms':>8} {'x floor':>8} {'queries':>8}")
    print(f"{'floor: one bare SELECT of the result rows':<44} {floor_ms:8.1f} {1:8.2f} {1:8d}")
    print(
        f"{'standings computed':<44} {compute_ms:8.1f} {compute_ms / floor_ms:8.2f} "
        f"{compute_queries:8d}"
    )
    print(
        f"{'standings page rendered (no cache)':<44} {page_ms:8.1f} {page_ms / floor_ms:8.2f} "
        f"{page_queries:8d}"
    )
    print(
        f"{'standings page, public results made':<44} {page_shared_ms:8.1f} "
        f"{page_shared_ms / floor_ms:8.2f} {page_shared_queries:8d}"
    )
    print(
        f"{'find a player (standings searched)':<44} {search_ms:8.1f} "
        f"{search_ms / floor_ms:8.2f} {search_queries:8d}"
    )
    print(
        f"{'player page, cold (no cache at all)':<44} {player_cold_ms:8.1f} "
        f"{player_cold_ms / floor_ms:8.2f} {player_cold_queries:8d}"
    )
    print(
        f"{'player page, one after another (no page cache)':<44} {player_next_ms:8.1f} "
        f"{player_next_ms / floor_ms:8.2f} {player_next_queries:8d}"
    )
    print(
        "player page / standings page (same run): "
        f"cold {player_cold_ms / page_ms:.2f}, "
        f"public results made {player_next_ms / page_shared_ms:.2f}"
    )

    # Refilling: after a change, every player's page once (as a crawler, or a room of
    # phones each opening their own page, fills the page cache again).
    walked = player_ids[: args.walk] if args.walk else player_ids
    mark_changed(tournament.pk)
    tournament.refresh_from_db()
    wall, cpu = time.perf_counter(), time.process_time()
    for pk in walked:
        player_page(pk)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"refill {len(walked)} player pages after a change: {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU of this process ({wall / len(walked) * 1000:.1f} ms a page)"
    )

    # Saving a sheet: the queries of a draft and of a confirmed sheet, one deal long and
    # a whole round long, on a new round seated by the engine.
    tournament.two_person_check = False
    tournament.planned_rounds = args.rounds + 1
    tournament.save()
    round_ = seating.seat_next_round(tournament)
    rounds.start_round(round_)
    # Loaded with their round and tournament, as the sheet entry page loads them.
    tables = iter(
        Table.objects.filter(round=round_).select_related("round__tournament").order_by("number")
    )
    print(f"{'sheet save':<44} {'deals':>8} {'queries':>8}")
    for final in (False, True):
        for length in ("one", "all"):
            table = next(tables)
            size = table.size
            deals_typed = 1 if length == "one" else args.rotations * size
            won = [52 - 2 * size - 2 * (size - 1)] + [2] * (size - 1)
            rows = [{"won": won, "last_in": 1, "left_over": 2 * size}] * deals_typed
            queries = count_queries(
                connection,
                lambda table=table, rows=rows, final=final: save_sheet(
                    table,
                    None,
                    rows,
                    expected_version=0,
                    final=final,
                    stopped_early=final and len(rows) == 1,
                ),
            )
            label = f"table of {size}, {'confirmed' if final else 'draft'}"
            print(f"{label:<44} {deals_typed:8d} {queries:8d}")
    temp.cleanup()


if __name__ == "__main__":
    main()
