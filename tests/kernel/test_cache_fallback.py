"""The cache is an accelerator, not a dependency (``tournament.kernel.cache``): with Redis
stopped, or full under ``maxmemory-policy noeviction``, every page renders from the
database, the wrong-code limit still counts (in each process), and ``/healthz`` says the
cache is degraded.

"Stopped" is a port nobody listens on. "Full" is a redis-server of the module's own,
started once, emptied and filled by each test until it refuses writes; those tests are
skipped when redis-server is not installed, and fail for it on CI.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from tests.factories import a_deal
from tournament.kernel import cache as fallback
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import Person, Series, SeriesTournament, Table
from tournament.series import services as series
from tournament.sheets.reading import peek_sheet

WRONG_CODES = 20  # sheets.at_table.WRONG_CODES_RATE


def use_redis(settings, port: int) -> None:
    """The site's cache is the Redis at ``port``, as CACHE_URL=redis://… makes it; this
    process's stand-in memory and its knowledge of that Redis start empty."""
    location = f"redis://127.0.0.1:{port}/0"
    settings.CACHES = {
        "default": {"BACKEND": "tournament.kernel.cache.FallbackRedisCache", "LOCATION": location}
    }
    fallback._HEALTH.pop(location, None)
    caches["default"]._memory.clear()
    series.forget()


@pytest.fixture
def redis_stopped(settings) -> Iterator[int]:
    # Bound but not listening: refused at once, and no other process can take the port.
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        use_redis(settings, port)
        yield port
        caches["default"]._memory.clear()


@pytest.fixture
def tournament(make_played, organiser):
    return make_played(players=8, rounds=2, slug="cache-open", owner=organiser)


def public_addresses(tournament) -> list[str]:
    slug = tournament.slug
    player = tournament.players.order_by("pk").first()
    return [
        reverse("standings", args=[slug]),
        reverse("standings", args=[slug]) + "?q=Player",
        reverse("projector", args=[slug]),
        reverse("public_round", args=[slug, 1]),
        reverse("public_round", args=[slug, 2]),
        reverse("player", args=[slug, player.pk]),
        reverse("find_seat", args=[slug]),
        reverse("standings_csv", args=[slug]),
        reverse("tournament_json", args=[slug]),
    ]


@pytest.fixture
def league(tournament, organiser):
    person = Person.objects.create(name="Polly Person", club="Red Lion", member="M0001")
    player = tournament.players.order_by("pk").first()
    player.person = person
    player.save(update_fields=["person"])
    league = Series.objects.create(name="Cache league", slug="cache-league", owner=organiser)
    SeriesTournament.objects.create(series=league, tournament=tournament, accepted=True)
    return league, person


def series_addresses(league, person) -> list[str]:
    return [
        reverse("series", args=[league.slug]),
        reverse("series_ratings", args=[league.slug]),
        reverse("series_standings_csv", args=[league.slug]),
        reverse("series_ratings_csv", args=[league.slug]),
        reverse("career", args=[person.identifier]),
        reverse("club", args=["red-lion"]),
        reverse("home"),
    ]


def all_answer(client, addresses: list[str]) -> None:
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200, address


# Redis stopped --------------------------------------------------------------------------


@pytest.mark.usefixtures("redis_stopped")
def test_public_pages_render_from_the_database_with_redis_stopped(
    client, organiser_client, tournament
):
    addresses = public_addresses(tournament)
    all_answer(client, addresses)
    # Again: this time from this process's own memory.
    all_answer(client, addresses)
    standings = client.get(addresses[0]).content.decode()
    assert "Player" in standings
    # The organiser's view of a public page reads the public results from the cache too.
    all_answer(organiser_client, addresses)


@pytest.mark.usefixtures("redis_stopped")
def test_series_career_club_and_home_pages_render_with_redis_stopped(client, league):
    all_answer(client, series_addresses(*league))
    all_answer(client, series_addresses(*league))


@pytest.mark.usefixtures("redis_stopped", "_backs_up")
def test_a_phone_enters_its_sheet_with_redis_stopped(client, seated_round):
    table = Table.objects.get(round=seated_round, number=1)
    assert client.get(reverse("table:entry", args=[table.code])).status_code == 200
    deal = a_deal(table.size)
    typed = {cell_name(1, WON, seat): str(won) for seat, won in enumerate(deal["won"], 1)}
    typed |= {cell_name(1, LAST_IN): str(deal["last_in"])}
    typed |= {cell_name(1, LEFT_OVER): str(deal["left_over"])}
    response = client.post(
        reverse("table:deal", args=[table.code, 1]), {**typed, "expected_version": 0}
    )
    assert response.status_code == 302
    assert peek_sheet(table).pending == [deal]


@pytest.mark.usefixtures("redis_stopped", "_backs_up", "one_window")
def test_the_wrong_code_limit_counts_in_the_process_with_redis_stopped(client, seated_round):
    for attempt in range(WRONG_CODES):
        assert client.get(f"/e/ZZZZZZ{attempt:02d}/").status_code == 404
    assert client.get("/e/ZZZZZZ99/").status_code == 429


@pytest.mark.usefixtures("redis_stopped")
def test_healthz_says_the_cache_is_degraded_with_redis_stopped(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("database: ok\ncache: degraded (unreachable since ")
    # /healthz is public: it names no host or port.
    assert "127.0.0.1" not in body


@pytest.mark.usefixtures("redis_stopped")
def test_a_stopped_redis_is_logged_once_not_at_every_request(client, tournament, caplog):
    caplog.set_level(logging.WARNING, logger="tournament.kernel.cache")
    all_answer(client, public_addresses(tournament))
    client.get("/healthz")
    logged = caplog.get_records("setup") + caplog.get_records("call")
    (warning,) = [record for record in logged if record.name == "tournament.kernel.cache"]
    assert "is unreachable (ConnectionError" in warning.getMessage()


def test_a_redis_password_is_not_logged():
    assert fallback._shown("redis://:s3cret@cache.internal:6380/1") == (
        "redis://cache.internal:6380/1"
    )


def test_the_cache_of_development_is_always_ok(client):
    assert client.get("/healthz").content.decode() == "database: ok\ncache: ok\n"


# Redis full -----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_redis(server: str) -> tuple[subprocess.Popen[str], int]:
    """A redis-server on a free port, ready. The port is free when chosen, but another
    process (a test running beside this one: a live server, a database connection) may
    take it before Redis binds it: Redis then stops, and another port is chosen."""
    taken: list[int] = []
    while len(taken) < 5:
        port = _free_port()
        process = subprocess.Popen(
            [
                *(server, "--port", str(port), "--bind", "127.0.0.1", "--daemonize", "no"),
                *("--save", "", "--appendonly", "no", "--maxmemory-policy", "noeviction"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        said = []
        for line in process.stdout:  # type: ignore[union-attr]
            if "Ready to accept connections" in line:
                return process, port
            said.append(line)
        process.communicate()
        if not any("Address already in use" in line for line in said):
            pytest.fail(f"redis-server did not start on port {port}:\n{''.join(said)}")
        taken.append(port)
    pytest.fail(f"redis-server found every port it was given taken: {taken}")


def _stored(raw: redis.Redis, key: str, value: bytes) -> bool:
    try:
        raw.set(key, value)
    except redis.exceptions.OutOfMemoryError:
        return False
    return True


@pytest.fixture(scope="module")
def redis_server() -> Iterator[redis.Redis]:
    """A redis-server of this module's own (on each worker that runs its tests), started
    once: each test empties it and fills it afresh (``full_redis``)."""
    server = shutil.which("redis-server")
    if server is None:
        reason = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: CI runs the tests of a full Redis")
        pytest.skip(f"{reason}: the tests of a full Redis need one")
    process, port = _start_redis(server)
    try:
        raw = redis.Redis(port=port)
        assert raw.ping()
        yield raw
    finally:
        process.terminate()
        process.communicate()


@pytest.fixture
def full_redis(settings, redis_server) -> Iterator[redis.Redis]:
    """The module's redis-server, emptied and then full: ``noeviction`` with a limit of
    half a megabyte more than it needs empty, filled until it refused a page's worth.
    Smaller writes may still fit now and then, as in a Redis that the pages filled."""
    raw = redis_server
    raw.config_set("maxmemory", 0)
    raw.flushall()
    used = raw.info("memory")["used_memory"]
    raw.config_set("maxmemory", used + 512 * 1024)
    filled = 0
    while _stored(raw, f"filler:{filled}", b"x" * 64 * 1024):
        filled += 1
    assert filled < 100
    use_redis(settings, port=raw.connection_pool.connection_kwargs["port"])
    yield raw
    caches["default"]._memory.clear()


def refuse_every_write(raw: redis.Redis) -> None:
    """Below what the Redis holds already: not even a small write fits any more."""
    raw.config_set("maxmemory", raw.info("memory")["used_memory"] - 256 * 1024)


@pytest.mark.usefixtures("full_redis")
def test_first_views_of_new_public_pages_render_with_redis_full(client, make_played, caplog):
    for seed in range(3):
        tournament = make_played(players=8, rounds=2, seed=seed, slug=f"new-{seed}")
        all_answer(client, public_addresses(tournament))
        all_answer(client, public_addresses(tournament))
    assert "is full (OutOfMemoryError" in caplog.text
    # Redis's refusal quotes the command, the pickled page with it: the log keeps a
    # short, printable start of it.
    warnings = [r.getMessage() for r in caplog.records if r.name == "tournament.kernel.cache"]
    assert warnings
    assert all(line.isascii() and line.isprintable() for line in warnings), warnings
    assert all(len(line) < 600 for line in warnings)


@pytest.mark.usefixtures("_backs_up", "one_window")
def test_the_wrong_code_limit_counts_with_redis_full(client, full_redis, seated_round):
    refuse_every_write(full_redis)
    table = Table.objects.get(round=seated_round, number=1)
    phone = Client()
    assert phone.get(reverse("table:entry", args=[table.code])).status_code == 200
    for attempt in range(WRONG_CODES):
        assert client.get(f"/e/ZZZZZZ{attempt:02d}/").status_code == 404
    assert client.get("/e/ZZZZZZ99/").status_code == 429
    # Past the limit, a code is not even looked up for that address...
    assert client.get(reverse("table:entry", args=[table.code])).status_code == 429
    # ...except from a phone that opened its table before.
    assert phone.get(reverse("table:entry", args=[table.code])).status_code == 200


def test_healthz_says_full_then_ok_once_redis_has_room_again(client, full_redis, tournament):
    refuse_every_write(full_redis)
    body = client.get("/healthz").content.decode()
    assert body.startswith("database: ok\ncache: degraded (full since ")
    all_answer(client, public_addresses(tournament))
    assert not full_redis.keys("*lld:*")

    full_redis.config_set("maxmemory", 0)  # room again: no limit
    assert client.get("/healthz").content.decode() == "database: ok\ncache: ok\n"
    all_answer(client, public_addresses(tournament))
    # Redis is used again: the pages are stored there, for every app server.
    assert full_redis.keys("*lld:public*")


def test_a_process_goes_back_to_redis_by_itself_once_it_has_room(
    client, full_redis, tournament, monkeypatch, caplog
):
    # Tried again at every operation rather than after ten seconds.
    monkeypatch.setattr(fallback, "RETRY_SECONDS", 0.0)
    refuse_every_write(full_redis)
    all_answer(client, public_addresses(tournament))
    assert not full_redis.keys("*lld:*")

    full_redis.config_set("maxmemory", 0)
    all_answer(client, public_addresses(tournament))
    assert full_redis.keys("*lld:public*")
    assert "answers again (degraded since " in caplog.text
