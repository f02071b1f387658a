"""Load benchmark: the public pages under many concurrent clients, with scorers saving.

Builds a published 200-player, 8-round tournament (2 rotations; its standings page shows
100 rows, the first of two pages), starts gunicorn with several workers on 127.0.0.1, and
runs these phases one after the other, each for a fixed time:

1. ``trivial``: ``--clients`` clients hammer the health check (``/healthz``, one bare
   query), the measure of the server, the client and the machine;
2. ``standings``: the same clients hammer the public standings page;
3. ``player``: the same clients hammer the players' public pages, one player after
   another;
4. ``304``: the same clients revalidate the standings page with its ``ETag``
   (``If-None-Match``), as the screens that follow the evening poll;
5. ``phones``: ``--phones`` simulated phones (200 by default), each polling the projector
   or the standings every ``--poll-seconds`` (5) with the ``ETag`` it was last served, as
   static/js/live.js does.

Public clients send ``Accept-Encoding: gzip``, as every browser does. With ``--scorers N``,
N more clients keep saving score sheets (draft saves of a table's sheet through the sheet
entry page) in *every* phase, so that the phases' figures compare like with like; their
latencies are reported for each phase. With ``--staff-workers N`` the scorers are served
by a gunicorn pool of N workers of their own, as docs/deploy.md sets up production (nginx
sends organisers' and scorers' pages to a staff pool); without it, by the public pool.

For each phase it prints requests per second, latency percentiles, the bytes received,
and the server CPU time per request of each pool (user and system time of the gunicorn
master and its workers, read from /proc before and after the phase: Linux only), then
each phase's throughput as a ratio of the trivial page's, measured in the same run.

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
import random
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
TICKS = os.sysconf("SC_CLK_TCK")
MAX_REQUESTS_PER_CLIENT = 100_000
STARTUP_SECONDS = 2.0
# What the reverse proxy in front of gunicorn tells Django (SECURE_PROXY_SSL_HEADER).
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}


@dataclass
class Sample:
    latencies: list[float] = field(default_factory=list)
    # What the failed requests got: an HTTP status, or the name of the exception.
    failed: Counter[str] = field(default_factory=Counter)
    # The bytes of the bodies received, as sent (compressed when they were).
    received: int = 0
    # The answers served, by status (200, 304).
    statuses: Counter[int] = field(default_factory=Counter)

    @property
    def errors(self) -> int:
        return self.failed.total()

    def fail(self, what: object) -> None:
        self.failed[str(what)] += 1

    def add(self, other: Sample) -> None:
        self.latencies += other.latencies
        self.failed += other.failed
        self.received += other.received
        self.statuses += other.statuses


@dataclass(frozen=True)
class Job:
    """What the public clients of a phase do: hammer ``paths`` one after the other
    (``poll_seconds`` 0), or poll one of them each, as a phone does, every
    ``poll_seconds`` with the ETag it was last served."""

    paths: tuple[str, ...]
    headers: tuple[tuple[str, str], ...] = ()
    # The status a request is expected to get.
    expect: int = 200
    poll_seconds: float = 0.0


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
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.tournament_file import loading as tournament_file
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


# As every browser asks.
ACCEPT = {"Accept-Encoding": "gzip"}


def _get(
    connection: http.client.HTTPConnection, path: str, headers: dict[str, str]
) -> tuple[object, bytes, str]:
    connection.request("GET", path, headers={**PROXY_HEADERS, **ACCEPT, **headers})
    response = connection.getresponse()
    body = response.read()
    return response.status, body, response.getheader("ETag") or ""


def hammer(port: int, job: Job, offset: int, until: float, sample: Sample) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = dict(job.headers)
    for count in range(MAX_REQUESTS_PER_CLIENT):
        if time.monotonic() >= until:
            break
        path = job.paths[(offset + count) % len(job.paths)]
        start = time.perf_counter()
        status: object
        try:
            status, body, _ = _get(connection, path, headers)
        except OSError as error:
            status, body = type(error).__name__, b""
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        elapsed = time.perf_counter() - start
        if status == job.expect:
            sample.latencies.append(elapsed)
            sample.received += len(body)
            sample.statuses[job.expect] += 1
        else:
            sample.fail(status)
    connection.close()


def phone(port: int, job: Job, number: int, until: float, sample: Sample) -> None:
    """A phone following one page: a poll every ``job.poll_seconds``, the first ones
    spread over that time, each with the ETag it was last served."""
    path = job.paths[number % len(job.paths)]
    every = job.poll_seconds
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    etag = ""
    due = time.monotonic() + every * random.Random(number).random()
    for _ in range(MAX_REQUESTS_PER_CLIENT):
        time.sleep(max(0.0, due - time.monotonic()))
        if time.monotonic() >= until:
            break
        start = time.perf_counter()
        status: object
        try:
            status, body, served = _get(connection, path, {"If-None-Match": etag} if etag else {})
        except OSError as error:
            status, body, served = type(error).__name__, b"", ""
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        elapsed = time.perf_counter() - start
        if status == 200 or status == 304:
            sample.latencies.append(elapsed)
            sample.received += len(body)
            sample.statuses[int(str(status))] += 1
            etag = served or etag
        else:
            sample.fail(status)
        due += every
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


def cpu_seconds(master: int) -> float:
    """User and system time of a gunicorn master and its live workers, from /proc."""
    pids = [master]
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        pids += [int(pid) for pid in children]
    except OSError:
        pass
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


@dataclass
class Phase:
    label: str
    public: Sample
    scoring: Sample
    seconds: float
    # Server CPU seconds spent in the phase: the public pool, the staff pool.
    public_cpu: float
    staff_cpu: float

    @property
    def rps(self) -> float:
        return len(self.public.latencies) / self.seconds


HEADER = (
    f"{'phase':<34} {'req/s':>8} {'requests':>8} {'errors':>6} {'mean ms':>8} "
    f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'KiB':>8} {'CPU ms/req':>10}"
)


def report_line(label: str, sample: Sample, seconds: float, cpu: float, served: int) -> None:
    """One line of figures; ``seconds`` is the phase's measured duration, ``cpu`` the
    server CPU seconds of the pool that served the ``served`` requests."""
    values = sample.latencies
    rps = len(values) / seconds
    p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.50, 0.95, 0.99))
    mean = statistics.fmean(values) * 1000 if values else float("nan")
    per_request = cpu * 1000 / served if served else float("nan")
    print(
        f"{label:<34} {rps:8.1f} {len(values):8d} {sample.errors:6d} {mean:8.1f} "
        f"{p50:7.1f} {p95:7.1f} {p99:7.1f} {sample.received / 1024:8.0f} {per_request:10.2f}"
    )


def report(phase: Phase, staff: bool) -> None:
    served = len(phase.public.latencies)
    # Without a staff pool the scorers' requests share the public pool's CPU.
    scorer_requests = 2 * len(phase.scoring.latencies)  # a GET of the sheet, then its save
    if not staff:
        served += scorer_requests
    report_line(phase.label, phase.public, phase.seconds, phase.public_cpu, served)
    if phase.scoring.latencies or phase.scoring.errors:
        cpu = phase.staff_cpu if staff else float("nan")
        report_line(
            "  score entry (sheet save)", phase.scoring, phase.seconds, cpu, scorer_requests
        )


def _public_clients(
    port: int, job: Job, clients: int, first: int, begin: float, until: float, out: Queue
) -> None:
    sample = Sample()
    time.sleep(max(0.0, begin - time.monotonic()))
    target = phone if job.poll_seconds else hammer
    threads = [
        threading.Thread(target=target, args=(port, job, first + i, until, sample))
        for i in range(clients)
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
    label: str,
    job: Job,
    clients: int,
    seconds: float,
    scorers: int,
    servers: dict[str, tuple[int, int]],
    processes: int = 2,
) -> Phase:
    """Run the clients and the scorers for ``seconds``. The duration measured includes
    the requests still under way at the deadline.

    The public clients are threads spread over ``processes`` processes and the scorers
    are threads of a process of their own, so that a scorer's measured time is not spent
    waiting for a busy client process's interpreter lock. ``servers`` names each pool's
    port and gunicorn master pid ("public", and "staff" when the scorers have a pool of
    their own)."""
    port, public_master = servers["public"]
    staff_port, staff_master = servers.get("staff", servers["public"])
    context = multiprocessing.get_context("spawn")
    out: Queue = context.Queue()
    # Every child starts its clients at the same moment, once all have started up.
    started = time.monotonic() + STARTUP_SECONDS
    until = started + seconds
    shares = [clients // processes + (i < clients % processes) for i in range(processes)]
    firsts = [sum(shares[:i]) for i in range(processes)]
    children = [
        context.Process(target=_public_clients, args=(port, job, share, first, started, until, out))
        for share, first in zip(shares, firsts, strict=True)
        if share
    ]
    if scorers:
        children.append(
            context.Process(target=_scorers, args=(staff_port, scorers, started, until, out))
        )
    for child in children:
        child.start()
    time.sleep(max(0.0, started - time.monotonic()))
    cpu_before = cpu_seconds(public_master), cpu_seconds(staff_master)
    public, scoring = Sample(), Sample()
    for _ in children:
        kind, sample = out.get(timeout=seconds + 120)
        (public if kind == "public" else scoring).add(sample)
    cpu_after = cpu_seconds(public_master), cpu_seconds(staff_master)
    elapsed = time.monotonic() - started
    for child in children:
        child.join()
    return Phase(
        label,
        public,
        scoring,
        elapsed,
        cpu_after[0] - cpu_before[0],
        cpu_after[1] - cpu_before[1] if staff_master != public_master else 0.0,
    )


def failures(phases: list[Phase]) -> list[str]:
    found = []
    for phase in phases:
        for label, sample in ((phase.label, phase.public), ("score entry", phase.scoring)):
            if sample.errors or (label == phase.label and not sample.latencies):
                found.append(
                    f"{phase.label}, {label}: {len(sample.latencies)} served, "
                    f"failed {dict(sample.failed) or 'none'}"
                )
    return found


def player_paths(port: int) -> tuple[str, ...]:
    """The players' public pages, from the links of the standings' first page."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    status, body, _ = _get(connection, f"/t/{SLUG}/", {"Accept-Encoding": "identity"})
    connection.close()
    paths = sorted(set(re.findall(rf'href="(/t/{SLUG}/players/\d+/)"', body.decode())))
    if status != 200 or not paths:
        raise SystemExit(f"no player's page found on the standings page ({status})")
    return tuple(paths)


def page_etag(port: int, path: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    status, _, etag = _get(connection, path, {})
    connection.close()
    if status != 200 or not etag:
        raise SystemExit(f"{path} has no ETag ({status})")
    return etag


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--scorers", type=int, default=0)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--poll-seconds", type=float, default=5.0)
    parser.add_argument("--port", type=int, default=8391)
    parser.add_argument(
        "--phases",
        default="trivial,standings,player,304,phones",
        help="the phases to run, comma-separated (trivial always runs: the others' "
        "ratios are to it)",
    )
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
    wanted = {"trivial", *args.phases.split(",")}

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
    public_server = gunicorn(args.workers, args.port)
    started = [public_server]
    servers = {"public": (args.port, public_server.pid)}
    if staff_port:
        staff_server = gunicorn(args.staff_workers, staff_port)
        started.append(staff_server)
        servers["staff"] = (staff_port, staff_server.pid)
    try:
        wait_for(args.port, time.monotonic() + 30)
        if staff_port:
            wait_for(staff_port, time.monotonic() + 30)
            print(f"scorers served by a pool of {args.staff_workers} workers of their own")
        print(
            f"gunicorn, {args.workers} workers; {args.clients} concurrent clients for "
            f"{args.seconds:.0f} s a phase"
            + (
                f", with {args.scorers} scorers saving sheets in every phase"
                if args.scorers
                else ""
            )
        )
        standings = f"/t/{SLUG}/"
        jobs = {
            "trivial": ("trivial page (/healthz)", Job(("/healthz",))),
            "standings": ("public standings", Job((standings,))),
            "player": ("player pages, one after another", Job(player_paths(args.port))),
            "304": (
                "standings revalidated (304)",
                Job(
                    (standings,),
                    (("If-None-Match", page_etag(args.port, standings)),),
                    expect=304,
                ),
            ),
            "phones": (
                f"{args.phones} phones polling every {args.poll_seconds:g} s",
                Job((f"/t/{SLUG}/projector/", standings), poll_seconds=args.poll_seconds),
            ),
        }
        print(HEADER)
        phases: list[Phase] = []
        for name, (label, job) in jobs.items():
            if name not in wanted:
                continue
            clients = args.phones if job.poll_seconds else args.clients
            phase = run_phase(
                label, job, clients, args.seconds, args.scorers, servers, args.client_processes
            )
            report(phase, bool(staff_port))
            phases.append(phase)
        trivial = phases[0]
        for phase in phases[1:]:
            if not phase.public.statuses or job_is_polling(phase, jobs):
                continue
            print(f"{phase.label} / trivial throughput: {phase.rps / trivial.rps:.2f}")
        failed = failures(phases)
        if failed:
            raise SystemExit("Failed requests: " + "; ".join(failed))
    finally:
        for server in started:
            os.killpg(server.pid, signal.SIGTERM)
        for server in started:
            server.wait(timeout=30)
        temp.cleanup()


def job_is_polling(phase: Phase, jobs: dict[str, tuple[str, Job]]) -> bool:
    """The phones' phase is paced by their polls: its throughput is no measure."""
    return any(label == phase.label and job.poll_seconds for label, job in jobs.values())


if __name__ == "__main__":
    main()
