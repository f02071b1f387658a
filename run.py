#!/usr/bin/env python3
"""The project's two everyday commands, needing nothing but Python 3.11+.

    python3 run.py demo    set up, load the demo tournament, serve http://127.0.0.1:8000
    python3 run.py test    run the whole test suite (lint, types, Django checks, pytest)

Both create the virtual environment in .venv from requirements.lock the first time,
and again whenever the lock file changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
STAMP = VENV / ".requirements.lock.sha256"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=False)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}.")
    wanted = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print(f"Creating the virtual environment in {VENV} ...", flush=True)
        venv.create(VENV, with_pip=True)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--require-hashes", "-r", LOCK)
    STAMP.write_text(wanted + "\n")


def manage(*args: str) -> None:
    run(PYTHON, "manage.py", *args)


def demo(extra: list[str]) -> None:
    manage("migrate", "--noinput")
    manage("load_demo")
    manage("runserver", "127.0.0.1:8000", *extra)


def test(extra: list[str]) -> None:
    run(PYTHON, "-m", "ruff", "check", ".")
    run(PYTHON, "-m", "ruff", "format", "--check", ".")
    run(PYTHON, "-m", "mypy")
    manage("check", "--fail-level", "WARNING")
    manage("makemigrations", "--check", "--dry-run")
    run(PYTHON, "-m", "pytest", *extra)


COMMANDS = {"demo": demo, "test": test}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    ensure_venv()
    COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
