"""Every named URL of the site, who may use it, and a real URL for each.

``ROUTES`` is the one list of who may do what. tests/project/test_security.py fails when a URL
pattern is added without an entry here, so a new page cannot ship without someone
deciding who may see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tournament.accounts import invitations
from tournament.door import services as door
from tournament.kernel import limits
from tournament.models import (
    Invitation,
    Person,
    Player,
    Series,
    SeriesTournament,
    SheetPhoto,
    Table,
    Tournament,
)


class Access(Enum):
    ANYONE = "anyone"  # not about one tournament: the home page, logging in, the health check
    PUBLIC = "public"  # a tournament's public pages: anyone, once it is published
    ACCOUNT = "account"  # any logged-in user: their own account, their own tournaments
    SCORER = "scorer"  # the tournament's scorers and its organiser
    ORGANISER = "organiser"  # the tournament's organiser only
    # The installation's organisers (granted "may organise", a superuser, or with
    # ORGANISERS=anyone whoever organises a tournament here): the register of people
    # (tournament/shared/permissions.py may_keep_people; tests/accounts/test_organisers.py).
    PEOPLE = "people"
    # Anyone holding the tournament's open door address (its token), logged in or not:
    # door check-in on a tablet (tournament/door/services.py).
    DOOR = "door"
    # Anyone holding a table's code (printed on its score sheet, carried by its QR code),
    # logged in or not: entry at the table on a phone (tournament/sheets/at_table.py).
    TABLE = "table"
    # Anyone holding a pending invitation link, logged in or not: choosing the password of
    # the scorer's account it names (tournament/accounts/invitations.py).
    INVITATION = "invitation"
    # A series' organiser (its owner) only, or a superuser; a 404 for anyone else
    # (tournament/series/owners.py).
    SERIES_OWNER = "series owner"
    # Anyone: a series' public pages, a person's career, a club (tournament/series/views/public.py),
    # which show only what published tournaments show.
    SERIES = "series"
    # Anyone holding a rehearsal's private link (its token), logged in or not: the link
    # opens the rehearsal's public pages (tournament/rehearsals/views.py private_link).
    REHEARSAL = "rehearsal"


@dataclass(frozen=True)
class Route:
    access: Access
    # The methods our own views allow (checked against their Allow header). None for
    # Django's own account views, whose methods are Django's business.
    methods: frozenset[str] | None

    @property
    def reads(self) -> bool:
        return self.methods is None or "GET" in self.methods

    @property
    def writes(self) -> bool:
        return self.methods is not None and "POST" in self.methods


def _route(access: Access, methods: str | None = "GET") -> Route:
    return Route(access, frozenset(methods.split()) if methods else None)


ROUTES: dict[str, Route] = {
    "healthz": _route(Access.ANYONE, "GET HEAD"),
    "home": _route(Access.ANYONE, "GET HEAD"),
    # The web app manifest and the public pages' service worker (tournament/public/pwa.py)
    "web_manifest": _route(Access.ANYONE, "GET HEAD"),
    "service_worker": _route(Access.ANYONE, "GET HEAD"),
    "offline": _route(Access.ANYONE, "GET HEAD"),
    # The site's icon at the address browsers ask for whatever a page's icon link says.
    "favicon": _route(Access.ANYONE, "GET HEAD"),
    # The guide, built from docs/ by MkDocs and served as files (tournament/kernel/guide.py).
    "guide": _route(Access.ANYONE, "GET HEAD"),
    "guide_file": _route(Access.ANYONE, "GET HEAD"),
    # django.contrib.auth.urls
    "login": _route(Access.ANYONE, None),
    "logout": _route(Access.ANYONE, None),
    "password_reset": _route(Access.ANYONE, None),
    "password_reset_done": _route(Access.ANYONE, None),
    "password_reset_confirm": _route(Access.ANYONE, None),
    "password_reset_complete": _route(Access.ANYONE, None),
    "password_change": _route(Access.ACCOUNT, None),
    "password_change_done": _route(Access.ACCOUNT, None),
    "invitation": _route(Access.INVITATION, "GET POST"),
    # Public pages
    "standings": _route(Access.PUBLIC, "GET HEAD"),
    "projector": _route(Access.PUBLIC, "GET HEAD"),
    "standings_csv": _route(Access.PUBLIC, "GET HEAD"),
    "tournament_json": _route(Access.PUBLIC, "GET HEAD"),
    "player": _route(Access.PUBLIC, "GET HEAD"),
    "player_card": _route(Access.PUBLIC, "GET HEAD"),
    "public_round": _route(Access.PUBLIC, "GET HEAD"),
    "final": _route(Access.PUBLIC, "GET HEAD"),
    "find_seat": _route(Access.PUBLIC, "GET HEAD"),
    # The standings widget other sites frame, and the overlay for a stream.
    "embed": _route(Access.PUBLIC, "GET HEAD"),
    "overlay": _route(Access.PUBLIC, "GET HEAD"),
    # Series, careers and clubs
    "series": _route(Access.SERIES, "GET HEAD"),
    "series_ratings": _route(Access.SERIES, "GET HEAD"),
    "series_standings_csv": _route(Access.SERIES, "GET HEAD"),
    "series_ratings_csv": _route(Access.SERIES, "GET HEAD"),
    "career": _route(Access.SERIES, "GET HEAD"),
    "club": _route(Access.SERIES, "GET HEAD"),
    # Organiser
    "organiser:home": _route(Access.ACCOUNT),
    # Any account with ORGANISERS=anyone, as in the tests; with "granted", only those
    # granted "may organise" (tests/accounts/test_organisers.py).
    "organiser:create": _route(Access.ACCOUNT, "GET POST"),
    # Who may create tournaments, for a tournament of their own (its organiser's, else 404).
    "organiser:rehearse": _route(Access.ACCOUNT, "POST"),
    # Who may create tournaments; with ?tournament= that tournament's organiser only.
    "organiser:advisor": _route(Access.ACCOUNT),
    "organiser:series_list": _route(Access.ACCOUNT),
    "organiser:series_create": _route(Access.ACCOUNT, "GET POST"),
    "organiser:series_request_accept": _route(Access.ACCOUNT, "POST"),
    "organiser:series_request_decline": _route(Access.ACCOUNT, "POST"),
    "organiser:series_detail": _route(Access.SERIES_OWNER, "GET POST"),
    "organiser:series_tournament_add": _route(Access.SERIES_OWNER, "POST"),
    "organiser:series_tournament_remove": _route(Access.SERIES_OWNER, "POST"),
    "organiser:dashboard": _route(Access.ORGANISER),
    "organiser:edit": _route(Access.ORGANISER, "GET POST"),
    "organiser:webhooks": _route(Access.ORGANISER, "GET POST"),
    "organiser:webhook_rotate": _route(Access.ORGANISER, "POST"),
    "organiser:webhook_switch": _route(Access.ORGANISER, "POST"),
    "organiser:webhook_remove": _route(Access.ORGANISER, "POST"),
    "organiser:webhook_ping": _route(Access.ORGANISER, "POST"),
    "organiser:rules": _route(Access.ORGANISER, "GET POST"),
    "organiser:tiebreak_add": _route(Access.ORGANISER, "POST"),
    "organiser:tiebreak_remove": _route(Access.ORGANISER, "POST"),
    "organiser:tiebreak_up": _route(Access.ORGANISER, "POST"),
    "organiser:tiebreak_down": _route(Access.ORGANISER, "POST"),
    "organiser:scorers": _route(Access.ORGANISER, "GET POST"),
    "organiser:scorer_unlock": _route(Access.ORGANISER, "POST"),
    "organiser:scorer_invite": _route(Access.ORGANISER, "POST"),
    "organiser:invitation_withdraw": _route(Access.ORGANISER, "POST"),
    "organiser:invitation_renew": _route(Access.ORGANISER, "POST"),
    "organiser:players": _route(Access.ORGANISER, "GET POST"),
    "organiser:players_import": _route(Access.ORGANISER, "POST"),
    "organiser:players_check_in_everyone": _route(Access.ORGANISER, "GET POST"),
    "organiser:keep_apart": _route(Access.ORGANISER, "POST"),
    "organiser:player_edit": _route(Access.ORGANISER, "GET POST"),
    "organiser:adjustment_add": _route(Access.ORGANISER, "POST"),
    "organiser:adjustment_remove": _route(Access.ORGANISER, "POST"),
    "organiser:player_check_in": _route(Access.ORGANISER, "POST"),
    "organiser:player_check_out": _route(Access.ORGANISER, "POST"),
    "organiser:player_drop": _route(Access.ORGANISER, "POST"),
    "organiser:player_return": _route(Access.ORGANISER, "POST"),
    "organiser:rounds": _route(Access.ORGANISER, "GET POST"),
    "organiser:round": _route(Access.ORGANISER),
    "organiser:round_regenerate": _route(Access.ORGANISER, "POST"),
    "organiser:round_swap": _route(Access.ORGANISER, "POST"),
    "organiser:round_start": _route(Access.ORGANISER, "POST"),
    "organiser:round_release": _route(Access.ORGANISER, "POST"),
    "organiser:round_withhold": _route(Access.ORGANISER, "POST"),
    "organiser:round_new_codes": _route(Access.ORGANISER, "POST"),
    "organiser:table_new_code": _route(Access.ORGANISER, "POST"),
    "organiser:clock_start": _route(Access.ORGANISER, "POST"),
    "organiser:clock_pause": _route(Access.ORGANISER, "POST"),
    "organiser:clock_resume": _route(Access.ORGANISER, "POST"),
    "organiser:clock_add": _route(Access.ORGANISER, "POST"),
    "organiser:clock_reset": _route(Access.ORGANISER, "POST"),
    "organiser:standings": _route(Access.ORGANISER),
    # The Publish page (the widget's and the overlay's snippets), and publishing.
    "organiser:publish": _route(Access.ORGANISER, "GET POST"),
    "organiser:rehearsal_remove": _route(Access.ORGANISER, "POST"),
    "organiser:rehearsal_play": _route(Access.ORGANISER, "POST"),
    "organiser:unpublish": _route(Access.ORGANISER, "POST"),
    "organiser:reveal": _route(Access.ORGANISER, "POST"),
    "organiser:finish": _route(Access.ORGANISER, "POST"),
    "organiser:unfinish": _route(Access.ORGANISER, "POST"),
    "organiser:scorer_remove": _route(Access.ORGANISER, "POST"),
    "organiser:keep_apart_remove": _route(Access.ORGANISER, "POST"),
    "organiser:players_people": _route(Access.ORGANISER),
    "organiser:players_people_auto": _route(Access.ORGANISER, "POST"),
    "organiser:player_person": _route(Access.ORGANISER, "POST"),
    "organiser:player_new_person": _route(Access.ORGANISER, "POST"),
    "organiser:player_unlink": _route(Access.ORGANISER, "POST"),
    # The register of people
    "people:list": _route(Access.PEOPLE),
    "people:add": _route(Access.PEOPLE, "POST"),
    "people:edit": _route(Access.PEOPLE, "GET POST"),
    "people:merge": _route(Access.PEOPLE, "GET POST"),
    "print:seating": _route(Access.ORGANISER),
    "print:sheets": _route(Access.ORGANISER),
    "print:rules_cards": _route(Access.ORGANISER),
    # Scorer
    "scorer:home": _route(Access.SCORER),
    "scorer:desk": _route(Access.SCORER),
    "scorer:sheet": _route(Access.SCORER, "GET POST"),
    "scorer:check": _route(Access.SCORER, "POST"),
    "scorer:sheet_leaves": _route(Access.SCORER, "POST"),
    "scorer:confirm_leaves": _route(Access.SCORER, "POST"),
    "scorer:confirm": _route(Access.SCORER, "GET POST"),
    "scorer:history": _route(Access.SCORER),
    # Reading photos of paper sheets (tournament/sheets/desk/views/photos.py): the photo
    # URLs name a photo of the tournament (``a_photo``), read, with its crops.
    "scorer:read_photo": _route(Access.SCORER, "GET POST"),
    "scorer:read_photos": _route(Access.SCORER, "GET POST"),
    "scorer:photos": _route(Access.SCORER),
    "scorer:photo_sheet": _route(Access.SCORER),
    "scorer:photo_image": _route(Access.SCORER),
    "scorer:photo_crop": _route(Access.SCORER),
    # Door check-in
    "door:setup": _route(Access.SCORER),
    "door:open": _route(Access.SCORER, "POST"),
    "door:close": _route(Access.SCORER, "POST"),
    "door:hand_over": _route(Access.SCORER, "POST"),
    "door:tablet": _route(Access.DOOR),
    # A rehearsal's private link
    "rehearsal_link": _route(Access.REHEARSAL),
    "door:check_in": _route(Access.DOOR, "POST"),
    "door:undo": _route(Access.DOOR, "POST"),
    # Entry at the table
    "table:code": _route(Access.TABLE, "GET POST"),
    "table:thanks": _route(Access.TABLE),
    "table:entry": _route(Access.TABLE),
    "table:deal": _route(Access.TABLE, "GET POST"),
    "table:review": _route(Access.TABLE, "GET POST"),
    "table:confirm": _route(Access.TABLE, "GET POST"),
    "table:left": _route(Access.TABLE, "GET POST"),
    "table:confirm_leaves": _route(Access.TABLE, "POST"),
    # The read API (tournament/api): anonymous and read-only; OPTIONS answers a browser's
    # CORS preflight. A tournament's resources are public once it is published, as its
    # pages are; the lists, the series and the careers are anyone's.
    "api:openapi": _route(Access.ANYONE, "GET HEAD OPTIONS"),
    "api:docs": _route(Access.ANYONE, "GET HEAD OPTIONS"),
    "api:tournaments": _route(Access.ANYONE, "GET HEAD OPTIONS"),
    "api:tournament": _route(Access.PUBLIC, "GET HEAD OPTIONS"),
    "api:standings": _route(Access.PUBLIC, "GET HEAD OPTIONS"),
    "api:round": _route(Access.PUBLIC, "GET HEAD OPTIONS"),
    "api:players": _route(Access.PUBLIC, "GET HEAD OPTIONS"),
    "api:player": _route(Access.PUBLIC, "GET HEAD OPTIONS"),
    "api:series_list": _route(Access.ANYONE, "GET HEAD OPTIONS"),
    "api:series": _route(Access.SERIES, "GET HEAD OPTIONS"),
    "api:series_standings": _route(Access.SERIES, "GET HEAD OPTIONS"),
    "api:series_ratings": _route(Access.SERIES, "GET HEAD OPTIONS"),
    "api:career": _route(Access.SERIES, "GET HEAD OPTIONS"),
}

TOURNAMENT_ACCESS = {
    Access.PUBLIC,
    Access.SCORER,
    Access.ORGANISER,
    Access.DOOR,
    Access.REHEARSAL,
}
# Reached by a table's code, not the tournament's slug: their URLs name no tournament, but
# a real one needs the tournament whose table's code it carries.
NEEDS_TOURNAMENT = TOURNAMENT_ACCESS | {Access.TABLE, Access.INVITATION}


@dataclass(frozen=True)
class Pattern:
    name: str
    kwargs: tuple[str, ...]  # the names of its converters, outer include()s' included
    module: str  # where its view is defined


def url_patterns() -> tuple[list[Pattern], list[str]]:
    """Every pattern outside the admin, and the unnamed ones' regexes (which cannot be
    reversed, so cannot be classified)."""
    found: list[Pattern] = []
    unnamed: list[str] = []

    def walk(patterns: list[Any], namespace: str, kwargs: tuple[str, ...], prefix: str) -> None:
        for entry in patterns:
            here = (*kwargs, *getattr(entry.pattern, "converters", {}))
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                if entry.namespace == "admin":
                    continue
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                walk(entry.url_patterns, inner, here, route)
            elif isinstance(entry, URLPattern):
                if not entry.name:
                    unnamed.append(route)
                    continue
                found.append(Pattern(namespace + entry.name, here, entry.callback.__module__))

    walk(get_resolver().url_patterns, "", (), "")
    return found, unnamed


def patterns_by_name() -> dict[str, Pattern]:
    return {pattern.name: pattern for pattern in url_patterns()[0]}


def a_series() -> Series:
    """The series the series pages' URLs name: the first there is, else a new one of
    olive's (the standing organiser) holding every tournament there is."""
    series = Series.objects.order_by("pk").first()
    if series is None:
        owner = get_user_model().objects.filter(username="olive").first()
        series = Series.objects.create(name="Test series", slug="test-series", owner=owner)
        for tournament in Tournament.objects.order_by("pk"):
            SeriesTournament.objects.create(series=series, tournament=tournament, accepted=True)
    return series


def a_person() -> Person:
    """The person the career and club pages' URLs name: the first linked to a player of a
    published tournament, else a new one linked to the first such player (made with a
    club). Without a published tournament, a person of no tournament, whose page is a 404:
    only a published tournament's people have one."""
    person = Person.objects.filter(players__tournament__published=True).order_by("pk").first()
    if person is not None:
        return person
    player = Player.objects.filter(tournament__published=True, person=None).order_by("pk").first()
    if player is None:
        return Person.objects.create(name="Nobody Yet", club="Test club")
    person = Person.objects.create(name=player.name, club=player.club or "Test club")
    player.person = person
    player.save(update_fields=["person"])
    return person


def a_rehearsal(tournament: Tournament) -> Tournament:
    """A rehearsal of ``tournament``, with its private link: a tournament of its own, so
    that ``tournament`` keeps its pages and forms (a rehearsal has no Publish)."""
    rehearsal, _ = Tournament.objects.get_or_create(
        slug=f"{tournament.slug}-rehearsal",
        defaults={
            "name": f"{tournament.name} (rehearsal)",
            "owner": tournament.owner,
            "rehearsal_of": tournament,
            "rehearsal_token": "route-rehearsal-token",
        },
    )
    return rehearsal


def a_photo(tournament: Tournament) -> SheetPhoto:
    """A photo of round 1, table 1's sheet of ``tournament``, read (tests/sheet_photos.py)."""
    from tests.sheet_photos import a_reading, read_photo

    found = SheetPhoto.objects.filter(round__tournament=tournament, state="read").first()
    if found is not None:
        return found
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    row = {"won": [12, 10, 10, 10], "last_in": 1, "left_over": 10}
    return read_photo(table, tournament.owner, a_reading(table, [row], [(1, "won", 1)]))


def url_for(name: str, tournament: Tournament | None = None) -> str:
    """A URL of ``name`` whose every part is real: ``tournament``'s slug, one of its
    players, round 1 and its table 1; a door page's, the tournament's open door (opened
    when it is closed); a table page's, the code of round 1's last table (whose sheet the
    fixtures leave alone), deal 1; an invitation page's, a new pending invitation to
    ``tournament``."""
    pattern = patterns_by_name()[name]
    values: dict[str, Any] = {"uidb64": "MQ", "token": "not-a-token", "code": "NOTACODE"}
    values["secret"] = "not-a-secret"
    values["path"] = "evening/"
    if tournament is not None:
        values |= {
            "slug": tournament.slug,
            "pk": Player.objects.filter(tournament=tournament).order_by("pk")[0].pk,
            "number": 1,
            "round": 1,
            "table": 1,
        }
        if ROUTES[name].access is Access.DOOR:
            values["token"] = door.door_token(tournament)
        if ROUTES[name].access is Access.REHEARSAL:
            rehearsal = a_rehearsal(tournament)
            values |= {"slug": rehearsal.slug, "token": rehearsal.rehearsal_token}
        if ROUTES[name].access is Access.INVITATION:
            values["secret"] = invitations.invite_scorer(
                tournament, f"invited-{Invitation.objects.count() + 1}", tournament.owner
            ).secret
        if {"photo", "batch"} & set(pattern.kwargs):
            photo = a_photo(tournament)
            values |= {"photo": photo.pk, "batch": photo.batch, "cell": "d1_s1"}
        last = Table.objects.filter(round__tournament=tournament, round__number=1)
        values["code"] = last.order_by("-number").values_list("code", flat=True).first()
    if "person" in pattern.kwargs:
        values["person"] = Person.objects.get_or_create(name="Route Person")[0].pk
    if "series" in pattern.kwargs:
        values["series"] = a_series().slug
    if {"identifier", "club"} & set(pattern.kwargs):
        person = a_person()
        values["identifier"] = person.identifier
        values["club"] = limits.slug_from_name(person.club_key)
    missing = set(pattern.kwargs) - set(values)
    assert not missing, f"tests/routes.py cannot fill {sorted(missing)} in {name}'s URL"
    return reverse(name, kwargs={key: values[key] for key in pattern.kwargs})
