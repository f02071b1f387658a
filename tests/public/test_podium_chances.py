"""Podium chances on the public pages (public.chances): worked out after a committed
change, stored with the public results, read (never worked out) by a visitor's page, and
never shown once the standings are final."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import Adjustment, Player, PodiumChances, Round
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
