"""What a test's changes owe after their commit, done now (``settle``): the conftest's
``after_commit`` fixture registers the running test's, so a helper that builds rows
(``make_series``, the factories) can hand back what its commit would have left."""

from __future__ import annotations

from collections.abc import Callable

_owed: list[Callable[[], None]] = []


def register(flush: Callable[[], None]) -> None:
    _owed.append(flush)


def unregister(flush: Callable[[], None]) -> None:
    _owed.remove(flush)


def settle() -> None:
    """Run the after-commit work the running test's changes owe (none outside a test in
    one transaction)."""
    if _owed:
        _owed[-1]()
