import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import (
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    record_deal,
    seat_table,
)


def test_home_lists_tournaments(client, make_played):
    make_played()
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"Test Open" in response.content


def test_standings_page_shows_ranks_values_and_the_chain(client, make_played):
    tournament = make_played(players=12, rounds=2, stopped_early={2: (1, 3)})
    response = client.get(reverse("standings", args=[tournament.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ranked by points, then deals last in, then table wins, then countback" in html
    assert "Stopped early: round 2, table 1 (3 of 4 deals)" in html
    table = response.context["table"]
    assert [column.name for column in table.columns][:5] == [
        "rank",
        "name",
        "club",
        "points",
        "deals",
    ]
    assert "last_in" in [column.name for column in table.columns]
    assert len(table.rows) == 12


def test_a_shared_rank_is_shown_with_equals(client, db):
    tournament = TournamentFactory(slug="tied", published=True)
    round_ = RoundFactory(tournament=tournament, number=1, started=True, released=True)
    table = TableFactory(round=round_, number=1)
    players = [PlayerFactory(tournament=tournament, name=n) for n in ("Ann", "Bob", "Cat", "Dan")]
    seat_table(table, players)
    # Bob and Cat are equal on every key: points 5, never last in, no table win.
    record_deal(table, 1, [20, 10, 10, 0], last_in=1, left_over=12)
    html = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert html.count('<td class="rank">=2</td>') == 2


def test_before_any_result_nobody_is_listed_as_equal_first(client, make_played):
    tournament = make_played(players=3, rounds=0)
    html = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert ">=1<" not in html
    assert "No results yet: the first round has not started." in html


def test_unknown_tournament_is_404(client, db):
    assert client.get(reverse("standings", args=["nope"])).status_code == 404


def test_the_standings_page_query_count_does_not_grow(client, make_played):
    # Both with a round left to play, so that both read their stored chances.
    small = make_played(players=6, rounds=1, slug="small", planned_rounds=3)
    large = make_played(players=40, rounds=5, rotations=2, slug="large", planned_rounds=7)

    def count(slug):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("standings", args=[slug])).status_code == 200
        return len(captured)

    # The same few queries however large: the page cache's lookup, the tournament, the
    # public view and its stored podium chances, the round being played and the seating.
    assert count(small.slug) == count(large.slug) <= 7


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_standings_page_is_read_only(client, make_played, method):
    tournament = make_played()
    response = getattr(client, method)(reverse("standings", args=[tournament.slug]))
    assert response.status_code == 405
