#!/usr/bin/env python3
"""The project's everyday commands, needing nothing but Python 3.11+.

    python3 run.py demo [HOST:PORT]   set up, load the demo tournament and serve it
                                      (development server, http://127.0.0.1:8000) with
                                      the task worker beside it
    python3 run.py serve [HOST:PORT]  serve the real thing to the room, e.g. a laptop on
                                      the pub's wifi (gunicorn, debug off; 0.0.0.0:8000)
                                      with the task worker beside it
    python3 run.py docs DIR           build the guide (docs/) into DIR as a website, strictly:
                                      a broken link between its pages fails
    python3 run.py test [ARGS]        run the whole test suite (lint, types, layers, checks,
                                      then pytest on every core); ARGS go to pytest, e.g.
                                      `-n 0 tests/project/test_run.py` runs one file, in
                                      one process

Each creates the virtual environment in .venv the first time and brings it up to date
whenever a lock file changes: `demo`, `serve` and `docs` install what the app needs to run
(requirements.lock), `test` adds the test tools (requirements-dev.lock, which pins the
same versions of the app's packages).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import ipaddress
import os
import re
import secrets
import socket
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
DEV_LOCK = ROOT / "requirements-dev.lock"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
# The secret key of `serve`, made once per installation and kept out of git.
SECRET_KEY_FILE = ROOT / ".secret_key"

# The built guide the site serves at /guide/ (settings.GUIDE_ROOT reads the same variable).
GUIDE_ROOT = Path(os.environ.get("DJANGO_GUIDE_ROOT") or ROOT / "var" / "guide")
GUIDE_SOURCES = [ROOT / "mkdocs.yml", ROOT / "docs"]

DEMO_ADDRESS = "127.0.0.1:8000"
SERVE_ADDRESS = "0.0.0.0:8000"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"]


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=False)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def _stamp(lock: Path) -> Path:
    """Where the venv records the lock file it was last installed from."""
    return VENV / f".{lock.name}.sha256"


def _installed(lock: Path) -> bool:
    wanted = hashlib.sha256(lock.read_bytes()).hexdigest()
    stamp = _stamp(lock)
    return stamp.exists() and stamp.read_text().strip() == wanted


def _host_pip_will_do() -> bool:
    """Whether this Python's own pip can install into the venv: the venv then needs no
    pip of its own, which takes seconds to put in."""
    try:
        return pip_takes_python(importlib.metadata.version("pip"))
    except importlib.metadata.PackageNotFoundError:
        return False


def pip_takes_python(version: str) -> bool:
    """Whether pip ``version`` has ``--python`` (installing into another environment)."""
    major, minor, *_ = (int(part) for part in [*re.findall(r"\d+", version), "0", "0"])
    return (major, minor) >= (22, 3)


def _pip() -> list[str | Path]:
    """pip, installing into the venv: the venv's own when it has one, else this Python's."""
    if (BIN / ("pip.exe" if os.name == "nt" else "pip")).exists():
        return [PYTHON, "-m", "pip"]
    return [sys.executable, "-m", "pip", "--python", PYTHON]


def ensure_venv(*, dev: bool = False) -> None:
    """The virtual environment with the runtime lock installed, and with ``dev`` the dev
    lock too (a superset pinning the same versions: tests/project/test_locks.py checks it)."""
    if sys.version_info < (3, 11):
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}.")
    lock = DEV_LOCK if dev else LOCK
    if _installed(lock) and _installed(LOCK) and PYTHON.exists():
        return
    if not PYTHON.exists():
        print(f"Creating the virtual environment in {VENV} ...", flush=True)
        venv.create(VENV, with_pip=not _host_pip_will_do())
    # Modules are compiled when first imported, not all of them now: most never are.
    run(*_pip(), "install", "--quiet", "--no-compile", "--require-hashes", "-r", lock)
    installed = [DEV_LOCK, LOCK] if dev else [LOCK]
    for each in installed:
        _stamp(each).write_text(hashlib.sha256(each.read_bytes()).hexdigest() + "\n")


def manage(*args: str) -> None:
    run(PYTHON, "manage.py", *args)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[IPv6]:PORT`` or a bare ``PORT`` (on 127.0.0.1)."""
    match = re.fullmatch(r"(?:\[(?P<v6>[0-9a-fA-F:.]+)\]|(?P<host>[^:\[\]]+)):(?P<port>\d+)", text)
    if match is None and text.isdigit():
        match = re.fullmatch(r"(?P<host>)(?P<v6>)(?P<port>\d+)", text)
    if match is None:
        sys.exit(f"{text!r} is not an address to serve on: use HOST:PORT, e.g. 0.0.0.0:8000")
    port = int(match["port"])
    if not 0 < port < 65536:
        sys.exit(f"{text!r}: the port must be between 1 and 65535.")
    return match["v6"] or match["host"] or "127.0.0.1", port


def url_host(host: str) -> str:
    """``host`` as it goes in a URL or a Host header: IPv6 addresses in brackets."""
    return f"[{host}]" if ":" in host else host


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name) is this computer only."""
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    with contextlib.suppress(OSError):
        return ipaddress.ip_address(socket.gethostbyname(host)).is_loopback
    return False


def lan_addresses() -> list[str]:
    """This machine's addresses on the local network, the one with the default route
    first: what phones on the same wifi can reach."""
    found: list[str] = []
    # Connecting a UDP socket sends nothing; it only picks the outgoing address.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe, contextlib.suppress(OSError):
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    lan = []
    for address in found:
        if not ipaddress.ip_address(address).is_loopback and address not in lan:
            lan.append(address)
    return lan


def secret_key(path: Path = SECRET_KEY_FILE) -> str:
    """The installation's secret key, made the first time (readable by its owner only)."""
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def serve_environment(
    host: str, port: int, base: dict[str, str], lan: list[str], key: Path = SECRET_KEY_FILE
) -> tuple[dict[str, str], str | None]:
    """The environment `serve` runs Django in, and the address phones should open.

    Debug is off whatever the shell says; anything else the operator set (a database,
    a secret key, hosts, the QR codes' address) is kept.
    """
    everywhere = host in ("0.0.0.0", "::")
    reachable = lan if everywhere else [host]
    phones = f"http://{url_host(reachable[0])}:{port}" if reachable else None
    hosts = [url_host(name) for name in reachable] + LOOPBACK_NAMES
    hostname = socket.gethostname()
    if everywhere and hostname:
        hosts += [hostname, f"{hostname}.local"]
    env = dict(base)
    env["DJANGO_DEBUG"] = "0"
    env["DJANGO_PLAIN_HTTP"] = "1"
    # Set to the empty string counts as unset, as in the settings.
    if not env.get("DJANGO_ALLOWED_HOSTS"):
        env["DJANGO_ALLOWED_HOSTS"] = ",".join(dict.fromkeys(hosts))
    if phones and not env.get("PUBLIC_BASE_URL"):
        env["PUBLIC_BASE_URL"] = phones
    if not env.get("DJANGO_SECRET_KEY"):
        env["DJANGO_SECRET_KEY"] = secret_key(key)
    return env, env.get("PUBLIC_BASE_URL") or phones


def gunicorn_command(host: str, port: int) -> list[str]:
    # A laptop: a worker or two per core is plenty for a room of phones and a few
    # scorers, and leaves the laptop usable.
    workers = min(4, max(2, os.cpu_count() or 1))
    return [
        str(BIN / "gunicorn"),
        "config.wsgi:application",
        "--bind",
        f"{url_host(host)}:{port}",
        "--workers",
        str(workers),
        "--timeout",
        "30",
        "--access-logfile",
        "-",
        # Its log through the app's formatter, and the request a worker killed at the
        # timeout was serving.
        "--config",
        str(ROOT / "config" / "gunicorn.py"),
    ]


def address_argument(extra: list[str], default: str) -> tuple[tuple[str, int], list[str]]:
    """The optional HOST:PORT first among ``extra``, and the rest."""
    if extra and not extra[0].startswith("-"):
        return parse_address(extra[0]), extra[1:]
    return parse_address(default), extra


def demo_site(host: str, port: int) -> str:
    """The address this computer opens the demo served on ``host``:``port`` at: the links
    the demo prints. Serving every address serves this computer's loopback too."""
    opened = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://{url_host(opened)}:{port}"


WORKER = "run_worker"
# A worker that dies this many times within RESTART_WINDOW seconds is started again only
# after RESTART_PAUSE seconds: a worker failing at start must not spin.
RESTARTS = 5
RESTART_WINDOW = 60.0
RESTART_PAUSE = 10.0


def worker_command() -> list[str]:
    """The task worker (``manage.py run_worker``): the podium chances, the views a page
    found missing and the format advisor's larger questions, off the requests."""
    return [str(PYTHON), "manage.py", WORKER]


def run_with_worker(server: list[str], env: dict[str, str] | None = None) -> None:
    """Run ``server`` and the task worker side by side until Ctrl-C (SIGINT) or SIGTERM
    stops both; a worker that dies is started again, and said so; the server stopping
    stops the worker too. Exits with the server's code."""
    sys.exit(supervise(server, worker_command(), env))


def supervise(
    server: list[str], worker: list[str], env: dict[str, str] | None, *, poll: float = 0.5
) -> int:
    import signal
    import time

    stopping: list[int] = []

    def stop(signum: int, frame: object) -> None:
        stopping.append(signum)

    previous = {each: signal.signal(each, stop) for each in (signal.SIGINT, signal.SIGTERM)}

    def start(command: list[str]) -> subprocess.Popen[bytes]:
        print("+", " ".join(command), flush=True)
        return subprocess.Popen(command, cwd=ROOT, env=env)

    main = start(server)
    helper = start(worker)
    print(
        f"Task worker running (manage.py {WORKER}): the podium chances and the format "
        "advisor's larger questions are worked out there.",
        flush=True,
    )
    deaths: list[float] = []
    try:
        while not stopping:
            code = main.poll()
            if code is not None:
                return code
            if helper.poll() is not None:
                now = time.monotonic()
                deaths = [at for at in deaths if now - at < RESTART_WINDOW] + [now]
                print(
                    f"The task worker stopped (exit code {helper.returncode}); starting it again.",
                    flush=True,
                )
                if len(deaths) >= RESTARTS:
                    print(
                        f"It stopped {len(deaths)} times in a minute: waiting "
                        f"{RESTART_PAUSE:.0f} s first.",
                        flush=True,
                    )
                    time.sleep(RESTART_PAUSE)
                    deaths.clear()
                if stopping:
                    break
                helper = start(worker)
            time.sleep(poll)
        return 0
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)
        for process in (helper, main):
            if process.poll() is None:
                process.terminate()
        for process in (helper, main):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def guide_command(site: Path) -> list[str]:
    """MkDocs building the guide into ``site``: strict, so that a broken link or anchor
    between its pages fails the build (the checks are mkdocs.yml's ``validation``)."""
    return [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site)]


def guide_environment() -> dict[str, str]:
    # MkDocs' notice about its next major version, printed on every build, says nothing
    # about this guide (docs/guide.md says why it is pinned below it).
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def docs(extra: list[str]) -> None:
    if len(extra) != 1 or extra[0].startswith("-"):
        sys.exit("run.py docs takes one DIR to build the guide into, e.g. python3 run.py docs site")
    run(*guide_command(Path(extra[0]).resolve()), env=guide_environment())
    print(f"The guide is in {Path(extra[0]).resolve()}; open index.html there.", flush=True)


def newest_change(paths: list[Path]) -> float:
    """The latest modification time of ``paths`` and of every file under them."""
    times = [0.0]
    for path in paths:
        if path.is_dir():
            times += [each.stat().st_mtime for each in path.rglob("*")]
        elif path.exists():
            times.append(path.stat().st_mtime)
    return max(times)


def guide_is_stale(site: Path = GUIDE_ROOT, sources: list[Path] = GUIDE_SOURCES) -> bool:
    """Whether the site's guide is missing or older than what it is built from."""
    index = site / "index.html"
    return not index.exists() or index.stat().st_mtime < newest_change(sources)


def start_guide_build() -> subprocess.Popen[bytes] | None:
    """The guide built for /guide/ beside whatever starts next, when it is stale: a
    few seconds, spent while the database is made ready."""
    if not guide_is_stale():
        return None
    print(f"+ building the guide into {GUIDE_ROOT} (served at /guide/)", flush=True)
    return subprocess.Popen(guide_command(GUIDE_ROOT), cwd=ROOT, env=guide_environment())


def finish_guide_build(build: subprocess.Popen[bytes] | None) -> None:
    """A guide that fails to build costs the site its /guide/ only: said, not fatal."""
    if build is not None and build.wait() != 0:
        print(
            f"The guide could not be built (see above): /guide/ says how to build it "
            f"(python3 run.py docs {GUIDE_ROOT}).",
            flush=True,
        )


def demo(extra: list[str]) -> None:
    (host, port), rest = address_argument(extra, DEMO_ADDRESS)
    build = start_guide_build()
    # One process migrates and loads (each start of Django costs a good part of a second
    # on a first run), and runs the system checks, so the server need not run them again.
    manage("load_demo", "--migrate", "--site", demo_site(host, port))
    finish_guide_build(build)
    server = [str(PYTHON), "manage.py", "runserver", "--skip-checks", f"{url_host(host)}:{port}"]
    run_with_worker([*server, *rest])


def serve(extra: list[str]) -> None:
    (host, port), rest = address_argument(extra, SERVE_ADDRESS)
    if rest:
        sys.exit(f"run.py serve takes one HOST:PORT, not {' '.join(rest)!r}.")
    if os.name == "nt":
        sys.exit("run.py serve needs Linux or macOS (gunicorn); on Windows use WSL.")
    # Only serving every address needs to know which of them the phones can reach.
    lan = lan_addresses() if host in ("0.0.0.0", "::") else []
    env, phones = serve_environment(host, port, dict(os.environ), lan)
    build = start_guide_build()
    run(PYTHON, "manage.py", "migrate", "--noinput", env=env)
    run(PYTHON, "manage.py", "collectstatic", "--noinput", "--verbosity", "0", env=env)
    finish_guide_build(build)
    if phones is None:
        print("\nNo network address found: connect to the wifi, then start again.")
    elif is_loopback(host):
        print(f"\nOnly this computer can open {phones}/. To serve the room's phones:")
        print(f"python3 run.py serve 0.0.0.0:{port}")
    else:
        print(f"\nPhones on the same network open {phones}/ (the QR codes point there).")
    print("Stop with Ctrl-C.\n", flush=True)
    run_with_worker(gunicorn_command(host, port), env)


# pytest-xdist: a worker per core, each with a test database of its own (pytest-django
# names them after the worker). Tests are shared out one by one and a worker with nothing
# left takes some of the other's ("worksteal"), so that neither waits idle at the end for
# the other's last long file. Arguments given to `run.py test` come after, and win:
# `-n 0` runs in this process.
PYTEST_PARALLEL = ["-n", "auto", "--dist", "worksteal"]


def test(extra: list[str]) -> None:
    run(PYTHON, "-m", "ruff", "check", ".")
    run(PYTHON, "-m", "ruff", "format", "--check", ".")
    run(PYTHON, "-m", "mypy")
    # The layers of the code (pyproject.toml [tool.importlinter], docs/architecture.md).
    run(BIN / ("lint-imports.exe" if os.name == "nt" else "lint-imports"))
    manage("check", "--fail-level", "WARNING")
    manage("makemigrations", "--check", "--dry-run")
    run(PYTHON, "-m", "pytest", *PYTEST_PARALLEL, *extra)


COMMANDS = {"demo": demo, "serve": serve, "docs": docs, "test": test}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    ensure_venv(dev=sys.argv[1] == "test")
    COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
