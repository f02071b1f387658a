"""Live updates benchmark: a room of phones watching the standings, by conditional polling
(what the app ships, static/js/live.js) against server-sent events (a scratch view,
bench/sse_urls.py).

Builds a published 60-player tournament with three rounds released and the fourth being
played, starts gunicorn with the production settings (as bench/load.py does), and runs
three phases of ``--seconds`` each with ``--watchers`` simulated phones:

1. *poll*: every phone loads the standings once, then asks again every ``--interval``
   seconds with ``If-None-Match``; gunicorn's sync workers (``--workers``), as deployed;
2. *SSE, sync workers*: every phone opens ``/t/SLUG/events/`` and waits for an event,
   then fetches the page; the same sync workers, each holding one connection;
3. *SSE, threads*: the same, served by ``--workers`` processes of ``--threads`` threads
   (gunicorn's gthread workers), so that every phone can hold a connection.

Half-way through each phase round 4 is released (``rounds.services.release_round``, in
a process of its own, as the organiser's click would). For each phase it prints the
server's CPU time (master and workers, from /proc), requests per second, bytes sent to
the phones, and how long after the release the phones saw it (a phone that never saw it
in the phase counts as "missed"), then the ratios of the figures. Linux only (/proc).

Run from the repository root::

    .venv/bin/python bench/live_updates.py
    .venv/bin/python bench/live_updates.py --watchers 200 --seconds 20 --workers 4 --threads 60

Every loop is bounded in time and only talks to 127.0.0.1; every SSE stream ends after
the phase (``BENCH_SSE_SECONDS``).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from load import PROXY_HEADERS, cpu_seconds, percentile, wait_for  # noqa: E402

SLUG = "live-open"


@dataclass
class Watch:
    """What the phones of one phase did and saw."""

    requests: int = 0
    not_modified: int = 0
    bytes: int = 0
    # Sent to keep watching (304 answers, the event stream), not pages.
    watch_bytes: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)  # per request, seconds
    seen_at: list[float] = field(default_factory=list)  # when each phone saw a change
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, size: int, latency: float, status: int | str) -> None:
        with self.lock:
            self.requests += 1
            self.bytes += size
            self.latencies.append(latency)
            if status == 304:
                self.not_modified += 1
                self.watch_bytes += size
            elif status != 200:
                self.errors += 1


def django_child(env: dict[str, str], code: str) -> None:
    prelude = "import django\ndjango.setup()\n"
    subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, env=env, check=True)


def build(env: dict[str, str]) -> None:
    django_child(
        env,
        f"""
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
from tournament.demo import synthetic_tournament
from tournament.rounds import clock, seating
from tournament.rounds import services as rounds
from tournament.tournament_file import loading as tournament_file
data = synthetic_tournament(name="Live Open", slug="{SLUG}",
    players=[(f"Player {{i:04d}}", f"Club {{i % 12}}") for i in range(60)],
    rounds=4, rotations=1, seed=3)
t = tournament_file.import_tournament(data, replace=True).tournament
t.published = True
t.planned_rounds = 5
t.save()
r = t.rounds.get(number=4)
rounds.withhold_round(r)
clock.start_clock(r)
""",
    )


def set_round_four(env: dict[str, str], released: bool) -> float:
    """Release or withhold round 4; the time (``time.time()``) its change committed."""
    change = "release_round" if released else "withhold_round"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"""
import django, time
django.setup()
from tournament.models import Round
from tournament.rounds import services as rounds
rounds.{change}(Round.objects.get(tournament__slug="{SLUG}", number=4))
print(time.time())
""",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout.split()[-1])


def response_size(response: http.client.HTTPResponse, body: bytes) -> int:
    header = sum(len(k) + len(v) + 4 for k, v in response.getheaders())
    return len(body) + header + len("HTTP/1.1 200 OK\r\n\r\n")


def get(
    connection: http.client.HTTPConnection, path: str, watch: Watch, etag: str = ""
) -> tuple[int | str, str]:
    headers = dict(PROXY_HEADERS)
    if etag:
        headers["If-None-Match"] = etag
    start = time.perf_counter()
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
    except OSError as error:
        connection.close()
        watch.add(0, time.perf_counter() - start, type(error).__name__)
        return type(error).__name__, etag
    watch.add(response_size(response, body), time.perf_counter() - start, response.status)
    return response.status, response.getheader("ETag") or etag


def poller(port: int, interval: float, until: float, watch: Watch) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    time.sleep(random.uniform(0, interval))  # phones arrive through the first interval
    path = f"/t/{SLUG}/"
    _, etag = get(connection, path, watch)
    seen = False
    while time.monotonic() < until:
        time.sleep(interval)
        status, new = get(connection, path, watch, etag)
        if status == 200 and new != etag and not seen:
            watch.seen_at.append(time.time())
            seen = True  # and it goes on watching
        etag = new
    connection.close()


def load_page(port: int, watch: Watch) -> None:
    # A connection of its own: the stream's worker may have closed an idle keep-alive one.
    page = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    get(page, f"/t/{SLUG}/", watch)
    page.close()


def sse_watcher(port: int, until: float, watch: Watch) -> None:
    time.sleep(random.uniform(0, 1.0))
    load_page(port, watch)  # the phone loads the page, then listens
    try:
        stream = socket.create_connection(("127.0.0.1", port), timeout=1.0)
    except OSError:
        watch.add(0, 0.0, "connect")
        return
    request = (
        f"GET /t/{SLUG}/events/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n\r\n"
    )
    stream.sendall(request.encode())
    received = b""
    events = 0
    with watch.lock:
        watch.requests += 1
    while time.monotonic() < until:
        try:
            chunk = stream.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            break
        if not chunk:
            break
        received += chunk
        with watch.lock:
            watch.bytes += len(chunk)
            watch.watch_bytes += len(chunk)
        count = received.count(b"event: changed")
        if count > events:
            events = count
            if events == 2:  # the first event is the state on connecting
                watch.seen_at.append(time.time())
                load_page(port, watch)
    stream.close()


def run_phase(
    label: str,
    master: int,
    port: int,
    watchers: int,
    seconds: float,
    env: dict[str, str],
    target: object,
    extra: tuple[object, ...],
) -> dict[str, float]:
    watch = Watch()
    start = time.monotonic()
    until = start + seconds
    cpu_before = cpu_seconds(master)
    threads = [
        threading.Thread(target=target, args=(port, *extra, until, watch), daemon=True)
        for _ in range(watchers)
    ]
    for thread in threads:
        thread.start()
    time.sleep(seconds / 2)
    released = set_round_four(env, released=True)
    for thread in threads:
        thread.join(timeout=max(0.0, until - time.monotonic()) + 10)
    elapsed = time.monotonic() - start
    cpu = cpu_seconds(master) - cpu_before
    seen = [moment - released for moment in watch.seen_at]
    missed = watchers - len(seen)
    figures = {
        "cpu": cpu,
        "rps": watch.requests / elapsed,
        "kb": watch.bytes / 1024,
        "watch_kb": watch.watch_bytes / 1024,
        "p50": percentile(seen, 0.5),
        "p95": percentile(seen, 0.95),
        "missed": missed,
    }
    p95_ms = percentile(watch.latencies, 0.95) * 1000
    print(
        f"{label:<22} {cpu:8.2f} {figures['rps']:8.1f} {watch.not_modified:8d} "
        f"{figures['kb']:9.0f} {figures['watch_kb']:9.1f} {p95_ms:9.1f} "
        f"{figures['p50']:8.2f} {figures['p95']:8.2f} {missed:7d} {watch.errors:7d}"
    )
    set_round_four(env, released=False)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--interval", type=float, default=4.0)
    parser.add_argument("--workers", type=int, default=4)
    # 200 phones on 4 processes: 50 streams each, and room for the pages they load.
    parser.add_argument("--threads", type=int, default=60)
    parser.add_argument("--port", type=int, default=8395)
    args = parser.parse_args()

    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        BENCH_SSE_SECONDS=str(args.seconds + 2),
    )
    env.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-not-for-production-0123456789")
    env.setdefault("DATABASE_CONN_MAX_AGE", "60")
    temp = tempfile.TemporaryDirectory()
    env.setdefault(
        "DATABASE_URL", f"sqlite:///{temp.name}/bench.sqlite3?transaction_mode=IMMEDIATE"
    )
    env["DJANGO_STATIC_ROOT"] = f"{temp.name}/static"
    print(f"Database: {env['DATABASE_URL'].split('@')[-1]}; building 60 players x 4 rounds ...")
    build(env)

    def gunicorn(*options: str) -> subprocess.Popen[bytes]:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{args.port}",
                "--log-level",
                "warning",
                "--timeout",
                "120",
                *options,
            ],
            cwd=ROOT,
            env=env | {"DJANGO_SETTINGS_MODULE": "bench.sse_settings"},
            start_new_session=True,
        )
        wait_for(args.port, time.monotonic() + 30)
        time.sleep(1.0)
        return server

    print(
        f"{args.watchers} phones for {args.seconds:.0f} s a phase; round 4 released half-way; "
        f"polls every {args.interval:g} s"
    )
    print(
        f"{'phase':<22} {'cpu s':>8} {'req/s':>8} {'304s':>8} {'KiB sent':>9} {'watching':>9} "
        f"{'p95 ms':>9} {'seen p50':>8} {'seen p95':>8} {'missed':>7} {'errors':>7}"
    )
    phases = [
        ("poll, sync workers", ("--workers", str(args.workers)), poller, (args.interval,)),
        ("SSE, sync workers", ("--workers", str(args.workers)), sse_watcher, ()),
        (
            f"SSE, {args.workers}x{args.threads} threads",
            (
                "--workers",
                str(args.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(args.threads),
            ),
            sse_watcher,
            (),
        ),
    ]
    results: dict[str, dict[str, float]] = {}
    try:
        for label, options, target, extra in phases:
            server = gunicorn(*options)
            try:
                results[label] = run_phase(
                    label, server.pid, args.port, args.watchers, args.seconds, env, target, extra
                )
            finally:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
    finally:
        temp.cleanup()
    poll = results[phases[0][0]]
    threaded = results[phases[2][0]]
    print(
        "ratios, SSE (threads) / poll: "
        f"CPU {threaded['cpu'] / max(poll['cpu'], 0.01):.2f}, "
        f"KiB sent {threaded['kb'] / max(poll['kb'], 0.01):.2f}, "
        f"KiB to keep watching {threaded['watch_kb'] / max(poll['watch_kb'], 0.01):.2f}, "
        f"release seen (p95) {threaded['p95'] / max(poll['p95'], 0.01):.2f}"
    )
    print(
        "SSE on sync workers: "
        f"{int(results[phases[1][0]]['missed'])} of {args.watchers} phones never saw the release"
    )


if __name__ == "__main__":
    main()
