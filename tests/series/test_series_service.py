"""A series' standings and ratings (``series.services``): equal to the tournaments' public
standings and to openskill called directly on the same matches; only public facts count;
the cache follows every counted change; the queries stay flat; and the ratings after a
change, computed from the checkpoints, equal the ratings computed from scratch."""

from fractions import Fraction

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from scoring.series import Placing, scheme
from tests.commits import settle
from tests.factories import a_deal, link, seated_round
from tournament.models import (
    Person,
    Player,
    Round,
    Series,
    SeriesTournament,
    Sheet,
    SheetStatus,
    Tournament,
)
from tournament.public import results as public
from tournament.series import services as series
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet

pytestmark = pytest.mark.usefixtures("empty_series_cache")


def make_series(
    make_played, count=3, *, players=10, rounds=3, slug="season", prefix="month", **fields
):
    """``count`` tournaments a month apart of ``players`` each, the first ``players − 2``
    players of each linked to the same people (the last two stay unlinked)."""
    people = [
        Person.objects.create(name=f"Person {i:02d}", club="Club") for i in range(players - 2)
    ]
    made = Series.objects.create(name="Season", slug=slug, **fields)
    for index in range(count):
        tournament = make_played(
            players=players,
            rounds=rounds,
            seed=index + 1,
            slug=f"{prefix}-{index + 1}",
            date=f"2026-{index + 1:02d}-01",
        )
        SeriesTournament.objects.create(series=made, tournament=tournament, accepted=True)
        # Each month the people sit in a different order, so that results differ.
        link(tournament, [*people[index:], *people[:index], None, None])
    settle()
    return made


def direct_ratings(made):
    """openskill called directly on every released table with a confirmed deal, in
    series order, from each released round's public tables."""
    model = PlackettLuce()
    ratings = {}
    entries = made.entries.filter(accepted=True, tournament__published=True).select_related(
        "tournament"
    )
    tournaments = sorted(
        (entry.tournament for entry in entries), key=lambda t: (t.date is None, t.date, t.slug)
    )
    for tournament in tournaments:
        person_of = dict(
            Player.objects.filter(tournament=tournament).values_list("pk", "person_id")
        )
        results = public.public_results(tournament)
        for number in results.round_numbers:
            for table in public.public_round_results(tournament, number).tables:
                if not table.deals_played:
                    continue
                raters = [person_of[r.seat.player_id] or -r.seat.player_id for r in table.results]
                points = [r.points for r in table.results]
                teams = [[ratings.get(rater) or model.rating()] for rater in raters]
                ranks = [1 + sum(other > mine for other in points) for mine in points]
                for rater, (new,) in zip(raters, model.rate(teams, ranks=ranks), strict=True):
                    ratings[rater] = new
    return {pk: (r.mu, r.sigma) for pk, r in ratings.items() if pk > 0}


def figures(made):
    result = series.series_standings(made)
    return [(row.person.pk, row.rank, row.points, row.events) for row in result.rows]


def rating_figures(made):
    return {row.person.pk: (row.mu, row.sigma) for row in series.series_ratings(made).rows}


def test_standings_follow_each_tournaments_public_standings(make_played):
    made = make_series(make_played)
    result = series.series_standings(made)
    assert [t.slug for t in result.tournaments] == ["month-1", "month-2", "month-3"]
    assert len(result.rows) == 8
    rule = scheme("field-share")
    for row in result.rows:
        for event in row.results:
            standings = public.public_results(event.tournament).standings
            player = Player.objects.get(tournament=event.tournament, person=row.person)
            (placed,) = [r for r in standings.rows if r.key == player.pk]
            sharing = sum(1 for r in standings.rows if r.rank == placed.rank)
            assert (event.rank, event.shared, event.field) == (placed.rank, sharing > 1, 10)
            assert event.tournament_points == placed.points
            assert event.points == rule.points(
                Placing(placed.rank, sharing, 10, Fraction(placed.points)), ()
            )
        assert row.points == sum(e.points for e in row.results if e.counted)
    ranks = [row.rank for row in result.rows]
    assert ranks[0] == 1
    assert ranks == sorted(ranks)


def test_ratings_equal_openskill_called_directly(make_played):
    made = make_series(make_played)
    expected = direct_ratings(made)
    ratings = series.series_ratings(made)
    assert {row.person.pk: (row.mu, row.sigma) for row in ratings.rows} == expected
    assert [row.rating for row in ratings.rows] == sorted(
        (row.rating for row in ratings.rows), reverse=True
    )
    assert all(row.rating == row.mu - 3 * row.sigma for row in ratings.rows)
    # 3 rounds in each of 3 tournaments.
    assert {(row.matches, row.provisional) for row in ratings.rows} == {(9, False)}
    first = ratings.rows[0]
    history = ratings.history[first.person.pk]
    assert history[-1].rating == first.rating
    assert [(point.tournament.slug, point.round_number) for point in history][-1][1] == 3


def test_provisional_under_five_matches(make_played):
    made = make_series(make_played, count=1, rounds=3)
    assert all(row.provisional for row in series.series_ratings(made).rows)


def test_unlinked_players_take_part_as_themselves(make_played):
    made = make_series(make_played, count=1, players=10)
    # Two people unlinked: the ratings list only people, yet everybody's matches count.
    rows = series.series_ratings(made).rows
    assert len(rows) == 8
    assert {row.person.pk: (row.mu, row.sigma) for row in rows} == direct_ratings(made)


def test_an_unreleased_round_never_counts(make_played):
    made = make_series(make_played)
    before_standings, before_ratings = figures(made), rating_figures(made)
    last = Round.objects.get(tournament__slug="month-3", number=3)
    last.released = False
    last.save()
    after = rating_figures(made)
    assert after != before_ratings
    assert after == direct_ratings(made)
    assert figures(made) != before_standings
    assert max(row.matches for row in series.series_ratings(made).rows) < 9
    last.released = True
    last.save()
    assert figures(made) == before_standings
    assert rating_figures(made) == before_ratings


def test_an_unconfirmed_sheet_never_counts_and_confirming_it_does(make_played, organiser, scorer):
    made = make_series(make_played, count=2)
    tournament = made.tournaments.get(slug="month-2")
    tournament.two_person_check = True
    tournament.save()
    field = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    round_ = seated_round(tournament, field, number=4, released=True)
    before, before_ratings = figures(made), rating_figures(made)
    table = round_.tables.order_by("number").first()
    rows = [a_deal(table.size)]
    save_sheet(table, organiser, rows, expected_version=0, final=True, stopped_early=True)
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED
    assert rating_figures(made) == before_ratings
    assert figures(made) == before
    confirm_sheet(table, scorer, expected_version=1)
    assert rating_figures(made) != before_ratings
    assert rating_figures(made) == direct_ratings(made)
    assert figures(made) != before


def test_unpublished_and_unaccepted_tournaments_never_count(make_played):
    made = make_series(make_played)
    both = figures(made), rating_figures(made)
    hidden = made.tournaments.get(slug="month-2")
    hidden.published = False
    hidden.save()
    assert [t.slug for t in series.series_standings(made).tournaments] == ["month-1", "month-3"]
    assert {row.events for row in series.series_standings(made).rows} == {2}
    assert rating_figures(made) == direct_ratings(made)
    hidden.published = True
    hidden.save()
    assert (figures(made), rating_figures(made)) == both
    SeriesTournament.objects.filter(tournament=hidden).update(accepted=False)
    assert [t.slug for t in series.series_standings(made).tournaments] == ["month-1", "month-3"]
    assert rating_figures(made) == direct_ratings(made)


def test_the_cache_serves_until_a_counted_change(make_played, django_assert_num_queries):
    made = make_series(make_played)
    first = series.series_standings(made)
    series.series_ratings(made)
    # Unchanged: the version's two queries, then the cached figures.
    with django_assert_num_queries(2):
        assert series.series_standings(made) is not None
    with django_assert_num_queries(2):
        series.series_ratings(made)
    # Another worker, with nothing of its own kept: the same, from the cache.
    series.forget()
    with django_assert_num_queries(2):
        assert series.series_standings(made).rows == first.rows
    person = first.rows[0].person
    person.name = "Renamed"
    person.save()
    assert series.series_standings(made).rows[0].person.name == "Renamed"
    made.scheme = "placing"
    made.save()
    assert series.series_standings(made).rows[0].points <= 25 * 3


def test_moving_a_link_moves_the_results(make_played):
    made = make_series(make_played, count=1)
    before = figures(made)
    tournament = made.tournaments.get()
    first, second = Player.objects.filter(tournament=tournament).order_by("pk")[:2]
    one, other = first.person, second.person
    # A bulk swap: no signal, only the links' digest tells.
    Player.objects.filter(pk=first.pk).update(person=None)
    Player.objects.filter(pk=second.pk).update(person=one)
    Player.objects.filter(pk=first.pk).update(person=other)
    after = figures(made)
    assert after != before
    assert rating_figures(made) == direct_ratings(made)


def counted_queries(made):
    cache.clear()
    series.forget()
    with CaptureQueriesContext(connection) as standings:
        series.series_standings(made)
    with CaptureQueriesContext(connection) as ratings:
        series.series_ratings(made)
    return len(standings), len(ratings)


def test_queries_are_flat_in_the_number_of_tournaments(make_played):
    small = make_series(make_played, count=2, players=6, rounds=2)
    large = make_series(make_played, count=6, players=6, rounds=2, slug="all-time", prefix="big")
    assert counted_queries(large) == counted_queries(small)


@pytest.mark.parametrize("position", [0, 2, 4])
def test_ratings_after_a_change_equal_ratings_from_scratch(make_played, position):
    made = make_series(make_played, count=5, players=8, rounds=2)
    series.series_ratings(made)
    changed = made.tournaments.get(slug=f"month-{position + 1}")
    field = list(Player.objects.filter(tournament=changed).order_by("pk"))
    seated_round(changed, field, number=3, released=True, deals=lambda n, size: [a_deal(size)] * 2)
    refreshed = series.series_ratings(made)
    scratch = series.compute_ratings(made)
    assert [(r.person.pk, r.mu, r.sigma, r.matches) for r in refreshed.rows] == [
        (r.person.pk, r.mu, r.sigma, r.matches) for r in scratch.rows
    ]
    assert refreshed.history == scratch.history
    assert {r.person.pk: (r.mu, r.sigma) for r in refreshed.rows} == direct_ratings(made)


def test_person_results_and_series_of_person(make_played):
    made = make_series(make_played)
    person = Person.objects.get(name="Person 00")
    results = series.person_results(person)
    assert [t.slug for t, _ in results] == ["month-1", "month-2", "month-3"]
    for tournament, placing in results:
        player = Player.objects.get(tournament=tournament, person=person)
        row = public.public_results(tournament).rows[player.pk]
        assert (placing.rank, placing.points, placing.field) == (row.rank, row.points, 10)
    ((found, standing, rating),) = series.series_of_person(person)
    assert found == made
    assert standing.person == person
    assert rating.person == person
    nobody = Person.objects.create(name="Nobody")
    assert series.series_of_person(nobody) == []
    assert series.person_results(nobody) == []


def test_person_results_read_their_tournaments_in_bulk(make_played, django_assert_num_queries):
    make_series(make_played, count=4, players=6, rounds=2)
    person = Person.objects.get(name="Person 01")
    # Their tournaments, stamped (two queries), then the facts of all of them from their
    # public views in two (the players' people, the views).
    with django_assert_num_queries(4):
        assert len(series.person_results(person)) == 4
    # Kept by the worker until a stamp moves.
    with django_assert_num_queries(2):
        assert len(series.person_results(person)) == 4


def test_tournaments_without_a_date_come_last_then_by_slug(make_played):
    made = make_series(make_played, count=3, players=6, rounds=2)
    Tournament.objects.filter(slug="month-1").update(date=None)
    Tournament.objects.filter(slug="month-3").update(date=None)
    result = series.series_standings(made)
    assert [t.slug for t in result.tournaments] == ["month-2", "month-1", "month-3"]
    assert rating_figures(made) == direct_ratings(made)
    history = series.series_ratings(made).history
    assert {tuple(p.tournament.slug for p in points) for points in history.values()} == {
        ("month-2", "month-1", "month-3")
    }


def test_another_worker_refreshes_from_the_checkpoints_in_the_cache(make_played, monkeypatch):
    made = make_series(make_played, count=3, players=8, rounds=2)
    series.series_ratings(made)
    series.forget()  # another worker: nothing of its own, the cache shared
    changed = made.tournaments.get(slug="month-3")
    field = list(Player.objects.filter(tournament=changed).order_by("pk"))
    seated_round(changed, field, number=3, released=True, deals=lambda n, size: [a_deal(size)])
    settle()
    rated = []
    rate = series._rate

    def counted(model, facts, state, ratings):
        rated.append(facts.stamp.slug)
        return rate(model, facts, state, ratings)

    monkeypatch.setattr(series, "_rate", counted)
    refreshed = series.series_ratings(made)
    assert rated == ["month-3"]
    assert {r.person.pk: (r.mu, r.sigma) for r in refreshed.rows} == direct_ratings(made)
