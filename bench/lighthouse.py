"""Lighthouse (mobile) benchmark: the demo tournament's public pages as a phone sees them.

Builds the demo in a temp folder (a SQLite database of its own, ``manage.py load_demo
--migrate --no-users``, static files collected into a temp ``DJANGO_STATIC_ROOT``), serves
it as ``run.py serve`` does (gunicorn, debug off, WhiteNoise, plain HTTP) on a free port of
127.0.0.1, and runs Lighthouse on three public pages of the Red Lion Winter Open: the
standings, a player's page (the first player the standings link to) and round 1.

Lighthouse runs with its defaults for a phone: the mobile form factor, a Moto G Power's
screen and simulated throttling (a slow 4G network and a 4× slower processor), in
Debian's Chromium (``/usr/bin/chromium``, or ``--chrome``), headless. It scores four
categories: performance, accessibility, best practices and SEO, each out of 100.

Printed: a table of the four scores for each page (the median of ``--runs`` runs, 1 by
default), then every audit that cost a page points in a category, with what it points
at. The bench exits with status 1 when any score is under ``--min-score`` (95), unless
``--no-fail`` is given.

Lighthouse comes from the npm registry, pinned with its integrity hashes in
bench/lighthouse/package-lock.json; the bench installs it with
``npm ci --prefix bench/lighthouse`` (into bench/lighthouse/node_modules, ignored by git)
when it is missing or the lock file has changed. It needs Node 18.16 or newer.

Run from the repository root::

    .venv/bin/python bench/lighthouse.py
    .venv/bin/python bench/lighthouse.py --runs 3 --reports /tmp/lighthouse --no-fail

Every request goes to 127.0.0.1 only; Chromium runs with its background networking off.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import run  # noqa: E402  the project's own way of serving: run.py serve

SLUG = "red-lion-winter-open"
LIGHTHOUSE_DIR = ROOT / "bench" / "lighthouse"
LIGHTHOUSE_BIN = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
# Where `npm ci` records the lock file it installed from.
LIGHTHOUSE_STAMP = LIGHTHOUSE_DIR / "node_modules" / ".package-lock.sha256"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
# A busy machine takes a while to start the workers.
STARTUP_SECONDS = 120.0
LIGHTHOUSE_TIMEOUT_SECONDS = 300
ATTEMPTS = 3
# Requests of each page before it is measured, so that each gunicorn worker has served it.
WARM_UP_REQUESTS = 8


def install_lighthouse() -> None:
    """``npm ci`` bench/lighthouse when node_modules is missing or older than the lock."""
    lock = LIGHTHOUSE_DIR / "package-lock.json"
    wanted = hashlib.sha256(lock.read_bytes()).hexdigest()
    stamp = LIGHTHOUSE_STAMP
    if LIGHTHOUSE_BIN.exists() and stamp.exists() and stamp.read_text().strip() == wanted:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is not installed: Lighthouse needs Node 18.16 or newer and npm.")
    command = [npm, "ci", "--prefix", str(LIGHTHOUSE_DIR), "--no-audit", "--no-fund"]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)
    stamp.write_text(wanted + "\n")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(folder: Path, port: int) -> dict[str, str]:
    """``run.py serve``'s environment for 127.0.0.1:``port``, with the database, the static
    files and the secret key in ``folder``."""
    base = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("DJANGO_") and name not in ("DATABASE_URL", "PUBLIC_BASE_URL")
    }
    base["DATABASE_URL"] = f"sqlite:///{folder / 'lighthouse.sqlite3'}"
    base["DJANGO_STATIC_ROOT"] = str(folder / "static")
    env, _ = run.serve_environment("127.0.0.1", port, base, [], key=folder / "secret_key")
    return env


def build(env: dict[str, str]) -> None:
    python = str(run.PYTHON)
    manage = [python, "manage.py"]
    for args in (
        ["load_demo", "--migrate", "--no-users", "--site", env["PUBLIC_BASE_URL"]],
        ["collectstatic", "--noinput", "--verbosity", "0"],
    ):
        subprocess.run([*manage, *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def get(port: int, path: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def wait_for(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    status: object = None
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            status = get(port, "/healthz")[0]
            if status == 200:
                return
        except OSError as error:
            status = type(error).__name__
        time.sleep(0.2)
    sys.stderr.write(log.read_text(errors="replace")[-4000:])
    raise SystemExit(f"gunicorn did not answer on /healthz (last: {status}, {server.poll()=})")


def pages(port: int) -> dict[str, str]:
    """The pages measured, by name: the standings, the first player the standings link to,
    round 1."""
    standings = f"/t/{SLUG}/"
    status, html = get(port, standings)
    if status != 200:
        raise SystemExit(f"{standings} answered {status}")
    player = re.search(rf'href="(/t/{SLUG}/players/\d+/)"', html)
    if player is None:
        raise SystemExit(f"{standings} links to no player's page")
    return {"standings": standings, "player": player[1], "round": f"/t/{SLUG}/rounds/1/"}


def lighthouse(url: str, chrome: str, output: Path) -> dict[str, Any]:
    command = [
        str(LIGHTHOUSE_BIN),
        url,
        "--form-factor=mobile",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--output=json",
        f"--output-path={output}",
        "--quiet",
    ]
    env = {**os.environ, "CHROME_PATH": chrome}
    failure = ""
    # A busy machine now and then loses a page load's trace (NO_NAVSTART): try again.
    for _ in range(ATTEMPTS):
        output.unlink(missing_ok=True)
        done = subprocess.run(
            command, cwd=ROOT, env=env, check=False, timeout=LIGHTHOUSE_TIMEOUT_SECONDS
        )
        if done.returncode == 0 and output.exists():
            report: dict[str, Any] = json.loads(output.read_text())
            if not report.get("runtimeError"):
                return report
            failure = str(report["runtimeError"])
        else:
            failure = f"status {done.returncode}"
        print(f"    Lighthouse failed ({failure}); trying again", flush=True)
    raise SystemExit(f"Lighthouse failed on {url} {ATTEMPTS} times: {failure}")


def score(report: dict[str, Any], category: str) -> int | None:
    value = report["categories"][category]["score"]
    return None if value is None else round(value * 100)


def _item_label(item: dict[str, Any]) -> str:
    for key in ("node", "source"):
        value = item.get(key)
        if isinstance(value, dict):
            label = value.get("selector") or value.get("snippet") or value.get("url")
            if label:
                return str(label)
    for key in ("url", "label", "description", "entity"):
        value = item.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, dict) and value.get("text"):
            return str(value["text"])
    return ""


def pointed_at(audit: dict[str, Any], limit: int = 5) -> list[str]:
    """What an audit points at: the elements, files or values of its details."""
    details = audit.get("details") or {}
    labels = []
    for item in details.get("items") or []:
        label = _item_label(item)
        if not label:
            for sub in (item.get("subItems") or {}).get("items") or []:
                label = _item_label(sub)
                if label:
                    break
        if label and label not in labels:
            labels.append(label)
    if not labels and audit.get("displayValue"):
        labels.append(str(audit["displayValue"]))
    more = len(labels) - limit
    return labels[:limit] + ([f"... and {more} more"] if more > 0 else [])


def lost_points(report: dict[str, Any]) -> list[tuple[str, str, float, str, list[str]]]:
    """The audits that cost points: (category, audit id, score, title, what it points at)."""
    found = []
    audits = report["audits"]
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref.get("weight", 0) <= 0 or audit.get("scoreDisplayMode") in (
                "notApplicable",
                "informative",
                "manual",
            ):
                continue
            value = audit.get("score")
            if value is not None and value < 1:
                found.append((category, ref["id"], value, audit["title"], pointed_at(audit)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs a page (median)")
    parser.add_argument("--min-score", type=int, default=95, help="fail under this score (95)")
    parser.add_argument("--no-fail", action="store_true", help="exit 0 whatever the scores")
    parser.add_argument("--chrome", default="/usr/bin/chromium", help="Chromium to run")
    parser.add_argument("--reports", type=Path, help="keep the JSON reports in this folder")
    options = parser.parse_args()
    if not Path(options.chrome).exists():
        raise SystemExit(f"{options.chrome} not found: give Chromium's path with --chrome")
    install_lighthouse()
    version = subprocess.run(
        [str(LIGHTHOUSE_BIN), "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    chromium = subprocess.run(
        [options.chrome, "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()

    scores: dict[str, dict[str, int | None]] = {}
    lost: dict[str, list[tuple[str, str, float, str, list[str]]]] = {}
    # Lighthouse's measure of the machine's speed (its "benchmark index") and warnings.
    speeds: list[float] = []
    warnings: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="lld-lighthouse-") as name:
        folder = Path(name)
        reports = options.reports or folder / "reports"
        reports.mkdir(parents=True, exist_ok=True)
        port = free_port()
        env = environment(folder, port)
        print("building the demo (migrate, load_demo, collectstatic) ...", flush=True)
        build(env)
        log_path = folder / "gunicorn.log"
        with log_path.open("wb") as log:
            server = subprocess.Popen(
                run.gunicorn_command("127.0.0.1", port),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                wait_for(port, server, log_path)
                measured = pages(port)
                # The room has been watching: every worker has the pages in its cache.
                for path in measured.values():
                    for _ in range(WARM_UP_REQUESTS):
                        get(port, path)
                print(f"Lighthouse {version}, {chromium}, mobile, {options.runs} run(s) a page")
                for page, path in measured.items():
                    url = f"http://127.0.0.1:{port}{path}"
                    runs = []
                    for number in range(1, options.runs + 1):
                        print(f"  {page}: {path} (run {number}) ...", flush=True)
                        runs.append(
                            lighthouse(url, options.chrome, reports / f"{page}-{number}.json")
                        )
                    by_category: dict[str, int | None] = {}
                    for category in CATEGORIES:
                        values = [score(report, category) for report in runs]
                        known = [value for value in values if value is not None]
                        by_category[category] = round(statistics.median(known)) if known else None
                    scores[page] = by_category
                    speeds += [report["environment"].get("benchmarkIndex") or 0 for report in runs]
                    for report in runs:
                        warnings.update(report.get("runWarnings") or [])
                    # The audits of the run whose performance is the median one.
                    runs.sort(key=lambda report: score(report, "performance") or 0)
                    lost[page] = lost_points(runs[len(runs) // 2])
            finally:
                server.terminate()
                server.wait(timeout=30)

    width = max(len(page) for page in scores)
    print()
    print(f"{'page':<{width}}  " + "  ".join(f"{category:>14}" for category in CATEGORIES))
    failing = False
    for page, by_category in scores.items():
        cells = []
        for category in CATEGORIES:
            value = by_category[category]
            low = value is None or value < options.min_score
            failing = failing or low
            cells.append(f"{'-' if value is None else value:>13}{'!' if low else ' '}")
        print(f"{page:<{width}}  " + "  ".join(cells))
    print()
    for page, found in lost.items():
        if not found:
            print(f"{page}: every audit passed")
            continue
        print(f"{page}: audits that cost points")
        for category, audit, audit_score, title, where in found:
            print(f"  {category:<14} {audit} ({audit_score:.2f}): {title}")
            for label in where:
                print(f"      {label}")
    print(
        f"\nLighthouse's benchmark index of this machine: {min(speeds):.0f} to {max(speeds):.0f}"
        " (Lighthouse warns under 1,000: the processor is then"
        " busy or slow, and the performance scores suffer)"
    )
    for warning in sorted(warnings):
        print(f"Lighthouse warned: {warning}")
    if options.reports:
        print(f"JSON reports in {options.reports}")
    if failing:
        print(f"\nSome score is under {options.min_score} (marked !).")
        if not options.no_fail:
            sys.exit(1)


if __name__ == "__main__":
    main()
