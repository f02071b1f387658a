"""A newcomer's first run: from a fresh clone to the demo's first page.

Run from the repository root: ``.venv/bin/python bench/first_run.py [--rev REV ...]
[--runs N]``. For each revision (default: HEAD), clones this repository into a scratch
folder, runs ``python3 run.py demo`` there (creating its virtual environment, installing
from the lock, migrating and loading the demo) and times it until the demo tournament's
standings page answers 200. Prints, per revision, the median time to the first page, the
size of the virtual environment and the number of packages installed in it.

Give two revisions (say the commit before a change and HEAD) to compare them in one run.
The runs use pip's cache as this machine has it (a first ever run on a new machine also
downloads the packages, which takes longer for both alike).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_PAGE = "/t/red-lion-winter-open/"
# A first run that takes longer than this is reported as failed, not waited for.
GIVE_UP_AFTER = 600.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def installed_packages(venv: Path) -> int:
    return len(list(venv.glob("lib/python3*/site-packages/*.dist-info")))


def first_run(rev: str) -> tuple[float, int, int]:
    """Seconds from ``run.py demo`` in a fresh clone of ``rev`` to its first page, the
    virtual environment's size in bytes and its number of packages."""
    with tempfile.TemporaryDirectory(prefix="lld-first-run-") as scratch:
        clone = Path(scratch) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", rev], check=True)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "VIRTUAL_ENV")}
        log = (Path(scratch) / "demo.log").open("w")
        start = time.perf_counter()
        demo = subprocess.Popen(
            [sys.executable, "run.py", "demo", f"127.0.0.1:{port}"],
            cwd=clone,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            url = f"http://127.0.0.1:{port}{FIRST_PAGE}"
            while not answers(url):
                if demo.poll() is not None:
                    raise SystemExit(f"{rev}: run.py demo stopped; see its output above")
                if time.perf_counter() - start > GIVE_UP_AFTER:
                    raise SystemExit(f"{rev}: no first page after {GIVE_UP_AFTER:.0f} s")
                time.sleep(0.1)
            elapsed = time.perf_counter() - start
        finally:
            os.killpg(demo.pid, signal.SIGTERM)
            demo.wait()
            log.close()
        venv = clone / ".venv"
        return elapsed, folder_size(venv), installed_packages(venv)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", action="append", help="a revision to clone (repeatable)")
    parser.add_argument("--runs", type=int, default=3, help="runs per revision (median)")
    args = parser.parse_args()
    revs = args.rev or ["HEAD"]
    print(
        f"{'revision':<12} {'first page':>11} {'venv':>9} {'packages':>9}  (median of {args.runs})"
    )
    medians = {}
    for rev in revs:
        runs = [first_run(rev) for _ in range(args.runs)]
        seconds = statistics.median(r[0] for r in runs)
        medians[rev] = seconds
        size, packages = runs[-1][1], runs[-1][2]
        print(f"{rev:<12} {seconds:>10.1f}s {size / 2**20:>7.0f}MB {packages:>9}", flush=True)
    if len(revs) > 1:
        first = medians[revs[0]]
        for rev in revs[1:]:
            print(f"{rev} / {revs[0]}: {medians[rev] / first:.2f}")


if __name__ == "__main__":
    main()
