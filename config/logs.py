"""Where errors go: the log on stderr (``settings.LOGGING``, ``logging_config``), and
Sentry when ``SENTRY_DSN`` is set.

Every unhandled error of a request reaches Django's ``django.request`` logger with its
traceback and the request; ``RequestContext`` adds the request's method, path and user
id to the line (never its body, cookies or headers). gunicorn passes the workers' stderr
on to whatever runs it: the terminal of ``run.py serve``, systemd's journal on a server.
gunicorn's own lines and its access log go through the same handlers
(``config/gunicorn.py`` gives gunicorn ``logging_config`` too).

A log line is one line: ``EscapingFormatter``, the one formatter of every handler, writes
the control characters of what a line carries (its message and the message's arguments,
the request's path, an exception's message in a traceback) escaped, ``\n`` for a line
break, ``\x00`` for NUL. A request for ``/t/x%0AERROR django.request: …`` cannot write
a line of its own making, nor a NUL reach the journal.

Sentry's reports hold no personal data: ``scrubbed`` keeps of the request only its
method (the event's transaction names the URL pattern, not the address, which may hold
a table code), of the user only the id, of an error's message its first line, and no
stack frame's variables.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from django.http import HttpRequest

# The line of every handler: the request's method, path and user where the record has a
# request (``RequestContext``).
LINE = "%(asctime)s %(levelname)s %(name)s: %(request_line)s%(message)s"


def logging_config(level: str) -> dict[str, Any]:
    """``settings.LOGGING`` (``level`` is ``DJANGO_LOG_LEVEL``), which gunicorn takes too
    (``config/gunicorn.py``): every record to stderr, gunicorn's access log to stdout as
    ``--access-logfile -`` writes it, each line through ``EscapingFormatter``."""
    handler = {"class": "logging.StreamHandler", "filters": ["request"], "formatter": "line"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request": {"()": "config.logs.RequestContext"}},
        "formatters": {"line": {"class": "config.logs.EscapingFormatter", "format": LINE}},
        "handlers": {
            "stderr": {**handler, "stream": "ext://sys.stderr"},
            "stdout": {**handler, "stream": "ext://sys.stdout"},
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # Django's own handlers print only with DEBUG on and mail the (absent) ADMINS:
            # its records go to the root's handler instead, once, whatever DEBUG.
            "django": {"handlers": [], "level": level},
            # gunicorn's messages (workers started, timed out) to the root's handler; its
            # own handlers are replaced, in the master process and in every worker.
            "gunicorn.error": {"handlers": [], "propagate": True},
            "gunicorn.access": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        },
    }


# What a line must not carry as it is: a line break (\n, \r, and Unicode's line and
# paragraph separators, which some viewers break lines at) would start a line of someone
# else's making; NUL and the other C0 and C1 controls upset the tools that read the log.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(text: str) -> str:
    """``text`` with its control characters written as escapes: ``\n``, ``\x00``."""
    return _CONTROL.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    char = found[0]
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


_ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]
_CAUSE = "\nThe above exception was the direct cause of the following exception:\n\n"
_CONTEXT = "\nDuring handling of the above exception, another exception occurred:\n\n"


class EscapingFormatter(logging.Formatter):
    """The formatter of every handler: a record's message, its arguments and whatever else
    it carries (the request's path in ``request_line``) with their control characters
    escaped, so that a record is one line; a traceback keeps its own lines, with the
    message of each exception in it escaped."""

    def format(self, record: logging.LogRecord) -> str:
        # A traceback another handler's formatter wrote first is not ours: made again.
        kept = record.exc_text
        record.exc_text = None
        try:
            return super().format(record)
        finally:
            record.exc_text = kept

    def formatMessage(self, record: logging.LogRecord) -> str:
        shown = logging.makeLogRecord(
            {
                name: escaped(value) if isinstance(value, str) else value
                for name, value in record.__dict__.items()
            }
        )
        return super().formatMessage(shown)

    def formatException(self, ei: _ExcInfo) -> str:
        kind, value, trace = ei
        if kind is None or value is None:
            return "NoneType: None"
        found = traceback.TracebackException(kind, value, trace, compact=True)
        return "".join(_escaped_traceback(found)).rstrip("\n")


def _escaped_traceback(found: traceback.TracebackException) -> Iterator[str]:
    """The traceback as Python prints it (causes and contexts first), each exception's
    message escaped; its frames are the code's own lines."""
    chain: list[tuple[str | None, traceback.TracebackException]] = []
    current: traceback.TracebackException | None = found
    while current is not None and len(chain) < 100:
        if current.__cause__ is not None:
            chain.append((_CAUSE, current))
            current = current.__cause__
        elif current.__context__ is not None and not current.__suppress_context__:
            chain.append((_CONTEXT, current))
            current = current.__context__
        else:
            chain.append((None, current))
            current = None
    for between, each in reversed(chain):
        if between is not None:
            yield between
        if each.exceptions is not None:
            # A group's tree, as Python draws it: escaped within each of its lines.
            for part in each.format(chain=False):
                yield "\n".join(escaped(line) for line in part.split("\n"))
            continue
        if each.stack:
            yield "Traceback (most recent call last):\n"
            yield from each.stack.format()
        for line in each.format_exception_only():
            yield escaped(line.removesuffix("\n")) + "\n"


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
