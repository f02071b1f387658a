"""Every response to a logged-in user is marked ``Cache-Control: private, no-store``,
so no shared cache (a proxy, the pub's wifi box) keeps a page with someone's name and
CSRF token; anonymous visitors' public pages keep their own headers."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.views.decorators.cache import cache_control

from tests.routes import NEEDS_TOURNAMENT, ROUTES, Access, url_for
from tournament.kernel.middleware import PrivateWhenLoggedInMiddleware

# Every test reads pages of the same two tournaments: built once per module
# (tests/conftest.py, ``world``), each test's own writes rolled back.
pytestmark = pytest.mark.world


@pytest.fixture
def private(seated_round):
    return seated_round.tournament


@pytest.fixture
def public(world):
    """A published tournament of two rounds played and released."""
    return world["test-open"]


def directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


# The read API is anonymous: it drops cookies and answers a logged-in visitor exactly as
# anyone, so its answers are public whoever asks (tests/api/test_api.py).
ANONYMOUS_ALWAYS = {name for name in ROUTES if name.startswith("api:")}


@pytest.mark.parametrize("name", sorted(set(ROUTES) - ANONYMOUS_ALWAYS))
def test_every_page_a_logged_in_user_gets_is_private(name, organiser, private):
    client = Client()
    client.force_login(organiser)
    # The organiser's private tournament is visible to them on its public pages too.
    url = url_for(name, private if ROUTES[name].access in NEEDS_TOURNAMENT else None)
    for response in (client.get(url), client.post(url, {})):
        assert {"private", "no-store"} <= directives(response), (name, response.status_code)
        assert "public" not in directives(response)


def test_public_pages_of_a_logged_in_user_are_private(organiser_client, public):
    for name in [
        name
        for name, route in ROUTES.items()
        if route.access is Access.PUBLIC and name not in ANONYMOUS_ALWAYS
    ]:
        response = organiser_client.get(url_for(name, public))
        assert response.status_code == 200
        assert {"private", "no-store"} <= directives(response), name


def test_logging_in_is_answered_privately(client, organiser):
    response = client.post(reverse("login"), {"username": "olive", "password": "pw"})
    assert response.status_code == 302
    assert {"private", "no-store"} <= directives(response)


@pytest.mark.parametrize("name", sorted(n for n, r in ROUTES.items() if r.access is Access.PUBLIC))
@pytest.mark.usefixtures("empty_cache")
def test_anonymous_visitors_public_pages_keep_their_headers(client, public, name):
    for _ in range(2):  # the first from the view, the second from the cache
        response = client.get(url_for(name, public))
        assert response.status_code == 200
        assert not directives(response) & {"private", "no-store"}, name


def test_a_views_own_header_is_kept_but_made_private(rf, organiser):
    view = cache_control(public=True, max_age=60)(lambda request: HttpResponse("ok"))
    request = rf.get("/")
    request.user = organiser
    response = PrivateWhenLoggedInMiddleware(view)(request)
    assert directives(response) == {"private", "no-store", "max-age=60"}
