"""Helpers for tests of the limits counted with django-ratelimit (wrong table codes, the
door's searches and taps): a window that does not turn while a test counts, and a clock
of the test's own.

django-ratelimit counts in fixed windows (a minute, an hour) that start at a time of their
own for each address (``django_ratelimit.core._get_window``): a test that counts past a
limit on the real clock fails now and then, when the window turns between two of its
requests and the count starts again. Tests pin the window instead (``pin_window``, the
``one_window`` fixture of tests/conftest.py), or move a clock of their own
(``RatelimitClock``), and never sleep."""

from __future__ import annotations

import time
from types import SimpleNamespace

import django_ratelimit.core


def pin_window(monkeypatch) -> None:
    """Every count of the test falls in the same window, however slow the machine and
    whenever the minute turns."""
    end = int(time.time()) + 3600
    monkeypatch.setattr(django_ratelimit.core, "_get_window", lambda value, period: end)


class RatelimitClock:
    """django-ratelimit's clock, and only its clock, at a time the test moves: windows turn
    as they would over the minutes the test says went by (``advance``)."""

    def __init__(self, monkeypatch, start: float = 1_800_000_000.0) -> None:
        self.now = start
        monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=self.time))

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
