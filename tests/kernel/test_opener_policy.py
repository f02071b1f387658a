"""Cross-Origin-Opener-Policy is sent where the browser honours it (HTTPS, localhost) and
nowhere else: a laptop serving the pub's wifi over plain HTTP sends no header for the
phones' browsers to complain about (tournament/kernel/origin.py)."""

from __future__ import annotations

import pytest

HEADER = "Cross-Origin-Opener-Policy"


@pytest.mark.parametrize(
    "host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "lld.localhost"]
)
def test_sent_to_localhost(client, db, settings, host):
    settings.ALLOWED_HOSTS = ["*"]
    response = client.get("/", HTTP_HOST=host)
    assert response[HEADER] == "same-origin"


def test_sent_over_https(client, db, settings):
    settings.ALLOWED_HOSTS = ["*"]
    response = client.get("/", HTTP_HOST="lld.example.org", secure=True)
    assert response[HEADER] == "same-origin"


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/t/nowhere/"])
def test_not_sent_over_plain_http_to_another_address(client, db, settings, path):
    settings.ALLOWED_HOSTS = ["*"]
    response = client.get(path, HTTP_HOST="192.168.1.20:8000")
    assert HEADER not in response
    # The other security headers stay.
    assert response["X-Content-Type-Options"] == "nosniff"


def test_a_host_not_allowed_is_refused_without_an_error(client, db, settings):
    settings.ALLOWED_HOSTS = ["lld.example.org"]
    assert client.get("/", HTTP_HOST="evil.example.com").status_code == 400
