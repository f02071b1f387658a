"""What one answer of a public page costs the server, in this process: a cache hit, a 304,
the health check, and a page rendered with the page cache off; and the two ways of
knowing a tournament's generation that a hit can take.

Builds a published 200-player, 8-round tournament (as bench/load.py does), then times,
through Django's whole request handler (every middleware, no network), the median of
``--repeat`` batches of ``--batch`` requests each:

- the health check (``/healthz``: one bare query), the trivial page of bench/load.py;
- the standings page from the cache (a hit: no query), plain and gzipped;
- the standings page revalidated (``If-None-Match``: a 304, no query);
- the standings page rendered with the page cache off.

Then the generation's lookup alone, per hit: the worker's own copy (what the hit does,
read again from the database once a second) against a read of a generation kept in the
cache, from the in-process cache and from Redis (``--redis``, a URL, when one runs): the
cost of a generation exact across app servers.

Run from the repository root::

    .venv/bin/python bench/cache_hit.py
    .venv/bin/python bench/cache_hit.py --redis redis://127.0.0.1:6379/9
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

SLUG = "hit-open"


def per_call_us(function: Callable[[], object], batch: int, repeat: int) -> float:
    """Median over ``repeat`` batches of the process CPU time of one call, in µs."""
    function()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(batch):
            function()
        times.append((time.process_time() - start) / batch)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--redis", default="", help="a Redis URL to time a generation read")
    args = parser.parse_args()

    temp = tempfile.TemporaryDirectory()
    os.environ["DJANGO_PLAIN_HTTP"] = "1"
    from bench.standings import setup_django

    setup_django(temp.name)
    from django.core.cache import caches
    from django.core.cache.backends.base import BaseCache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    from tournament.demo import synthetic_tournament
    from tournament.public import cache as public_cache
    from tournament.tournament_file import loading

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    data = synthetic_tournament(
        name="Hit Open",
        slug=SLUG,
        players=[(f"Player {i:04d}", f"Club {i % 20}") for i in range(200)],
        rounds=8,
        rotations=2,
        seed=5,
    )
    tournament = loading.import_tournament(data, replace=True).tournament
    tournament.published = True
    tournament.save()
    print(f"Database: {connection.vendor}; process CPU per request, median of {args.repeat}")

    client = Client()
    page = f"/t/{SLUG}/"
    first = client.get(page, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200
    assert first["Content-Encoding"] == "gzip"
    etag = first["ETag"]

    def checked(status: int, **headers: str) -> Callable[[], object]:
        def request() -> object:
            response = client.get(page, **headers)
            assert response.status_code == status, response.status_code
            return response

        return request

    def healthz() -> object:
        return client.get("/healthz")

    rows = [
        ("health check (/healthz)", per_call_us(healthz, args.batch, args.repeat)),
        ("standings, cache hit", per_call_us(checked(200), args.batch, args.repeat)),
        (
            "standings, cache hit, gzip",
            per_call_us(checked(200, HTTP_ACCEPT_ENCODING="gzip"), args.batch, args.repeat),
        ),
        (
            "standings, 304",
            per_call_us(checked(304, HTTP_IF_NONE_MATCH=etag), args.batch, args.repeat),
        ),
    ]
    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    ):
        rendered = per_call_us(checked(200), 1, max(3, args.repeat // 2))
    rows.append(("standings rendered, page cache off", rendered))
    trivial = rows[0][1]
    print(f"{'request':<40} {'µs CPU':>9} {'× health':>9}")
    for label, value in rows:
        print(f"{label:<40} {value:9.0f} {value / trivial:9.2f}")
    print(f"bytes: {len(first.content)} gzipped, {len(client.get(page).content)} plain")

    print(f"\n{'generation lookup, per hit':<40} {'µs CPU':>9} {'µs wall':>9}")

    def timed(label: str, function: Callable[[], object]) -> None:
        cpu = per_call_us(function, args.batch * 10, args.repeat)
        start = time.perf_counter()
        for _ in range(args.batch * 10):
            function()
        wall = (time.perf_counter() - start) / (args.batch * 10) * 1e6
        print(f"{label:<40} {cpu:9.1f} {wall:9.1f}")

    timed("worker's own copy (shipped)", lambda: public_cache._generation(SLUG))
    local: BaseCache = caches.create_connection("default")
    local.set("lld:generation:1", "1700000000.0")
    timed("in-process cache read", lambda: local.get("lld:generation:1"))
    if args.redis:
        from django.core.cache.backends.redis import RedisCache

        shared = RedisCache(args.redis, {})
        shared.set("lld:bench:generation:1", "1700000000.0", 60)
        timed("Redis read (exact across servers)", lambda: shared.get("lld:bench:generation:1"))
        shared.delete("lld:bench:generation:1")
    temp.cleanup()


if __name__ == "__main__":
    main()
