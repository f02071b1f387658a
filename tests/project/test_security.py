"""Who may reach what, proved over every URL pattern of the site (tests/routes.py says
who may), and CSRF protection on every form and htmx request.

Three standing users and a stranger: olive organises the private "club-night", simon
and sarah score it, oscar is logged in but has no part in it. "test-open" is a
published tournament none of them runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.commits import settle
from tests.routes import (
    NEEDS_TOURNAMENT,
    ROUTES,
    TOURNAMENT_ACCESS,
    Access,
    patterns_by_name,
    url_for,
    url_patterns,
)

TEMPLATES = Path(settings.BASE_DIR) / "templates"
REFUSED = {403, 404}
# The users and tournaments, built once per module (tests/conftest.py, ``world``).
pytestmark = pytest.mark.world


@pytest.fixture
def private(world):
    """A private tournament of 12 players owned by olive, scored by simon and sarah, whose
    round 1 is seated at three tables of four and started, no sheet entered yet."""
    return world["club-night"]


@pytest.fixture
def public(world):
    """A published tournament of two rounds played and released, run by nobody here."""
    return world["test-open"]


def csrf_client(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def is_login_redirect(response, url: str) -> bool:
    return response.status_code == 302 and response.url.startswith(f"{reverse('login')}?next=")


def database_contents() -> dict[str, list[dict]]:
    """Every row of the tournament app, to prove that a refused write wrote nothing (once
    what the setup's changes owed after their commit is done)."""
    settle()
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        # Auto-created: the tournaments' scorers.
        for model in apps.get_app_config("tournament").get_models(include_auto_created=True)
    }


def named(access: Access | set[Access], *, reads: bool | None = None, writes: bool | None = None):
    wanted = access if isinstance(access, set) else {access}
    return sorted(
        name
        for name, route in ROUTES.items()
        if route.access in wanted
        and (reads is None or route.reads == reads)
        and (writes is None or route.writes == writes)
    )


PRIVATE = {Access.SCORER, Access.ORGANISER}


# The list is complete -------------------------------------------------------------------


def test_every_url_pattern_is_classified():
    patterns, unnamed = url_patterns()
    assert not unnamed, f"Name these URL patterns so that they can be classified: {unnamed}"
    found = {pattern.name for pattern in patterns}
    assert found - ROUTES.keys() == set(), (
        "New URL patterns: say who may use them in tests/routes.py ROUTES"
    )
    assert ROUTES.keys() - found == set(), "ROUTES lists URL patterns that no longer exist"


def test_tournament_routes_are_exactly_those_with_a_slug():
    for name, pattern in patterns_by_name().items():
        has_slug = "slug" in pattern.kwargs
        assert has_slug == (ROUTES[name].access in TOURNAMENT_ACCESS), name


@pytest.mark.parametrize(
    "name", sorted(name for name, route in ROUTES.items() if route.methods is not None)
)
def test_our_views_allow_exactly_the_listed_methods(name, private, organiser_client):
    """A view that starts accepting POST must be listed as a write, and so be checked."""
    response = organiser_client.options(url_for(name, private))
    assert response.status_code == 405, name
    allowed = {method.strip() for method in response["Allow"].split(",")}
    assert allowed == ROUTES[name].methods, name


# Reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", named(Access.ANYONE, reads=True))
def test_anyone_may_open(name, client, db):
    response = client.get(url_for(name))
    # Logging out is a POST: a GET is not allowed, for anyone. The guide is not built for
    # the tests (tests/conftest.py): its pages say how to build it.
    expected = {"logout": 405, "guide": 404, "guide_file": 404}.get(name, 200)
    assert response.status_code == expected, name


@pytest.mark.parametrize("name", named(Access.PUBLIC))
def test_public_pages_are_public_once_published(name, client, outsider_client, public, private):
    assert client.get(url_for(name, public)).status_code == 200
    assert outsider_client.get(url_for(name, public)).status_code == 200
    # A private tournament's are not, not even whether it exists.
    assert client.get(url_for(name, private)).status_code == 404
    assert outsider_client.get(url_for(name, private)).status_code == 404
    # HEAD is answered as GET is (a link checker, a phone asking whether the site is back).
    got, head = client.get(url_for(name, public)), client.head(url_for(name, public))
    assert head.status_code == got.status_code, name
    assert head["Content-Type"] == got["Content-Type"], name
    assert head.content == b"", name


@pytest.mark.parametrize("name", named(PRIVATE | {Access.ACCOUNT}))
def test_anonymous_visitors_are_sent_to_log_in(name, client, private, public):
    for tournament in (private, public):
        url = url_for(name, tournament)
        assert is_login_redirect(client.get(url), url), name


@pytest.mark.parametrize("name", named(Access.ACCOUNT, reads=True))
def test_any_logged_in_user_may_open_their_own_pages(name, outsider_client, db):
    assert outsider_client.get(url_for(name)).status_code == 200


@pytest.mark.parametrize("name", named(PRIVATE))
def test_outsiders_are_refused(name, outsider_client, organiser_client, private, public):
    """Published or not, a tournament's private pages are refused to an outsider, and to
    the organiser of another tournament."""
    for method in ("get", "post"):
        for client, tournament in [
            (outsider_client, private),
            (outsider_client, public),
            (organiser_client, public),
        ]:
            response = getattr(client, method)(url_for(name, tournament))
            # 405 where the method is never allowed, for anyone.
            assert response.status_code in REFUSED | {405}, (name, method, tournament.slug)
            if method.upper() in ROUTES[name].methods:
                assert response.status_code in REFUSED, (name, method, tournament.slug)


@pytest.mark.parametrize("name", named(Access.ORGANISER))
def test_scorers_are_refused_the_organisers_pages(name, scorer_client, private):
    for method in sorted(ROUTES[name].methods):
        response = getattr(scorer_client, method.lower())(url_for(name, private))
        assert response.status_code == 403, (name, method)


@pytest.mark.parametrize("name", named(PRIVATE, reads=True))
def test_the_roles_that_may_read_a_page_get_it(name, organiser_client, scorer_client, private):
    """The refusals above are refusals, not URLs that lead nowhere."""
    url = url_for(name, private)
    response = organiser_client.get(url)
    assert response.status_code in {200, 302}, name
    if ROUTES[name].access is Access.SCORER:
        assert scorer_client.get(url).status_code == response.status_code, name


@pytest.mark.parametrize("name", named(Access.SERIES))
def test_series_careers_and_clubs_are_open_to_anyone(name, client, outsider_client, public):
    url = url_for(name, public)
    assert client.get(url).status_code == 200, name
    assert outsider_client.get(url).status_code == 200, name


@pytest.mark.parametrize("name", named(Access.SERIES_OWNER))
def test_a_series_pages_are_its_owners_alone(
    name, client, outsider_client, organiser_client, private, public
):
    """Anonymous visitors are sent to log in; anyone but the series' owner gets a 404 and
    changes nothing; the owner reads the page."""
    url = url_for(name, private)
    before = database_contents()
    for method in sorted(ROUTES[name].methods or ()):
        anonymous = getattr(client, method.lower())(url, {"tournament": public.slug})
        assert is_login_redirect(anonymous, url), (name, method)
        refused = getattr(outsider_client, method.lower())(url, {"tournament": public.slug})
        assert refused.status_code == 404, (name, method)
    assert database_contents() == before
    if ROUTES[name].reads:
        assert organiser_client.get(url).status_code == 200


@pytest.mark.parametrize("name", named(Access.TABLE, reads=True))
def test_the_table_pages_open_by_the_code_alone(name, client, outsider_client, private):
    for person in (client, outsider_client):
        assert person.get(url_for(name, private)).status_code == 200, name


def _wrong_code(url: str, private) -> str:
    code = url_for("table:entry", private).split("/")[2]
    assert code in url
    return url.replace(code, "ZZZZZZZZ")


@pytest.mark.parametrize(
    "name", sorted(n for n in named(Access.TABLE) if "code" in patterns_by_name()[n].kwargs)
)
def test_a_wrong_code_opens_nothing_and_writes_nothing(name, client, private):
    """The table pages of a wrong code are 404s, logged in or not, and a post to them
    writes nothing (``tests/table/test_table_entry.py`` has every other reason a code fails)."""
    url = _wrong_code(url_for(name, private), private)
    cache.clear()  # the wrong-code limit of earlier tests
    before = database_contents()
    for method in sorted(ROUTES[name].methods or ()):
        response = getattr(client, method.lower())(url, {"expected_version": "0", "d1_s1": "10"})
        assert response.status_code == 404, (name, method)
    assert database_contents() == before


# Writing ---------------------------------------------------------------------------------

# What an intruder would post: each would change something if it were let through (see
# test_the_organiser_may_make_these_writes).
ATTEMPTS = {
    "organiser:publish": {},
    "organiser:scorers": {"username": "oscar"},
    "organiser:scorer_invite": {"invite-username": "intruder"},
    "organiser:player_drop": {},
    "organiser:players": {"name": "Intruder", "club": "Nowhere"},
    "organiser:round_release": {"confirm": "on"},
}


@pytest.mark.parametrize("name", named(PRIVATE, writes=True))
def test_refused_writes_write_nothing(
    name, client, outsider_client, organiser_client, scorer_client, private, public
):
    attempts = [(client, private), (outsider_client, private), (outsider_client, public)]
    attempts.append((organiser_client, public))  # another tournament's organiser
    if ROUTES[name].access is Access.ORGANISER:
        attempts.append((scorer_client, private))
    before = database_contents()
    for person, tournament in attempts:
        url = url_for(name, tournament)
        response = person.post(url, ATTEMPTS.get(name, {}))
        if person is client:
            assert is_login_redirect(response, url), name
        else:
            assert response.status_code in REFUSED, (name, tournament.slug)
    assert database_contents() == before


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_the_organiser_may_make_these_writes(name, organiser_client, private, outsider):
    before = database_contents()
    response = organiser_client.post(url_for(name, private), ATTEMPTS[name])
    assert response.status_code < 400
    assert database_contents() != before


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_posts_without_a_csrf_token_are_refused(name, private, organiser):
    url = url_for(name, private if ROUTES[name].access in NEEDS_TOURNAMENT else None)
    before = database_contents()
    for client in (csrf_client(), csrf_client(organiser)):
        response = client.post(url, ATTEMPTS.get(name, {}))
        assert response.status_code == 403, name
    assert database_contents() == before


def test_the_login_form_itself_needs_the_csrf_token(organiser):
    client = csrf_client()
    response = client.post(reverse("login"), {"username": "olive", "password": "pw"})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


# The admin --------------------------------------------------------------------------------


def test_the_admin_is_for_staff_only(client, outsider_client, organiser, django_user_model):
    admin_login = reverse("admin:login")
    for person in (client, outsider_client):
        response = person.get(reverse("admin:index"))
        assert response.status_code == 302
        assert response.url.startswith(admin_login)
    # Organising a tournament is not being staff.
    organiser_client = Client()
    organiser_client.force_login(organiser)
    assert organiser_client.get(reverse("admin:index")).status_code == 302
    staff = django_user_model.objects.create_user("stella", password="pw", is_staff=True)
    staff_client = Client()
    staff_client.force_login(staff)
    assert staff_client.get(reverse("admin:index")).status_code == 200


def test_the_admin_login_is_rate_limited_too(db, django_user_model):
    django_user_model.objects.create_user("stella", password="pw", is_staff=True)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("admin:login"), {"username": "stella", "password": "wrong"})
    response = client.post(reverse("admin:login"), {"username": "stella", "password": "pw"})
    assert response.status_code == 429


# CSRF in forms and htmx ------------------------------------------------------------------

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.DOTALL | re.IGNORECASE)
POST_METHOD = re.compile(r"""\bmethod\s*=\s*["']?post\b""", re.IGNORECASE)
HX_WRITE = re.compile(r"\bhx-(post|put|patch|delete)\s*=", re.IGNORECASE)


def template_files() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def test_every_post_form_in_our_templates_carries_the_csrf_token():
    checked = 0
    for path in template_files():
        for form in FORM.findall(path.read_text()):
            if POST_METHOD.search(form) or HX_WRITE.search(form):
                checked += 1
                assert "{% csrf_token %}" in form, f"{path.relative_to(TEMPLATES)}: {form[:120]}"
    assert checked >= 10  # the pattern still finds the forms


def test_htmx_writes_are_made_from_forms_or_inside_the_page_body():
    """hx-post outside a form sends no csrfmiddlewaretoken: it relies on the X-CSRFToken
    header that base.html puts on <body>, so every such template must extend base.html."""
    for path in template_files():
        text = path.read_text()
        outside_forms = FORM.sub("", text)
        if HX_WRITE.search(outside_forms):
            assert '{% extends "base.html" %}' in text, path


def csrf_header_of(html: str) -> str:
    match = re.search(r"<body [^>]*hx-headers='([^']*)'", html)
    assert match, "no hx-headers on <body>"
    return json.loads(match.group(1))["X-CSRFToken"]


def test_htmx_requests_of_logged_in_users_carry_the_csrf_token(scorer, private):
    client = csrf_client(scorer)
    sheet = url_for("scorer:sheet", private)
    token = csrf_header_of(client.get(sheet).content.decode())
    check = url_for("scorer:check", private)
    htmx = {"HTTP_HX_REQUEST": "true"}
    assert client.post(check, {}, **htmx).status_code == 403
    assert client.post(check, {}, HTTP_X_CSRFTOKEN=token, **htmx).status_code == 200


def test_anonymous_pages_carry_no_csrf_token(client, public):
    """Public pages are cached for everyone: a token in them would be shared."""
    html = client.get(url_for("standings", public)).content.decode()
    assert "hx-headers" not in html
    assert "csrfmiddlewaretoken" not in html
