"""The path of one deal typed on a phone: which of our packages the request enters, and how
often a call goes back up a layer.

Builds the tests' ``seated_round`` tournament, opens table 1's sheet on a phone, then
follows one POST of deal 1 (``table:deal``) with ``sys.setprofile``: every Python call
made while the request runs, from the test client's handler to the response.

- *packages entered*: the distinct packages of ours (``tournament.<package>``,
  ``scoring.<module>``) whose code ran;
- *calls back up*: calls from a module of a lower layer to a function of a higher one
  (the layers of docs/architecture.md: kernel, models, shared, the concepts, the entry
  points; within a concept, its pages above the rest), or to a module that imports the
  caller's, directly or not (it sits above it whatever the layers say); the caller being
  the nearest code of ours on the stack (a signal's receiver, a template tag or an
  on-commit hook that Django runs counts as called by the code that set it off): the
  callbacks a layer hands down and is called back through.

    .venv/bin/python bench/deal_path.py
"""

from __future__ import annotations

import functools
import os
import sys
from collections import Counter
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
# docs/architecture.md, "The layers", bottom up.
LAYERS = {"kernel": 1, "models": 2, "shared": 3}
ENTRY_POINTS = {"urls", "management", "templatetags", "demo", "apps"}
CONCEPT = 4
ENTRY = 5
# The middleware of ours (config/settings.py) hands the request on to the view: the way
# in, not a call back up.
MIDDLEWARE = {
    "tournament.kernel.slow_requests",
    "tournament.kernel.middleware",
    "tournament.public.cache",
}


def package_of(module: str) -> str | None:
    """The package of ours ``module`` belongs to (``tournament.sheets``, ``scoring.rules``),
    None for what is not ours."""
    parts = module.split(".")
    if parts[0] not in {"tournament", "scoring"} or len(parts) < 2:
        return None
    return ".".join(parts[:2])


def ours(frame) -> str | None:
    """The module of the nearest frame of ours at or above ``frame``: a call that Django
    makes for us (a signal's receiver, a template's tag, an on-commit hook) is made on
    behalf of the code of ours that asked it."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if package_of(name) is not None:
            return name
        frame = frame.f_back
    return None


def layer_of(module: str) -> tuple[int, int] | None:
    """Where ``module`` sits: its layer, then within a concept its pages (1) above the
    rest (0). None for what is not ours or is the game (``scoring`` sits beside it all)."""
    parts = module.split(".")
    if parts[0] != "tournament" or len(parts) < 2:
        return None
    top = parts[1]
    if top in LAYERS:
        return LAYERS[top], 0
    if top in ENTRY_POINTS:
        return ENTRY, 0
    return CONCEPT, 1 if "views" in parts else 0


_GRAPH = None


@functools.cache
def depends_on(module: str, other: str) -> bool:
    """Whether ``module`` imports ``other``, directly or through others."""
    global _GRAPH
    if _GRAPH is None:
        _GRAPH = grimp.build_graph("tournament", "scoring", cache_dir=None)
    if module not in _GRAPH.modules or other not in _GRAPH.modules:
        return False
    return other in _GRAPH.find_upstream_modules(module)


def back_up(caller: str, callee: str) -> bool:
    """Whether a call from ``caller`` to ``callee`` goes back up: to a higher layer, or to
    a module that imports the caller's (it sits above it, whatever the layer)."""
    below, above = layer_of(caller), layer_of(callee)
    if below is None or above is None or caller == callee:
        return False
    return below < above or depends_on(callee, caller)


if __name__ != "__main__":
    from tests.conftest import *  # noqa: F403
    from tests.conftest import (  # noqa: F401
        _backs_up,
        _fast_password_hashing,
        _fresh_public_generations,
        _tasks_at_once,
    )


def test_deal_path(seated_round):
    from django.test import Client

    from tests import phone
    from tests.pages import ROWS
    from tournament.models import Table

    table = Table.objects.get(round=seated_round, number=1)
    client = Client()
    client.get(phone.url("entry", table))
    data = {**phone.cells(1, ROWS[0]), "expected_version": phone.version(table)}
    entered: set[str] = set()
    up: Counter[tuple[str, str]] = Counter()

    def profile(frame, event, _arg):
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        package = package_of(callee)
        if package is None:
            return
        entered.add(package)
        caller = ours(frame.f_back) or ""
        if caller in MIDDLEWARE:
            return
        if back_up(caller, callee):
            up[(f"{caller}", f"{callee}.{frame.f_code.co_name}")] += 1

    sys.setprofile(profile)
    try:
        response = client.post(phone.url("deal", table, 1), data)
    finally:
        sys.setprofile(None)
    assert response.status_code == 302, response.status_code
    lines = [
        f"packages entered: {len(entered)}",
        *(f"  {name}" for name in sorted(entered)),
        f"calls back up a layer: {sum(up.values())}",
        *(f"  {count} × {caller} → {callee}" for (caller, callee), count in sorted(up.items())),
    ]
    Path(os.environ["DEAL_PATH_OUT"]).write_text("\n".join(lines) + "\n")


def main() -> int:
    out = Path("/tmp") / f"deal_path_{os.getpid()}.txt"
    os.environ["DEAL_PATH_OUT"] = str(out)
    os.chdir(ROOT)
    code = pytest.main([str(Path(__file__).resolve()), "-q", "-n", "0", "-p", "no:cacheprovider"])
    if code == 0:
        print(out.read_text(), end="")
        out.unlink()
    return int(code)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
