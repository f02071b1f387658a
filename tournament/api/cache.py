"""How the read API answers, around its views: cached like the public pages, open to other
sites' scripts (CORS), held to a rate per address, and its errors as problems.

``ApiMiddleware`` sits right after the public pages' cache (``public.cache``), before
sessions: for a path under ``/api/`` it

1. drops the request's cookies: the API is anonymous, and answers a logged-in organiser
   exactly what it answers anyone (never a private tournament, never a session read);
2. answers a browser's preflight ``OPTIONS`` itself (``204``);
3. counts the request against the address's rate (``settings.API_RATE``, django-ratelimit
   in the cache, as the wrong table codes are counted): past it, ``429`` with
   ``Retry-After``, the seconds left of the window;
4. answers a GET of a cached resource from the cache: ``304`` when ``If-None-Match``
   names its ETag, else the stored answer, gzipped when the client accepts it: no
   database query, no view, no other middleware. A miss runs the view and stores a 200;
5. adds the CORS headers (``Access-Control-Allow-Origin: *``, the exposed ``ETag``,
   ``Link`` and ``Retry-After``), and turns any error made outside the views into a
   problem (``api.problems``).

Terms:

- *scope* of a resource (its view's ``api_scope``): ``tournament`` for a tournament's
  resources, keyed by the tournament's page generation (``Tournament.public_changed``,
  read by slug once a second at most by each worker, as the pages read it);
  ``installation`` for the lists, the series and the careers, keyed by the installation
  generation (``shared.public_changes.installation_generation``). Either moves when
  what the resource shows may have changed, making its entries stale at once.
- *key*: the scope's generation, the host, the path and the query parameters the view
  reads (``api_reads``; others are left out, so they share the entry).

Compression: every answer of the API is public and anonymous (no cookie, no token, no
user's data), so an attacker who injects text learns nothing from its compressed size
(BREACH): answers of 200 bytes and more are gzipped when the client accepts it.
"""

from __future__ import annotations

import gzip
import hashlib
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.utils.module_loading import import_string
from django_ratelimit import ALL
from django_ratelimit.core import get_usage

from tournament.api.problems import as_problem, problem
from tournament.shared import public_changes

PREFIX = "/api/"
TIMEOUT = 60 * 60
# Cached and conditional answers: any cache may keep them, and asks each time whether
# they changed (a 304 while they have not).
CACHE_CONTROL = "public, no-cache"
# Errors and the schema's reference page: kept by nobody (a 404 may be a tournament
# about to be published, a 429 lasts a minute).
NOT_KEPT = "no-store"
EXPOSED = "ETag, Link, Retry-After"
# How long a browser may keep a preflight's answer.
PREFLIGHT_SECONDS = 86_400
_MIN_COMPRESSED = 200
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_JSON_TYPES = ("application/json", "application/problem+json")
_RATE_GROUP = "api"


@dataclass(frozen=True)
class Entry:
    key: str
    etag: str


@dataclass(frozen=True)
class Stored:
    """An answer as the view made it, and gzipped once."""

    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes
    gzipped: bytes | None


def tournament_generation(slug: str) -> datetime | None:
    """The page generation of the published tournament of ``slug`` (shared with the
    public pages' cache); None when no published tournament has that slug."""
    found = public_changes.published_generation(slug)
    return None if found is None else found[1]


def _entry(request: HttpRequest) -> Entry | None:
    """The cache entry of a GET of a cached resource; None for anything else (or a
    tournament that is not published: its view answers the 404)."""
    if request.method not in ("GET", "HEAD"):
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    view_class = getattr(match.func, "cls", None)
    scope = getattr(view_class, "api_scope", None)
    if scope == "tournament":
        slug = match.kwargs.get("slug")
        generation = tournament_generation(slug) if isinstance(slug, str) else None
        if generation is None:
            return None
        scope = f"tournament:{slug}"
    elif scope == "installation":
        generation = public_changes.installation_generation()
    else:
        return None
    reads: tuple[str, ...] = getattr(view_class, "api_reads", ())
    query = urlencode(sorted((name, request.GET[name]) for name in reads if name in request.GET))
    key = (
        f"lld:api:{scope}:{generation.timestamp()}:{request.scheme}://{request.get_host()}"
        f"{request.path}?{query}"
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    # Weak: the same answer gzipped or not is not the same bytes.
    return Entry(f"lld:api:{digest}", f'W/"{digest}"')


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag``, compared weakly (RFC 9110, 13.1.2)."""
    opaque = etag.removeprefix("W/")
    return any(
        candidate.strip() == "*" or candidate.strip().removeprefix("W/") == opaque
        for candidate in if_none_match.split(",")
    )


def _store(entry: Entry, response: HttpResponse) -> Stored | None:
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    content = response.content
    headers = tuple(
        (name, value)
        for name, value in response.items()
        if name.lower() not in {"content-length", "content-encoding"}
    )
    stored = Stored(200, headers, content, _gzipped(response, content))
    cache.set(entry.key, stored, TIMEOUT)
    return stored


def _gzipped(response: HttpResponse, content: bytes) -> bytes | None:
    content_type = response.get("Content-Type", "").split(";")[0].strip()
    if content_type not in _JSON_TYPES or len(content) < _MIN_COMPRESSED:
        return None
    return gzip.compress(content, 6, mtime=0)


def _served(request: HttpRequest, stored: Stored) -> HttpResponse:
    response = HttpResponse(status=stored.status)
    for name, value in stored.headers:
        response[name] = value
    _put_content(request, response, stored.content, stored.gzipped)
    response.api_encoded = True  # type: ignore[attr-defined]
    return response


def _put_content(
    request: HttpRequest, response: HttpResponse, content: bytes, gzipped: bytes | None
) -> None:
    if gzipped is not None:
        patch_vary_headers(response, ["Accept-Encoding"])
    if gzipped is not None and _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response.content = gzipped
        response["Content-Encoding"] = "gzip"
    else:
        response.content = content
    response["Content-Length"] = str(len(response.content))


def _cors(response: HttpResponse) -> HttpResponse:
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = EXPOSED
    return response


def _preflight(request: HttpRequest) -> HttpResponse:
    """A browser asking whether a script of another site may read: yes, with GET."""
    response = HttpResponse(status=204)
    response["Allow"] = "GET, HEAD, OPTIONS"
    response["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
    asked = request.headers.get("Access-Control-Request-Headers", "")
    if asked:
        response["Access-Control-Allow-Headers"] = asked
    response["Access-Control-Max-Age"] = str(PREFLIGHT_SECONDS)
    response["Cache-Control"] = NOT_KEPT
    return response


def too_many(request: HttpRequest) -> HttpResponse | None:
    """The 429 for an address past its rate (this request counted), or None."""
    usage = get_usage(
        request,
        group=_RATE_GROUP,
        key=_address,
        rate=settings.API_RATE,
        method=ALL,
        increment=True,
    )
    if usage is None or not usage["should_limit"]:
        return None
    wait = max(1, int(usage["time_left"]))
    return problem(
        429,
        f"This address has made more than {usage['limit']} requests of the API in "
        f"{_period_words(settings.API_RATE)}: wait {wait} seconds (Retry-After), then ask "
        "again. A 304 of an ETag you hold counts too, and costs you nothing else.",
        instance=request.path,
        headers={"Retry-After": str(wait)},
    )


def _address(group: str, request: HttpRequest) -> str:
    """The network address counted, read as the login lockout and the table codes read it
    (behind a proxy too); a request that names none (a WSGI call in-process) counts as
    one address of its own rather than failing."""
    address = import_string(settings.RATELIMIT_IP_META_KEY)(request)
    if not address:
        return "no address"
    # As django-ratelimit counts: an IPv6 client by its /64, which one host holds whole.
    mask = 64 if ":" in address else 32
    return str(ipaddress.ip_network(f"{address}/{mask}", strict=False).network_address)


def _period_words(rate: str) -> str:
    return {"s": "a second", "m": "a minute", "h": "an hour", "d": "a day"}[rate[-1]]


class ApiMiddleware:
    """The read API's caching, CORS, rate limit and problems (the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(PREFIX):
            return self.get_response(request)
        request.COOKIES = {}
        request.META.pop("HTTP_COOKIE", None)
        if request.method == "OPTIONS":
            return _cors(_preflight(request))
        refused = too_many(request)
        response = refused if refused is not None else self._answer(request)
        response = as_problem(response, request.path)
        if response.status_code >= 400:
            response["Cache-Control"] = NOT_KEPT
        if not getattr(response, "api_encoded", False) and not response.streaming:
            _put_content(request, response, response.content, _gzipped(response, response.content))
        return _cors(response)

    def _answer(self, request: HttpRequest) -> HttpResponse:
        entry = _entry(request)
        if entry is None:
            return self.get_response(request)
        if_none_match = request.headers.get("If-None-Match")
        if if_none_match is not None and etag_matches(if_none_match, entry.etag):
            not_modified = HttpResponseNotModified()
            _conditional(not_modified, entry)
            not_modified.api_encoded = True  # type: ignore[attr-defined]
            return not_modified
        stored = cache.get(entry.key)
        if not isinstance(stored, Stored):
            response = self.get_response(request)
            _conditional(response, entry)
            stored = _store(entry, response)
            if stored is None:
                return response
        return _served(request, stored)


def _conditional(response: HttpResponse, entry: Entry) -> None:
    if response.status_code in (200, 304):
        response["ETag"] = entry.etag
        response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ["Accept-Encoding"])
