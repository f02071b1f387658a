"""A request that runs longer than ``SLOW_REQUEST_SECONDS`` is logged at WARNING with its
URL pattern (never its address, which may carry a table code), its user and how long it
took (``tournament.kernel.slow_requests``). The clock is set by hand: nothing waits."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from tournament.kernel import slow_requests

LOGGER = "tournament.kernel.slow_requests"


@pytest.fixture
def slow_lines(caplog):
    """The lines the slow requests' log writes from now on."""
    caplog.set_level(logging.WARNING, logger=LOGGER)

    def lines() -> list[tuple[str, str]]:
        return [(r.levelname, r.getMessage()) for r in caplog.records if r.name == LOGGER]

    return lines


def test_a_slow_request_is_logged_by_its_pattern_never_its_table_code(
    client, seated_round, request_clock, slow_lines, caplog
):
    table = seated_round.tables.get(number=1)
    request_clock.step = 12.5
    client.get(reverse("table:entry", args=[table.code]))
    assert slow_lines() == [
        ("WARNING", "slow request: GET e/<str:code>/ took 12.5 s, user anonymous")
    ]
    assert not [r for r in caplog.records if r.name == LOGGER and table.code in r.getMessage()]


def test_a_logged_in_users_slow_request_names_their_id(
    scorer_client, scorer, seated_round, request_clock, slow_lines
):
    request_clock.step = 10.5
    scorer_client.get(reverse("scorer:sheet", args=["club-night", 1, 1]))
    assert slow_lines() == [
        (
            "WARNING",
            "slow request: GET score/<slug:slug>/r<int:round>/t<int:table>/ took 10.5 s, "
            f"user {scorer.pk}",
        )
    ]


def test_a_request_within_the_limit_is_not_logged(client, seated_round, request_clock, slow_lines):
    request_clock.step = 10.0
    client.get(reverse("standings", args=["club-night"]))
    client.get("/no-such-page/")
    assert slow_lines() == []


def test_a_cached_page_and_an_address_of_no_page_are_named_by_their_pattern_too(
    client, make_played, request_clock, slow_lines
):
    tournament = make_played(players=6, rounds=1)
    url = reverse("standings", args=[tournament.slug])
    client.get(url)  # now in the cache, answered before any view is resolved
    request_clock.step = 11.0
    client.get(url)
    client.get("/no-such-page/K7QM3RXD/")
    assert slow_lines() == [
        ("WARNING", "slow request: GET t/<slug:slug>/ took 11.0 s, user anonymous"),
        ("WARNING", "slow request: GET (no page at this address) took 11.0 s, user anonymous"),
    ]


def test_between_requests_the_process_serves_none(client, seated_round, request_clock):
    client.get(reverse("standings", args=["club-night"]))
    assert slow_requests.serving.started is None
