"""The Content-Security-Policy, and pages that keep to it.

The policy allows scripts and styles from our own static files only, so every page —
and every fragment htmx swaps into one — must do without inline <script>, <style>,
style="…" and on…= handlers. Pages are taken from tests/routes.py, so a new page is
checked as soon as it is classified.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from tests.routes import NEEDS_TOURNAMENT, ROUTES, Access, url_for

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
}
URL_ATTRIBUTES = {"href", "src", "action", "formaction"}
# The one page any site may frame, the standings widget (tests/public/test_embed.py): its
# policy differs in that alone.
FRAMED_BY_ANY_SITE = {"embed"}

# Every test reads pages of the same two tournaments: built once per module
# (tests/conftest.py, ``world``), each test's own writes rolled back.
pytestmark = pytest.mark.world


class InlineCode(HTMLParser):
    """Collects whatever the policy would block: inline scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script" and not dict(attrs).get("src"):
            self.found.append(f"<{tag}> without src")
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name == "style":
                self.found.append(f'<{tag} style="{value}">')
            if name in URL_ATTRIBUTES and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")

    handle_startendtag = handle_starttag


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found


def policy_of(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    directives = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return dict(directives)


def assert_keeps_to_the_policy(response, what: str) -> None:
    framed = {"frame-ancestors": "*"} if what in FRAMED_BY_ANY_SITE else {}
    assert policy_of(response) == POLICY | framed, what
    if response["Content-Type"].startswith("text/html"):
        found = inline_code(response.content.decode())
        assert not found, f"{what}: {found}"


def test_the_checker_finds_what_the_policy_blocks():
    page = """<p style="color: red" onclick="go()">x</p><script>go()</script>
    <style>p {}</style><a href="javascript:go()">x</a><img src=x onerror=go()>
    <script src="/static/ok.js"></script><svg><path fill="#000" stroke="#000"/></svg>"""
    assert len(inline_code(page)) == 6


def test_the_policy_is_set_in_every_environment():
    """Not only in production: the tests and browser tests run under it too."""
    assert "csp.middleware.CSPMiddleware" in settings.MIDDLEWARE


@pytest.fixture
def people(client, organiser_client, scorer_client, outsider_client):
    return {
        Access.ANYONE: client,
        Access.PUBLIC: client,
        Access.ACCOUNT: outsider_client,
        Access.SCORER: scorer_client,
        Access.ORGANISER: organiser_client,
        Access.PEOPLE: organiser_client,
        Access.DOOR: client,
        Access.REHEARSAL: client,
        Access.TABLE: client,
        Access.INVITATION: client,
        Access.SERIES: client,
        Access.SERIES_OWNER: organiser_client,
    }


NOT_BUILT = {"guide", "guide_file"}


@pytest.mark.parametrize("name", sorted(name for name, route in ROUTES.items() if route.reads))
def test_every_page_keeps_to_the_policy(name, people, seated_round, world):
    access = ROUTES[name].access
    public = world["test-open"]
    tournament = public if access is Access.PUBLIC else seated_round.tournament
    url = url_for(name, tournament if access in NEEDS_TOURNAMENT else None)
    response = people[access].get(url)
    # The guide is not built in the tests (tests/conftest.py): /guide/ answers with the
    # page saying how to build it, under the site's policy. The built guide's pages and
    # their own policy are tests/kernel/test_guide.py's.
    answered = {404} if name in NOT_BUILT else {200, 302, 405}
    assert response.status_code in answered, name
    assert_keeps_to_the_policy(response, name)


@pytest.mark.parametrize("name", sorted(n for n, r in ROUTES.items() if r.access is Access.PUBLIC))
def test_public_pages_keep_to_the_policy_for_logged_in_users_too(name, organiser_client, world):
    """They carry the log-out form and the htmx CSRF header."""
    url = url_for(name, world["test-open"])
    response = organiser_client.get(url)
    assert response.status_code == 200
    assert_keeps_to_the_policy(response, name)


def test_the_player_page_draws_its_chart_without_inline_styles(client, world):
    response = client.get(url_for("player", world["test-open"]))
    html = response.content.decode()
    assert "<svg" in html
    assert_keeps_to_the_policy(response, "player")


def test_htmx_fragments_keep_to_the_policy(
    client, organiser_client, scorer_client, seated_round, world
):
    public = world["test-open"]
    private = seated_round.tournament
    htmx = {"HTTP_HX_REQUEST": "true"}
    fragments = {
        "standings search": client.get(url_for("standings", public), {"q": "Player"}, **htmx),
        "projector page": client.get(url_for("projector", public), **htmx),
        "scorers' desk": scorer_client.get(url_for("scorer:desk", private), **htmx),
        "live sheet check": scorer_client.post(url_for("scorer:check", private), {}, **htmx),
        "round action": organiser_client.post(
            url_for("organiser:round_release", private), {}, **htmx
        ),
        "tiebreak step": organiser_client.post(
            url_for("organiser:tiebreak_up", private), {"key": "x"}, **htmx
        ),
    }
    for what, response in fragments.items():
        assert response.status_code == 200, what
        assert_keeps_to_the_policy(response, what)


def test_the_lockout_page_keeps_to_the_policy(client, organiser):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "olive", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "olive", "password": "pw"})
    assert response.status_code == 429
    assert_keeps_to_the_policy(response, "lockout page")


def test_htmx_is_told_not_to_inject_its_indicator_styles(client, db):
    html = client.get(reverse("home")).content.decode()
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles": false""" in html
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    assert ".htmx-request .htmx-indicator" in css
