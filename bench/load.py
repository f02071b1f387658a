"""Load benchmark: the public standings page under many concurrent clients.

Builds a published 200-player, 8-round tournament (2 rotations), starts gunicorn with
several workers on 127.0.0.1, and sends requests from concurrent client threads for a
fixed time to (1) the public standings page and (2) a trivial page served by the same
server (the health check), reporting requests per second and latency percentiles for
each. The ratio of the two is the figure to quote: the trivial page measures the server,
the client and the machine, the standings page what the app adds.

With ``--scorers N``, N more clients keep saving score sheets (draft saves of a table's
sheet through the sheet entry page) while the public page is hammered, and their
latencies are reported too. With ``--staff-workers N`` the scorers are served by a
gunicorn pool of N workers of their own, as docs/deploy.md sets up production (nginx
sends organisers' and scorers' pages to a staff pool); without it, by the public pool.

The public clients are threads spread over ``--client-processes`` processes and the
scorers are threads of a process of their own, so a scorer's measured time is the
server's answer, not a wait for a busy client process's interpreter lock. The servers
keep their database connections (``DATABASE_CONN_MAX_AGE=60``), as in production.

Run from the repository root::

    .venv/bin/python bench/load.py                       # SQLite file in a temp folder
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/lld_bench .venv/bin/python bench/load.py
    .venv/bin/python bench/load.py --clients 50 --seconds 15 --workers 4 --scorers 4 \
        --staff-workers 2

The server runs with the production settings (``DJANGO_DEBUG=0``): static files are
collected into a temp folder first, and every request carries ``X-Forwarded-Proto: https``
as the TLS-terminating proxy would, so nothing is redirected to HTTPS. The bench exits
with status 1 when any request failed or a page was never served.

Every request loop is bounded in count and time and only talks to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SLUG = "load-open"
MAX_REQUESTS_PER_CLIENT = 100_000
STARTUP_SECONDS = 2.0
# What the reverse proxy in front of gunicorn tells Django (SECURE_PROXY_SSL_HEADER).
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}


@dataclass
class Sample:
    latencies: list[float] = field(default_factory=list)
    # What the failed requests got: an HTTP status, or the name of the exception.
    failed: Counter[str] = field(default_factory=Counter)

    @property
    def errors(self) -> int:
        return self.failed.total()

    def fail(self, what: object) -> None:
        self.failed[str(what)] += 1


def build(env: dict[str, str]) -> None:
    """Create the database and the tournament (in a child process with the bench's env)."""
    code = f"""
import django, os
django.setup()
from django.core.management import call_command
from django.contrib.auth import get_user_model
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
from tournament.demo import synthetic_tournament
from tournament.models import Tournament, Round
from tournament.services import rounds, seating, tournament_file
data = synthetic_tournament(name="Load Open", slug="{SLUG}",
    players=[(f"Player {{i:04d}}", f"Club {{i % 20}}") for i in range(200)],
    rounds=8, rotations=2, seed=5)
t = tournament_file.import_tournament(data, replace=True).tournament
t.published = True
t.planned_rounds = 9
User = get_user_model()
user = User.objects.filter(username="bench-scorer").first()
if user is None:
    user = User.objects.create_user("bench-scorer", password="bench-pass")
t.owner = user
t.save()
if not Round.objects.filter(tournament=t, number=9).exists():
    r = seating.seat_next_round(t)
    rounds.start_round(r)
"""
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)


def wait_for(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz", headers=PROXY_HEADERS)
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer on /healthz")


def hammer(port: int, path: str, until: float, sample: Sample) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(MAX_REQUESTS_PER_CLIENT):
        if time.monotonic() >= until:
            break
        start = time.perf_counter()
        try:
            connection.request("GET", path, headers=PROXY_HEADERS)
            response = connection.getresponse()
            response.read()
            status: object = response.status
        except OSError as error:
            status = type(error).__name__
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        elapsed = time.perf_counter() - start
        if status == 200:
            sample.latencies.append(elapsed)
        else:
            sample.fail(status)
    connection.close()


class Scorer:
    """A logged-in scorer who keeps saving one table's sheet as a draft. A save counts as
    served when it redirects back to the sheet, as a saved draft does."""

    def __init__(self, port: int, table: int) -> None:
        self.port = port
        self.path = f"/score/{SLUG}/r9/t{table}/"
        self.cookies: dict[str, str] = {}

    def _request(
        self, connection: http.client.HTTPConnection, method: str, path: str, body: str = ""
    ) -> tuple[int, str]:
        headers = {
            **PROXY_HEADERS,
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            # Django's CSRF check on HTTPS wants a Referer of the same (https) origin.
            headers["Referer"] = f"https://127.0.0.1:{self.port}{path}"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, response.getheader("Location") or "", text

    def _saved(self, status: int, location: str) -> bool:
        return status == 302 and urllib.parse.urlsplit(location).path == self.path

    def _csrf(self, html: str) -> str:
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        return match.group(1) if match else self.cookies.get("csrftoken", "")

    def run(self, until: float, sample: Sample) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        _, _, html = self._request(connection, "GET", "/accounts/login/")
        form = {
            "username": "bench-scorer",
            "password": "bench-pass",
            "csrfmiddlewaretoken": self._csrf(html),
            "next": self.path,
        }
        status, location, _ = self._request(
            connection, "POST", "/accounts/login/", urllib.parse.urlencode(form)
        )
        if not self._saved(status, location):
            # Not logged in: every save would fail, so count one error and stop.
            print(f"scorer login failed: {status} {location}", file=sys.stderr)
            sample.fail(f"login {status}")
            connection.close()
            return
        for _ in range(MAX_REQUESTS_PER_CLIENT):
            if time.monotonic() >= until:
                break
            status, _, html = self._request(connection, "GET", self.path)
            if status != 200:
                sample.fail(f"GET {status}")
                continue
            version = re.search(r'name="expected_version" value="(\d+)"', html)
            fields = {
                "csrfmiddlewaretoken": self._csrf(html),
                "expected_version": version.group(1) if version else "0",
                "action": "draft",
                "d1_s1": "10",
                "d1_s2": "10",
                "d1_s3": "10",
                "d1_s4": "10",
                "d1_left_over": "12",
                "d1_last_in": "1",
            }
            start = time.perf_counter()
            status, location, _ = self._request(
                connection, "POST", self.path, urllib.parse.urlencode(fields)
            )
            elapsed = time.perf_counter() - start
            if self._saved(status, location):
                sample.latencies.append(elapsed)
            else:
                sample.fail(f"POST {status}")
        connection.close()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(label: str, sample: Sample, seconds: float) -> tuple[float, float]:
    """Print one line of figures; ``seconds`` is the phase's measured duration."""
    values = sample.latencies
    rps = len(values) / seconds
    p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.50, 0.95, 0.99))
    mean = statistics.fmean(values) * 1000 if values else float("nan")
    print(
        f"{label:<28} {rps:9.1f} {len(values):9d} {sample.errors:7d} "
        f"{mean:9.1f} {p50:9.1f} {p95:9.1f} {p99:9.1f}"
    )
    return rps, p95


def _public_clients(
    port: int, path: str, clients: int, begin: float, until: float, out: Queue
) -> None:
    sample = Sample()
    time.sleep(max(0.0, begin - time.monotonic()))
    threads = [
        threading.Thread(target=hammer, args=(port, path, until, sample)) for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(("public", sample))


def _scorers(port: int, scorers: int, begin: float, until: float, out: Queue) -> None:
    sample = Sample()
    time.sleep(max(0.0, begin - time.monotonic()))
    threads = [
        threading.Thread(target=Scorer(port, 1 + i % 40).run, args=(until, sample))
        for i in range(scorers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(("scoring", sample))


def run_phase(
    port: int,
    path: str,
    clients: int,
    seconds: float,
    scorers: int,
    staff_port: int = 0,
    processes: int = 2,
) -> tuple[Sample, Sample, float]:
    """Run the clients (and scorers) for ``seconds``; also return the measured duration,
    which includes the requests still under way at the deadline.

    The public clients are threads spread over ``processes`` processes and the scorers
    are threads of a process of their own, so that a scorer's measured time is not spent
    waiting for a busy client process's interpreter lock."""
    context = multiprocessing.get_context("spawn")
    out: Queue = context.Queue()
    # Every child starts its clients at the same moment, once all have started up.
    started = time.monotonic() + STARTUP_SECONDS
    until = started + seconds
    shares = [clients // processes + (i < clients % processes) for i in range(processes)]
    children = [
        context.Process(target=_public_clients, args=(port, path, share, started, until, out))
        for share in shares
        if share
    ]
    if scorers:
        children.append(
            context.Process(
                target=_scorers, args=(staff_port or port, scorers, started, until, out)
            )
        )
    for child in children:
        child.start()
    public, scoring = Sample(), Sample()
    for _ in children:
        kind, sample = out.get(timeout=seconds + 120)
        total = public if kind == "public" else scoring
        total.latencies += sample.latencies
        total.failed += sample.failed
    for child in children:
        child.join()
    return public, scoring, time.monotonic() - started


def failures(samples: dict[str, Sample]) -> list[str]:
    return [
        f"{label}: {len(sample.latencies)} served, failed {dict(sample.failed) or 'none'}"
        for label, sample in samples.items()
        if sample.errors or not sample.latencies
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--scorers", type=int, default=0)
    parser.add_argument("--port", type=int, default=8391)
    parser.add_argument(
        "--staff-workers",
        type=int,
        default=0,
        help="serve the scorers from a pool of this many workers of their own (as the "
        "reverse proxy in docs/deploy.md sends /score/, /manage/ and the other staff pages "
        "to a staff pool), not from the public one",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=2,
        help="spread the public clients over this many processes (the scorers always have "
        "a process of their own)",
    )
    args = parser.parse_args()

    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
    )
    env.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-not-for-production-0123456789")
    # As docs/deploy.md's production environment: a worker keeps its database connection.
    env.setdefault("DATABASE_CONN_MAX_AGE", "60")
    temp = tempfile.TemporaryDirectory()
    # Scorers write at once: SQLite's default (deferred) transactions fail such a save at
    # once with "database is locked" when it upgrades its read lock; immediate ones wait.
    env.setdefault(
        "DATABASE_URL", f"sqlite:///{temp.name}/bench.sqlite3?transaction_mode=IMMEDIATE"
    )
    # Production serves hashed static files, so pages need a collectstatic first.
    env["DJANGO_STATIC_ROOT"] = f"{temp.name}/static"
    print(f"Database: {env['DATABASE_URL'].split('@')[-1]}; building 200 players x 8 rounds ...")
    build(env)

    def gunicorn(workers: int, port: int) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "config.wsgi",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )

    staff_port = args.port + 1 if args.staff_workers else 0
    servers = [gunicorn(args.workers, args.port)]
    if staff_port:
        servers.append(gunicorn(args.staff_workers, staff_port))
    try:
        wait_for(args.port, time.monotonic() + 30)
        if staff_port:
            wait_for(staff_port, time.monotonic() + 30)
            print(f"scorers served by a pool of {args.staff_workers} workers of their own")
        print(
            f"gunicorn, {args.workers} workers; {args.clients} concurrent clients for "
            f"{args.seconds:.0f} s each"
            + (f", with {args.scorers} scorers saving sheets" if args.scorers else "")
        )
        print(
            f"{'page':<28} {'req/s':>9} {'requests':>9} {'errors':>7} "
            f"{'mean ms':>9} {'p50 ms':>9} {'p95 ms':>9} {'p99 ms':>9}"
        )
        trivial, _, elapsed = run_phase(
            args.port, "/healthz", args.clients, args.seconds, 0, 0, args.client_processes
        )
        trivial_rps, _ = report("trivial page (/healthz)", trivial, elapsed)
        public, scoring, elapsed = run_phase(
            args.port,
            f"/t/{SLUG}/",
            args.clients,
            args.seconds,
            args.scorers,
            staff_port,
            args.client_processes,
        )
        public_rps, _ = report("public standings", public, elapsed)
        samples = {"trivial page": trivial, "public standings": public}
        if args.scorers:
            report("score entry (sheet save)", scoring, elapsed)
            samples["score entry"] = scoring
        if trivial_rps:
            print(f"standings / trivial throughput: {public_rps / trivial_rps:.2f}")
        failed = failures(samples)
        if failed:
            raise SystemExit("Failed requests: " + "; ".join(failed))
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
        for server in servers:
            server.wait(timeout=30)
        temp.cleanup()


if __name__ == "__main__":
    main()
