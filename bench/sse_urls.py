"""A minimal server-sent-events view, for measuring it against conditional polling
(bench/live_updates.py); the app does not ship it (docs/live-updates.md says why).

``/t/SLUG/events/`` keeps the connection open and sends ``event: changed`` whenever
``Tournament.public_changed`` moves. The check is shared by the connections a worker
process serves: at most one query a second a process, however many are connected. A
stream ends after ``BENCH_SSE_SECONDS``, so every connection of the bench is bounded.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

from django.http import HttpRequest, StreamingHttpResponse
from django.urls import include, path

CHECK_SECONDS = 1.0
_lock = threading.Lock()
_latest: dict[str, tuple[float, str]] = {}


def _version(slug: str) -> str:
    from tournament.models import Tournament

    with _lock:
        checked, value = _latest.get(slug, (0.0, ""))
        if time.monotonic() - checked >= CHECK_SECONDS:
            found = (
                Tournament.objects.filter(slug=slug, published=True)
                .values_list("public_changed", flat=True)
                .first()
            )
            value = found.isoformat() if found else ""
            _latest[slug] = (time.monotonic(), value)
        return value


def events(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    deadline = time.monotonic() + float(os.environ.get("BENCH_SSE_SECONDS", "30"))

    def stream() -> Iterator[bytes]:
        sent = None
        yield b"retry: 2000\n\n"
        while time.monotonic() < deadline:
            version = _version(slug)
            if version != sent:
                sent = version
                yield f"event: changed\ndata: {version}\n\n".encode()
            time.sleep(CHECK_SECONDS / 2)

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [
    path("t/<slug:slug>/events/", events, name="bench_events"),
    path("", include("config.urls")),
]
