"""A value another release left in Redis, naming a class this release moved, is a miss:
the page is made again from the database, never a 500 (tournament/kernel/cache.py)."""

import pickle
import sys
import types

import pytest
import redis

from tournament.kernel.cache import FallbackRedisCache


@pytest.fixture
def cache_over_redis(monkeypatch):
    cache = FallbackRedisCache("redis://127.0.0.1:6399/0", {})
    monkeypatch.setattr(cache._health, "usable", lambda: True)
    return cache


def pickled_moved() -> bytes:
    """A page as the release before the packages pickled it: a ``StoredPage`` of the
    module ``tournament.public_cache``, which this release no longer has."""
    old = types.ModuleType("tournament.public_cache")
    old.StoredPage = type("StoredPage", (), {"__module__": old.__name__})
    sys.modules[old.__name__] = old
    try:
        return pickle.dumps(old.StoredPage(), pickle.HIGHEST_PROTOCOL)
    finally:
        del sys.modules[old.__name__]


def test_a_value_naming_a_moved_class_is_a_miss(cache_over_redis, monkeypatch):
    stored = pickled_moved()
    with pytest.raises(ModuleNotFoundError):
        pickle.loads(stored)
    monkeypatch.setattr(redis.Redis, "get", lambda self, key: stored)
    assert cache_over_redis.get("page", "made again") == "made again"


def test_values_naming_a_moved_class_are_misses_in_a_batch(cache_over_redis, monkeypatch):
    stored = pickled_moved()
    monkeypatch.setattr(redis.Redis, "mget", lambda self, keys: [stored for _ in keys])
    assert cache_over_redis.get_many(["a", "b"]) == {}


def test_a_value_this_release_reads_is_read(cache_over_redis, monkeypatch):
    monkeypatch.setattr(redis.Redis, "get", lambda self, key: pickle.dumps({"points": 26}))
    assert cache_over_redis.get("page") == {"points": 26}
