"""Caching of the public pages.

A room full of phones refreshing at release time must not slow down score entry, so
anonymous visitors' GETs of public pages are answered from Django's cache (local memory
by default, a cache server through ``CACHE_URL``) by ``PublicPageCacheMiddleware``, right
after the security middleware: the stored final response (status, headers, body, and the
body gzipped once), without a database query, a session, a view or other middleware.

A page's key holds the tournament's **generation**, ``Tournament.public_changed``, which
``shared.public_changes.mark_changed`` bumps, making every cached page of the tournament
stale at once. Each worker trusts the generation it read for a slug for
``GENERATION_SECONDS`` (one query a second at most); ``mark_changed`` forgets it in its
own process at once, the other workers and app servers see a change within the second,
with the in-process cache as with Redis (docs/performance.md weighs the alternative).

Only GETs without a session or flash message cookie are shared (``_own_page``): a
logged-in user's page carries their name and a CSRF token. Every cached page carries an
``ETag`` made from its key and a ``Last-Modified``; ``If-None-Match`` (or, without it,
``If-Modified-Since``) is answered ``304 Not Modified`` without even reading the cache,
as the screens that follow the evening poll (docs/live-updates.md).

Compression (BREACH): only these stored pages are compressed. They are anonymous, public
and hold no secret (no CSRF token, no user data; a response that sets a cookie is never
stored), so an attacker who injects text into a page learns nothing from its compressed
size. Every other response goes uncompressed.

Only real pages are kept. A page reads a few query parameters (``reads``), each
normalised, so that other spellings and unread parameters share its entry. A value that
names no page of it (a page "x" or "0", a sort by no column) is answered by a redirect
(302) to the page without it; a page past the last, a sort by a column this tournament's
standings do not have, a round not played are sent to the nearest real one by the view
(``elsewhere``). Neither redirect is stored: a crawler or a script trying a thousand
variants leaves only the real pages in the cache.

Pages with a running clock show the server's time at *serving*: they write
``NOW_MARKER`` (``clock`` template tags), replaced on the way out, so they are gzipped at
each serving (quickly) rather than once.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial, wraps
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
    QueryDict,
)
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe, urlencode

from tournament.kernel.http import HtmxHttpRequest, wants_fragment
from tournament.shared import public_changes

TIMEOUT = 60 * 60
_VARY = ["HX-Request", "HX-History-Restore-Request", "Cookie"]
NOW_MARKER = "lld-server-now-at-serving"
# Below this, gzip's header outweighs what it saves.
_MIN_COMPRESSED = 200
_COMPRESSIBLE = ("text/html", "text/csv", "application/json")
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


# Page numbers past this are all "past the last page" to the views, which send them to
# the last one.
MAX_PAGE = 1000
SEARCH_MAX = 200
_DIGITS = re.compile(r"[0-9]+")

# The value of a query parameter as the page reads it: "" for the parameter's default
# (left out of the query), None for a value that names no page (``cached_public_page``
# answers it with a redirect to the page without it).
Normaliser = Callable[[str], str | None]


def page_number(value: str) -> str | None:
    """A page number from 2 up as digits, "" for page 1 (or none given), None for what is
    no page number (not a whole number, or below 1)."""
    value = value.strip()
    if not value:
        return ""
    if not _DIGITS.fullmatch(value):
        return None
    digits = value.lstrip("0")
    if not digits:
        return None
    # Beyond any last page (and short of Python's limit on reading digits).
    number = MAX_PAGE if len(digits) > len(str(MAX_PAGE)) else int(digits)
    return str(min(number, MAX_PAGE)) if number > 1 else ""


def page_query(number: int) -> str:
    """Page ``number``'s value of ``?page=`` (empty, so left out, for the first)."""
    return str(number) if number > 1 else ""


def refusing_junk(normalise: Callable[[str], str]) -> Normaliser:
    """``normalise``, for which an empty answer to a value given means the value names
    nothing the page has: that value is refused (None) rather than read as the default."""

    def refusing(value: str) -> str | None:
        normalised = normalise(value)
        return None if value.strip() and not normalised else normalised

    return refusing


def search_text(value: str) -> str:
    return value.strip()[:SEARCH_MAX]


def _normalised_query(
    request: HttpRequest, reads: Mapping[str, Normaliser]
) -> tuple[QueryDict, bool]:
    """The query string as the page reads it, each parameter normalised and the empty
    ones left out, and whether a value was refused (it is left out too)."""
    values = {name: normalise(request.GET.get(name, "")) for name, normalise in reads.items()}
    query = QueryDict(urlencode({name: value for name, value in values.items() if value}))
    return query, None in values.values()


def elsewhere(request: HttpRequest, **changes: str) -> HttpResponseRedirect:
    """A redirect (302) to this page with its query (as normalised) changed by
    ``changes`` (an empty value leaves the parameter out): where a request for a page that
    does not exist is sent, to the nearest real one. A redirect is never stored."""
    query = request.GET.copy()
    for name, value in changes.items():
        if value:
            query[name] = value
        else:
            query.pop(name, None)
    return HttpResponseRedirect(f"{request.path}?{query.urlencode()}" if query else request.path)


# Text a visitor typed: each search stored would take ~11 KB for an hour, so its answer
# is made afresh from the cached results and only its ETag is shared (for a 304).
SEARCHES = frozenset({"q"})


@dataclass(frozen=True)
class PageKey:
    key: str
    etag: str
    changed: datetime
    stored: bool = True  # the page itself is kept (not a search's answer)


def _page_key(request: HttpRequest, slug: str) -> PageKey | None:
    """The key of an anonymous visitor's GET of a published tournament's page, with the
    query already normalised; None when the page is not shared."""
    if request.method not in ("GET", "HEAD") or _own_page(request):
        return None
    found = public_changes.published_generation(slug)
    if found is None:
        return None
    pk, changed = found
    variant = "htmx" if wants_fragment(request) else "page"
    key = (
        f"lld:public:{pk}:{changed.timestamp()}:{variant}:{request.path}?{request.GET.urlencode()}"
    )
    searched = any(request.GET.get(name) for name in SEARCHES)
    return PageKey(key, page_etag(key), changed, stored=not searched)


def cached_public_page(
    view: Callable[..., HttpResponse] | None = None, *, reads: Mapping[str, Normaliser] = {}
) -> Any:
    """Make a public page of ``slug`` one that ``PublicPageCacheMiddleware`` serves from
    the cache to anonymous visitors.

    The view sees only the query parameters named in ``reads``, each normalised by its
    function (an empty result drops it), and the cache key holds exactly those: any other
    query string shares the page's entry instead of crowding real pages out of the cache.
    A value its function refuses (None) is answered by a redirect to the page without it;
    a value that names no page of this tournament (a page past the last) the view sends
    to the nearest real page with ``elsewhere``. Only a 200 is stored.
    """
    if view is None:
        return partial(cached_public_page, reads=reads)

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        request.GET, refused = _normalised_query(request, reads)  # type: ignore[assignment]
        if refused:
            return elsewhere(request)
        if request.user.is_authenticated:
            return view(request, slug, *args, **kwargs)
        page: PageKey | None = getattr(request, "public_page", None) or _page_key(request, slug)
        if page is None:
            return view(request, slug, *args, **kwargs)
        request.stamps_now = True  # type: ignore[attr-defined]
        request.public_etag = page.etag  # type: ignore[attr-defined]
        response: HttpResponse
        if _not_modified(request, page):
            response = HttpResponseNotModified()
        else:
            response = view(request, slug, *args, **kwargs)
        if response.status_code == 304 or (response.status_code == 200 and not response.cookies):
            _conditional_headers(response, page)
            if response.status_code == 200:
                response.public_page = page  # type: ignore[attr-defined]
        patch_vary_headers(response, _VARY)
        return response

    wrapper.public_page_reads = reads  # type: ignore[attr-defined]
    return wrapper


def _conditional_headers(response: HttpResponse, page: PageKey) -> None:
    response["ETag"] = page.etag
    response["Last-Modified"] = http_date(page.changed.timestamp())
    # Keep it, but ask each time: the answer is a 304 until the page changes.
    patch_cache_control(response, no_cache=True)


def _not_modified(request: HttpRequest, page: PageKey) -> bool:
    """RFC 9110, 13.2.2: If-None-Match decides when present; If-Modified-Since otherwise."""
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None:
        return etag_matches(if_none_match, page.etag)
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and int(page.changed.timestamp()) <= since


@dataclass(frozen=True)
class StoredPage:
    """A page's final response as this server sent it, gzipped once when it may be."""

    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes
    gzipped: bytes | None
    stamped: bool


def _store(page: PageKey, response: HttpResponse) -> StoredPage | None:
    if response.status_code != 200 or response.cookies or response.streaming:
        return None
    content = response.content
    stamped = NOW_MARKER.encode() in content
    compressible = _compressible(response, content)
    if compressible:
        patch_vary_headers(response, ["Accept-Encoding"])
    headers = tuple(
        (name, value)
        for name, value in response.items()
        if name.lower() not in {"content-length", "content-encoding"}
    )
    gzipped = gzip.compress(content, 6, mtime=0) if compressible and not stamped else None
    stored = StoredPage(response.status_code, headers, content, gzipped, stamped and compressible)
    cache.set(page.key, stored, TIMEOUT)
    return stored


def _compressible(response: HttpResponse, content: bytes) -> bool:
    content_type = response.get("Content-Type", "").split(";")[0].strip()
    return content_type in _COMPRESSIBLE and len(content) >= _MIN_COMPRESSED


def _served(request: HttpRequest, stored: StoredPage) -> HttpResponse:
    content = stored.content
    gzipped = stored.gzipped
    if NOW_MARKER.encode() in content:
        content = content.replace(NOW_MARKER.encode(), instant(timezone.now()).encode())
        # A fast level: this is done at every serving.
        gzipped = gzip.compress(content, 1, mtime=0) if stored.stamped else None
    response = HttpResponse(status=stored.status)
    for name, value in stored.headers:
        response[name] = value
    if gzipped is not None and _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response.content = gzipped
        response["Content-Encoding"] = "gzip"
    else:
        response.content = content
    return response


class PublicPageCacheMiddleware:
    """Answers anonymous visitors' GETs of cached public pages (``cached_public_page``)
    from the cache before any other middleware runs, and stores the final response of
    such a page when the view made it. Place it right after ``SecurityMiddleware`` (whose
    HTTPS redirect must come first) and whitenoise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        page = self._page(request)
        if page is None:
            return self.get_response(request)
        if _not_modified(request, page):
            not_modified = HttpResponseNotModified()
            _conditional_headers(not_modified, page)
            patch_vary_headers(not_modified, _VARY)
            return not_modified
        stored = cache.get(page.key) if page.stored else None
        if stored is None:
            request.public_page = page  # type: ignore[attr-defined]
            response = self.get_response(request)
            if getattr(response, "public_page", None) != page or not page.stored:
                return response
            stored = _store(page, response)
            if stored is None:
                return response
        return _served(request, stored)

    def _page(self, request: HttpRequest) -> PageKey | None:
        if request.method not in ("GET", "HEAD") or _own_page(request):
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        reads = getattr(match.func, "public_page_reads", None)
        slug = match.kwargs.get("slug")
        if reads is None or not isinstance(slug, str):
            return None
        original = request.GET
        query, refused = _normalised_query(request, reads)
        if refused:
            # Not the page of another value: the view sends it there.
            return None
        request.GET = query  # type: ignore[assignment]
        try:
            return _page_key(request, slug)
        finally:
            request.GET = original


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


def _own_page(request: HttpRequest) -> bool:
    """A visitor with a session or a message waiting (logged out since, say) may see a
    page of their own, with a flash message in it: it is neither served from the shared
    cache nor put there for everyone else."""
    return (
        settings.SESSION_COOKIE_NAME in request.COOKIES
        or CookieStorage.cookie_name in request.COOKIES
    )
