"""A penalty given while a sheet of the same round is confirmed, at the same moment.

The confirmation holds its round (``locks.hold_round``) and marks the public pages
changed last; the penalty holds the round the same way and marks them changed last too
(``players.adjustments``). Both land, whichever starts first: the sheet is confirmed,
the penalty recorded, the standings count both, no request fails, and the public
standings served afterwards are those made afresh (no stale cached page).

The threaded tests need PostgreSQL's row locks (see ``tests/sheets/test_concurrency.py``).
"""

import threading

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.concurrency import after, complete_rows, linger_after, load_table, run_together
from tournament.models import Adjustment, Round, Seat, Sheet, SheetStatus, Table
from tournament.players import adjustments
from tournament.sheets import confirming
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet
from tournament.standings.services import tournament_standings


def points_of(tournament, player, **options):
    result = tournament_standings(tournament, **options)
    return next(row for row in result.standings.rows if row.key == player.pk)


@pytest.mark.parametrize("first", ["confirmation", "penalty"])
@pytest.mark.django_db(transaction=True)
def test_a_penalty_given_while_a_sheet_is_confirmed_both_land(
    postgresql, seated_round, organiser, scorer, second_scorer, monkeypatch, first
):
    round_ = seated_round
    tournament = round_.tournament
    tournament.published = True
    tournament.two_person_check = True
    tournament.save(update_fields=["published", "two_person_check"])
    Round.objects.filter(pk=round_.pk).update(released=True)
    table = Table.objects.get(round=round_, number=1)
    player = Seat.objects.get(table=table, position=1).player
    save_sheet(load_table(table.pk), scorer, complete_rows(4), expected_version=0, final=True)
    standings_url = reverse("standings", args=[tournament.slug])
    cache.clear()
    # Whichever comes first keeps its transaction open while the other arrives.
    if first == "confirmation":
        linger_after(monkeypatch, confirming, "record_version", 0.4)
    else:
        linger_after(monkeypatch, adjustments, "hold_round", 0.4)
    organiser_client = Client()
    organiser_client.force_login(organiser)
    visitor = Client()
    seen = threading.Event()

    def confirm():
        return confirm_sheet(load_table(table.pk), second_scorer, expected_version=1).or_raise()

    def penalty():
        url = reverse("organiser:adjustment_add", args=[tournament.slug, player.pk])
        return organiser_client.post(url, {"round": "1", "points": "-2", "reason": "misdeal"})

    def visit():
        response = visitor.get(standings_url)
        seen.set()
        return response

    calls = (
        (confirm, after(0.1, penalty))
        if first == "confirmation"
        else (
            after(0.1, confirm),
            penalty,
        )
    )
    outcomes = run_together(*calls, after(0.2, visit))

    assert [outcome.error for outcome in outcomes] == [None, None, None]
    assert seen.is_set()
    confirmed, posted = outcomes[0].value, outcomes[1].value
    assert confirmed.status == SheetStatus.CONFIRMED
    assert posted.status_code == 302
    assert Sheet.objects.get(table=table).status == SheetStatus.CONFIRMED
    (added,) = Adjustment.objects.all()
    assert (added.player_id, added.points, added.round_id) == (player.pk, -2, round_.pk)
    for options in ({}, {"released_only": True}):
        row = points_of(tournament, player, **options)
        assert row.waiting == ()
        assert row.deals == 4
        assert [(a.round_number, a.points) for a in row.tally.adjustments] == [(1, -2)]
    with_penalty = points_of(tournament, player, released_only=True).points
    served = visitor.get(standings_url).content.decode()
    cache.clear()
    fresh = Client().get(standings_url).content.decode()
    assert served == fresh
    assert "misdeal" in served
    adjustments.remove_adjustment(tournament, added.pk, organiser)
    assert points_of(tournament, player, released_only=True).points == with_penalty + 2


@pytest.mark.django_db(transaction=True)
def test_a_penalty_double_clicked_is_recorded_once(
    postgresql, seated_round, organiser, monkeypatch
):
    """Both requests check for the same penalty before either writes it: the tournament's
    lock makes the second wait for the first and find it."""
    tournament = seated_round.tournament
    player = Seat.objects.filter(table__round=seated_round).first().player
    linger_after(monkeypatch, adjustments, "lock_tournaments", 0.3)
    url = reverse("organiser:adjustment_add", args=[tournament.slug, player.pk])

    def click():
        client = Client()
        client.force_login(organiser)
        return client.post(url, {"round": "1", "points": "-2", "reason": "slow play"})

    outcomes = run_together(click, click)

    assert [outcome.error for outcome in outcomes] == [None, None]
    assert [outcome.value.status_code for outcome in outcomes] == [302, 302]
    assert Adjustment.objects.filter(player=player).count() == 1
