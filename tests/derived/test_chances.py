"""Podium chances (derived.chances): worked out by the task worker from the public view,
stored with the chances key they were made for, read (never worked out) by a visitor's
page, shown as "being worked out" meanwhile, and never once the standings are final. A
table of a released round without a result is a table still to play; "0 %" only for a
place proved out of reach."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

import scoring.simulation.podium as podium
from scoring.simulation.podium import PendingRound
from tests.factories import (
    TournamentFactory,
    a_deal,
    link,
    make_players,
    played_tournament,
    seated_round,
)
from tournament.derived import chances, refresh
from tournament.models import Adjustment, Deal, Player, PodiumChances, Round, Seat, Sheet, Table
from tournament.rounds.services import release_round
from tournament.shared.derived import load_view, public_view
from tournament.sheets.facts import write_seat_sums


def _state(tournament):
    tournament.refresh_from_db()
    state = public_view(tournament)
    assert state is not None
    return state


def _leader_of(tournament):
    return _state(tournament).standings.rows[0].key


def _wins(figures):
    return {int(pk): values[0] for pk, values in figures["players"].items()}


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
    figures = chances.work_out(tournament, _state(tournament), finishes=4000)
    wins = _wins(figures)
    tops = {int(pk): values[1] for pk, values in figures["players"].items()}
    assert figures["leader"] == leader
    assert max(wins, key=wins.get) == leader
    assert wins[leader] > 0.5
    assert sum(wins.values()) == pytest.approx(1.0, abs=0.001)
    assert sum(tops.values()) == pytest.approx(3.0, abs=0.001)
    assert figures["after_round"] == 3
    assert figures["rounds_left"] == 1


@pytest.mark.django_db
def test_the_release_stores_the_chances_for_the_public_view_it_made():
    tournament = played_tournament(players=10, rounds=2, planned_rounds=4)
    second = Round.objects.get(tournament=tournament, number=2)
    release_round(second) if not second.released else None
    state = _state(tournament)
    stored = PodiumChances.objects.get(tournament=tournament)
    assert stored.fingerprint == state.chances_key
    assert state.chances is not None
    assert stored.figures["after_round"] == 2
    assert stored.figures["rounds_left"] == 2


@pytest.mark.django_db
def test_a_visitors_page_reads_the_stored_chances_and_never_works_them_out(client, monkeypatch):
    tournament = played_tournament(players=10, rounds=2, planned_rounds=3)
    leader = _leader_of(tournament)
    second = Player.objects.filter(tournament=tournament).exclude(pk=leader).first()

    def refuse(*args, **kwargs):
        raise AssertionError("worked out during a visitor's request")

    monkeypatch.setattr(chances, "work_out", refuse)
    monkeypatch.setattr(podium, "podium_chances", refuse)
    text = client.get(reverse("player", args=[tournament.slug, second.pk])).content.decode()
    assert "After round 2 of 3:" in text
    assert "to win" in text
    assert "top three" in text
    assert "How these chances are worked out" in text
    standings = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert "Win · top 3" in standings
    # Under each name on a phone: each figure with its own label, never broken from it.
    figures = re.findall(
        r'<span class="chance-figure">win ([^<]+)</span> · '
        r'<span class="chance-figure">top\u00a03: ([^<]+)</span>',
        standings,
    )
    assert figures
    assert all(win.endswith("\u00a0%") and top.endswith("\u00a0%") for win, top in figures)
    projector = client.get(reverse("projector", args=[tournament.slug])).content.decode()
    assert "Win · top 3" in projector


@pytest.mark.django_db
def test_with_the_worker_behind_the_chances_say_being_worked_out(settings, client):
    """No worker runs the queued tasks (a stopped worker): every page says "being worked
    out", none works them out, none fails."""
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default"]}
    }
    tournament = played_tournament(players=10, rounds=2, planned_rounds=3)
    state = _state(tournament)
    assert state.chances_key
    assert state.chances is None
    player = Player.objects.filter(tournament=tournament).first()
    text = client.get(reverse("player", args=[tournament.slug, player.pk])).content.decode()
    assert "being worked out" in text
    assert "to win" not in text
    assert client.get(reverse("standings", args=[tournament.slug])).status_code == 200


@pytest.mark.parametrize("final", ["last round released", "finished"])
@pytest.mark.django_db
def test_chances_are_never_shown_once_the_standings_are_final(client, final):
    planned = 2 if final == "last round released" else 3
    tournament = played_tournament(players=10, rounds=2, planned_rounds=planned)
    if final == "finished":
        tournament.finished = True
        tournament.save()
    state = _state(tournament)
    assert state.chances_key == ""
    assert chances.work_out(tournament, state, finishes=100) == {}
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
def test_the_command_prints_the_stored_figures_or_works_them_out_afresh(after_commit):
    tournament = played_tournament(players=10, rounds=2, planned_rounds=4)
    after_commit()
    stored = PodiumChances.objects.get(tournament=tournament).figures
    out = StringIO()
    call_command("podium_chances", tournament.slug, "--format", "json", stdout=out)
    listed = json.loads(out.getvalue())
    refs = dict(Player.objects.filter(tournament=tournament).values_list("pk", "ref"))
    assert {row["player"]: row["win"] for row in listed} == {
        refs[int(pk)]: values[0] for pk, values in stored["players"].items()
    }
    assert set(listed[0]) == {"player", "name", "win", "top3"}
    out = StringIO()
    call_command(
        "podium_chances", tournament.slug, "--format", "json", "--finishes", "2000", stdout=out
    )
    afresh = json.loads(out.getvalue())
    assert sum(row["win"] for row in afresh) == pytest.approx(1.0, abs=0.001)
    assert sum(row["top3"] for row in afresh) == pytest.approx(3.0, abs=0.001)
    assert all(0 <= row["win"] <= row["top3"] <= 1 for row in afresh)
    text = StringIO()
    call_command("podium_chances", tournament.slug, "--finishes", "500", stdout=text)
    assert text.getvalue().startswith("After round 2, 2 round(s) left: 500 simulated finishes")


@pytest.mark.django_db
def test_the_command_refuses_a_final_tournament():
    tournament = played_tournament(players=10, rounds=2, planned_rounds=2)
    with pytest.raises(CommandError, match="no podium chances"):
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
    assert chances.work_out(tournament, _state(tournament), finishes=2000)["ratings_of"] == ""
    SeriesTournament.objects.create(series=season, tournament=tournament, accepted=True)
    link(tournament, people)
    ratings = {row.person.pk: row.mu for row in series_ratings_before(season, tournament)}
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    best = max(players, key=lambda player: ratings[player.person_id])
    worst = min(players, key=lambda player: ratings[player.person_id])
    # Level on points after round 1: only the ratings tell them apart.
    rows = _state(tournament).rows
    for player in (best, worst):
        Adjustment.objects.create(
            tournament=tournament,
            player=player,
            round=Round.objects.get(tournament=tournament, number=1),
            points=60 - rows[player.pk].points,
            reason="level",
        )
    state = _state(tournament)
    figures = chances.work_out(tournament, state, finishes=4000)
    assert figures["ratings_of"] == "Winter Season"
    wins = _wins(figures)
    assert wins[best.pk] > wins[worst.pk]
    # The stored figures say how they were made, one tap away.
    assert state.chances is not None
    assert "rating in Winter Season before this tournament" in state.chances_view.method


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
    state = _state(tournament)
    plans = []
    real = podium.podium_chances

    def recorded(field, plan, *args, **kwargs):
        plans.append(plan)
        return real(field, plan, *args, **kwargs)

    monkeypatch.setattr(podium, "podium_chances", recorded)
    figures = chances.work_out(tournament, state, finishes=2000)
    at = {int(pk): index for index, pk in enumerate(figures["players"])}
    waiting = Seat.objects.filter(round__number=2, table__number=2).order_by("position")
    (plan,) = plans
    assert plan.rounds_left == 1
    assert plan.pending == (PendingRound(1, (tuple(at[seat.player_id] for seat in waiting),)),)
    assert sum(_wins(figures).values()) == pytest.approx(1.0, abs=0.001)
    assert figures["pending"] == [[2, 2]]
    # The pages say so: the method names the table still to play.
    assert "table 2 of round 2" in state.chances.rounds_words


@pytest.mark.django_db
def test_after_the_last_round_a_table_still_to_play_keeps_the_chances_going(client):
    """The last planned round released with a table still without a result: chances
    are still shown (that table is still to play), and finishing is refused."""
    tournament = played_tournament(players=10, rounds=2, planned_rounds=2)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    Deal.objects.filter(table=table).delete()
    write_seat_sums(table, [])
    Sheet.objects.filter(table=table).delete()
    state = _state(tournament)
    assert state.chances_key
    assert state.chances is not None
    assert state.chances.rounds_left == 0
    assert state.chances.pending == ((2, 1),)
    waiting = table.seats.first().player
    text = client.get(reverse("player", args=[tournament.slug, waiting.pk])).content.decode()
    assert "No result yet for round 2 (table 1)" in text
    assert "to win" in text


@pytest.mark.django_db
def test_zero_only_where_proved_out_of_reach(client):
    """A field where one player is so far behind that no deals can lift them into the
    top three shows "0 %" for them; a player reachable but never reached in the
    finishes shows "< 1 %", never "0 %"."""
    tournament = played_tournament(players=15, rounds=2, planned_rounds=3, seed=2)
    rows = _state(tournament).standings.rows
    last = rows[-1].key
    Adjustment.objects.create(
        tournament=tournament,
        player_id=last,
        round=Round.objects.get(tournament=tournament, number=2),
        points=-500,
        reason="far behind",
    )
    state = _state(tournament)
    mine = state.chances.players[last]
    assert not mine.top3_reachable
    text = client.get(reverse("player", args=[tournament.slug, last])).content.decode()
    assert "<strong>0\u00a0%</strong> to win" in text
    for pk, figures in state.chances.players.items():
        if figures.top3 == 0 and figures.top3_reachable:
            page = client.get(reverse("player", args=[tournament.slug, pk])).content.decode()
            assert "<strong>&lt;\u00a01\u00a0%</strong> top three" in page


@pytest.mark.django_db
def test_restore_and_the_worker_agree_on_the_figures(after_commit):
    """The same facts give the same figures, worked out at once (a restore, the demo)
    or by the task: the seed is the tournament's."""
    tournament = played_tournament(players=10, rounds=2, planned_rounds=3)
    after_commit()
    first = PodiumChances.objects.get(tournament=tournament).figures
    PodiumChances.objects.all().delete()
    refresh.restored(tournament)
    assert PodiumChances.objects.get(tournament=tournament).figures == first
    assert load_view(tournament, "public").chances is not None
