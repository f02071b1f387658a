"""Every 500 is recorded (``settings.LOGGING``, ``config.logs``): with debug off, an
unhandled error answers 500 and writes its traceback to stderr with the request's
method, path and user id, and nothing of what was posted, its cookies or query string."""

from __future__ import annotations

import io
import logging
import re
import sys
import types
from collections.abc import Iterator

import pytest
from django.urls import path

from config.logs import LINE, EscapingFormatter, escaped, scrubbed


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


# One line a record ---------------------------------------------------------------------


def test_a_path_with_a_line_break_cannot_write_a_line_of_its_own(client, stderr_log):
    forged = "ERROR django.request: [GET /admin/ user=1] Internal Server Error: /admin/"
    client.get("/t/x%0A" + forged.replace(" ", "%20") + "/")
    logged = stderr_log.getvalue()
    assert logged.count("\n") == 1, logged
    assert not any(line.startswith("ERROR") for line in logged.splitlines())
    assert "WARNING django.request: [GET /t/x\\nERROR django.request: " in logged
    assert "Not Found: /t/x\\nERROR django.request: [GET /admin/ user=1]" in logged


def test_no_nul_nor_other_control_reaches_the_log(client, stderr_log):
    client.get("/t/x%00%0D%1B%7F%C2%85%E2%80%A8y/")
    logged = stderr_log.getvalue()
    assert "/t/x\\x00\\r\\x1b\\x7f\\x85\\u2028y/" in logged
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]", logged)
    assert logged.count("\n") == 1


def _raised(message: str, cause: str) -> BaseException:
    try:
        try:
            raise KeyError(cause)
        except KeyError as error:
            raise ValueError(message) from error
    except ValueError as error:
        return error


def test_a_traceback_keeps_its_lines_with_each_exceptions_message_escaped():
    error = _raised("bad name\nERROR django.request: forged", "k\x00ey")
    record = logging.LogRecord(
        "django.request",
        logging.ERROR,
        __file__,
        1,
        "Internal Server Error: %s",
        ("/e/\r\nERROR x/",),
        (type(error), error, error.__traceback__),
    )
    record.request_line = "[GET /e/\n/ user=-] "
    text = EscapingFormatter(LINE).format(record)
    lines = text.splitlines()
    assert lines[0].endswith(
        "ERROR django.request: [GET /e/\\n/ user=-] Internal Server Error: /e/\\r\\nERROR x/"
    )
    assert lines[1] == "Traceback (most recent call last):"
    assert "KeyError: 'k\\x00ey'" in lines
    assert "The above exception was the direct cause of the following exception:" in lines
    assert lines[-1] == "ValueError: bad name\\nERROR django.request: forged"
    # Every line but the first is the traceback's own.
    assert not [line for line in lines[1:] if line.startswith("ERROR")]


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("plain words, “quoted” é ü", "plain words, “quoted” é ü"),
        ("a\nb", "a\\nb"),
        ("a\r\nb", "a\\r\\nb"),
        ("tab\there", "tab\\there"),
        ("nul\x00", "nul\\x00"),
        ("escape \x1b[31mred", "escape \\x1b[31mred"),
        ("del\x7f", "del\\x7f"),
        ("next line\x85", "next line\\x85"),
        ("separators\u2028\u2029", "separators\\u2028\\u2029"),
    ],
)
def test_control_characters_are_written_as_escapes(text, written):
    assert escaped(text) == written


def test_every_handler_writes_through_the_escaping_formatter():
    ours = {"stderr", "stdout"}
    handlers = [h for h in logging.getLogger().handlers if h.name in ours]
    # (The test run adds handlers of its own, to capture what is logged.)
    handlers += [h for h in logging.getLogger("gunicorn.access").handlers if h.name in ours]
    assert sorted(h.name for h in handlers) == ["stderr", "stdout"]
    for handler in handlers:
        assert isinstance(handler.formatter, EscapingFormatter), handler.name
