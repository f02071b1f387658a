"""Podium chances on the public pages (public.chances): worked out after a committed
change, stored with the public results, read (never worked out) by a visitor's page, and
never shown once the standings are final."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.simulation.podium import PendingRound, podium_chances
from tests.factories import TournamentFactory, a_deal, make_players, played_tournament, seated_round
from tournament.models import Adjustment, Player, PodiumChances, Round, Seat
from tournament.public import chances
from tournament.rounds.services import release_round
from tournament.shared.public_changes import mark_changed
from tournament.standings.services import tournament_standings


def _refreshed(tournament, capture):
    with capture(execute=True):
        mark_changed(tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _leader_of(tournament):
    rows = tournament_standings(tournament, released_only=True).standings.rows
    return rows[0].key


@pytest.mark.django_db
def test_a_clear_leader_has_the_best_chance_and_the_wins_add_up_to_one():
    tournament = played_tournament(players=15, rounds=3, planned_rounds=4, seed=4)
    leader = _leader_of(tournament)
    Adjustment.objects.create(
        tournament=tournament,
        player_id=leader,
        round=Round.objects.get(tournament=tournament, number=3),
        points=40,
        reason="clear lead",
    )
    figures = chances.work_out(tournament, finishes=4000)
    wins = {int(pk): win for pk, (win, _, _) in figures["players"].items()}
    tops = {int(pk): top3 for pk, (_, top3, _) in figures["players"].items()}
    assert figures["leader"] == leader
    assert max(wins, key=wins.get) == leader
    assert wins[leader] > 0.5
    assert sum(wins.values()) == pytest.approx(1.0, abs=0.001)
    assert sum(tops.values()) == pytest.approx(3.0, abs=0.001)
    assert figures["after_round"] == 3
    assert figures["rounds_left"] == 1


@pytest.mark.django_db
def test_the_release_stores_the_chances_for_the_new_generation(
    django_capture_on_commit_callbacks,
):
    tournament = played_tournament(players=10, rounds=2, planned_rounds=4)
    second = Round.objects.get(tournament=tournament, number=2)
    Round.objects.filter(pk=second.pk).update(released=False)
    second.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        release_round(second)
    tournament.refresh_from_db()
    stored = PodiumChances.objects.get(tournament=tournament)
    # Storing them moved the generation once more: pages cached meanwhile go stale.
    assert stored.made_for == tournament.public_changed
    assert stored.figures["after_round"] == 2
    assert stored.figures["rounds_left"] == 2


@pytest.mark.django_db
def test_a_visitors_page_reads_the_stored_chances_and_never_works_them_out(
    client, django_capture_on_commit_callbacks, monkeypatch
):
    tournament = _refreshed(
        played_tournament(players=10, rounds=2, planned_rounds=3),
        django_capture_on_commit_callbacks,
    )
    leader = _leader_of(tournament)
    second = Player.objects.filter(tournament=tournament).exclude(pk=leader).first()

    def refuse(*args, **kwargs):
        raise AssertionError("worked out during a visitor's request")

    monkeypatch.setattr(chances, "work_out", refuse)
    monkeypatch.setattr(chances, "podium_chances", refuse)
    page = client.get(reverse("player", args=[tournament.slug, second.pk]))
    text = page.content.decode()
    assert "After round 2 of 3:" in text
    assert "to win" in text
    assert "top three" in text
    assert "How these chances are worked out" in text
    standings = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert "Win · top 3" in standings
    projector = client.get(reverse("projector", args=[tournament.slug])).content.decode()
    assert "Win · top 3" in projector


@pytest.mark.django_db
def test_chances_not_stored_for_this_generation_show_as_being_worked_out(
    client, django_capture_on_commit_callbacks, monkeypatch
):
    tournament = _refreshed(
        played_tournament(players=10, rounds=2, planned_rounds=3),
        django_capture_on_commit_callbacks,
    )
    # A change whose refresh has not run yet (the commit hook is not executed here).
    mark_changed(tournament.pk)
    monkeypatch.setattr(chances, "work_out", lambda *a, **k: pytest.fail("worked out"))
    player = Player.objects.filter(tournament=tournament).first()
    text = client.get(reverse("player", args=[tournament.slug, player.pk])).content.decode()
    assert "being worked out" in text
    assert "to win" not in text


@pytest.mark.parametrize("final", ["last round released", "finished"])
@pytest.mark.django_db
def test_chances_are_never_shown_once_the_standings_are_final(
    client, django_capture_on_commit_callbacks, final
):
    planned = 2 if final == "last round released" else 3
    tournament = played_tournament(players=10, rounds=2, planned_rounds=planned)
    if final == "finished":
        tournament.finished = True
        tournament.save()
    _refreshed(tournament, django_capture_on_commit_callbacks)
    assert not PodiumChances.objects.filter(tournament=tournament).exists()
    assert chances.work_out(tournament, finishes=100) == {}
    player = Player.objects.filter(tournament=tournament).first()
    for page in (
        reverse("player", args=[tournament.slug, player.pk]),
        reverse("standings", args=[tournament.slug]),
        reverse("projector", args=[tournament.slug]),
    ):
        text = client.get(page).content.decode()
        assert "Win · top 3" not in text
        assert "to win" not in text
        assert "being worked out" not in text


@pytest.mark.django_db
def test_the_command_prints_each_players_chances_as_json():
    tournament = played_tournament(players=10, rounds=2, planned_rounds=4)
    out = StringIO()
    call_command(
        "podium_chances", tournament.slug, "--format", "json", "--finishes", "2000", stdout=out
    )
    listed = json.loads(out.getvalue())
    refs = dict(Player.objects.filter(tournament=tournament).values_list("ref", "name"))
    assert {row["player"]: row["name"] for row in listed} == refs
    assert set(listed[0]) == {"player", "name", "win", "top3"}
    assert sum(row["win"] for row in listed) == pytest.approx(1.0, abs=0.001)
    assert sum(row["top3"] for row in listed) == pytest.approx(3.0, abs=0.001)
    assert all(0 <= row["win"] <= row["top3"] <= 1 for row in listed)
    text = StringIO()
    call_command("podium_chances", tournament.slug, "--finishes", "500", stdout=text)
    assert text.getvalue().startswith("After round 2, 2 left: 500 simulated finishes")


@pytest.mark.django_db
def test_the_command_refuses_a_final_tournament():
    tournament = played_tournament(players=10, rounds=2, planned_rounds=2)
    with pytest.raises(Exception, match="no podium chances"):
        call_command("podium_chances", tournament.slug, stdout=StringIO())


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "-1"], "--seed must be 0 or more, not -1"),
        (["--finishes", "0"], "--finishes must be 1 to 100,000, not 0"),
        (["--finishes", "100001"], "--finishes must be 1 to 100,000"),
    ],
)
def test_the_command_refuses_bad_options_in_words(args, message):
    tournament = played_tournament(players=10, rounds=1, planned_rounds=2)
    with pytest.raises(CommandError, match=message):
        call_command("podium_chances", tournament.slug, *args, stdout=StringIO())


@pytest.mark.django_db
def test_in_a_rated_series_the_players_skill_comes_from_their_ratings_before_it(
    empty_series_cache,
):
    """A tournament of a series whose earlier tournaments rate its players: the chances
    use those ratings (and say so); the best rated of two players level on points has
    the better chance. Without a series, equal skill."""
    from tests.series.test_series_service import link
    from tournament.models import Person, Series, SeriesTournament

    people = [Person.objects.create(name=f"Person {i:02d}") for i in range(12)]
    season = Series.objects.create(name="Winter Season", slug="winter-season")
    for month in (1, 2, 3):
        earlier = played_tournament(
            players=12, rounds=3, seed=month, slug=f"month-{month}", date=f"2026-0{month}-01"
        )
        SeriesTournament.objects.create(series=season, tournament=earlier, accepted=True)
        link(earlier, people)
    tournament = played_tournament(
        players=12, rounds=1, planned_rounds=2, seed=9, slug="month-4", date="2026-04-01"
    )
    assert chances.work_out(tournament, finishes=2000)["ratings_of"] == ""
    SeriesTournament.objects.create(series=season, tournament=tournament, accepted=True)
    link(tournament, people)
    ratings = {row.person.pk: row.mu for row in series_ratings_before(season, tournament)}
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    best = max(players, key=lambda player: ratings[player.person_id])
    worst = min(players, key=lambda player: ratings[player.person_id])
    # Level on points after round 1: only the ratings tell them apart.
    for player in (best, worst):
        Adjustment.objects.create(
            tournament=tournament,
            player=player,
            round=Round.objects.get(tournament=tournament, number=1),
            points=60 - tournament_points(tournament, player),
            reason="level",
        )
    figures = chances.work_out(tournament, finishes=4000)
    assert figures["ratings_of"] == "Winter Season"
    wins = {int(pk): win for pk, (win, _, _) in figures["players"].items()}
    assert wins[best.pk] > wins[worst.pk]
    stored = PodiumChances.objects.create(
        tournament=tournament, made_for=tournament.public_changed, figures=figures
    )
    assert stored
    view = chances.chances_view(tournament, 1, chances.stored_chances(tournament))
    assert "rating in Winter Season before this tournament" in view.method


def series_ratings_before(season, tournament):
    """The season's ratings over its tournaments before ``tournament`` only."""
    from tournament.series.services import series_ratings

    entry = season.entries.get(tournament=tournament)
    entry.accepted = False
    entry.save()
    try:
        return series_ratings(season).rows
    finally:
        entry.accepted = True
        entry.save()


def tournament_points(tournament, player):
    rows = tournament_standings(tournament, released_only=True).standings.rows
    return next(row.points for row in rows if row.key == player.pk)


@pytest.mark.django_db
def test_a_released_table_with_no_result_yet_is_still_to_play_in_every_finish(monkeypatch):
    """Round 2 of 3 released while its table 2 has no result: the chances play that table
    with its players in seat order, as round 2's, before round 3."""
    tournament = TournamentFactory(published=True, planned_rounds=3)
    field = make_players(tournament, 10)
    for number in (1, 2):
        seated_round(
            tournament,
            field if number == 1 else field[::-1],
            number=number,
            released=True,
            deals=lambda table, size, number=number: (
                None if (number, table) == (2, 2) else [a_deal(size)] * size
            ),
        )
    plans = []

    def recorded(field, plan, *args, **kwargs):
        plans.append(plan)
        return podium_chances(field, plan, *args, **kwargs)

    monkeypatch.setattr(chances, "podium_chances", recorded)
    figures = chances.work_out(tournament, finishes=2000)
    at = {int(pk): index for index, pk in enumerate(figures["players"])}
    waiting = Seat.objects.filter(round__number=2, table__number=2).order_by("position")
    (plan,) = plans
    assert plan.rounds_left == 1
    assert plan.pending == (PendingRound(1, (tuple(at[seat.player_id] for seat in waiting),)),)
    wins = [win for win, _, _ in figures["players"].values()]
    assert sum(wins) == pytest.approx(1.0, abs=0.001)
