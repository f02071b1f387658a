"""Provisional until final: the public pages say how far the standings have got, call the
top of the table the leader, and name a winner and runners-up only once the last planned
round is released or the organiser marks the tournament finished."""

import re

import pytest
from django.urls import reverse

from scoring.standings import compute_standings
from tests.plays import entrants, play, wa_deal
from tournament.models import Round, Tournament
from tournament.public import room
from tournament.shared.public_changes import mark_changed

pytestmark = pytest.mark.usefixtures("empty_cache")

PAGES = ["standings", "final"]


def html_of(client, name, tournament):
    response = client.get(reverse(name, args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_after_round_one_of_three_the_pages_name_a_leader_and_no_winner(client, make_played):
    tournament = make_played(players=12, rounds=1, planned_rounds=3)
    standings = html_of(client, "standings", tournament)
    assert "After round 1 of 3 — provisional" in standings
    assert "Leader: <strong>" in standings
    assert "Winner:" not in standings
    assert 'class="honour' not in standings
    assert "Runner-up" not in standings
    assert 'class="podium' not in standings
    assert "Printable results (provisional)" in standings
    assert "Final results" not in standings
    final = html_of(client, "final", tournament)
    assert "<title>Results (after round 1 of 3 — provisional)" in final
    assert "Final results" not in final
    assert "final-podium" not in final
    assert "Leader: <strong>" in final
    player = Tournament.objects.get(pk=tournament.pk).players.first()
    page = client.get(reverse("player", args=[tournament.slug, player.pk])).content.decode()
    assert "after round 1 of 3 — provisional" in page
    assert "Final results" not in page
    round_page = client.get(reverse("public_round", args=[tournament.slug, 1])).content.decode()
    assert "after round 1 of 3 — provisional" in round_page


def test_once_the_last_planned_round_is_released_the_pages_are_final(client, make_played):
    tournament = make_played(players=12, rounds=2, planned_rounds=2)
    standings = html_of(client, "standings", tournament)
    assert "Final standings" in standings
    assert "Winner: <strong>" in standings
    assert "provisional" not in standings
    final = html_of(client, "final", tournament)
    assert "<title>Final results" in final
    assert "Final results after round 2" in final
    assert "final-podium" in final


def test_the_organiser_marks_the_tournament_finished_and_undoes_it(
    client, organiser_client, organiser, make_played
):
    tournament = make_played(players=12, rounds=2, planned_rounds=4, owner=organiser)
    assert "Leader: " in html_of(client, "standings", tournament)
    dashboard = organiser_client.get(reverse("organiser:dashboard", args=[tournament.slug]))
    assert "after round 2 of 4 — provisional" in dashboard.content.decode()
    assert "Mark the tournament finished" in dashboard.content.decode()

    response = organiser_client.post(
        reverse("organiser:finish", args=[tournament.slug]), follow=True
    )
    assert "The tournament is finished" in response.content.decode()
    assert "Not finished after all" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).finished
    # The cached public pages follow at once.
    standings = html_of(client, "standings", tournament)
    assert "Final standings" in standings
    assert "Winner: " in standings
    assert "final-podium" in html_of(client, "final", tournament)

    organiser_client.post(reverse("organiser:unfinish", args=[tournament.slug]))
    assert not Tournament.objects.get(pk=tournament.pk).finished
    standings = html_of(client, "standings", tournament)
    assert "After round 2 of 4 — provisional" in standings
    assert "Winner:" not in standings
    assert 'class="honour' not in standings


@pytest.mark.parametrize("name", ["organiser:finish", "organiser:unfinish"])
def test_only_the_organiser_marks_the_tournament_finished(
    client, organiser_client, scorer_client, outsider_client, make_played, organiser, name
):
    tournament = make_played(players=8, rounds=1, planned_rounds=3, owner=organiser)
    target = reverse(name, args=[tournament.slug])
    assert client.post(target).status_code == 302  # to the login page
    assert scorer_client.post(target).status_code in {403, 404}
    assert outsider_client.post(target).status_code == 404
    assert organiser_client.get(target).status_code == 405
    assert not Tournament.objects.get(pk=tournament.pk).finished


def test_before_any_round_is_released_the_standings_say_so(client, seated_round):
    tournament = seated_round.tournament
    tournament.published = True
    tournament.save()
    standings = html_of(client, "standings", tournament)
    assert "No results yet: round 1 is being played." in standings
    assert '<td class="rank">=1' not in standings
    assert 'class="standings' not in standings
    Round.objects.filter(pk=seated_round.pk).update(started=False)
    mark_changed(tournament.pk)  # an update() sends no signal: marked as services mark it
    standings = html_of(client, "standings", tournament)
    assert "No results yet: the first round has not started." in standings
    final = html_of(client, "final", tournament)
    assert "No results yet" in final
    assert '<td class="rank">' not in final


# The lead in words --------------------------------------------------------------------


def test_a_tiebreak_between_the_leader_and_the_next_player_is_said_in_words():
    plays = [play(1, "ABC", wa_deal((8, 8, 10), last_in=2))]
    standings = compute_standings(entrants("ABC"), plays, tiebreaks=["last_in"])
    found = room.lead(standings)
    assert [row.name for row in found.leaders] == ["C"]
    # B was last in, which counts: B is above A.
    assert found.margin == "2 points ahead of B"
    plays = [play(1, "ABC", wa_deal((11, 11, 4), last_in=2))]
    found = room.lead(compute_standings(entrants("ABC"), plays, tiebreaks=["last_in"]))
    assert [row.name for row in found.leaders] == ["B"]
    assert found.margin == "ahead of A on deals last in, 1 to 0"


def test_countback_between_the_leaders_names_the_round():
    plays = [
        play(1, "ABC", wa_deal((10, 11, 5), last_in=3)),
        play(2, "ABC", wa_deal((9, 8, 9), last_in=3)),
    ]
    found = room.lead(compute_standings(entrants("ABC"), plays, tiebreaks=["countback"]))
    assert found.margin == "ahead of B on countback: round 2 total, 9 to 8"


def test_a_shared_lead_has_no_margin_and_no_results_no_lead():
    plays = [play(1, "ABC", wa_deal((11, 11, 4), last_in=3))]
    found = room.lead(compute_standings(entrants("ABC"), plays, tiebreaks=["last_in"]))
    assert [row.name for row in found.leaders] == ["A", "B"]
    assert found.margin == ""
    assert room.lead(compute_standings(entrants("ABC"), [], tiebreaks=["last_in"])) is None


def test_the_headline_shows_the_margin(client, make_played):
    tournament = make_played(players=12, rounds=2, planned_rounds=3)
    html = html_of(client, "standings", tournament)
    headline = re.search(r'<p class="headline">(.*?)</p>', html, re.S).group(1)
    assert re.search(r"Leader: <strong>[^<]+</strong>, \d+ points? — .*ahead of ", headline)


# Sorting keeps the highlight honest ------------------------------------------------


def test_sorted_by_another_column_the_standings_highlight_no_tiebreak(client, make_played):
    tournament = make_played(players=40, rounds=3, seed=3)
    tournament.tiebreaks = ["countback"]
    tournament.save()
    ranked = html_of(client, "standings", tournament)
    assert 'class="decided"' in ranked
    assert re.search(r'<th scope="col"[^>]*aria-sort="ascending">\s*<a [^>]*>Rank<', ranked)
    response = client.get(reverse("standings", args=[tournament.slug]), {"sort": "-points"})
    sorted_page = response.content.decode()
    assert 'class="decided"' not in sorted_page
    assert "no figure is highlighted" in sorted_page
    assert re.search(
        r'<th scope="col"[^>]*aria-sort="descending">\s*<a [^>]*>Points'
        r'<span class="sort-arrow" aria-hidden="true"> ▼</span>',
        sorted_page,
    )
    assert sorted_page.count("aria-sort=") == 1


def test_final_standings_name_the_winner_and_runners_up_and_provisional_ones_do_not(
    client, make_played
):
    final = make_played(players=12, rounds=2, planned_rounds=2, slug="done-open")
    page = html_of(client, "standings", final)
    assert 'aria-label="Winner and runners-up"' in page
    provisional = make_played(players=12, rounds=2, planned_rounds=3, slug="going-open")
    assert 'aria-label="Winner and runners-up"' not in html_of(client, "standings", provisional)
