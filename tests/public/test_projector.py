"""The projector runs the room: the seating and the clock while a round is played, the
standings (provisional until final, tiebreaks in words) once it is released."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.standings import Standings
from tournament.models import Round, Seat
from tournament.public.projector import ROWS
from tournament.public.room import deals_in_words, lead
from tournament.rounds import clock, seating
from tournament.rounds import services as rounds
from tournament.shared.public_changes import mark_changed


@pytest.fixture
def playing(make_played):
    """Round 1 released of 3 planned; round 2 started and being played."""
    tournament = make_played(players=14, rounds=1, planned_rounds=3)
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    return tournament


def projector(client, tournament, **query):
    return client.get(reverse("projector", args=[tournament.slug]), query).content.decode()


def test_while_a_round_is_played_the_projector_seats_the_room(client, playing):
    round_two = Round.objects.get(tournament=playing, number=2)
    html = projector(client, playing)
    assert "Round 2 — find your table" in html
    assert 'class="board seating"' in html
    names = re.findall(r'<td class="name">([^<]+)</td>', html)
    assert names == sorted(names, key=str.casefold)
    assert len(names) == 14
    # Each player's table and seat, and who deals first.
    seat = Seat.objects.select_related("player").get(round=round_two, table__number=1, position=1)
    row = re.search(
        rf'<tr class="first-dealer"><td class="name">{seat.player.name}</td>'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td><td>deals first</td>',
        html,
    )
    assert row.groups() == ("1", "1")
    assert html.count("deals first") == round_two.tables.count()
    # No clock until the organiser starts it; then the end time, without JavaScript.
    assert "round-clock" not in html
    clock.start_clock(round_two)
    html = projector(client, playing)
    assert "data-clock" in html
    assert "ends at " in html


def test_once_released_the_projector_shows_the_provisional_standings(client, playing):
    rounds.release_round(Round.objects.get(tournament=playing, number=2), despite_missing=True)
    html = projector(client, playing)
    assert 'class="board standings-board"' in html
    assert "Standings after round 2 of 3 — provisional" in html
    assert ">Leader</span>" in html
    assert "Winner" not in html
    assert "Runner-up" not in html
    # Final once the last planned round is in, or the organiser says so.
    playing.finished = True
    playing.save(update_fields=["finished"])
    html = projector(client, playing)
    assert "Final standings after round 2" in html
    assert "provisional" not in html
    assert ">Winner</span>" in html
    assert html.count(">Runner-up</span>") >= 2


def test_private_seating_keeps_the_standings_up(client, playing):
    playing.seating_public = False
    playing.save(update_fields=["seating_public"])
    html = projector(client, playing)
    assert "find your table" not in html
    assert "Standings after round 1 of 3 — provisional" in html


def test_before_any_round_the_projector_says_no_results_yet(client, make_played):
    tournament = make_played(players=8, rounds=1)
    Round.objects.filter(tournament=tournament).update(released=False, started=False)
    mark_changed(tournament.pk)
    html = projector(client, tournament)
    assert "No results yet" in html
    assert "Leader" not in html


def test_the_seating_is_paged_with_every_page_in_the_response(client, make_played):
    tournament = make_played(players=30, rounds=1, planned_rounds=2)
    rounds.start_round(seating.seat_next_round(tournament))
    html = projector(client, tournament, page="2")
    assert html.count('<section class="board-page') == -(-30 // ROWS)
    assert re.search(r'class="board-page current" data-page="2"', html)
    assert "page 2 of 3" in html


def test_tiebreak_values_that_decide_are_highlighted(client, make_played):
    tournament = make_played(players=23, rounds=4, seed=7, planned_rounds=4)
    html = projector(client, tournament)
    assert 'class="num tiebreak decided"' in html
    # The columns keep their widths from page to page.
    assert '<col class="c-rank"><col class="c-name"><col class="c-points">' in html


@pytest.mark.parametrize(
    ("turn", "words"), [(1, "deals first"), (2, "deals second"), (6, "deals sixth")]
)
def test_deals_in_words(turn, words):
    assert deals_in_words(turn) == words


def standings_of(rows, tiebreaks=("last_in",), round_numbers=(1,)):
    from scoring.standings import StandingRow
    from scoring.tiebreaks import Tally

    made = []
    for rank, shared, name, points, last_in, decided_by in rows:
        tally = Tally(points, 4, last_in, 0, 0, (points,))
        made.append(StandingRow(rank, shared, name, name, tally, decided_by))
    return Standings(
        rows=tuple(made), system=None, tiebreaks=tiebreaks, round_numbers=round_numbers
    )


def test_the_leaders_margin_in_words():
    cases = [
        # A tiebreak decides: say which and by what.
        (
            [(1, False, "Ann", 40, 10, None), (2, False, "Joan Penhallow", 40, 9, "last_in")],
            "ahead of Joan Penhallow on deals last in, 10 to 9",
        ),
        # Points decide: by how many.
        (
            [(1, False, "Ann", 50, 1, None), (2, False, "Joan", 40, 9, "points")],
            "10 points ahead of Joan",
        ),
        # Level on everything: no margin, two leaders.
        ([(1, True, "Ann", 40, 9, None), (1, True, "Joan", 40, 9, None)], ""),
    ]
    for rows, words in cases:
        found = lead(standings_of(rows))
        assert found.margin == words
    assert [row.name for row in lead(standings_of(cases[2][0])).leaders] == ["Ann", "Joan"]


def test_the_projector_says_the_leaders_margin(client, make_played):
    tournament = make_played(players=23, rounds=4, seed=7, planned_rounds=4)
    html = projector(client, tournament)
    assert re.search(r'<p class="margin">[^<]+ is (\d+ points? ahead of|ahead of) ', html)
