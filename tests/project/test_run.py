"""run.py: `demo` and `serve` take the address to serve on, and `serve` serves the room
properly (gunicorn, debug off, a secret key of its own, static files, plain HTTP); `test`
runs pytest on every core unless told otherwise."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import run
from tests.environment import ROOT, environment, settings_in


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("0.0.0.0:8000", ("0.0.0.0", 8000)),
        ("127.0.0.1:8101", ("127.0.0.1", 8101)),
        ("192.168.1.20:80", ("192.168.1.20", 80)),
        ("localhost:8000", ("localhost", 8000)),
        ("[::1]:8101", ("::1", 8101)),
        ("8101", ("127.0.0.1", 8101)),
    ],
)
def test_addresses(text, address):
    assert run.parse_address(text) == address


@pytest.mark.parametrize("text", ["", "pub", "1.2.3.4:", ":80", "1.2.3.4:99999", "1.2.3.4:0"])
def test_a_bad_address_is_refused_by_name(text):
    with pytest.raises(SystemExit) as refused:
        run.parse_address(text)
    assert repr(text) in str(refused.value)


@pytest.fixture
def managed(monkeypatch):
    """What ``run.demo`` asks ``manage.py`` to do: the commands it runs and last the
    server it runs beside the task worker (``run_with_worker``)."""
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(run, "manage", lambda *args: calls.append(args))
    # The guide's build is run.py's own (tests/project/test_guide_build.py).
    monkeypatch.setattr(run, "start_guide_build", lambda: None)

    def served(command, env=None):
        assert command[:2] == [str(run.PYTHON), "manage.py"]
        calls.append(tuple(command[2:]))

    monkeypatch.setattr(run, "run_with_worker", served)
    return calls


def test_the_demo_serves_where_it_always_did(managed):
    run.demo([])
    assert managed[-1] == ("runserver", "--skip-checks", "127.0.0.1:8000")


def test_the_demo_takes_an_address(managed):
    run.demo(["127.0.0.1:8101"])
    assert managed == [
        ("load_demo", "--migrate", "--site", "http://127.0.0.1:8101"),
        ("runserver", "--skip-checks", "127.0.0.1:8101"),
    ]


@pytest.mark.parametrize(
    ("address", "site"),
    [
        ([], "http://127.0.0.1:8000"),
        (["127.0.0.1:8721"], "http://127.0.0.1:8721"),
        (["localhost:8721"], "http://localhost:8721"),
        (["0.0.0.0:8721"], "http://127.0.0.1:8721"),
        (["[::]:8721"], "http://[::1]:8721"),
        (["[::1]:8721"], "http://[::1]:8721"),
    ],
)
def test_the_demo_prints_links_to_the_address_it_serves(managed, address, site):
    run.demo(address)
    assert managed[0] == ("load_demo", "--migrate", "--site", site)


def test_the_demo_passes_other_options_on(managed):
    run.demo(["0.0.0.0:8101", "--noreload"])
    assert managed[-1] == ("runserver", "--skip-checks", "0.0.0.0:8101", "--noreload")


def test_serving_on_every_address_uses_the_lan_address_for_the_qr_codes(tmp_path):
    env, phones = run.serve_environment(
        "0.0.0.0", 8000, {"PATH": "/bin"}, ["192.168.1.20", "10.0.0.5"], tmp_path / "key"
    )
    assert phones == "http://192.168.1.20:8000"
    assert env["PUBLIC_BASE_URL"] == "http://192.168.1.20:8000"
    hosts = env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert hosts[:2] == ["192.168.1.20", "10.0.0.5"]
    assert {"127.0.0.1", "localhost", "[::1]"} <= set(hosts)
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DJANGO_PLAIN_HTTP"] == "1"
    assert env["PATH"] == "/bin"


def test_serving_on_one_address_points_the_qr_codes_there(tmp_path):
    env, phones = run.serve_environment("192.168.1.20", 8101, {}, [], tmp_path / "key")
    assert phones == env["PUBLIC_BASE_URL"] == "http://192.168.1.20:8101"
    assert env["DJANGO_ALLOWED_HOSTS"].split(",")[0] == "192.168.1.20"
    env, phones = run.serve_environment("::1", 8101, {}, [], tmp_path / "key")
    assert phones == "http://[::1]:8101"


def test_without_a_network_there_is_no_address_for_phones(tmp_path):
    env, phones = run.serve_environment("0.0.0.0", 8000, {}, [], tmp_path / "key")
    assert phones is None
    assert "PUBLIC_BASE_URL" not in env


def test_debug_is_off_whatever_the_shell_says_and_the_operators_settings_are_kept(tmp_path):
    shell = {
        "DJANGO_DEBUG": "1",
        "DJANGO_SECRET_KEY": "the operator's own",
        "DJANGO_ALLOWED_HOSTS": "scores.lan",
        "PUBLIC_BASE_URL": "http://scores.lan:8000",
    }
    env, phones = run.serve_environment("0.0.0.0", 8000, shell, ["192.168.1.20"], tmp_path / "k")
    assert env["DJANGO_DEBUG"] == "0"
    assert env["DJANGO_SECRET_KEY"] == "the operator's own"
    assert env["DJANGO_ALLOWED_HOSTS"] == "scores.lan"
    assert phones == env["PUBLIC_BASE_URL"] == "http://scores.lan:8000"
    assert not (tmp_path / "k").exists()


def test_the_environment_gives_production_over_plain_http(tmp_path):
    shell = environment(PUBLIC_BASE_URL="")
    env, _ = run.serve_environment("0.0.0.0", 8000, shell, ["192.168.1.20"], tmp_path / "k")
    values = settings_in(
        env,
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "MIDDLEWARE",
        "PUBLIC_BASE_URL",
    )
    assert values["DEBUG"] is False
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SESSION_COOKIE_SECURE"] is False
    assert values["CSRF_COOKIE_SECURE"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in values["MIDDLEWARE"]
    assert values["PUBLIC_BASE_URL"] == "http://192.168.1.20:8000"


def test_the_secret_key_is_made_once_and_kept_private(tmp_path):
    path = tmp_path / ".secret_key"
    first, _ = run.serve_environment("0.0.0.0", 8000, {}, [], path)
    again, _ = run.serve_environment("0.0.0.0", 8000, {"DJANGO_SECRET_KEY": ""}, [], path)
    assert first["DJANGO_SECRET_KEY"] == again["DJANGO_SECRET_KEY"]
    assert len(first["DJANGO_SECRET_KEY"]) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    other, _ = run.serve_environment("0.0.0.0", 8000, {}, [], tmp_path / "elsewhere")
    assert other["DJANGO_SECRET_KEY"] != first["DJANGO_SECRET_KEY"]


def test_the_secret_key_file_stays_out_of_git():
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", str(run.SECRET_KEY_FILE)], cwd=ROOT
    )
    assert ignored.returncode == 0


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("::1", True), ("localhost", True), ("192.168.1.20", False)],
)
def test_loopback_addresses_are_told_apart(host, loopback):
    assert run.is_loopback(host) is loopback


def test_gunicorn_serves_the_address_with_a_few_workers():
    command = run.gunicorn_command("0.0.0.0", 8000)
    assert command[0].endswith("gunicorn")
    assert "config.wsgi:application" in command
    assert command[command.index("--bind") + 1] == "0.0.0.0:8000"
    assert 2 <= int(command[command.index("--workers") + 1]) <= 4
    assert command[command.index("--timeout") + 1] == "30"
    assert command[command.index("--access-logfile") + 1] == "-"
    # Its log through the app's formatter, and the hook of a worker killed at the timeout.
    assert command[command.index("--config") + 1] == str(ROOT / "config" / "gunicorn.py")
    assert run.gunicorn_command("::", 8000)[3] == "[::]:8000"


@pytest.fixture
def commands(monkeypatch):
    """What ``run.run`` and ``run.manage`` would run, recorded instead."""
    ran: list[list[str]] = []
    monkeypatch.setattr(run, "run", lambda *args, **kwargs: ran.append([str(a) for a in args]))
    monkeypatch.setattr(run, "manage", lambda *args: ran.append(["manage.py", *args]))
    return ran


def test_the_tests_run_on_every_core_after_the_checks(commands):
    run.test([])
    assert commands[-1] == [str(run.PYTHON), "-m", "pytest", "-n", "auto", "--dist", "worksteal"]
    assert all("pytest" not in command for command in commands[:-1])


def test_the_tests_pass_their_arguments_on_to_pytest_last(commands):
    run.test(["-n", "0", "tests/project/test_run.py", "-k", "demo"])
    assert commands[-1][3:] == [
        *run.PYTEST_PARALLEL,
        *("-n", "0", "tests/project/test_run.py", "-k", "demo"),
    ]


def test_a_worker_count_given_to_the_tests_wins(tmp_path):
    # pytest reads the later of two -n, so `run.py test -n 0` runs in one process: no
    # worker reports the test ("[gw0] PASSED").
    env = {key: value for key, value in environment().items() if not key.startswith("PYTEST_")}
    chosen = f"{__file__}::test_a_bad_address_is_refused_by_name"
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", *run.PYTEST_PARALLEL, "-n", "0", "-v", chosen],
        cwd=ROOT,
        env=env | {"PYTEST_ADDOPTS": f"-p no:cacheprovider --basetemp={tmp_path / 'base'}"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "PASSED" in completed.stdout
    assert "[gw" not in completed.stdout
    assert "workers" not in completed.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        headers = {name.lower(): value for name, value in response.getheaders()}
        return response.status, headers, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def child_command_lines(pid: int) -> list[str]:
    """The command lines of the processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid:
            found.append(line)
    return found


@pytest.mark.skipif(os.name == "nt", reason="gunicorn runs on Linux and macOS")
def test_serve_answers_over_plain_http_with_debug_off(tmp_path):
    port = free_port()
    env = environment(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_GUIDE_ROOT=str(tmp_path / "guide"),
        DJANGO_SECRET_KEY="a test key that is long enough to be a real one, 0123456789",
        DJANGO_DEBUG="1",  # as a developer's shell might have it
        PUBLIC_BASE_URL="",
    )
    server = subprocess.Popen(
        [sys.executable, "run.py", "serve", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _, _ = get(port, "/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            assert server.poll() is None, server.stdout.read()
            assert time.monotonic() < deadline, "run.py serve did not answer in two minutes"
            time.sleep(0.3)

        status, headers, html = get(port, "/")
        assert status == 200
        assert "Laugh and Lie Down" in html

        status, headers, css = get(port, "/static/css/app.css")
        assert "body" in css
        assert status == 200
        assert headers["content-type"].startswith("text/css")

        status, headers, html = get(port, "/accounts/login/")
        assert status == 200  # not redirected to https
        assert "secure" not in headers["set-cookie"].lower()  # phones post back over http
        assert "strict-transport-security" not in headers

        # The guide, built before the server started, served with the room's pages.
        status, headers, html = get(port, "/guide/")
        assert status == 200
        assert "The organiser's evening" in html
        assert "'sha256-" in headers["content-security-policy"]
        assert (tmp_path / "guide" / "index.html").exists()

        status, _, html = get(port, "/no-such-page/")
        assert status == 404
        for debug_only in ("Traceback", "DEBUG = True", "URLconf", "Using the URLconf"):
            assert debug_only not in html

        status, _, _ = get(port, "/no-such%0AERROR%20django.request:%20forged/")
        assert status == 404

        # The task worker runs beside gunicorn, a process of the server's own.
        assert "run_worker" in " ".join(child_command_lines(server.pid))
        status, _, body = get(port, "/healthz")
        assert "queue: " in body
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            output, _ = server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            output, _ = server.communicate()
    assert "Task worker running (manage.py run_worker)" in output
    assert f"Only this computer can open http://127.0.0.1:{port}/" in output
    assert f"python3 run.py serve 0.0.0.0:{port}" in output
    # gunicorn's lines, its access log and the app's, each one line through one formatter.
    assert re.search(r"^\S+ \S+ INFO gunicorn\.error: Booting worker with pid: \d+$", output, re.M)
    assert re.search(
        r'^\S+ \S+ INFO gunicorn\.access: .*"GET /healthz HTTP/1\.1" 200 ', output, re.M
    )
    assert "WARNING django.request: [GET /no-such\\nERROR django.request: forged/ user=-]" in output
    assert not re.search(r"^ERROR django\.request: forged", output, re.M)


def test_a_worker_that_dies_is_started_again_and_said_so(tmp_path, capsys):
    """The supervisor of run.py serve and demo: the worker exits, is started again (the
    terminal says so); the server stopping stops everything, with the server's code."""
    marks = tmp_path / "starts"
    worker = [
        sys.executable,
        "-c",
        f"open({str(marks)!r}, 'a').write('x'); raise SystemExit(3)",
    ]
    # The server waits for the worker's second start, then stops with code 7.
    server = [
        sys.executable,
        "-c",
        "import os, time\n"
        f"while not (os.path.exists({str(marks)!r}) and len(open({str(marks)!r}).read()) >= 2):\n"
        "    time.sleep(0.05)\n"
        "raise SystemExit(7)",
    ]
    assert run.supervise(server, worker, None, poll=0.05) == 7
    printed = capsys.readouterr().out
    assert "The task worker stopped (exit code 3); starting it again." in printed
    assert len(marks.read_text()) >= 2
