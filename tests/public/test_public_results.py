"""The public results: the public view, worked out once per change and read by every
public page.

The standings, each player's rank after every released round and each released round's
tables are worked out together from the seats' sums when a change commits
(``derived.build``) and stored; the pages read them (``public.results.public_results``).
These tests check that they equal a plain recomputation, that no page works them out,
and that a player's page costs the same queries whatever the number of rounds.
"""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Bye, ByeScore, Player, Round
from tournament.public import results as public
from tournament.shared import public_changes
from tournament.standings.services import tournament_standings

pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture
def computations(monkeypatch):
    """Which views have been worked out since the test began: (tournament, kind)."""
    from tournament.derived import build

    calls = []
    compute = build._data

    def counted(tournament, kind, facts):
        calls.append((tournament.pk, kind))
        return compute(tournament, kind, facts)

    monkeypatch.setattr(build, "_data", counted)
    return calls


def players(tournament):
    return list(Player.objects.filter(tournament=tournament).order_by("pk"))


@pytest.fixture
def eventful(make_played):
    """Four rounds of 16 players with an average bye (player 13 in round 2), two late
    arrivals (players 14 and 15 miss round 1, so they share a rank after it) and a
    dropped player (player 0 leaves after round 2)."""
    tournament = make_played(
        players=16,
        rounds=4,
        absent={1: [14, 15], 2: [13], 3: [0], 4: [0]},
        bye_score=ByeScore.AVERAGE,
        slug="eventful",
    )
    field = players(tournament)
    Bye.objects.create(round=Round.objects.get(tournament=tournament, number=2), player=field[13])
    public_changes.mark_changed(tournament.pk)
    tournament.refresh_from_db()
    return tournament, field


def test_the_player_pages_ranks_after_each_round_are_the_standings_over_the_rounds_up_to_it(
    client, eventful
):
    tournament, field = eventful
    shown = {}
    for player in field:
        response = client.get(reverse("player", args=[tournament.slug, player.pk]))
        assert response.status_code == 200
        shown[player.pk] = [
            (rank.round_number, rank.rank, rank.shared, rank.points)
            for rank in (round_.rank_after for round_ in response.context["rounds"])
        ]

    # Recomputed plainly: the standings with only the rounds up to k released.
    expected = {player.pk: [] for player in field}
    for number in (1, 2, 3, 4):
        Round.objects.filter(tournament=tournament).update(released=False)
        Round.objects.filter(tournament=tournament, number__lte=number).update(released=True)
        for row in tournament_standings(tournament, released_only=True).standings.rows:
            expected[row.key].append((number, row.rank, row.shared, row.points))
    assert shown == expected

    late, dropped, bye = field[14].pk, field[0].pk, field[13].pk
    assert shown[late][0][1:3] == (shown[field[15].pk][0][1], True)  # shared after round 1
    assert shown[late][0][3] == 0
    assert shown[dropped][2][3] == shown[dropped][3][3] == shown[dropped][1][3]
    assert shown[bye][1][3] - shown[bye][0][3] == 26  # the bye's average, one rotation


def test_no_page_works_the_results_out_and_a_change_works_them_out_once(
    client, make_played, computations, after_commit
):
    tournament = make_played(players=14, rounds=3)
    after_commit()
    computations.clear()
    first, second = players(tournament)[:2]
    urls = [
        reverse("standings", args=[tournament.slug]),
        reverse("standings", args=[tournament.slug]) + "?q=Player+0001",
        reverse("standings", args=[tournament.slug]) + "?q=Player+0002",
        reverse("standings", args=[tournament.slug]) + "?sort=-points",
        reverse("projector", args=[tournament.slug]),
        reverse("final", args=[tournament.slug]),
        reverse("standings_csv", args=[tournament.slug]),
        reverse("player", args=[tournament.slug, first.pk]),
        reverse("player", args=[tournament.slug, second.pk]),
        reverse("public_round", args=[tournament.slug, 1]),
        reverse("public_round", args=[tournament.slug, 3]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert computations == []

    # A change (a round withheld through the organiser's path) works the public view out
    # once, when it commits (the organiser's counts every started round: unchanged).
    round_3 = Round.objects.get(tournament=tournament, number=3)
    round_3.released = False
    round_3.save(update_fields=["released"])
    after_commit()
    assert computations == [(tournament.pk, "public")]
    for url in urls[:-1]:
        assert client.get(url).status_code == 200, url
    # Round 3 is not public any more: its address goes to the nearest round shown.
    assert "results not released yet" in client.get(urls[-1], follow=True).content.decode()
    assert computations == [(tournament.pk, "public")]


def test_find_a_player_answers_from_the_shared_results(client, make_played):
    tournament = make_played(players=30, rounds=3)
    url = reverse("standings", args=[tournament.slug])
    assert client.get(url).status_code == 200
    for query in ("Player 0001", "Player 002", "nobody"):
        # The tournament and the round being played (none); the page cache's generation
        # was read by the first page and is remembered for a second.
        with CaptureQueriesContext(connection) as searched:
            response = client.get(url, {"q": query})
        assert response.status_code == 200
        assert len(searched) == 2, query
    names = [row["name"] for row in response.context["table"].data]
    assert names == []


def test_a_cleared_cache_is_never_outlived_by_a_workers_copy(
    make_played, computations, after_commit
):
    tournament = make_played(players=10, rounds=2)
    after_commit()
    tournament.refresh_from_db()
    computations.clear()
    first = public.public_results(tournament)
    assert public.public_results(tournament) is first
    cache.clear()
    again = public.public_results(tournament)
    assert again is not first
    assert again == first
    # Read back from the stored view, never worked out again.
    assert computations == []


def test_a_rounds_tables_lost_from_the_cache_are_read_again(
    make_played, computations, after_commit
):
    tournament = make_played(players=10, rounds=2)
    after_commit()
    tournament.refresh_from_db()
    computations.clear()
    tables = public.public_round_results(tournament, 2)
    assert public.public_round_results(tournament, 2) == tables
    cache.delete(f"lld:view:{tournament.pk}:{public_changes.public_version(tournament)}:round:2")
    assert public.public_round_results(tournament, 2) == tables
    assert computations == []
    assert [table.number for table in tables.tables] == [1, 2]


@pytest.mark.parametrize("rounds", [2, 8])
def test_a_player_page_costs_the_same_queries_whatever_the_number_of_rounds(
    client, make_played, rounds, django_assert_num_queries
):
    tournament = make_played(
        players=20, rounds=rounds, slug=f"rounds-{rounds}", planned_rounds=rounds + 1
    )
    first, second = players(tournament)[:2]
    # The first page after a change: the page cache's lookup, the tournament, the public
    # view and its stored podium chances, the round being played (none: every round is
    # released), the player's tables and their deals, and the view's round tables (one
    # query for all the player's rounds).
    with django_assert_num_queries(8):
        assert client.get(reverse("player", args=[tournament.slug, first.pk])).status_code == 200
    # Any other player's page after it: the results are shared, and the page cache
    # remembers the generation it read for a second.
    with django_assert_num_queries(4):
        assert client.get(reverse("player", args=[tournament.slug, second.pk])).status_code == 200
