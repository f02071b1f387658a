"""The room's view of a tournament: the current round's seating and the standings'
progress (``public.room``)."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, RoundFactory, TableFactory, TournamentFactory
from tournament.models import Bye
from tournament.public import room

pytestmark = pytest.mark.django_db


def _seated(tournament, number, *, started, released=False, names=("Ann", "Bob", "Cy", "Di")):
    players = [PlayerFactory(tournament=tournament, name=name) for name in names]
    round_ = RoundFactory(tournament=tournament, number=number, started=started, released=released)
    TableFactory(round=round_, number=1, players=players)
    return round_, players


def test_the_current_round_is_the_highest_started_one():
    tournament = TournamentFactory()
    assert room.current_round(tournament) is None
    first, _ = _seated(tournament, 1, started=True, released=True, names=("A1", "B1", "C1", "D1"))
    _seated(tournament, 2, started=False, names=("A2", "B2", "C2", "D2"))
    assert room.current_round(tournament) == first


def test_a_started_round_seating_is_public_unless_the_tournament_keeps_it_private():
    tournament = TournamentFactory()
    round_, players = _seated(tournament, 1, started=True)
    seating = room.public_seating(tournament)
    assert seating is not None
    assert seating.number == 1
    (table,) = seating.tables
    assert [s.name for s in table.seats] == ["Ann", "Bob", "Cy", "Di"]
    assert table.first_dealer.name == "Ann"
    assert [s.name for s in table.opponents(players[1].pk)] == ["Ann", "Cy", "Di"]

    tournament.seating_public = False
    assert room.public_seating(tournament) is None
    round_.released = True
    assert room.seating_is_public(tournament, round_)


def test_find_ignores_case_and_spaces_and_lists_alphabetically():
    tournament = TournamentFactory()
    _seated(
        tournament, 1, started=True, names=("Walter  Ralegh", "ann Smith", "Joan Penhallow", "Kit")
    )
    seating = room.public_seating(tournament)
    assert [p.player.name for p in seating.placements()] == [
        "ann Smith",
        "Joan Penhallow",
        "Kit",
        "Walter  Ralegh",
    ]
    (found,) = seating.find("  walter RALEGH ")
    assert (found.table.number, found.deals_in_turn) == (1, 1)
    assert [p.player.name for p in seating.find("AN")] == ["ann Smith", "Joan Penhallow"]
    assert seating.find("   ") == []
    assert seating.find("nobody") == []


def test_byes_are_listed_with_the_round():
    tournament = TournamentFactory()
    round_, _ = _seated(tournament, 1, started=True)
    resting = PlayerFactory(tournament=tournament, name="Zed")
    Bye.objects.create(round=round_, player=resting)
    seating = room.public_seating(tournament)
    assert [p.name for p in seating.byes] == ["Zed"]
    assert seating.placement_of(resting.pk) is None


@pytest.mark.parametrize(
    ("released", "planned", "finished", "label", "final"),
    [
        ([], 4, False, "no results yet", False),
        ([], 4, True, "no results yet", False),
        ([1, 2], 4, False, "after round 2 of 4 — provisional", False),
        ([1, 2], 4, True, "final standings", True),
        ([1, 2, 3, 4], 4, False, "final standings", True),
        # More rounds played than planned: the plan grew during the evening.
        ([1, 2, 3, 4, 5], 4, False, "final standings", True),
    ],
)
def test_progress_is_provisional_until_the_last_planned_round_or_the_finish(
    released, planned, finished, label, final
):
    tournament = TournamentFactory.build(planned_rounds=planned, finished=finished)
    progress = room.progress(tournament, released)
    assert (progress.label, progress.final) == (label, final)


def test_seating_loads_in_a_fixed_number_of_queries(django_assert_num_queries):
    tournament = TournamentFactory()
    round_ = RoundFactory(tournament=tournament, number=1, started=True)
    for number in range(1, 6):
        TableFactory(round=round_, number=number, size=5)
    with django_assert_num_queries(3):
        seating = room.public_seating(tournament)
    assert len(seating.placements()) == 25
