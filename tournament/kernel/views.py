import logging
from pathlib import Path

from django.contrib.staticfiles import finders
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

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
