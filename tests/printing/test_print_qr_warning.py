"""The score sheets' print page warns the organiser, on screen only, when the QR codes
would point at this computer alone (127.0.0.1, localhost, [::1]): a scorer's phone
scanning one would open nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournament.printing.qr import points_at_this_computer_only

WARNING = "The QR codes on these sheets will not work on the scorers' phones."


def sheets_page(client: Client, round_, **headers: str) -> str:
    url = reverse("print:sheets", args=[round_.tournament.slug, round_.number])
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


def screen_only_part(html: str) -> str:
    start = html.index('<div class="print-hint screen-only">')
    return html[start : html.index('<article class="score-sheet')]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_printed_from_this_computer_the_page_warns(organiser_client, seated_round, host):
    html = sheets_page(organiser_client, seated_round, HTTP_HOST=host)
    assert WARNING in screen_only_part(html)  # hidden when printed (print.css)
    assert "python3 run.py serve 0.0.0.0:8000" in html
    assert "PUBLIC_BASE_URL" in html


@pytest.mark.parametrize("host", ["192.168.1.20:8000", "scores.example.org", "testserver"])
def test_an_address_phones_reach_gives_no_warning(organiser_client, seated_round, host, settings):
    settings.ALLOWED_HOSTS = [host.split(":")[0]]
    assert WARNING not in sheets_page(organiser_client, seated_round, HTTP_HOST=host)


def test_the_public_base_url_decides(organiser_client, seated_round, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "192.168.1.20"]
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    assert WARNING not in sheets_page(organiser_client, seated_round, HTTP_HOST="127.0.0.1")
    settings.PUBLIC_BASE_URL = "http://localhost:8000"
    assert WARNING in sheets_page(organiser_client, seated_round, HTTP_HOST="192.168.1.20")


@pytest.mark.parametrize(
    ("url", "unreachable"),
    [
        ("http://127.0.0.1:8000/score/x/1/1/", True),
        ("http://127.0.0.2/score/", True),
        ("http://LOCALHOST/score/", True),
        ("http://pub.localhost/score/", True),
        ("http://[::1]:8000/score/", True),
        ("http://192.168.1.20:8000/score/", False),
        ("https://scores.example.org/score/", False),
        ("http://[fe80::1]/score/", False),
    ],
)
def test_which_addresses_are_this_computer_only(url, unreachable):
    assert points_at_this_computer_only(url) is unreachable
