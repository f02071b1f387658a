"""What one answer of the read API costs the server, beside the public page it mirrors: a
cached API hit against a cached page hit (bench/cache_hit.py), a 304 of each, and the API
answer made afresh with the cache off.

Builds a published 200-player, 8-round tournament (as bench/cache_hit.py does), then times,
through Django's whole request handler (every middleware, no network), the median of
``--repeat`` batches of ``--batch`` requests each:

- the health check (``/healthz``: one bare query), the yardstick of bench/load.py;
- the standings page from the page cache (a hit: no query), and its 304;
- the API's standings from its cache (a hit: no query), plain and gzipped, and its 304;
- the API's list of tournaments from its cache (keyed by the installation generation);
- the API's standings made afresh, with the cache off (the view, the serializer).

Run from the repository root::

    .venv/bin/python bench/api_hit.py
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cache_hit import per_call_us  # noqa: E402

SLUG = "hit-open"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    temp = tempfile.TemporaryDirectory()
    os.environ["DJANGO_PLAIN_HTTP"] = "1"
    from bench.standings import setup_django

    setup_django(temp.name)
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    from tournament.demo import synthetic_tournament
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
    api = f"/api/v1/tournaments/{SLUG}/standings"
    listed = "/api/v1/tournaments"
    # The rate per address is the API's own business: not what is timed here.
    with override_settings(API_RATE="100000000/m"):
        page_etag = client.get(page)["ETag"]
        first = client.get(api, HTTP_ACCEPT_ENCODING="gzip")
        assert first.status_code == 200
        assert first["Content-Encoding"] == "gzip"
        api_etag = first["ETag"]
        assert client.get(listed).status_code == 200

        def checked(url: str, status: int, **headers: str) -> Callable[[], object]:
            def request() -> object:
                response = client.get(url, **headers)
                assert response.status_code == status, (url, response.status_code)
                return response

            return request

        def timed(request: Callable[[], object]) -> float:
            return per_call_us(request, args.batch, args.repeat)

        rows = [
            ("health check (/healthz)", timed(lambda: client.get("/healthz"))),
            ("standings page, cache hit", timed(checked(page, 200))),
            ("standings page, 304", timed(checked(page, 304, HTTP_IF_NONE_MATCH=page_etag))),
            ("API standings, cache hit", timed(checked(api, 200))),
            (
                "API standings, cache hit, gzip",
                timed(checked(api, 200, HTTP_ACCEPT_ENCODING="gzip")),
            ),
            ("API standings, 304", timed(checked(api, 304, HTTP_IF_NONE_MATCH=api_etag))),
            ("API tournaments list, cache hit", timed(checked(listed, 200))),
        ]
        with override_settings(
            CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
        ):
            made = per_call_us(checked(api, 200), 1, max(3, args.repeat // 2))
        rows.append(("API standings made, cache off", made))
    trivial = rows[0][1]
    hit = rows[1][1]
    print(f"{'request':<40} {'µs CPU':>9} {'× health':>9} {'× page hit':>11}")
    for label, value in rows:
        print(f"{label:<40} {value:9.0f} {value / trivial:9.2f} {value / hit:11.2f}")
    print(
        f"bytes: API standings {len(first.content)} gzipped, {len(client.get(api).content)} plain"
    )
    temp.cleanup()


if __name__ == "__main__":
    main()
