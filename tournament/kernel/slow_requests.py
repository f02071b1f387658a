"""Requests that run long, in the log, by their URL pattern.

``SlowRequestLogMiddleware`` times every request (it comes right after the security
middleware and whitenoise, before the public pages' cache). One that takes longer than
``settings.SLOW_REQUEST_SECONDS`` (10 s) is logged at WARNING::

    slow request: POST score/<slug:slug>/r<int:round>/t<int:table>/ took 12.4 s, user 7

with the URL *pattern* that served it, never its address (which may carry a table code
or the door's token), and the user's id (``anonymous`` for a visitor, ``unknown`` when
it cannot be told).

gunicorn kills a worker that runs past its ``--timeout``; the worker's ``worker_abort``
hook (``config/gunicorn.py``) then logs, in the same form at ERROR, the request it was
serving (``log_killed``), read from ``serving``: what this process is serving now, which
the middleware keeps. gunicorn's sync workers (``run.py serve``, docs/deploy.md) serve
one request at a time, so it is that request; under threads it is the latest begun.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from time import monotonic
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

logger = logging.getLogger(__name__)

# Of an address no URL pattern answers: its address is not logged either.
NO_PATTERN = "(no page at this address)"


@dataclass
class Serving:
    """The request this process is serving: its method, its address (resolved to its
    pattern when logged, never logged itself), its pattern once resolved, and when it
    began (None between requests)."""

    method: str = ""
    path_info: str = ""
    route: str | None = None
    started: float | None = None


serving = Serving()


def log_request(level: int, what: str, method: str, route: str, seconds: float, user: str) -> None:
    """The one form of both lines: what happened, the request's method and URL pattern,
    how long it ran and who asked."""
    logger.log(level, "%s: %s %s took %.1f s, user %s", what, method, route, seconds, user)


def route_of(path_info: str) -> str:
    """The URL pattern that answers ``path_info``."""
    try:
        return resolve(path_info).route
    except Resolver404:
        return NO_PATTERN


def user_of(request: HttpRequest) -> str:
    """The user's id, ``anonymous`` for a visitor, ``unknown`` when it cannot be told (the
    request ended before its session was read, or reading it failed)."""
    user = request.__dict__.get("user")
    if user is None:
        # Without a session there is no one to be logged in as (a cached public page).
        return "unknown" if settings.SESSION_COOKIE_NAME in request.COOKIES else "anonymous"
    try:
        return str(user.pk) if user.is_authenticated else "anonymous"
    except Exception:  # the log line matters more than the user id
        return "unknown"


class SlowRequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = monotonic()
        serving.method = request.method or ""
        serving.path_info = request.path_info
        serving.route = None
        serving.started = started
        try:
            response = self.get_response(request)
        finally:
            # Also when the worker is being killed (gunicorn's SystemExit, past Django's
            # handling of errors): the timeout hook has logged that request already.
            serving.started = None
        seconds = monotonic() - started
        if seconds > settings.SLOW_REQUEST_SECONDS:
            match = request.resolver_match
            route = match.route if match is not None else route_of(request.path_info)
            log_request(
                logging.WARNING,
                "slow request",
                request.method or "",
                route,
                seconds,
                user_of(request),
            )
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> None:
        # Resolved by now: kept for the timeout hook.
        if request.resolver_match is not None:
            serving.route = request.resolver_match.route


def log_killed() -> None:
    """The request this worker was serving, logged as gunicorn kills the worker at its
    timeout (``config/gunicorn.py``'s ``worker_abort``)."""
    if serving.started is None:
        logger.error("worker killed at the timeout between requests")
        return
    log_request(
        logging.ERROR,
        "request killed at the timeout",
        serving.method,
        serving.route or route_of(serving.path_info),
        monotonic() - serving.started,
        "unknown",
    )
