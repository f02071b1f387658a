"""Public pages: a player's tournament, a round's tables, the printable final results.

Only published tournaments, released rounds and confirmed sheets appear; anonymous
visitors are served from the cache.
"""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.systems import ScoringSystem
from tests.factories import (
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    player_of,
    record_deal,
    seat_table,
)
from tournament.models import Bye, Deal, Player, Round, Seat, Table
from tournament.public.results import public_results
from tournament.public.views.pages import rank_chart
from tournament.shared import public_changes
from tournament.shared.derived import RoundRank
from tournament.sheets.facts import write_seat_sums
from tournament.sheets.reading import sheet_of
from tournament.sheets.saving import save_sheet
from tournament.standings.services import tournament_standings

pytestmark = pytest.mark.usefixtures("empty_cache")

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
def worked(db):
    """The worked example of docs/rules.md: five players, seat 1 (Ann) deals, Eve last in."""
    tournament = TournamentFactory(name="Worked Open", slug="worked", published=True)
    round_ = RoundFactory(tournament=tournament, number=1, started=True, released=True)
    table = TableFactory(round=round_, number=1)
    players = [
        PlayerFactory(tournament=tournament, name=name)
        for name in ("Ann", "Bob", "Cat", "Dan", "Eve")
    ]
    seat_table(table, players)
    record_deal(table, 1, [6, 4, 10, 0, 8], last_in=5, left_over=24)
    return tournament, players, table


def urls(tournament, player_pk=None, round_number=1):
    if player_pk is None:
        player_pk = Player.objects.filter(tournament=tournament).values_list("pk", flat=True)[0]
    return [
        reverse("player", args=[tournament.slug, player_pk]),
        reverse("public_round", args=[tournament.slug, round_number]),
        reverse("final", args=[tournament.slug]),
    ]


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


# The player page ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("system", "name", "won", "last_in", "points"),
    [
        # Winner-advantage: Eve ends with 8 + 24 cards; Ann's 6 cards are 3 pairs.
        (ScoringSystem.WINNER_ADVANTAGE, "Eve", 8, True, 16),
        (ScoringSystem.WINNER_ADVANTAGE, "Ann", 6, False, 3),
        # Classic stakes: the left over goes to Ann, the dealer: −3 + (30 − 8) / 2 = 8.
        (ScoringSystem.CLASSIC_STAKES, "Ann", 6, False, 8),
        (ScoringSystem.CLASSIC_STAKES, "Eve", 8, True, 3),
    ],
)
def test_player_page_scores_each_deal_under_the_tournament_system(
    client, worked, system, name, won, last_in, points
):
    tournament, players, _ = worked
    tournament.scoring = system.value
    tournament.save()
    player = next(p for p in players if p.name == name)
    response = client.get(reverse("player", args=[tournament.slug, player.pk]))
    assert response.status_code == 200
    (round_,) = response.context["rounds"]
    (deal,) = round_.deals
    assert deal["number"] == 1
    assert deal["dealer"].name == "Ann"
    assert (deal["won"], deal["last_in"], deal["points"]) == (won, last_in, points)
    assert round_.result.points == points
    assert response.context["row"].points == points


def test_player_page_shows_table_seat_opponents_total_and_rank(client, worked):
    tournament, players, _ = worked
    eve = players[4]
    html = page(client, reverse("player", args=[tournament.slug, eve.pk]))
    assert "Table 1, seat 5" in html
    for other in players[:4]:
        assert f'href="{reverse("player", args=[tournament.slug, other.pk])}"' in html
    assert f'href="{reverse("player", args=[tournament.slug, eve.pk])}"' not in html
    assert "round total <strong>16</strong>" in html
    assert "table winner" in html
    assert '<dt>Rank</dt><dd>1 of 5 <span class="muted">' in html
    assert "<td>Ann</td>" in html  # the dealer of deal 1
    assert "last in" in html


def test_player_page_draws_the_rank_after_each_round_as_inline_svg(client, make_played):
    tournament = make_played(players=12, rounds=3)
    player = player_of(tournament, 1, 1, 1)
    response = client.get(reverse("player", args=[tournament.slug, player.pk]))
    html = response.content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert 'role="img"' in svg
    assert "<title" in svg
    assert "<desc" in svg
    assert "Rank</text>" in svg
    assert "Round</text>" in svg
    history = [r.rank_after for r in response.context["rounds"]]
    assert [r.round_number for r in history] == [1, 2, 3]
    for rank in history:
        assert f"After round {rank.round_number}: rank {rank.label}</title>" in svg
    assert "<script" not in svg
    assert "http://" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_rank_after_a_round_is_the_standings_over_the_released_rounds_up_to_it(
    make_played,
):
    tournament = make_played(players=13, rounds=3, stopped_early={2: (1, 3)})
    histories = public_results(tournament).history
    for number in (1, 2, 3):
        # Released rounds changed behind the services' back, to work the expected
        # standings out plainly (no page reads them).
        Round.objects.filter(tournament=tournament).update(released=False)
        Round.objects.filter(tournament=tournament, number__lte=number).update(released=True)
        expected = tournament_standings(tournament, released_only=True).standings
        for row in expected.rows:
            rank = histories[row.key][number - 1]
            assert (rank.rank, rank.shared, rank.points) == (row.rank, row.shared, row.points)


def test_the_released_standings_are_those_of_the_standings_page(make_played):
    tournament = make_played(players=13, rounds=3, stopped_early={2: (1, 3)})
    Round.objects.filter(tournament=tournament, number=3).update(released=False)
    # An update() sends no signal: marked as the services' bulk writes mark it.
    public_changes.mark_changed(tournament.pk)
    tournament.refresh_from_db()
    expected = tournament_standings(tournament, released_only=True).standings
    assert public_results(tournament).rows == {row.key: row for row in expected.rows}


def test_a_bye_and_an_absence_are_shown_as_such(client, make_played):
    tournament = make_played(players=11, rounds=2, absent={2: [0, 1]})
    first, second = Player.objects.filter(tournament=tournament).order_by("pk")[:2]
    Bye.objects.create(round=Round.objects.get(tournament=tournament, number=2), player=first)
    html = page(client, reverse("player", args=[tournament.slug, first.pk]))
    assert "Sat out this round (bye): 0 points" in html
    html = page(client, reverse("player", args=[tournament.slug, second.pk]))
    assert "Did not play this round" in html
    html = page(client, reverse("public_round", args=[tournament.slug, 2]))
    assert "Sitting out" in html
    assert first.name in html


@pytest.mark.parametrize(
    ("ranks", "field", "top_y", "bottom_y"),
    [
        ([1, 5, 3], 5, 14, 164),
        ([2], 12, None, None),
    ],
)
def test_rank_chart_puts_rank_one_at_the_top(ranks, field, top_y, bottom_y):
    history = [RoundRank(n, rank, False, 0) for n, rank in enumerate(ranks, start=1)]
    chart = rank_chart(history, field)
    ys = {rank: point.y for rank, point in zip(ranks, chart.points, strict=True)}
    assert chart.y_ticks[0].label == "1"
    assert chart.y_ticks[-1].label == str(field)
    assert chart.y_ticks[0].position == chart.top
    assert chart.y_ticks[-1].position == chart.bottom
    if top_y is not None:
        assert (ys[1], ys[field]) == (top_y, bottom_y)
        assert ys[1] < ys[3] < ys[5]
    assert [tick.label for tick in chart.x_ticks] == [str(n) for n in range(1, len(ranks) + 1)]
    assert rank_chart([], field) is None


# The round page ----------------------------------------------------------------------


def test_round_page_shows_seating_results_and_winners(client, worked):
    tournament, players, _ = worked
    response = client.get(reverse("public_round", args=[tournament.slug, 1]))
    html = response.content.decode()
    names = [p.name for p in players]
    positions = [html.index(f">{name}</a>") for name in names]
    assert positions == sorted(positions)  # seats in order
    assert 'Ann</a> <span class="muted">deals first</span>' in html
    assert "1 of 5 deals" in html
    assert "stopped early" in html
    assert "won by <strong>Eve</strong>" in html
    (table,) = response.context["tables"]
    assert [(r.seat.name, r.cards_won, r.last_in, r.points) for r in table.results] == [
        ("Ann", 6, 0, 3),
        ("Bob", 4, 0, 2),
        ("Cat", 10, 0, 5),
        ("Dan", 0, 0, 0),
        ("Eve", 8, 1, 16),
    ]


def test_round_page_marks_tables_that_stopped_early_and_shared_wins(client, make_played):
    tournament = make_played(players=12, rounds=2, stopped_early={2: (1, 3)})
    response = client.get(reverse("public_round", args=[tournament.slug, 2]))
    tables = response.context["tables"]
    assert [(t.number, t.deals_played, t.expected_deals, t.stopped_early) for t in tables] == [
        (1, 3, 4, True),
        (2, 4, 4, False),
        (3, 4, 4, False),
    ]
    for table in tables:
        top = max(r.points for r in table.results)
        assert [s.name for s in table.winners] == [
            r.seat.name for r in table.results if r.points == top
        ]
    assert '3 of 4 deals <span class="badge warn">stopped early</span>' in (
        response.content.decode()
    )


# The final page ----------------------------------------------------------------------


def test_final_page_shows_the_podium_standings_and_tiebreak_order(client, make_played):
    tournament = make_played(players=12, rounds=2, date="2026-12-05", planned_rounds=2)
    tournament.venue = "The Red Lion"
    tournament.tiebreaks = ["table_wins", "last_in", "countback"]
    tournament.save()
    response = client.get(reverse("final", args=[tournament.slug]))
    html = response.content.decode()
    assert "Test Open" in html
    assert "5 December 2026 · The Red Lion" in html
    assert "Ranked by points, then table wins, then deals last in, then countback" in html
    headers = re.findall(r'<th scope="col" class="num" title="[^"]*">([^<]*)</th>', html)
    assert headers == ["Table wins", "Deals last in", "R1", "R2"]
    standings = tournament_standings(tournament, released_only=True).standings
    assert [line["row"] for line in response.context["rows"]] == list(standings.rows)
    assert [row.name for _, row in response.context["podium"]] == [
        row.name for row in standings.rows if row.rank <= 3
    ]
    css = (settings.BASE_DIR / "static/css/public.css").read_text()
    assert "@page { size: auto;" in css
    assert "@media print" in css
    assert "css/public.css" in html


def test_final_page_shows_shared_ranks_with_equals(client, db):
    tournament = TournamentFactory(slug="tied", published=True, planned_rounds=1)
    round_ = RoundFactory(tournament=tournament, number=1, started=True, released=True)
    table = TableFactory(round=round_, number=1)
    players = [PlayerFactory(tournament=tournament, name=n) for n in ("Ann", "Bob", "Cat", "Dan")]
    seat_table(table, players)
    # Bob and Cat are equal on every key: points 5, never last in, no table win.
    record_deal(table, 1, [20, 10, 10, 0], last_in=1, left_over=12)
    response = client.get(reverse("final", args=[tournament.slug]))
    assert [label for label, _ in response.context["podium"]] == ["1", "=2", "=2"]
    html = response.content.decode()
    assert '<span class="place">=2</span>\n    <span class="name">Bob</span>' in html
    assert '<span class="place">=2</span>\n    <span class="name">Cat</span>' in html


# Visibility --------------------------------------------------------------------------


def test_a_private_tournament_is_404_for_the_public_on_every_page(
    client, outsider_client, organiser_client, organiser, make_played
):
    tournament = make_played(published=False)
    tournament.owner = organiser
    tournament.save()
    for url in urls(tournament):
        assert client.get(url).status_code == 404, url
        assert outsider_client.get(url).status_code == 404, url
        assert organiser_client.get(url).status_code == 200, url


def test_an_unreleased_round_does_not_exist_publicly(client, make_played):
    # Seating kept private: a started round shows nothing until it is released
    # (tests/public/test_public_seating.py has the public seating).
    tournament = make_played(players=12, rounds=2, seating_public=False)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    public_changes.mark_changed(tournament.pk)
    round_two = reverse("public_round", args=[tournament.slug, 2])
    response = client.get(round_two)
    assert response.status_code == 302
    assert response["Location"] == reverse("public_round", args=[tournament.slug, 1])

    # A player whose round 2 opponents are all new to them: none of those names may show.
    player = player_of(tournament, 2, 1, 1)
    round_one_names = set(
        Seat.objects.filter(
            round__number=1, table__seats__player=player, round__tournament=tournament
        ).values_list("player__name", flat=True)
    )
    round_two_only = (
        set(
            Seat.objects.filter(
                round__number=2, table__seats__player=player, round__tournament=tournament
            ).values_list("player__name", flat=True)
        )
        - round_one_names
    )
    assert round_two_only
    response = client.get(reverse("player", args=[tournament.slug, player.pk]))
    html = response.content.decode()
    assert round_two not in html
    assert "Round 2" not in html
    for name in round_two_only:
        assert name not in html
    assert [r.round_number for r in response.context["rounds"]] == [1]

    response = client.get(reverse("final", args=[tournament.slug]))
    html = response.content.decode()
    assert round_two not in html
    assert ">R2<" not in html
    assert "after round 1" in html
    round_one_only = tournament_standings(tournament, released_only=True).standings
    assert [line["row"] for line in response.context["rows"]] == list(round_one_only.rows)


def test_an_unconfirmed_sheet_never_shows(client, make_played, django_user_model):
    tournament = make_played(players=12, rounds=2)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    Deal.objects.filter(table=table).delete()
    # The seats' sums go with the deals, as the sheet services keep them.
    write_seat_sums(table, [])
    public_changes.mark_changed(tournament.pk)
    seat_one = player_of(tournament, 1, 1, 1)
    user = django_user_model.objects.create_user("typist")
    # Seat 1 would score 22 a deal from this sheet if it counted.
    row = {"won": ["40", "2", "4", "2"], "last_in": "1", "left_over": "4"}
    saved = save_sheet(table, user, [row] * 4, expected_version=sheet_of(table).version, final=True)
    assert saved.status == "entered"

    response = client.get(reverse("public_round", args=[tournament.slug, 1]))
    first = response.context["tables"][0]
    assert (first.number, first.deals_played) == (1, 0)
    assert [r.points for r in first.results] == [0, 0, 0, 0]
    assert (
        'no result yet</span> <span class="muted">The table’s sheet is not confirmed yet'
        in response.content.decode()
    )

    response = client.get(reverse("player", args=[tournament.slug, seat_one.pk]))
    round_one = response.context["rounds"][0]
    assert (round_one.result.points, round_one.deals) == (0, [])
    assert ">40<" not in response.content.decode()

    response = client.get(reverse("final", args=[tournament.slug]))
    expected = tournament_standings(tournament, released_only=True).standings
    assert [line["row"] for line in response.context["rows"]] == list(expected.rows)
    with_pending = tournament_standings(tournament, include_unconfirmed=True).standings
    assert expected.rows != with_pending.rows


def test_an_unconfirmed_sheet_of_a_new_released_round_never_shows(client, make_played):
    tournament = make_played(players=8, rounds=1)
    round_ = RoundFactory(tournament=tournament, number=2, started=True, released=True)
    players = list(Player.objects.filter(tournament=tournament)[:4])
    table = TableFactory(round=round_, number=1, players=players)
    user = get_user_model().objects.create_user("typist")
    row = {"won": ["40", "2", "4", "2"], "last_in": "1", "left_over": "4"}
    save_sheet(table, user, [row] * 4, expected_version=0, final=True)

    response = client.get(reverse("public_round", args=[tournament.slug, 2]))
    html = response.content.decode()
    assert players[0].name in html  # the seating of a released round is public
    assert 'no result yet</span> <span class="muted">The table’s sheet is not confirmed yet' in html
    assert ">40<" not in html
    response = client.get(reverse("player", args=[tournament.slug, players[0].pk]))
    assert response.context["rounds"][1].result.points == 0


def test_names_are_escaped_everywhere(client, make_played):
    tournament = make_played(players=6, rounds=1)
    player = player_of(tournament, 1, 1, 1)
    player.name = SCRIPT
    player.save()
    tournament.name = SCRIPT
    tournament.venue = SCRIPT
    tournament.save()
    for url in urls(tournament, player.pk):
        html = page(client, url)
        assert SCRIPT not in html, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, url


def test_pages_have_no_inline_scripts_or_event_handlers(client, make_played):
    tournament = make_played(players=6, rounds=1)
    for url in urls(tournament):
        html = page(client, url)
        for tag in re.findall(r"<script[^>]*>", html):
            assert re.search(r'src="/static/', tag), tag
        assert not re.search(r"\son[a-z]+=", html), url
        assert "style=" not in html, url


def test_unknown_player_is_404_and_unknown_round_goes_to_the_nearest(client, make_played):
    tournament = make_played(players=6, rounds=1)
    other = make_played(players=6, rounds=1, slug="other-open")
    stranger = Player.objects.filter(tournament=other).first()
    assert client.get(reverse("player", args=[tournament.slug, stranger.pk])).status_code == 404
    assert client.get(reverse("player", args=[tournament.slug, 999999])).status_code == 404
    response = client.get(reverse("public_round", args=[tournament.slug, 2]))
    assert response.status_code == 302
    assert response["Location"] == reverse("public_round", args=[tournament.slug, 1])
    for url in urls(tournament):
        assert client.get(url.replace(tournament.slug, "nope", 1)).status_code == 404


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_public_pages_are_read_only(client, make_played, method):
    tournament = make_played(players=6, rounds=1)
    for url in urls(tournament):
        assert getattr(client, method)(url).status_code == 405, url


# Queries and caching -----------------------------------------------------------------


# Each page here is the first after a change: it reads the tournament's public view (one
# query; none for its chances, the last round released) and works nothing out. Besides:
# the page cache's lookup and the tournament; the player page the round being played
# (none), the player's tables, their deals and the view's round tables; the round page
# the released rounds' numbers first (so that a round being played does not read the
# view), the round's tables and the round being played; the final page the round being
# played.
@pytest.mark.parametrize(
    ("name", "budget"),
    [("player", 7), ("public_round", 6), ("final", 4)],
)
def test_query_counts_do_not_grow_with_the_tournament(
    client, make_played, django_assert_num_queries, name, budget
):
    small = make_played(players=6, rounds=1, slug="small", planned_rounds=1)
    large = make_played(players=40, rounds=5, rotations=2, slug="large", planned_rounds=5)
    for tournament in (small, large):
        Bye.objects.create(
            round=Round.objects.get(tournament=tournament, number=1),
            player=Player.objects.create(tournament=tournament, ref="late", name="Late"),
        )
        args = {
            "player": [tournament.slug, player_of(tournament, 1, 1, 1).pk],
            "public_round": [tournament.slug, 1],
            "final": [tournament.slug],
        }[name]
        with django_assert_num_queries(budget):
            assert client.get(reverse(name, args=args)).status_code == 200


def test_anonymous_pages_are_cached_until_the_tournament_changes(client, make_played):
    tournament = make_played(players=12, rounds=2)
    player = player_of(tournament, 1, 1, 1)
    for url in urls(tournament, player.pk):
        first = page(client, url)
        with CaptureQueriesContext(connection) as cached:
            assert page(client, url) == first
        assert len(cached) == 0, url

    # A change made without signals shows only once the tournament is marked changed.
    Player.objects.filter(pk=player.pk).update(name="Renamed Player")
    for url in urls(tournament, player.pk):
        assert "Renamed Player" not in page(client, url)
    public_changes.mark_changed(tournament.pk)
    for url in urls(tournament, player.pk):
        with CaptureQueriesContext(connection) as recomputed:
            assert "Renamed Player" in page(client, url), url
        assert len(recomputed) > 1


def test_a_player_page_after_another_reads_only_that_players_tables(
    client, make_played, django_assert_num_queries
):
    """The field's rank history is made once and shared: the next player's page (a page
    cache miss, as a crawler walking every player gets) costs the page's own queries."""
    small = make_played(players=6, rounds=1, slug="small")
    large = make_played(players=40, rounds=5, rotations=2, slug="large")
    for tournament in (small, large):
        first, second = (
            Player.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)
        )[:2]
        assert client.get(reverse("player", args=[tournament.slug, first])).status_code == 200
        # The tournament, the player's tables and their deals, and the round being
        # played (none here: every round is released); the page cache read the
        # tournament's generation for the first page.
        with django_assert_num_queries(4):
            response = client.get(reverse("player", args=[tournament.slug, second]))
        assert response.status_code == 200


def test_the_shared_rank_history_is_made_again_once_something_public_changes(client, make_played):
    tournament = make_played(players=12, rounds=2, seating_public=False)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    public_changes.mark_changed(tournament.pk)
    player = player_of(tournament, 1, 1, 1)
    html = page(client, reverse("player", args=[tournament.slug, player.pk]))
    assert "Round 2" not in html
    # Released through the service path that the organiser's page uses.
    round_2 = Round.objects.get(tournament=tournament, number=2)
    round_2.released = True
    round_2.save(update_fields=["released"])
    html = page(client, reverse("player", args=[tournament.slug, player.pk]))
    tournament.refresh_from_db()
    expected = tournament_standings(tournament, released_only=True).standings
    row = next(row for row in expected.rows if row.key == player.pk)
    assert "Round 2" in html
    assert f"<dd>{row.points} " in html


def test_a_message_waiting_for_one_visitor_is_never_shown_to_another(make_played):
    """A logged-out visitor may still carry a flash message (in its cookie): the page that
    shows it is theirs, neither served from the shared cache nor put in it."""
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.http import HttpRequest
    from django.test import Client

    tournament = make_played(players=12, rounds=1)
    url = reverse("standings", args=[tournament.slug])
    carrying = Client()
    carrying.cookies["messages"] = CookieStorage(HttpRequest())._encode(
        [Message(constants.SUCCESS, "Imported 12 players.")]
    )
    assert "Imported 12 players." in carrying.get(url).content.decode()
    assert "Imported 12 players." not in Client().get(url).content.decode()
    # And a page cached before is not served in place of theirs.
    carrying.cookies["messages"] = CookieStorage(HttpRequest())._encode(
        [Message(constants.SUCCESS, "Sheet saved.")]
    )
    assert "Sheet saved." in carrying.get(url).content.decode()
