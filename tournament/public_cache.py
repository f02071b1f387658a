"""Caching of the public pages.

A room full of phones refreshing at release time must not slow down score entry, so
public pages are served from Django's cache (local memory by default, a cache server
through ``CACHE_URL``). The cache key holds ``Tournament.public_changed``, the time
anything shown publicly last changed: bumping it (``mark_changed``) makes every cached
page of that tournament stale at once, with no list of keys to delete.

Only anonymous visitors' GET requests are cached: a logged-in user's page carries their
name and a CSRF token.

Conditional requests: every cached page carries an ``ETag`` made from its cache key, and a
request whose ``If-None-Match`` names it is answered ``304 Not Modified`` after the one
query that reads ``public_changed``, without rendering or even reading the cache. The
screens that follow the evening (``static/js/live.js``) poll this way: a room of phones
costs a tiny request each until something changes (docs/live-updates.md).

Pages with a running clock show the server's time at *serving*, not at rendering: they
write ``NOW_MARKER`` (``clock`` template tags), replaced on the way out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial, wraps
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpResponse, HttpResponseNotModified, QueryDict
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import urlencode

from tournament.http import HtmxHttpRequest
from tournament.models import (
    Bye,
    KeepApart,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    Table,
    Tournament,
)

TIMEOUT = 60 * 60
_KEPT_HEADERS = ("Content-Type", "Content-Disposition")
_VARY = ["HX-Request", "HX-History-Restore-Request", "Cookie"]
NOW_MARKER = "lld-server-now-at-serving"


def mark_changed(tournament_id: int) -> None:
    Tournament.objects.filter(pk=tournament_id).update(public_changed=timezone.now())


def public_version(tournament: Tournament) -> str:
    """What a tournament's public data stand at: a value that moves whenever anything
    shown publicly changes (``mark_changed``). Keys of cached public data hold it, so a
    change makes them all stale at once."""
    return str(tournament.public_changed.timestamp())


def wants_fragment(request: HtmxHttpRequest) -> bool:
    """An htmx request for the region it swaps. Restoring a pushed URL from history (the
    browser's copy is gone) asks for the whole page, though htmx sends it."""
    htmx = request.htmx
    return bool(htmx) and not htmx.history_restore_request


# Page numbers past this are all "the last page" to the views.
MAX_PAGE = 1000
SEARCH_MAX = 200

Normaliser = Callable[[str], str]


def page_number(value: str) -> str:
    """A page number from 2 up as digits; anything else is page 1 (empty)."""
    try:
        number = int(value)
    except ValueError:
        return ""
    return str(min(number, MAX_PAGE)) if number > 1 else ""


def search_text(value: str) -> str:
    return value.strip()[:SEARCH_MAX]


def _normalised_query(request: HtmxHttpRequest, reads: Mapping[str, Normaliser]) -> QueryDict:
    values = {name: normalise(request.GET.get(name, "")) for name, normalise in reads.items()}
    return QueryDict(urlencode({name: value for name, value in values.items() if value}))


def cached_public_page(
    view: Callable[..., HttpResponse] | None = None, *, reads: Mapping[str, Normaliser] = {}
) -> Any:
    """Serve an anonymous GET of a public page of ``slug`` from the cache.

    The view sees only the query parameters named in ``reads``, each normalised by its
    function (an empty result drops it), and the cache key holds exactly those: any other
    query string shares the page's entry instead of crowding real pages out of the cache.
    """
    if view is None:
        return partial(cached_public_page, reads=reads)

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        request.GET = _normalised_query(request, reads)  # type: ignore[assignment]
        if request.method != "GET" or request.user.is_authenticated or _own_page(request):
            return view(request, slug, *args, **kwargs)
        found = Tournament.objects.filter(slug=slug, published=True).values_list(
            "pk", "public_changed"
        )
        if not found:
            return view(request, slug, *args, **kwargs)
        ((pk, changed),) = found
        request.stamps_now = True  # type: ignore[attr-defined]
        htmx = "htmx" if wants_fragment(request) else "page"
        key = (
            f"lld:public:{pk}:{changed.timestamp()}:{htmx}:{request.path}?{request.GET.urlencode()}"
        )
        etag = page_etag(key)
        request.public_etag = etag  # type: ignore[attr-defined]
        response: HttpResponse
        if etag_matches(request.headers.get("If-None-Match", ""), etag):
            response = HttpResponseNotModified()
        else:
            response = _cached_response(key, lambda: view(request, slug, *args, **kwargs))
        if response.status_code == 304 or (response.status_code == 200 and not response.cookies):
            response["ETag"] = etag
            # Keep it, but ask each time: the answer is a 304 until the page changes.
            patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, _VARY)
        return response

    return wrapper


def _cached_response(key: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    stored = cache.get(key)
    if stored is not None:
        status, headers, content = stored
        response = HttpResponse(content, status=status)
        for name, value in headers.items():
            response[name] = value
    else:
        response = render()
        if response.status_code == 200 and not response.cookies:
            headers = {h: response[h] for h in _KEPT_HEADERS if response.has_header(h)}
            cache.set(key, (response.status_code, headers, response.content), TIMEOUT)
    marker = NOW_MARKER.encode()
    if marker in response.content:
        response.content = response.content.replace(marker, instant(timezone.now()).encode())
    return response


def instant(moment: datetime) -> str:
    """ISO 8601 in UTC to the millisecond, as every browser's ``Date.parse`` reads it."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def page_etag(key: str) -> str:
    """Weak: the page's bytes differ by the serving time its clock carries."""
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag``, compared weakly (RFC 9110, 13.1.2)."""
    opaque = etag.removeprefix("W/")
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == opaque:
            return True
    return False


def _own_page(request: HtmxHttpRequest) -> bool:
    """A visitor with a session or a message waiting (logged out since, say) may see a
    page of their own, with a flash message in it: it is neither served from the shared
    cache nor put there for everyone else."""
    return (
        settings.SESSION_COOKIE_NAME in request.COOKIES
        or CookieStorage.cookie_name in request.COOKIES
    )


# What of a round the public pages show besides its results: whether it has started
# (its seating is then public, unless the tournament keeps it private) and its clock.
_PUBLIC_ROUND_FIELDS = frozenset({"released", "started", "clock_ends", "clock_left"})


def _round_change_is_public(instance: Round, saved: bool, signal_kwargs: dict[str, Any]) -> bool:
    if instance.released or instance.started:
        return True
    # Creating or deleting a round not yet started shows nowhere publicly, nor does
    # seeding one; a save that may have withheld or un-started it (a full save, or one
    # of the fields above) does.
    if not saved or signal_kwargs.get("created"):
        return False
    update_fields = signal_kwargs.get("update_fields")
    return update_fields is None or bool(_PUBLIC_ROUND_FIELDS & set(update_fields))


def _public_tournament_id(instance: Any) -> int | None:
    """The tournament whose public pages this row belongs to, or None when the public
    cannot see it: the tables, seats and byes of a round not yet started (whose start
    clears the cache anyway), and the sheets of an unreleased round (whose release
    does)."""
    if isinstance(instance, Player | Round | KeepApart):
        return instance.tournament_id
    if isinstance(instance, Table | Seat | Bye):
        return (
            Round.objects.filter(Q(released=True) | Q(started=True), pk=instance.round_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    if isinstance(instance, Sheet):
        return (
            Table.objects.filter(pk=instance.table_id, round__released=True)
            .values_list("round__tournament_id", flat=True)
            .first()
        )
    return None


@receiver(post_save)
@receiver(post_delete)
def _public_data_changed(sender: type, instance: Any, **kwargs: Any) -> None:
    if sender not in (Player, Round, KeepApart, Table, Seat, Bye, Sheet):
        return
    # Drafts and sheets awaiting confirmation are never public, and a confirmed sheet
    # being corrected keeps its confirmed deals until the correction is confirmed: only
    # a save as confirmed changes what the public sees. Scorers' drafts therefore leave
    # the public pages' cache alone.
    saved = kwargs.get("signal") is post_save
    if sender is Sheet and saved and instance.status != SheetStatus.CONFIRMED:
        return
    if sender is Round and not _round_change_is_public(instance, saved, kwargs):
        return
    tournament_id = _public_tournament_id(instance)
    if tournament_id is not None:
        mark_changed(tournament_id)


# Saved by seating as it plans the rounds ahead: nothing public.
_PRIVATE_TOURNAMENT_FIELDS = frozenset({"seating_plan"})


@receiver(post_save, sender=Tournament)
def _tournament_saved(sender: type, instance: Tournament, **kwargs: Any) -> None:
    # Settings (scoring, tiebreaks, publishing) change what the public pages show.
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and update_fields <= _PRIVATE_TOURNAMENT_FIELDS:
        return
    mark_changed(instance.pk)
