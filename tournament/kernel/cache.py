"""The cache as an accelerator, never a dependency: Redis, with this process's own memory
in its place while Redis is down or full.

Everything the app keeps in the cache is either made again from the database when it is
missing (the public pages, the public results, the series' figures) or a short count
(wrong table codes per address, ``sheets.at_table``). So a Redis that does not
answer, or that refuses writes (full under ``maxmemory-policy noeviction``), must cost
speed, never a page. ``FallbackRedisCache`` is Django's Redis backend that catches
Redis's errors on every operation and does the operation on a local-memory cache of this
process instead: exactly the set-up without ``CACHE_URL``, where each worker caches
pages and counts wrong codes on its own.

Terms:

- *degraded*: this process found Redis failing and uses its own memory. It then leaves
  Redis alone for ``RETRY_SECONDS`` (a request must not wait for a dead server's
  timeout each time), then one request tries a write (a read would succeed on a full
  Redis); when that succeeds, Redis is used again.
- *problem*: what went wrong, in words that name no host (``/healthz`` is public):
  unreachable, full, read-only, failing. The log has the full error.

Switching stores loses nothing and serves nothing stale: every key the app writes holds
the version of what it caches (a tournament's generation, a series' version), and
nothing is deleted to make an entry stale, so whatever either store holds under a key is
right for that key. Wrong-code counts start again from zero at a switch: at most one
more minute's worth of guesses, against about 10¹² codes (``codes``).

A value that another release of the site pickled and this one cannot read back (a class
that moved) is a miss, made again from the database.

``cache_status`` says how the cache is for ``/healthz``.
"""

from __future__ import annotations

import logging
import pickle
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.utils import timezone
from redis.exceptions import (
    ConnectionError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisError,
    TimeoutError,
)

logger = logging.getLogger(__name__)

# How long a process keeps to its own memory after Redis failed before trying again.
RETRY_SECONDS = 10.0
# The most often a process logs that Redis is failing (the first failure at once).
WARN_SECONDS = 60.0
# redis-py waits 5 s by default; a Redis on the private network answers in a millisecond
# or is gone (a host down, a firewall dropping packets). CACHE_URL's query overrides them:
# redis://cache.internal:6379/0?socket_timeout=5
_TIMEOUTS = {"socket_connect_timeout": 1, "socket_timeout": 2}
_PROBE_KEY = "lld:cache-probe"


def _problem(error: Exception) -> str:
    if isinstance(error, OutOfMemoryError):
        return "full"
    if isinstance(error, ReadOnlyError):
        return "read-only"
    if isinstance(error, ConnectionError | TimeoutError):
        return "unreachable"
    return "failing"


# Redis's error text may quote the command it refused, value and all (a pickled page):
# the log keeps the start of it, in printable ASCII.
_SAID_MAX = 160


def _said(error: Exception) -> str:
    text = ascii(str(error))[1:-1]
    return text if len(text) <= _SAID_MAX else text[:_SAID_MAX] + "..."


def _shown(location: str) -> str:
    """The server's address without the password a Redis URL may hold."""
    parts = urlsplit(location)
    if not parts.hostname:
        return location.split("@")[-1]
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path}"


@dataclass
class Health:
    """What this process knows of one Redis server (shared by its threads)."""

    location: str
    since: datetime | None = None  # degraded since; None while Redis answers
    problem: str = ""
    retry_at: float = 0.0
    warned_at: float = float("-inf")
    unreported: int = 0  # failures since the last warning
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def usable(self) -> bool | None:
        """True while Redis answers, False while degraded, None when this thread should
        try Redis again (the others keep to memory meanwhile)."""
        if self.since is None:
            return True
        with self.lock:
            if self.since is None:
                return True
            now = time.monotonic()
            if now < self.retry_at:
                return False
            self.retry_at = now + RETRY_SECONDS
            return None

    def failed(self, error: Exception) -> None:
        now = time.monotonic()
        with self.lock:
            if self.since is None:
                self.since = timezone.now()
            self.problem = _problem(error)
            self.retry_at = now + RETRY_SECONDS
            self.unreported += 1
            if now - self.warned_at < WARN_SECONDS:
                return
            self.warned_at = now
            failures, self.unreported = self.unreported, 0
        logger.warning(
            "The cache at %s is %s (%s: %s; %d failure(s) since the last warning): this "
            "process serves pages from the database and counts limits on its own, and tries "
            "the cache again every %d s.",
            _shown(self.location),
            self.problem,
            type(error).__name__,
            _said(error),
            failures,
            RETRY_SECONDS,
        )

    def answered(self) -> None:
        with self.lock:
            since, self.since = self.since, None
            self.problem, self.unreported, self.warned_at = "", 0, float("-inf")
        if since is not None:
            logger.warning(
                "The cache at %s answers again (degraded since %s).",
                _shown(self.location),
                since.isoformat(timespec="seconds"),
            )

    def status(self) -> str:
        since = self.since
        if since is None:
            return "ok"
        return (
            f"degraded ({self.problem} since {since.isoformat(timespec='seconds')}: pages "
            "from the database, limits counted by each worker)"
        )


# A value another release pickled, naming a class that moved or went (Redis outlives an
# upgrade, and old and new workers share it for a moment): a miss, as an expired value.
_OLDER_RELEASE = (ImportError, AttributeError, pickle.UnpicklingError)


def _dropped(error: Exception) -> None:
    logger.info("A cached value of another release was passed over: %s", error)


_HEALTH: dict[str, Health] = {}
_HEALTH_LOCK = threading.Lock()


def _health(location: str) -> Health:
    with _HEALTH_LOCK:
        return _HEALTH.setdefault(location, Health(location))


class FallbackRedisCache(RedisCache):
    """Django's Redis cache, each operation done on this process's memory when Redis
    fails (module docstring). ``settings`` uses it for a ``redis://`` ``CACHE_URL``."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = {**_TIMEOUTS, **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        location = server if isinstance(server, str) else ",".join(server)
        self._health = _health(location)
        # The same timeout, prefix and version as Redis; the default size of the cache
        # without CACHE_URL. Shared by the threads of the process, like that one.
        memory = {name: value for name, value in params.items() if name != "OPTIONS"}
        self._memory = LocMemCache(f"lld-instead-of:{location}", memory)

    def _either(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        usable = self._health.usable()
        if usable is None:
            usable = self.check() == "ok"
        if usable:
            try:
                return getattr(super(), operation)(*args, **kwargs)
            except RedisError as error:
                self._health.failed(error)
        return getattr(self._memory, operation)(*args, **kwargs)

    def check(self) -> str:
        """Try a write now, whatever the last failure, and say how the cache is."""
        try:
            super().set(_PROBE_KEY, 1, 60)
        except RedisError as error:
            self._health.failed(error)
        else:
            self._health.answered()
        return self._health.status()

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        try:
            return self._either("get", key, default, version)
        except _OLDER_RELEASE as error:
            _dropped(error)
            return default

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        try:
            return self._either("get_many", keys, version)
        except _OLDER_RELEASE as error:
            _dropped(error)
            return {}

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        # What this process kept in Redis's place is forgotten too.
        self._memory.clear()
        return self._either("clear")


def cache_status() -> str:
    """``ok``, or ``degraded (…)`` with why, since when and what it means: for
    ``/healthz``. A Redis cache is tried with a write; the in-process cache is always
    ok."""
    check = getattr(caches["default"], "check", None)
    return check() if check is not None else "ok"
