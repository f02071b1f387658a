"""Where errors go: the log on stderr (``settings.LOGGING``), and Sentry when
``SENTRY_DSN`` is set.

Every unhandled error of a request reaches Django's ``django.request`` logger with its
traceback and the request; ``RequestContext`` adds the request's method, path and user
id to the line (never its body, cookies or headers). gunicorn passes the workers' stderr
on to whatever runs it: the terminal of ``run.py serve``, systemd's journal on a server.

Sentry's reports hold no personal data: ``scrubbed`` keeps of the request only its
method (the event's transaction names the URL pattern, not the address, which may hold
a table code), of the user only the id, of an error's message its first line, and no
stack frame's variables.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest


class RequestContext(logging.Filter):
    """Gives every record a ``request_line``: ``[GET /t/spring-open/ user=7] `` for a
    record that carries its request (``django.request``'s and ``django.security``'s),
    empty otherwise."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        # runserver's own records carry the socket as "request".
        if isinstance(request, HttpRequest):
            record.request_line = f"[{request.method} {request.path} user={_user_id(request)}] "
        else:
            record.request_line = ""
        return True


def _user_id(request: HttpRequest) -> str:
    """The logged-in user's id, ``-`` for an anonymous visitor, ``?`` when it cannot be
    told (the error came before the session was read, or reading it failed too)."""
    user = request.__dict__.get("user")
    if user is None:
        return "?"
    try:
        return str(user.pk) if user.is_authenticated else "-"
    except Exception:  # the log line matters more than the user id
        return "?"


# Of an event's request, what a report may carry.
_REQUEST_KEPT = {"method"}
# Of an event's contexts: the interpreter, the operating system, the trace.
_CONTEXTS_KEPT = {"runtime", "os", "trace"}


def scrubbed(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """Sentry's ``before_send``: the event without request data, cookies, headers,
    query string, user names, extra data, or the lines of an error message after its
    first."""
    if "request" in event:
        event["request"] = {
            name: value for name, value in event["request"].items() if name in _REQUEST_KEPT
        }
    user = event.get("user") or {}
    if "id" in user:
        event["user"] = {"id": user["id"]}
    else:
        event.pop("user", None)
    event.pop("extra", None)
    for exception in (event.get("exception") or {}).get("values") or []:
        # PostgreSQL names the values it refused on the lines after the first (DETAIL:
        # Key (name)=(…) already exists).
        if isinstance(exception.get("value"), str):
            exception["value"] = exception["value"].split("\n", 1)[0]
    if "contexts" in event:
        event["contexts"] = {
            name: value for name, value in event["contexts"].items() if name in _CONTEXTS_KEPT
        }
    return event


def start_error_reports(dsn: str) -> None:
    """Send unhandled errors to Sentry (``settings``, when ``SENTRY_DSN`` is set)."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.logging import LoggingIntegration

    sentry_sdk.init(
        dsn=dsn,
        integrations=[
            DjangoIntegration(),
            # Errors logged at ERROR are reported; no log line rides along as a
            # breadcrumb (django-axes logs user names and addresses at INFO).
            LoggingIntegration(level=None, event_level=logging.ERROR),
        ],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrubbed,  # type: ignore[arg-type]
        # Errors only: no performance tracing.
        traces_sample_rate=0,
    )
