"""Helpers for tests of the settings and run.py: the environment a child process gets,
running manage.py in it, and reading settings as that process sees them (one
environment, or many in one child process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def environment(**values: str) -> dict[str, str]:
    """This process's environment without any of the settings' variables, plus
    ``values``: what an operator would set."""
    ours = ("DJANGO_", "CACHE_URL", "LOGIN_", "AXES_", "DATABASE_CONN", "SENTRY_")
    env = {key: value for key, value in os.environ.items() if not key.startswith(ours)}
    return env | values


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run(["manage.py", *args], env)


def settings_in(env: dict[str, str], *names: str) -> dict[str, object]:
    env = env | {"DJANGO_SETTINGS_MODULE": "config.settings"}
    result = run(["-c", PRINT_SETTINGS.format(names=names)], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
names = {names!r}
print(json.dumps({{name: getattr(settings, name, None) for name in names}}, default=str))
"""


def settings_under(environments: dict[str, dict[str, str]]) -> dict[str, dict[str, object]]:
    """The settings (every name in capitals, Django's defaults included) as a fresh
    process sees them under each of ``environments``, by its name; or, where the settings
    stop it, ``{"error": the traceback}`` as ``manage.py`` prints it. All are read in one
    child process, which runs the settings module afresh under each environment in turn:
    a process each would cost a start of Python and Django each."""
    first = next(iter(environments.values()))
    result = subprocess.run(
        [sys.executable, "-c", READ_EACH],
        cwd=ROOT,
        env=first,
        input=json.dumps(environments),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


READ_EACH = """
import json, os, runpy, sys, traceback
from django.conf import global_settings
defaults = {name: getattr(global_settings, name) for name in dir(global_settings) if name.isupper()}
found = {}
for name, environment in json.loads(sys.stdin.read()).items():
    os.environ.clear()
    os.environ.update(environment)
    try:
        module = runpy.run_module("config.settings")
    except Exception:
        found[name] = {"error": traceback.format_exc()}
        continue
    found[name] = defaults | {key: value for key, value in module.items() if key.isupper()}
print(json.dumps(found, default=str))
"""
