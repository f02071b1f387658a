"""Two changes at the same moment, each working the views out after its own commit, in
threads with connections of their own: the views end up made for the last change and
equal to standings worked out afresh, whichever derivation stores last; and the chances
are worked out once, for the views as they end.

The threaded tests need PostgreSQL's row locks (see ``tests/sheets/test_concurrency.py``).
"""

from __future__ import annotations

import pytest

from tests.concurrency import complete_rows, load_table, run_together, slow_down
from tournament.derived import build
from tournament.models import DerivedView, PodiumChances, Round, Table, Tournament
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet
from tournament.standings.services import tournament_standings


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_leave_the_views_of_the_last(
    postgresql, seated_round, scorer, second_scorer, monkeypatch
):
    round_ = seated_round
    tournament = round_.tournament
    tournament.published = True
    tournament.two_person_check = True
    tournament.planned_rounds = 3
    tournament.save(update_fields=["published", "two_person_check", "planned_rounds"])
    Round.objects.filter(pk=round_.pk).update(released=True)
    tables = list(Table.objects.filter(round=round_).order_by("number"))[:2]
    for table in tables:
        save_sheet(load_table(table.pk), scorer, complete_rows(4), expected_version=0, final=True)
    # Each derivation lingers before it works the views out: the other's change lands
    # meanwhile, and either may store last.
    slow_down(monkeypatch, build, "_data")
    outcomes = run_together(
        *(
            lambda pk=table.pk: confirm_sheet(
                load_table(pk), second_scorer, expected_version=1
            ).or_raise()
            for table in tables
        )
    )
    assert [outcome.error for outcome in outcomes] == [None, None]
    tournament = Tournament.objects.get(pk=tournament.pk)
    fresh = {
        kind: tournament_standings(tournament, released_only=kind == "public").standings.rows
        for kind in ("public", "organiser")
    }
    for kind, rows in fresh.items():
        view = DerivedView.objects.get(tournament=tournament, kind=kind)
        assert view.made_for == tournament.standings_version, kind
        stored = [(row[0], row[1], row[4]) for row in view.standings["rows"]]
        assert stored == [(row.key, row.rank, row.points) for row in rows], kind
    public = DerivedView.objects.get(tournament=tournament, kind="public")
    assert PodiumChances.objects.get(tournament=tournament).fingerprint == public.chances_key


@pytest.mark.django_db(transaction=True)
def test_two_derivations_of_one_version_at_once_store_once_and_agree(postgresql, make_played):
    tournament = make_played(players=12, rounds=2, planned_rounds=3)
    DerivedView.objects.filter(tournament=tournament).delete()
    outcomes = run_together(
        lambda: build.work_out_views(tournament.pk), lambda: build.work_out_views(tournament.pk)
    )
    assert [outcome.error for outcome in outcomes] == [None, None]
    assert DerivedView.objects.filter(tournament=tournament).count() == 2
