"""What a change changes, decided once from what changed (shared.public_changes): the
page generation moves only for what a public page shows, the standings version only for
what the standings are made of, and neither for a door tap."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import player_of
from tournament.models import KeepApart, Player, Round, Tournament
from tournament.players.services import check_in_everyone, set_status
from tournament.rounds.clock import pause_clock, start_clock
from tournament.tournaments.services import set_finished


def stamps(tournament: Tournament) -> tuple[object, int]:
    return Tournament.objects.filter(pk=tournament.pk).values_list(
        "public_changed", "standings_version"
    )[0]


@pytest.fixture
def tournament(make_played, after_commit):
    made = make_played(players=10, rounds=2, planned_rounds=4)
    # What the setup's changes owe is done: each test sees only its own change's effect.
    after_commit()
    return made


def test_a_check_in_at_the_door_moves_nothing(tournament):
    player = Player.objects.filter(tournament=tournament).first()
    before = stamps(tournament)
    set_status(player, checked_in=True)
    # A second tap on someone already in, saved with the whole row.
    player.refresh_from_db()
    player.checked_in = True
    player.door_tapped_at = timezone.now()
    player.save()
    check_in_everyone(tournament, list(Player.objects.values_list("pk", flat=True)))
    assert stamps(tournament) == before


@pytest.mark.parametrize("field", ["fixed_table"])
def test_what_only_the_seating_uses_moves_nothing(tournament, field):
    player = Player.objects.filter(tournament=tournament).first()
    before = stamps(tournament)
    setattr(player, field, 3)
    player.save()
    first, second = Player.objects.filter(tournament=tournament)[:2]
    KeepApart.objects.create(tournament=tournament, first=first, second=second)
    assert stamps(tournament) == before


def test_a_name_moves_both_and_a_full_save_is_judged_by_what_it_changed(tournament):
    player = Player.objects.filter(tournament=tournament).first()
    before_page, before_version = stamps(tournament)
    player.name = "Ann Renamed"
    player.save()
    page, version = stamps(tournament)
    assert page > before_page
    assert version == before_version + 1
    player.save()  # nothing changed
    assert stamps(tournament) == (page, version)


def test_dropping_out_changes_the_standings_inputs(tournament):
    player = Player.objects.filter(tournament=tournament).first()
    _, before = stamps(tournament)
    set_status(player, active=False)
    assert stamps(tournament)[1] == before + 1


def test_the_clock_moves_the_pages_only(tournament):
    round_ = Round.objects.create(tournament=tournament, number=3, started=True)
    before_page, before_version = stamps(tournament)
    start_clock(round_)
    page, version = stamps(tournament)
    assert page > before_page
    assert version == before_version
    pause_clock(Round.objects.get(pk=round_.pk))
    assert stamps(tournament)[1] == before_version


def test_a_settings_save_of_the_whole_row_never_sets_the_stamps_back(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)
    Player.objects.filter(tournament=tournament).first().save(update_fields=["name"])
    player = Player.objects.filter(tournament=tournament).first()
    player.name = "Someone Else"
    player.save()
    page, version = stamps(tournament)
    stale.venue = "The Red Lion"
    stale.save()
    later_page, later_version = stamps(tournament)
    assert later_version == version  # not the stale object's value
    assert later_page >= page


def test_the_scoring_moves_the_standings_and_the_venue_only_the_pages(tournament):
    tournament.refresh_from_db()
    _, version = stamps(tournament)
    tournament.venue = "The Crown"
    tournament.save()
    assert stamps(tournament)[1] == version
    tournament.refresh_from_db()
    tournament.tiebreaks = ["table_wins", "last_in"]
    tournament.save()
    assert stamps(tournament)[1] == version + 1


def test_finishing_is_refused_while_a_table_has_no_result(tournament):
    from tournament.models import Deal, Sheet, Table
    from tournament.sheets.facts import write_seat_sums
    from tournament.tournaments.services import TablesStillToScore

    table = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    Deal.objects.filter(table=table).delete()
    write_seat_sums(table, [])
    Sheet.objects.filter(table=table).delete()
    with pytest.raises(TablesStillToScore, match="round 2, table 1"):
        set_finished(tournament, True)
    assert not Tournament.objects.get(pk=tournament.pk).finished
    assert player_of(tournament, 1, 1, 1)  # the rest untouched
