"""What the accessibility sweep (tests/browser/test_accessibility.py) checks with axe-core:
every page of tests/routes.py that answers with HTML, as each of four people, at a phone's
and a laptop's size. A page is keyed by (route, role, viewport): the name of its URL
pattern, who the person is to the tournament it shows, and the size it was shown at.

``new_page`` (tests/browser/conftest.py) opens again, after a test, only the pages whose
key the sweep has not checked; the pages still open at the test's end, in whatever state
the test left them (a refused form, a swapped fragment, a card, the offline banner), are
checked as they stand.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.urls import Resolver404, resolve
from playwright.sync_api import BrowserContext

from tests.routes import ROUTES, Access
from tournament.models import Table, Tournament

# The four people, by their part in the tournament the sweep opens: its organiser, one of
# its scorers, someone logged in with no part in it, and someone not logged in.
ORGANISER, SCORER, OUTSIDER, ANONYMOUS = "organiser", "scorer", "outsider", "anonymous"
ROLES = (ORGANISER, SCORER, OUTSIDER, ANONYMOUS)
USERNAMES = {ORGANISER: "olive", SCORER: "simon", OUTSIDER: "oscar"}

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1280, "height": 900}}

# Routes that answer with something other than a page: data, a script, a redirect, a
# fragment a page fetches (the player's card, checked inside the pages that show it).
NOT_PAGES = {
    "player_card",
    "favicon",
    # The guide: MkDocs' pages, not the site's templates (tests/browser/test_guide.py).
    "guide",
    "guide_file",
    # Sets the rehearsal's cookie and sends the visitor on to its standings.
    "rehearsal_link",
    "healthz",
    "web_manifest",
    "service_worker",
    "logout",
    "standings_csv",
    "tournament_json",
    "series_standings_csv",
    "series_ratings_csv",
    # A photo of a paper sheet and a cell's crop of it: images (tests/sheets/desk).
    "scorer:photo_image",
    "scorer:photo_crop",
    # The read API's JSON (its reference, api:docs, is a page).
    "api:openapi",
    "api:tournaments",
    "api:tournament",
    "api:standings",
    "api:round",
    "api:players",
    "api:player",
    "api:series_list",
    "api:series",
    "api:series_standings",
    "api:series_ratings",
    "api:career",
}

# Who may open the routes of each kind of access (tests/routes.py).
OPEN_TO = {
    Access.ANYONE: set(ROLES),
    Access.PUBLIC: set(ROLES),
    Access.SERIES: set(ROLES),
    Access.DOOR: set(ROLES),
    Access.TABLE: set(ROLES),
    Access.INVITATION: set(ROLES),
    Access.REHEARSAL: set(ROLES),
    Access.ACCOUNT: {ORGANISER, SCORER, OUTSIDER},
    Access.SCORER: {ORGANISER, SCORER},
    Access.ORGANISER: {ORGANISER},
    Access.PEOPLE: {ORGANISER},
    Access.SERIES_OWNER: {ORGANISER},
}


def pages_for(role: str) -> list[str]:
    """The names of the routes the sweep opens as ``role`` and checks."""
    return sorted(
        name
        for name, route in ROUTES.items()
        if route.reads and name not in NOT_PAGES and role in OPEN_TO[route.access]
    )


SWEPT = {
    (name, role, viewport) for role in ROLES for viewport in VIEWPORTS for name in pages_for(role)
}


def viewport_of(width: int) -> str:
    """The sweep's size a page of ``width`` pixels was shown at. A screen wider than a
    laptop's (a projector's 1920 px) counts as a laptop: no rule of static/css changes
    above 64rem (1024 px), so such a page is the laptop's, only its type (sized by the
    screen's width on the projector) larger, which axe-core's contrast rule asks less of."""
    return "phone" if width < 600 else "laptop"


def role_of(context: BrowserContext, path: str) -> str:
    """Who the person of ``context`` is to the tournament of the page at ``path`` (to any
    tournament, on a page of none)."""
    session_key = next((c["value"] for c in context.cookies() if c["name"] == "sessionid"), "")
    session = Session.objects.filter(session_key=session_key).first()
    user_id = session.get_decoded().get("_auth_user_id") if session else None
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is None:
        return ANONYMOUS
    try:
        kwargs = resolve(path).kwargs
    except Resolver404:
        kwargs = {}
    tournaments = Tournament.objects.all()
    if "slug" in kwargs:
        tournaments = tournaments.filter(slug=kwargs["slug"])
    elif "code" in kwargs:
        tables = Table.objects.filter(code=kwargs["code"])
        tournaments = tournaments.filter(rounds__tables__in=tables)
    if tournaments.filter(owner=user).exists():
        return ORGANISER
    if tournaments.filter(scorers=user).exists():
        return SCORER
    return OUTSIDER


def route_of(path: str) -> str | None:
    try:
        return resolve(path).view_name
    except Resolver404:
        return None


def swept(context: BrowserContext, url: str, width: int) -> bool:
    """Whether the sweep checks the page at ``url``, shown in ``context`` at ``width``."""
    from urllib.parse import urlsplit

    path = urlsplit(url).path
    name, viewport = route_of(path), viewport_of(width)
    if name is None:
        return False
    return (name, role_of(context, path), viewport) in SWEPT
