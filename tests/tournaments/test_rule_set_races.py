"""A change of rules at the moment a sheet is confirmed: whichever comes first, the seat
sums the standings read are those of the confirmed deals under the rules saved last.

The real test needs PostgreSQL's row locks (see ``tests/sheets/test_concurrency.py``).
"""

import pytest
from django.db import connection

from scoring.rules import leaves_of
from tests.concurrency import complete_rows, load_table, run_together, slow_down
from tournament.models import Seat, Table, Tournament
from tournament.sheets import confirming
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.rows import seat_sums
from tournament.sheets.saving import save_sheet
from tournament.tournaments import services as tournaments


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("races between two writers need PostgreSQL's row locks: set DATABASE_URL")


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
        return confirm_sheet(load_table(table.pk), second_scorer, expected_version=1)

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
