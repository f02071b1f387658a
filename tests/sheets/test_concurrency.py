"""Many people saving at once, against the real PostgreSQL: no lost update, no double
record, no second round.

Each test starts real threads, each with its own database connection, released together
by a barrier. The services are slowed down *inside* their transactions (``slow_down``) so
that the threads certainly overlap there: without the row locks the services take, these
tests fail with a lost update or a database integrity error instead of a clear message.

SQLite has no row locks (one writer locks the whole file), so these tests need
PostgreSQL; CI runs the suite a second time with ``DATABASE_URL`` set.
"""

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.errors import UserError
from tests.concurrency import complete_rows, load_table, run_together, saver, sheet_form, slow_down
from tournament.models import Deal, Round, Seat, Sheet, SheetStatus, SheetVersion, Table
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.sheets import confirming, saving
from tournament.sheets.authors import AtTable, ConfirmRefusedError
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.saving import SheetChangedError, save_sheet

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(
            "concurrency tests need PostgreSQL's row locks: run with "
            "DATABASE_URL=postgres://… (SQLite serialises all writers with one file lock)"
        )


@pytest.fixture(params=[True, False], ids=["sheet rows exist", "first save creates the sheet"])
def sheet_rows(request, seated_round):
    """Rounds seated by the app have a sheet row per table; older or imported tables get
    theirs on the first save, when two savers race to create it."""
    if request.param:
        Sheet.objects.bulk_create(Sheet(table=table) for table in seated_round.tables.all())
    return request.param


@pytest.fixture
def one_step(seated_round):
    """``seated_round`` without the two-person check: a complete sheet is confirmed at
    once, writing its deals."""
    tournament = seated_round.tournament
    tournament.two_person_check = False
    tournament.save(update_fields=["two_person_check"])
    return seated_round


# Score sheets -------------------------------------------------------------------------


@pytest.mark.parametrize("two_person", [False, True], ids=["confirmed", "entered"])
def test_eight_scorers_saving_tables_of_one_round_at_once_all_succeed(
    make_played, django_user_model, monkeypatch, two_person
):
    tournament = make_played(players=40, rounds=0, published=False, slug="busy-night")
    tournament.two_person_check = two_person
    tournament.save(update_fields=["two_person_check"])
    round_ = seating.seat_next_round(tournament, method="random")
    rounds.start_round(round_)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    assert len(tables) >= 8
    users = [django_user_model.objects.create_user(f"scorer{n}") for n in range(len(tables))]
    rows = {table.pk: complete_rows(table.size, variant=table.number) for table in tables}
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(
        *(
            saver(table.pk, user, rows[table.pk], expected_version=0, final=True)
            for table, user in zip(tables, users, strict=True)
        )
    )

    assert [o.error for o in outcomes] == [None] * len(tables)
    status = SheetStatus.ENTERED if two_person else SheetStatus.CONFIRMED
    for table, user in zip(tables, users, strict=True):
        sheet = Sheet.objects.get(table=table)
        assert (sheet.status, sheet.version, sheet.entered_by_id) == (status, 1, user.pk)
        stored = sheet.pending if two_person else confirmed_rows(table)
        assert stored == rows[table.pk]
    assert SheetVersion.objects.count() == len(tables)
    expected_deals = 0 if two_person else sum(table.size for table in tables)
    assert Deal.objects.count() == expected_deals


@pytest.mark.parametrize("final", [False, True], ids=["drafts", "complete"])
def test_two_saving_the_same_table_at_once_one_is_told_the_sheet_changed(
    seated_round, sheet_rows, scorer, second_scorer, monkeypatch, final
):
    table = Table.objects.get(round=seated_round, number=1)
    mine, theirs = complete_rows(4, variant=1), complete_rows(4, variant=2)
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(
        saver(table.pk, scorer, mine, expected_version=0, final=final),
        saver(table.pk, second_scorer, theirs, expected_version=0, final=final),
    )

    succeeded = [o for o in outcomes if o.error is None]
    refused = [o for o in outcomes if o.error is not None]
    assert len(succeeded) == 1, outcomes
    assert len(refused) == 1, outcomes
    assert isinstance(refused[0].error, SheetChangedError), refused[0].error
    winner = succeeded[0].value.sheet.entered_by
    winning_rows = mine if winner == scorer else theirs
    loser = second_scorer if winner == scorer else scorer
    # The refused scorer is shown what the winner saved, to compare with their copy.
    assert refused[0].error.current_rows == winning_rows
    assert f"changed by {winner.username}" in str(refused[0].error)
    sheet = Sheet.objects.get(table=table)
    assert (sheet.version, sheet.entered_by_id, sheet.pending) == (1, winner.pk, winning_rows)
    assert list(SheetVersion.objects.values_list("number", "by")) == [(1, winner.pk)]
    assert loser.pk not in SheetVersion.objects.values_list("by", flat=True)


def test_a_double_clicked_submit_records_once(one_step, sheet_rows, scorer, monkeypatch):
    table = Table.objects.get(round=one_step, number=1)
    rows = complete_rows(4)
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(
        saver(table.pk, scorer, rows, expected_version=0, final=True),
        saver(table.pk, scorer, rows, expected_version=0, final=True),
    )

    assert [o.error for o in outcomes] == [None, None]
    assert sorted(o.value.repeated for o in outcomes) == [False, True]
    assert list(SheetVersion.objects.values_list("number", "action")) == [(1, "confirmed")]
    sheet = Sheet.objects.get(table=table)
    assert (sheet.status, sheet.version) == (SheetStatus.CONFIRMED, 1)
    assert list(Deal.objects.filter(table=table).values_list("number", flat=True)) == [1, 2, 3, 4]
    assert confirmed_rows(table) == rows


def test_a_double_clicked_confirmation_records_once(
    seated_round, scorer, second_scorer, monkeypatch
):
    table = Table.objects.get(round=seated_round, number=1)
    save_sheet(table, scorer, complete_rows(4), expected_version=0, final=True)
    slow_down(monkeypatch, confirming, "confirmed_rows")

    def confirm():
        return confirm_sheet(load_table(table.pk), second_scorer, expected_version=1).or_raise()

    outcomes = run_together(confirm, confirm)

    assert [o.error for o in outcomes] == [None, None]
    assert sorted(o.value.repeated for o in outcomes) == [False, True]
    assert list(SheetVersion.objects.values_list("number", "action")) == [
        (1, "entered"),
        (2, "confirmed"),
    ]
    assert Deal.objects.filter(table=table).count() == 4


# Seating ------------------------------------------------------------------------------


def test_generating_a_round_twice_at_once_creates_one_round(make_played, monkeypatch):
    tournament = make_played(players=12, rounds=1, slug="double-seat")
    slow_down(monkeypatch, seating, "_seat")

    outcomes = run_together(
        lambda: seating.seat_next_round(tournament, method="random"),
        lambda: seating.seat_next_round(tournament, method="random"),
    )

    created = [o.value for o in outcomes if o.error is None]
    refused = [o.error for o in outcomes if o.error is not None]
    assert [r.number for r in created] == [2], outcomes
    assert len(refused) == 1
    assert isinstance(refused[0], UserError), refused[0]
    assert "round 2 is seated but not started" in str(refused[0])
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]
    assert Seat.objects.filter(round__number=2).count() == 12


# The same through the web pages ------------------------------------------------------


def logged_in_twice(user):
    """Two clients sharing one login, like two tabs (or two clicks) of one browser."""
    first = Client()
    first.force_login(user)
    second = Client()
    second.cookies = first.cookies
    return first, second


def test_a_double_clicked_sheet_page_records_once(one_step, sheet_rows, scorer, monkeypatch):
    url = reverse("scorer:sheet", args=[one_step.tournament.slug, 1, 1])
    clients = logged_in_twice(scorer)
    data = sheet_form(complete_rows(4))
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(*(lambda c=c: c.post(url, data) for c in clients))

    assert [o.error for o in outcomes] == [None, None]
    assert [o.value.status_code for o in outcomes] == [302, 302]
    assert SheetVersion.objects.count() == 1
    table = Table.objects.get(round=one_step, number=1)
    assert Sheet.objects.get(table=table).status == SheetStatus.CONFIRMED
    assert Deal.objects.filter(table=table).count() == 4


def test_two_scorers_on_the_sheet_page_at_once_one_sees_both_copies(
    seated_round, sheet_rows, scorer, second_scorer, monkeypatch
):
    url = reverse("scorer:sheet", args=[seated_round.tournament.slug, 1, 1])
    (mine, _), (theirs, _) = logged_in_twice(scorer), logged_in_twice(second_scorer)
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(
        lambda: mine.post(url, sheet_form(complete_rows(4, variant=1))),
        lambda: theirs.post(url, sheet_form(complete_rows(4, variant=2))),
    )

    assert [o.error for o in outcomes] == [None, None]
    assert sorted(o.value.status_code for o in outcomes) == [302, 409]
    (conflict,) = (o.value for o in outcomes if o.value.status_code == 409)
    assert "while you were typing" in conflict.content.decode()
    assert SheetVersion.objects.count() == 1


def test_seating_the_next_round_twice_at_once_on_the_rounds_page_creates_one(
    make_played, organiser, monkeypatch
):
    tournament = make_played(players=12, rounds=1, slug="double-click-seat")
    tournament.owner = organiser
    tournament.save(update_fields=["owner"])
    url = reverse("organiser:rounds", args=[tournament.slug])
    clients = logged_in_twice(organiser)
    slow_down(monkeypatch, seating, "_seat")

    outcomes = run_together(
        *(lambda c=c: c.post(url, {"method": "random", "seed": "7"}) for c in clients)
    )

    assert [o.error for o in outcomes] == [None, None]
    assert sorted(o.value.status_code for o in outcomes) == [200, 302]
    (refused,) = (o.value for o in outcomes if o.value.status_code == 200)
    assert "round 2 is seated but not started" in refused.content.decode()
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]


# Phones at the table ------------------------------------------------------------------


def test_two_phones_at_one_table_saving_at_once_one_is_told_the_sheet_changed(
    seated_round, sheet_rows, monkeypatch
):
    table = Table.objects.get(round=seated_round, number=1)
    mine, theirs = complete_rows(4, variant=1)[:1], complete_rows(4, variant=2)[:1]
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(
        saver(table.pk, AtTable("phone-a"), mine, expected_version=0, final=False),
        saver(table.pk, AtTable("phone-b"), theirs, expected_version=0, final=False),
    )

    refused = [o for o in outcomes if o.error is not None]
    assert len(refused) == 1, outcomes
    assert isinstance(refused[0].error, SheetChangedError), refused[0].error
    sheet = Sheet.objects.get(table=table)
    # The phone that got in first is phone 1; the refused one was not numbered.
    assert (sheet.version, sheet.entered_by_phone, sheet.entered_by_id) == (1, 1, None)
    assert list(table.phones.values_list("number", flat=True)) == [1]
    assert list(SheetVersion.objects.values_list("phone", flat=True)) == [1]


def test_a_phone_retrying_a_submission_while_the_first_try_is_saving_records_it_once(
    seated_round, sheet_rows, monkeypatch
):
    table = Table.objects.get(round=seated_round, number=1)
    rows = complete_rows(4)
    phone = AtTable("phone-a")
    slow_down(monkeypatch, saving, "current_rows")

    outcomes = run_together(
        *(
            saver(table.pk, phone, rows, expected_version=0, final=True, key="retry-key-1")
            for _ in range(2)
        )
    )

    assert [o.error for o in outcomes] == [None, None]
    assert sorted(o.value.repeated for o in outcomes) == [False, True]
    sheet = Sheet.objects.get(table=table)
    assert (sheet.status, sheet.version, sheet.entered_by_phone) == (SheetStatus.ENTERED, 1, 1)
    assert SheetVersion.objects.count() == 1


def test_a_phone_submitting_as_the_round_is_released_is_saved_for_the_desk(
    seated_round, sheet_rows, monkeypatch
):
    """The phone's page opened the sheet before the release; its save arrives just after.
    A release closes no code: the sheet is saved, awaiting the desk."""
    table = Table.objects.get(round=seated_round, number=1)
    # The save waits before taking its locks, so the release certainly commits first.
    slow_down(monkeypatch, saving, "as_held")
    round_ = Round.objects.get(pk=seated_round.pk)
    phone = AtTable("phone-a")

    outcomes = run_together(
        saver(table.pk, phone, complete_rows(4), expected_version=0, final=True),
        lambda: rounds.release_round(round_, despite_missing=True),
    )

    assert [o.error for o in outcomes] == [None, None], outcomes
    assert Round.objects.get(pk=round_.pk).released
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED


def test_a_phone_confirming_as_the_round_is_released_confirms_nothing(seated_round, monkeypatch):
    """The second phone's page opened before the release; its blind re-type arrives just
    after, and is refused: once released, only the desk confirms."""
    tournament = seated_round.tournament
    tournament.table_confirm = True
    tournament.save(update_fields=["table_confirm"])
    table = Table.objects.get(round=seated_round, number=1)
    rows = complete_rows(4)
    save_sheet(load_table(table.pk), AtTable("phone-a"), rows, expected_version=0, final=True)
    slow_down(monkeypatch, confirming, "as_held")
    round_ = Round.objects.get(pk=seated_round.pk)

    def confirm_blind():
        return confirm_sheet(
            load_table(table.pk), AtTable("phone-b"), expected_version=1, retyped=rows
        ).or_raise()

    outcomes = run_together(
        confirm_blind, lambda: rounds.release_round(round_, despite_missing=True)
    )

    assert outcomes[1].error is None, outcomes
    assert isinstance(outcomes[0].error, ConfirmRefusedError), outcomes
    assert "a scorer at the desk confirms its sheets now" in str(outcomes[0].error)
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED
    assert not Deal.objects.filter(table=table).exists()
