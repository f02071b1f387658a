import logging
import mimetypes
from pathlib import Path

from csp.constants import SELF
from django.contrib.staticfiles import finders
from django.db import DatabaseError, connection
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponsePermanentRedirect,
)
from django.http.response import HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.html import escape
from django.utils.http import http_date
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.static import was_modified_since

from tournament.kernel import guide as guide_files
from tournament.kernel.cache import cache_status
from tournament.kernel.queue import queue_status

logger = logging.getLogger(__name__)


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers: 200 when this app server can reach its database, the body
    saying how the cache and the task queue are. A degraded cache is still 200: pages
    come from the database meanwhile (``tournament.kernel.cache``); so is a queue that
    waits for its worker (pages say "being worked out"). Only a database the server
    cannot reach takes it out of the rotation: 503, ``database: unreachable``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        logger.error("health check: the database is unreachable (%s)", type(error).__name__)
        return HttpResponse("database: unreachable\n", status=503, content_type="text/plain")
    lines = ["database: ok", f"cache: {cache_status()}"]
    try:
        queue = queue_status()
    except DatabaseError as error:
        # The database answers, but not about the queue (its table missing before the
        # migrations ran, say): still in the rotation, and said so.
        logger.warning("health check: the task queue cannot be read (%s)", type(error).__name__)
        lines.append("queue: unknown (its table cannot be read)")
    else:
        if queue is not None:
            lines.append(queue.line)
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")


FAVICON = "icons/icon-192.png"


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for whatever a page's icon link says (and
    the door's tablet, bookmarks, feed readers): the site's icon (the static PNG, which
    browsers take under that name), not a 404; kept for a day. Found as the service
    worker is (``public.pwa``), in the static sources, in every environment."""
    path = finders.find(FAVICON)
    assert isinstance(path, str), f"static file {FAVICON} not found"
    response = HttpResponse(Path(path).read_bytes(), content_type="image/png")
    patch_cache_control(response, public=True, max_age=60 * 60 * 24)
    return response


GUIDE_NOT_BUILT = """<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The guide is not built here — Laugh and Lie Down</title></head>
<body>
<main>
<h1>The guide is not built on this installation</h1>
<p>Build it from the project folder with</p>
<pre><code>python3 run.py docs {root}</code></pre>
<p>(<code>python3 run.py demo</code> and <code>python3 run.py serve</code> build it there
by themselves). It is the folder <code>docs/</code> of the project, which can also be read
as it is.</p>
<p><a href="/">Back to the site</a></p>
</main>
</body>
</html>
"""


@require_safe
def guide(request: HttpRequest, path: str = "") -> HttpResponseBase:
    """The built guide (``settings.GUIDE_ROOT``) at /guide/: a folder's ``index.html``, a
    folder named without its slash sent on to it, a file that is not there a 404, and a
    page saying how to build it when it is not built. Each page is sent with a policy
    allowing its own inline scripts by hash, and no other inline script."""
    if not guide_files.is_built():
        page = GUIDE_NOT_BUILT.format(root=escape(str(guide_files.root())))
        # Not there: a 404 (a 5xx would be logged as the server failing).
        not_built = HttpResponse(page, status=404)
        patch_cache_control(not_built, no_cache=True)
        return not_built
    found = guide_files.find(path)
    if found is None:
        raise Http404("No such page in the guide.")
    if found.file is None:
        return HttpResponsePermanentRedirect(request.path + "/")
    file = found.file
    modified = file.stat().st_mtime
    if not was_modified_since(request.META.get("HTTP_IF_MODIFIED_SINCE"), int(modified)):
        return HttpResponseNotModified()
    content_type, encoding = mimetypes.guess_type(file.name)
    response = FileResponse(
        file.open("rb"), content_type=content_type or "application/octet-stream"
    )
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.headers["Last-Modified"] = http_date(modified)
    relative = file.relative_to(guide_files.root().resolve()).as_posix()
    if guide_files.KEPT_LONG.match(relative):
        patch_cache_control(response, public=True, max_age=60 * 60 * 24 * 365, immutable=True)
    else:
        # A guide built again after an upgrade is seen at once; unchanged, a 304.
        patch_cache_control(response, public=True, no_cache=True)
    if file.suffix == ".html":
        policy = guide_files.inline_policy(file)
        styles = [SELF, *policy.styles]
        if policy.style_attributes:
            styles += ["'unsafe-hashes'", *policy.style_attributes]
        response._csp_replace = {  # type: ignore[attr-defined]
            "script-src": [SELF, *policy.scripts],
            "style-src": styles,
        }
    return response
