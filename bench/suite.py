"""The whole test suite as a developer and CI run it: ``python3 run.py test`` on SQLite.

Run from the repository root: ``.venv/bin/python bench/suite.py [--rev REV ...]``. For
each revision (default: HEAD), clones this repository into a scratch folder, installs
its virtual environment there (not timed: it is the same lock for both), then times
``python3 run.py test`` as a whole process, its checks (ruff, mypy, import contracts,
Django's checks) and every test, the browser tests included. Prints, per revision, the
wall time, the CPU time of the process and everything it waited for, and whether it
passed; with two revisions, the second's wall time over the first's.

Give the commit before a change and HEAD to compare them in one run, one after the
other, on a machine doing nothing else: the suite is CPU-bound and shares the machine
with whatever else runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def clone(rev: str, into: Path) -> None:
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "--quiet", rev], check=True)
    subprocess.run(
        [sys.executable, "-c", "import run; run.ensure_venv(dev=True)"],
        cwd=into,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def timed_suite(folder: Path, log: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (the process and its children) and the exit status of
    ``python3 run.py test`` in ``folder``, its output written to ``log``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with log.open("w", encoding="utf-8") as output:
        completed = subprocess.run(
            [sys.executable, "run.py", "test"],
            cwd=folder,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={key: value for key, value in os.environ.items() if key != "DATABASE_URL"},
            check=False,
        )
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, completed.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", action="append", help="a revision to clone (repeatable)")
    parser.add_argument(
        "--logs",
        help="the folder for each run's output, suite-N.log (default: a new folder of the "
        "system's temp folder, printed with each result)",
    )
    args = parser.parse_args()
    revisions = args.rev or ["HEAD"]
    logs = Path(args.logs or tempfile.mkdtemp(prefix="lld-suite-logs-"))
    logs.mkdir(parents=True, exist_ok=True)
    walls = []
    with tempfile.TemporaryDirectory(prefix="lld-suite-") as scratch:
        for number, rev in enumerate(revisions):
            folder = Path(scratch) / f"clone-{number}"
            clone(rev, folder)
            log = logs / f"suite-{number}.log"
            wall, cpu, status = timed_suite(folder, log)
            walls.append(wall)
            verdict = "passed" if status == 0 else f"FAILED (exit {status})"
            print(f"{rev}: {wall:.0f} s wall, {cpu:.0f} s CPU, {verdict}", flush=True)
            # pytest's last line (how many passed, failed, skipped) and what failed.
            lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
            failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
            if failed:
                print("\n".join(failed))
            print(lines[-1] if lines else "(no output)", f"(the whole output: {log})", flush=True)
    if len(walls) == 2:
        print(f"{revisions[1]} / {revisions[0]}: {walls[1] / walls[0]:.2f} of the wall time")


if __name__ == "__main__":
    main()
