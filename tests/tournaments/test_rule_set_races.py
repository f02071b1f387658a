"""A change of rules at the moment a sheet is confirmed: whichever comes first, the seat
sums the standings read are those of the confirmed deals under the rules saved last.

The real test needs PostgreSQL's row locks (see ``tests/sheets/test_concurrency.py``).
"""

import pytest

from scoring.errors import UserError
from scoring.rules import leaves_of
from tests.concurrency import (
    after,
    complete_rows,
    linger_after,
    load_table,
    run_together,
    slow_down,
)
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.models import Seat, Table, Tournament
from tournament.rounds import seating
from tournament.sheets import confirming
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.rows import seat_sums
from tournament.sheets.saving import save_sheet
from tournament.tournaments import services as tournaments


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slow", ["confirm", "settings"])
def test_a_rule_set_changed_as_a_sheet_is_confirmed_scores_it_under_the_new_rules(
    postgresql, seated_round, scorer, second_scorer, monkeypatch, slow
):
    tournament = seated_round.tournament
    tournament.scoring = "classic-stakes"
    tournament.save(update_fields=["scoring"])
    table = Table.objects.get(round=seated_round, number=1)
    save_sheet(table, scorer, complete_rows(4), expected_version=0, final=True)
    if slow == "confirm":
        slow_down(monkeypatch, confirming, "confirmed_rows")
    else:
        slow_down(monkeypatch, tournaments, "rule_change_problems")

    def confirm():
        return confirm_sheet(load_table(table.pk), second_scorer, expected_version=1).or_raise()

    def change():
        changed = Tournament.objects.get(pk=tournament.pk)
        changed.rule_set = "willughby-four-thirteen"
        return tournaments.save_settings(changed, ["rule_set"])

    outcomes = run_together(confirm, change)

    assert [outcome.error for outcome in outcomes] == [None, None]
    saved = Tournament.objects.get(pk=tournament.pk)
    assert saved.rule_set == "willughby-four-thirteen"
    rows = confirmed_rows(table)
    assert len(rows) == 4
    expected = seat_sums(rows, 4, leaves_of(table.left), saved.rules)
    stored = tuple(seat.sums for seat in Seat.objects.filter(table=table).order_by("position"))
    assert stored == expected


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first", ["seating", "settings"])
def test_a_round_seated_as_the_rules_change_is_seated_under_the_rules_that_hold(
    postgresql, monkeypatch, first
):
    tournament = TournamentFactory(slug="race-night", rule_set="du-coeur", table_sizes=[5, 7])
    seated_round(tournament, make_players(tournament, 14))
    if first == "seating":
        linger_after(monkeypatch, seating, "_seat", 0.6)
    else:
        linger_after(monkeypatch, tournaments, "rule_change_problems", 0.6)

    def seat():
        return seating.seat_next_round(Tournament.objects.get(pk=tournament.pk), split=(7, 7))

    def change():
        changed = Tournament.objects.get(pk=tournament.pk)
        changed.rule_set = "standard"
        changed.table_sizes = [4, 5, 6]
        return tournaments.save_settings(changed, ["rule_set", "table_sizes"])

    calls = (seat, after(0.2, change)) if first == "seating" else (after(0.2, seat), change)
    outcomes = run_together(*calls)

    assert all(
        outcome.error is None or isinstance(outcome.error, UserError) for outcome in outcomes
    )
    # One of the two is refused, in words; what holds afterwards is consistent.
    assert [outcome.error is None for outcome in outcomes].count(True) == 1
    saved = Tournament.objects.get(pk=tournament.pk)
    sizes = {table.size for table in Table.objects.filter(round__tournament=saved)}
    assert sizes <= set(saved.sizes_allowed)
