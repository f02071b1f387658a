"""The two lock files: requirements.lock (what the app needs to run, installed by
``run.py demo`` and ``run.py serve`` and on servers) and requirements-dev.lock (that and
the test tools, installed by ``run.py test``). A package in both must be pinned to the
same version with the same hashes, so that the tests run what the room runs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)((?: \\\n\s+--hash=sha256:[0-9a-f]{64})+)", re.M)


def pins(lock: str) -> dict[str, tuple[str, frozenset[str]]]:
    text = (ROOT / lock).read_text()
    found = {
        name.lower(): (version, frozenset(re.findall(r"sha256:[0-9a-f]{64}", hashes)))
        for name, version, hashes in PIN.findall(text)
    }
    # Every requirement line is a pin with hashes (pip's --require-hashes needs it).
    assert len(found) == len(re.findall(r"^[A-Za-z0-9_.-]+==", text, re.M)), lock
    return found


def test_the_dev_lock_pins_the_runtime_packages_alike() -> None:
    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert runtime
    assert set(runtime) < set(dev)
    assert {name: dev[name] for name in runtime} == runtime


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_a_lock_names_no_machine_of_ours(lock: str) -> None:
    # An index or wheel folder of one machine would only warn or fail on another.
    text = (ROOT / lock).read_text()
    assert not re.search(r"^--(extra-)?index-url|^--find-links", text, re.M)


def test_the_runtime_lock_holds_no_test_tool() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    tools = {
        re.split(r"[<>=\[ ]", spec)[0].lower() for spec in project["optional-dependencies"]["dev"]
    }
    runtime = pins("requirements.lock")
    assert tools & set(pins("requirements-dev.lock")) == tools
    assert not tools & set(runtime)


@pytest.fixture
def fresh_venv(tmp_path, monkeypatch):
    """run.ensure_venv against a venv in ``tmp_path`` that already exists: the pip
    installs it would run are recorded instead."""
    import run

    venv = tmp_path / ".venv"
    python = venv / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    installs: list[str] = []
    monkeypatch.setattr(run, "VENV", venv)
    monkeypatch.setattr(run, "PYTHON", python)
    monkeypatch.setattr(run, "run", lambda *args, **kwargs: installs.append(Path(args[-1]).name))
    return run, installs


def test_the_demo_installs_the_runtime_lock_only_and_once(fresh_venv):
    run, installs = fresh_venv
    run.ensure_venv()
    run.ensure_venv()
    assert installs == ["requirements.lock"]


def test_the_tests_add_the_dev_lock_and_the_demo_then_installs_nothing(fresh_venv):
    run, installs = fresh_venv
    run.ensure_venv()
    run.ensure_venv(dev=True)
    run.ensure_venv(dev=True)
    run.ensure_venv()
    assert installs == ["requirements.lock", "requirements-dev.lock"]


def test_a_changed_lock_is_installed_again(fresh_venv, tmp_path, monkeypatch):
    run, installs = fresh_venv
    lock = tmp_path / "requirements.lock"
    lock.write_text("asgiref==1\n")
    monkeypatch.setattr(run, "LOCK", lock)
    run.ensure_venv()
    lock.write_text("asgiref==2\n")
    run.ensure_venv()
    assert installs == ["requirements.lock", "requirements.lock"]


@pytest.mark.parametrize(
    ("version", "takes"),
    [("23.2.1", True), ("22.3", True), ("24", True), ("22.2.2", False), ("9.0.1", False)],
)
def test_this_pythons_pip_installs_into_the_venv_when_it_can(version, takes):
    import run

    assert run.pip_takes_python(version) is takes
