"""Every 500 is recorded (``settings.LOGGING``, ``config.logs``): with debug off, an
unhandled error answers 500 and writes its traceback to stderr with the request's
method, path and user id, and nothing of what was posted, its cookies or query string."""

from __future__ import annotations

import io
import logging
import sys
import types
from collections.abc import Iterator

import pytest
from django.urls import path

from config.logs import scrubbed


def broken(request):
    raise RuntimeError("broken on purpose")


@pytest.fixture
def broken_page(settings) -> Iterator[str]:
    """A page that raises, at /broken/, with debug off as in production."""
    urls = types.ModuleType("broken_urls")
    urls.urlpatterns = [path("broken/", broken)]  # type: ignore[attr-defined]
    sys.modules[urls.__name__] = urls
    settings.ROOT_URLCONF = urls.__name__
    settings.DEBUG = False
    yield "/broken/"
    del sys.modules[urls.__name__]


@pytest.fixture
def stderr_log() -> Iterator[io.StringIO]:
    """What the settings' stderr handler writes."""
    (handler,) = [h for h in logging.getLogger().handlers if h.name == "stderr"]
    assert isinstance(handler, logging.StreamHandler)
    assert handler.stream is sys.__stderr__ or handler.stream is sys.stderr
    written = io.StringIO()
    kept = handler.setStream(written)
    yield written
    handler.setStream(kept)


def test_an_unhandled_error_is_logged_with_its_traceback_method_path_and_user(
    broken_page, stderr_log, organiser_client, organiser
):
    organiser_client.raise_request_exception = False
    organiser_client.cookies["theme"] = "cookie-value-of-a-visitor"
    response = organiser_client.post(
        broken_page + "?q=query-text", {"password": "hunter2", "name": "Secret Sam"}
    )
    assert response.status_code == 500
    logged = stderr_log.getvalue()
    assert (
        f"ERROR django.request: [POST /broken/ user={organiser.pk}] Internal Server Error: "
        "/broken/\nTraceback (most recent call last):\n"
    ) in logged
    assert "RuntimeError: broken on purpose" in logged
    for private in ("hunter2", "Secret Sam", "cookie-value", "query-text"):
        assert private not in logged
    assert organiser_client.cookies["sessionid"].value not in logged


def test_an_anonymous_visitors_error_is_logged_without_a_user(broken_page, stderr_log, client):
    client.raise_request_exception = False
    assert client.get(broken_page).status_code == 500
    assert "[GET /broken/ user=-] Internal Server Error" in stderr_log.getvalue()


def test_a_report_to_sentry_keeps_no_personal_data():
    refused = 'duplicate key value violates unique constraint "person_name"'
    event = {
        "exception": {
            "values": [
                {"type": "RuntimeError", "value": "broken on purpose"},
                {"type": "IntegrityError", "value": refused + "\nDETAIL: Key (name)=(Olive)"},
            ]
        },
        "transaction": "/broken/",
        "request": {
            "url": "https://scores.example.org/e/K7QM3RXD/",
            "method": "POST",
            "query_string": "q=Olive",
            "cookies": {"sessionid": "abc"},
            "headers": {"Cookie": "sessionid=abc", "User-Agent": "phone"},
            "data": {"password": "hunter2"},
            "env": {"REMOTE_ADDR": "10.0.0.9"},
        },
        "user": {"id": "7", "username": "olive", "email": "olive@example.org"},
        "extra": {"request": "<WSGIRequest: POST '/e/K7QM3RXD/'>"},
        "contexts": {"runtime": {"name": "CPython"}, "browser": {"name": "phone"}},
    }
    assert scrubbed(event, {}) == {
        "exception": {
            "values": [
                {"type": "RuntimeError", "value": "broken on purpose"},
                {"type": "IntegrityError", "value": refused},
            ]
        },
        "transaction": "/broken/",
        "request": {"method": "POST"},
        "user": {"id": "7"},
        "contexts": {"runtime": {"name": "CPython"}},
    }
