"""What a save or a confirmation came to (tournament.sheets.outcome): one value each face
answers, its kind told by what stopped it."""

import pytest
from django.contrib.auth import get_user_model

from scoring.errors import UserError
from tests.factories import PlayerFactory, RoundFactory, TableFactory, seat_table
from tests.pages import ROWS
from tournament.models import Sheet, SheetStatus
from tournament.sheets.authors import (
    AtTable,
    ClosedAtTableError,
    ConfirmRefusedError,
    SaveRefusedError,
)
from tournament.sheets.checking import SheetInvalidError
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.outcome import (
    LeavesMismatchError,
    Outcome,
    OutcomeKind,
    SheetChangedError,
    SheetMismatchError,
)
from tournament.sheets.rows import Mismatch
from tournament.sheets.saving import save_sheet
from tournament.sheets.versions import ReplayMismatchError

MISTYPED = [ROWS[0], {"won": [12, 10, 12, 10], "last_in": 1, "left_over": 8}, *ROWS[2:]]


@pytest.fixture
def users(db):
    model = get_user_model()
    return [model.objects.create_user(name, password="pw") for name in ("amy", "ben")]


@pytest.fixture
def table(db):
    table = TableFactory(number=1, round=RoundFactory(number=1, started=True))
    seat_table(table, [PlayerFactory(tournament=table.round.tournament) for _ in range(4)])
    return table


@pytest.mark.parametrize(
    ("refusal", "kind"),
    [
        (lambda table: ClosedAtTableError(), OutcomeKind.CLOSED),
        (lambda table: SheetInvalidError(["deal 1: the counts add up to 51"]), OutcomeKind.INVALID),
        (lambda table: SheetMismatchError([Mismatch(1, "won", 1, 10, 12)]), OutcomeKind.MISMATCH),
        (lambda table: LeavesMismatchError(table, []), OutcomeKind.MISMATCH),
        (lambda table: SheetChangedError(Sheet.objects.get(table=table), []), OutcomeKind.CHANGED),
        (lambda table: ReplayMismatchError(table), OutcomeKind.REPLAYED),
        (lambda table: SaveRefusedError("a scorer confirms it now"), OutcomeKind.REFUSED),
        (lambda table: ConfirmRefusedError("you entered this sheet"), OutcomeKind.REFUSED),
        (lambda table: UserError("anything else the rules refuse"), OutcomeKind.REFUSED),
    ],
)
def test_each_refusal_has_its_kind(table, refusal, kind):
    Sheet.objects.get_or_create(table=table)
    error = refusal(table)
    outcome = Outcome.refused(error)
    assert (outcome.kind, outcome.refusal, outcome.saved) == (kind, error, False)
    with pytest.raises(type(error)):
        outcome.or_raise()


def test_a_save_says_it_was_saved(table, users):
    outcome = save_sheet(table, users[0], ROWS, expected_version=0, final=True)
    assert outcome.saved
    assert (outcome.kind, outcome.status, outcome.refusal) == (
        OutcomeKind.SAVED,
        SheetStatus.ENTERED,
        None,
    )
    assert outcome.or_raise() is outcome


def test_rows_that_break_the_rules_are_invalid_with_their_problems(table, users):
    broken = [{**ROWS[0], "left_over": 27}, *ROWS[1:]]
    outcome = save_sheet(table, users[0], broken, expected_version=0, final=True)
    assert outcome.kind is OutcomeKind.INVALID
    assert any("deal 1" in problem for problem in outcome.problems)
    assert not Sheet.objects.filter(table=table, version__gt=0).exists()


def test_a_save_from_an_old_copy_is_changed_meanwhile_with_both_copies(table, users):
    save_sheet(table, users[0], ROWS[:2], expected_version=0, final=False).or_raise()
    outcome = save_sheet(table, users[1], ROWS[:1], expected_version=0, final=False)
    assert outcome.kind is OutcomeKind.CHANGED
    assert outcome.changed.sheet.version == 1
    assert len(outcome.changed.current_rows) == 2


def test_a_phone_on_a_sheet_closed_to_phones_is_closed(table, users):
    save_sheet(table, users[0], ROWS, expected_version=0, final=True).or_raise()
    confirm_sheet(table, users[1], expected_version=1).or_raise()
    outcome = save_sheet(table, AtTable("late"), ROWS, expected_version=2, final=False)
    assert outcome.kind is OutcomeKind.CLOSED


def test_confirming_ones_own_sheet_is_refused(table, users):
    save_sheet(table, users[0], ROWS, expected_version=0, final=True).or_raise()
    outcome = confirm_sheet(table, users[0], expected_version=1)
    assert outcome.kind is OutcomeKind.REFUSED
    assert isinstance(outcome.refusal, ConfirmRefusedError)


def test_a_blind_retype_that_differs_is_a_mismatch_naming_the_cells(table, users):
    save_sheet(table, users[0], ROWS, expected_version=0, final=True).or_raise()
    outcome = confirm_sheet(table, users[1], expected_version=1, retyped=MISTYPED)
    assert outcome.kind is OutcomeKind.MISMATCH
    assert len(outcome.mismatches) == 2
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED


def test_a_retry_with_other_numbers_is_replayed(table, users):
    save_sheet(table, users[0], ROWS[:1], expected_version=0, final=False, key="k").or_raise()
    outcome = save_sheet(table, users[0], ROWS[1:2], expected_version=0, final=False, key="k")
    assert outcome.kind is OutcomeKind.REPLAYED
