"""Installing the public pages as an app, and their offline copy on the players' phones
(docs/live-updates.md, "Offline and installing the app").

``/manifest.webmanifest``: the web app manifest (name, colours, icons). A view rather than
a static file: the icons' addresses come from ``static()``, so production names the
hashed files that whitenoise serves for a year, and the start and scope addresses from the
URL configuration.

``/sw.js``: the service worker, ``static/js/sw.js`` with the site's static address written
in. A worker's reach is limited to the folder it is served from, and its script must be
fetched afresh whenever it changes, so it cannot be an ordinary (hashed, long-cached)
static file: it is served here with ``Cache-Control: no-cache`` and an ETag (a phone
asks again at each visit and gets a 304 until it changes), and registered for the whole
site, ``/``, so that the manifest's start page lies inside it. It keeps only the home
page and the tournaments' public pages (``static/js/sw.js``).

``/offline/``: our page saying the phone is offline, which the worker keeps at install
and shows for a page opened offline that it has no copy of.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

NAME = "Laugh and Lie Down"
SHORT_NAME = "Laugh & Lie Down"
# static/css/app.css: --accent (the header) and --paper (the page).
THEME_COLOUR = "#7a1f1f"
BACKGROUND_COLOUR = "#fbf8f1"
WORKER = "js/sw.js"
# Where the worker's source names the static files' address and the offline page's.
STATIC_PREFIX_LINE = 'var STATIC_PREFIX = "/static/";'
OFFLINE_PAGE_LINE = 'var OFFLINE_PAGE = "/offline/";'
MODULES_LINE = "var MODULES = [];"
# The ES modules the pages load (templates' <script type="module">); the worker keeps
# each with every module it imports, so that a page opened offline runs as it did.
ENTRY_MODULES = ("js/keep.js", "js/live.js", "js/me.js")
# ``import … from "./x.js";``, ``export … from "./x.js";`` and ``import "./x.js";``: the
# forms the static files' storage rewrites to hashed names (kernel/static_files.py).
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b(?:[^'"`;]*?\bfrom)?\s*["'](?P<url>\.{1,2}/[^"']+)["']\s*;""",
    re.MULTILINE,
)


def manifest() -> dict[str, object]:
    icon = static("icons/icon-192.png")
    return {
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Standings, rounds and seats of the evening's tournament.",
        "lang": "en-GB",
        "start_url": reverse("home"),
        "scope": reverse("home"),
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": icon, "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }


@require_safe
def web_manifest(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        json.dumps(manifest(), ensure_ascii=False, indent=2),
        content_type="application/manifest+json",
    )
    patch_cache_control(response, public=True, max_age=60 * 60)
    return response


def imported(name: str) -> list[str]:
    """The static names of the modules the module ``name`` imports, in its order."""
    path = finders.find(name)
    assert isinstance(path, str), f"static file {name} not found"
    source = Path(path).read_text(encoding="utf-8")
    folder = posixpath.dirname(name)
    found = IMPORT.finditer(source)
    return [posixpath.normpath(posixpath.join(folder, each["url"])) for each in found]


def module_graph() -> list[str]:
    """Every module a page loads: the entry modules and all they import, each once."""
    graph: list[str] = []
    waiting = list(ENTRY_MODULES)
    while waiting:
        name = waiting.pop(0)
        if name not in graph:
            graph.append(name)
            waiting.extend(imported(name))
    return graph


@cache
def _worker(
    path: str, modified: float, static_prefix: str, offline: str, modules: tuple[str, ...]
) -> tuple[str, str]:
    """The worker's text as served, and its ETag (remembered until a file changes: the
    modules' addresses are hashed in production)."""
    source = Path(path).read_text(encoding="utf-8")
    for line in (STATIC_PREFIX_LINE, OFFLINE_PAGE_LINE, MODULES_LINE):
        assert line in source, f"{path} no longer says {line}"
    text = source.replace(STATIC_PREFIX_LINE, f"var STATIC_PREFIX = {json.dumps(static_prefix)};")
    text = text.replace(OFFLINE_PAGE_LINE, f"var OFFLINE_PAGE = {json.dumps(offline)};")
    text = text.replace(MODULES_LINE, f"var MODULES = {json.dumps(list(modules))};")
    return text, '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def worker_text() -> tuple[str, str]:
    path = finders.find(WORKER)
    assert isinstance(path, str), f"static file {WORKER} not found"
    modules = tuple(static(name) for name in module_graph())
    return _worker(
        path, Path(path).stat().st_mtime, settings.STATIC_URL, reverse("offline"), modules
    )


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    text, etag = worker_text()
    response: HttpResponse
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(text, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows for a page opened offline that it has no copy
    of. The same for everyone: the worker fetches it without cookies."""
    response = render(request, "public/offline.html")
    patch_cache_control(response, public=True, max_age=60 * 60)
    return response
