"""Errors of the read API as ``application/problem+json`` (RFC 9457): a JSON object with the
HTTP status, its title and a sentence saying what was wrong and where.

Every error the API answers comes this way: those of its views (``exception_handler``,
which Django REST framework calls), and those answered before or around them (an address
that names nothing, too many requests, a method not allowed), which ``api.cache``
turns into problems (``as_problem``).
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from django.http import Http404, HttpResponse
from rest_framework import exceptions
from rest_framework.views import set_rollback

from tournament.public.results import BeingWorkedOut

PROBLEM = "application/problem+json"
# How long a client waits before asking again for results being worked out: the worker
# takes a second or two after a change.
WORKED_OUT_SECONDS = 5


class BadCursor(Exception):
    """A ``cursor`` that names no place in the list: not one this API wrote."""


def problem(
    status: int, detail: str, *, instance: str = "", headers: dict[str, str] | None = None
) -> HttpResponse:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    response = HttpResponse(
        json.dumps(body, ensure_ascii=False), status=status, content_type=PROBLEM
    )
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _detail(exc: exceptions.APIException) -> str:
    detail = exc.detail
    if isinstance(detail, list):
        return " ".join(str(each) for each in detail)
    if isinstance(detail, dict):
        return " ".join(f"{key}: {value}" for key, value in detail.items())
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> HttpResponse | None:
    """The API views' errors as problems; None (a 500, logged) for what must never
    happen."""
    request = context["request"]
    path = request.path
    if isinstance(exc, Http404):
        return problem(404, str(exc) or "Nothing is published at this address.", instance=path)
    if isinstance(exc, BeingWorkedOut):
        return problem(
            503,
            f"The results of {exc.tournament.name} are being worked out: ask again in a few "
            "seconds.",
            instance=path,
            headers={"Retry-After": str(WORKED_OUT_SECONDS)},
        )
    if isinstance(exc, BadCursor):
        return problem(
            400,
            "The cursor parameter is not one this list gave: follow the next and previous "
            "links of a page, or leave it out for the first page.",
            instance=path,
        )
    if isinstance(exc, exceptions.APIException):
        set_rollback()
        headers = {}
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            headers["Retry-After"] = str(int(exc.wait))
        return problem(exc.status_code, _detail(exc), instance=path, headers=headers)
    return None


_DETAILS = {
    404: "Nothing is published at this address: the API's addresses are listed at /api/v1/docs.",
    405: "The API only reads: use GET (or HEAD, or OPTIONS for a browser's preflight).",
}


def as_problem(response: HttpResponse, path: str) -> HttpResponse:
    """An error response made outside the API's views (Django's own 404 page, say) as a
    problem; a problem, or any answer that is no error, as it is."""
    if response.status_code < 400 or response.get("Content-Type", "").startswith(PROBLEM):
        return response
    status = response.status_code
    detail = _DETAILS.get(status, HTTPStatus(status).description or HTTPStatus(status).phrase)
    converted = problem(status, detail, instance=path)
    for name in ("Allow", "Retry-After"):
        if name in response:
            converted[name] = response[name]
    return converted
