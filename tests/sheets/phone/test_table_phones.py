"""The phones of a table, as the sheets record them (``sheets.authors``,
``sheets.saving``): numbered in the order they first save, a phone's complete sheet
always awaiting confirmation, when a phone may confirm one (blind, a sheet another phone
typed, with ``table_confirm`` on), a phone's re-type that does not match, and a
submission retried with its idempotency key."""

import pytest

from tests.pages import ROWS
from tournament.models import Sheet, SheetStatus, SheetVersion, Table, TablePhone
from tournament.sheets.authors import AtTable, ConfirmRefusedError
from tournament.sheets.confirming import SheetMismatchError, confirm_sheet
from tournament.sheets.saving import save_sheet
from tournament.sheets.versions import record_reseat

# Deal 2, seat 3 typed 12 instead of 10 (and left over 8 instead of 10, to add up to 52).
MISTYPED = [ROWS[0], {"won": [12, 10, 12, 10], "last_in": 1, "left_over": 8}, *ROWS[2:]]


@pytest.fixture
def table(seated_round):
    return Table.objects.get(round=seated_round, number=1)


def sheet(table):
    return Sheet.objects.get(table=table)


def test_phones_are_numbered_in_the_order_they_first_save(table):
    save_sheet(table, AtTable("first"), ROWS[:1], expected_version=0, final=False)
    save_sheet(table, AtTable("second"), ROWS[:2], expected_version=1, final=False)
    # The first phone again keeps its number.
    save_sheet(table, AtTable("first"), ROWS[:3], expected_version=2, final=False)
    phones = dict(TablePhone.objects.filter(table=table).values_list("token", "number"))
    assert phones == {"first": 1, "second": 2}
    versions = SheetVersion.objects.filter(sheet__table=table).order_by("number")
    assert [v.phone for v in versions] == [1, 2, 1]
    assert [v.by for v in versions] == [None, None, None]
    assert sheet(table).entered_by_phone == 1


def test_each_table_numbers_its_own_phones(seated_round):
    first, second = Table.objects.filter(round=seated_round).order_by("number")[:2]
    save_sheet(first, AtTable("a"), ROWS[:1], expected_version=0, final=False)
    save_sheet(second, AtTable("b"), ROWS[:1], expected_version=0, final=False)
    assert (sheet(first).entered_by_phone, sheet(second).entered_by_phone) == (1, 1)


def test_a_phones_complete_sheet_awaits_confirmation_even_without_the_two_person_check(table):
    tournament = table.round.tournament
    tournament.two_person_check = False
    tournament.save()
    result = save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    assert result.status == SheetStatus.ENTERED
    assert (sheet(table).status, sheet(table).confirmed_by_phone) == (SheetStatus.ENTERED, None)
    assert not table.deals.exists()


def test_a_second_phone_confirms_by_re_typing_blind(table, confirm_at_table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    result = confirm_sheet(table, AtTable("b"), expected_version=1, retyped=ROWS)
    assert result.status == SheetStatus.CONFIRMED
    assert (sheet(table).entered_by_phone, sheet(table).confirmed_by_phone) == (1, 2)
    assert table.deals.count() == len(ROWS)


def test_a_phone_may_not_confirm_when_the_tournament_does_not_allow_it(table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    with pytest.raises(ConfirmRefusedError, match="confirmed by a scorer at the desk"):
        confirm_sheet(table, AtTable("b"), expected_version=1, retyped=ROWS).or_raise()
    assert sheet(table).status == SheetStatus.ENTERED


def test_a_phone_may_not_confirm_a_sheet_a_scorer_entered(table, scorer, confirm_at_table):
    save_sheet(table, scorer, ROWS, expected_version=0, final=True)
    with pytest.raises(ConfirmRefusedError, match="entered by a scorer"):
        confirm_sheet(table, AtTable("b"), expected_version=1, retyped=ROWS).or_raise()
    assert sheet(table).status == SheetStatus.ENTERED


def test_the_phone_that_entered_a_sheet_may_not_confirm_it(table, confirm_at_table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    with pytest.raises(ConfirmRefusedError, match="this phone submitted the sheet"):
        confirm_sheet(table, AtTable("a"), expected_version=1, retyped=ROWS).or_raise()
    assert sheet(table).status == SheetStatus.ENTERED


def test_a_phone_confirms_only_blind(table, confirm_at_table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    with pytest.raises(ConfirmRefusedError, match="re-typing the sheet blind"):
        confirm_sheet(table, AtTable("b"), expected_version=1, retyped=None).or_raise()
    assert sheet(table).status == SheetStatus.ENTERED


def test_a_scorer_confirms_a_sheet_a_phone_entered(table, scorer):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    result = confirm_sheet(table, scorer, expected_version=1)
    assert result.status == SheetStatus.CONFIRMED
    assert (sheet(table).entered_by_phone, sheet(table).confirmed_by) == (1, scorer)


def test_a_phones_re_type_that_differs_is_kept_until_the_next_save(table, confirm_at_table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    with pytest.raises(SheetMismatchError) as mismatch:
        confirm_sheet(table, AtTable("b"), expected_version=1, retyped=MISTYPED).or_raise()
    assert {(m.deal, m.field, m.seat) for m in mismatch.value.mismatches} == {
        (2, "won", 3),
        (2, "left_over", None),
    }
    kept = sheet(table)
    assert (kept.status, kept.version, kept.retyped_by_phone) == (SheetStatus.ENTERED, 1, 2)
    assert kept.retyped[1]["won"] == [12, 10, 12, 10]
    # Nothing recorded: the entered sheet stands, awaiting the paper's word.
    assert SheetVersion.objects.filter(sheet=kept).count() == 1

    save_sheet(table, AtTable("a"), ROWS, expected_version=1, final=True)
    assert (sheet(table).retyped, sheet(table).retyped_by_phone) == ([], None)


def test_a_re_seat_clears_a_phones_re_type(table, organiser, confirm_at_table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    with pytest.raises(SheetMismatchError):
        confirm_sheet(table, AtTable("b"), expected_version=1, retyped=MISTYPED).or_raise()
    record_reseat(sheet(table), [], organiser)
    assert (sheet(table).retyped, sheet(table).retyped_by_phone) == ([], None)


def test_a_save_repeated_with_its_key_is_recorded_once(table):
    first = save_sheet(table, AtTable("a"), ROWS[:2], expected_version=0, final=False, key="k-1")
    again = save_sheet(table, AtTable("a"), ROWS[:2], expected_version=0, final=False, key="k-1")
    assert (first.repeated, again.repeated) == (False, True)
    assert SheetVersion.objects.filter(sheet__table=table).count() == 1
    assert sheet(table).version == 1


def test_a_save_repeated_with_its_key_after_another_save_changes_nothing(table):
    save_sheet(table, AtTable("a"), ROWS[:2], expected_version=0, final=False, key="k-1")
    save_sheet(table, AtTable("b"), ROWS[:3], expected_version=1, final=False, key="k-2")
    again = save_sheet(table, AtTable("a"), ROWS[:2], expected_version=0, final=False, key="k-1")
    assert again.repeated
    assert len(sheet(table).pending) == 3
    assert SheetVersion.objects.filter(sheet__table=table).count() == 2


def test_a_confirmation_repeated_with_its_key_is_recorded_once(table, confirm_at_table):
    save_sheet(table, AtTable("a"), ROWS, expected_version=0, final=True)
    first = confirm_sheet(table, AtTable("b"), expected_version=1, retyped=ROWS, key="c-1")
    again = confirm_sheet(table, AtTable("b"), expected_version=1, retyped=ROWS, key="c-1")
    assert (first.repeated, again.repeated) == (False, True)
    assert SheetVersion.objects.filter(sheet__table=table).count() == 2
    assert table.deals.count() == len(ROWS)
