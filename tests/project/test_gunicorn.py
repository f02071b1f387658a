"""gunicorn's settings file (``config/gunicorn.py``): a worker killed at the timeout logs
the request it was serving by its URL pattern, in the form of a slow request's line; and
gunicorn's own lines and access log go through the app's handlers and formatter."""

from __future__ import annotations

import logging
import sys
import types
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.http import HttpResponse
from django.urls import path

from config import gunicorn as gunicorn_settings
from config.logs import EscapingFormatter
from tournament.kernel import slow_requests

LOGGER = "tournament.kernel.slow_requests"


def a_worker():
    """What gunicorn hands the hook: its worker (the hook reads nothing of it)."""
    return SimpleNamespace(pid=4242, timeout=30, alive=False)


def killed_lines(caplog) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name == LOGGER]


def struck_at_the_timeout(request, secret):
    """A page that runs until gunicorn kills its worker: the hook is called in the middle
    of it, as gunicorn's SIGABRT handler calls it."""
    slow_requests.monotonic()  # the clock moves on by its step
    gunicorn_settings.worker_abort(a_worker())
    return HttpResponse("never sent")


@pytest.fixture
def struck_page(settings) -> Iterator[str]:
    urls = types.ModuleType("struck_urls")
    urls.urlpatterns = [path("slow/<str:secret>/", struck_at_the_timeout)]  # type: ignore[attr-defined]
    sys.modules[urls.__name__] = urls
    settings.ROOT_URLCONF = urls.__name__
    yield "/slow/K7QM3RXD/"
    del sys.modules[urls.__name__]


def test_the_hook_names_the_pattern_of_the_request_being_served(
    db, client, struck_page, request_clock, caplog
):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    request_clock.step = 15.0
    client.post(struck_page)
    assert killed_lines(caplog)[0] == (
        "ERROR",
        "request killed at the timeout: POST slow/<str:secret>/ took 30.0 s, user unknown",
    )
    assert "K7QM3RXD" not in killed_lines(caplog)[0][1]


def test_the_hook_resolves_a_request_killed_before_its_view(request_clock, monkeypatch, caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    begun = slow_requests.Serving(
        method="GET", path_info="/e/K7QM3RXD/", route=None, started=request_clock.now
    )
    monkeypatch.setattr(slow_requests, "serving", begun)
    request_clock.step = 31.0
    gunicorn_settings.worker_abort(a_worker())
    assert killed_lines(caplog) == [
        ("ERROR", "request killed at the timeout: GET e/<str:code>/ took 31.0 s, user unknown")
    ]


def test_the_hook_says_so_when_no_request_was_being_served(monkeypatch, caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    monkeypatch.setattr(slow_requests, "serving", slow_requests.Serving())
    gunicorn_settings.worker_abort(a_worker())
    assert killed_lines(caplog) == [("ERROR", "worker killed at the timeout between requests")]


def test_the_killed_line_has_the_slow_requests_form(request_clock, monkeypatch, caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    monkeypatch.setattr(
        slow_requests,
        "serving",
        slow_requests.Serving("GET", "/t/x/", "t/<slug:slug>/", request_clock.now),
    )
    request_clock.step = 12.0
    gunicorn_settings.worker_abort(a_worker())
    slow_requests.log_request(logging.WARNING, "slow request", "GET", "t/<slug:slug>/", 12.0, "7")
    killed, slow = (r.msg for r in caplog.records if r.name == LOGGER)
    assert killed == slow


def test_gunicorn_logs_through_the_apps_handlers_and_formatter(settings):
    given = gunicorn_settings.logconfig_dict
    assert given == settings.LOGGING
    (formatter,) = given["formatters"].values()
    assert formatter["class"] == f"{EscapingFormatter.__module__}.EscapingFormatter"
    assert {handler["formatter"] for handler in given["handlers"].values()} == {"line"}
    assert given["loggers"]["gunicorn.access"]["handlers"] == ["stdout"]
    assert given["handlers"]["stdout"]["stream"] == "ext://sys.stdout"
    # gunicorn's own lines go to the root's handler, replacing its own.
    assert given["loggers"]["gunicorn.error"] == {"handlers": [], "propagate": True}
