"""Each public page from the public pages' cache (``tournament.public.cache``): a hit is the
stored final response, answered without a single database query, and a client that
accepts gzip gets the page compressed once, from the view and from the cache alike.

Every test reads the pages of the same published tournament of two released rounds: built
once per module (tests/conftest.py, ``world``), the cache emptied before each test."""

from __future__ import annotations

import gzip

import pytest

from tests.routes import ROUTES, Access, url_for
from tournament.public import cache as public_cache

PUBLIC = sorted(name for name, route in ROUTES.items() if route.access is Access.PUBLIC)

pytestmark = [pytest.mark.world, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture
def tournament(world):
    return world["test-open"]


@pytest.mark.parametrize("name", PUBLIC)
def test_a_cache_hit_costs_no_query_and_is_the_whole_response(
    client, tournament, django_assert_num_queries, name
):
    url = url_for(name, tournament)
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200
    assert again.content == first.content or public_cache.NOW_MARKER not in again.content.decode()
    for header in ("Content-Type", "Content-Disposition", "ETag", "Last-Modified", "Vary"):
        assert again.get(header) == first.get(header), header
    # Every other middleware's headers are kept with the page (the standings widget's
    # override of them too: tests/public/test_embed.py).
    for header in ("X-Frame-Options", "Content-Security-Policy"):
        assert again.get(header) == first.get(header), header
    assert first.has_header("Content-Security-Policy")


@pytest.mark.parametrize("name", PUBLIC)
def test_public_pages_are_gzipped_once_for_clients_that_accept_it(client, tournament, name):
    url = url_for(name, tournament)
    plain = client.get(url)
    assert not plain.has_header("Content-Encoding")
    assert "Accept-Encoding" in plain["Vary"]
    for _ in range(2):  # from the view, then from the cache
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert packed["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.content) == plain.content
        assert len(packed.content) < len(plain.content)
        assert packed["ETag"] == plain["ETag"]
