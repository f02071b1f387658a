"""Saving, confirming and correcting score sheets (tournament.sheets.saving and
tournament.sheets.confirming)."""

import pytest
from django.contrib.auth import get_user_model

from scoring.errors import UserError
from scoring.systems import SeatSums
from tests.factories import PlayerFactory, RoundFactory, TableFactory, seat_table
from tests.seat_sums import from_deals, stored
from tournament.models import Deal, Sheet, SheetStatus, SheetVersion
from tournament.sheets.checking import SheetInvalidError, check_rows
from tournament.sheets.confirming import SheetMismatchError, confirm_sheet
from tournament.sheets.reading import confirmed_rows, peek_sheet, sheet_of
from tournament.sheets.rows import clean_row, clean_value
from tournament.sheets.saving import SheetChangedError, save_sheet
from tournament.standings.services import tournament_standings

WORKED = {"won": [6, 4, 10, 0, 8], "last_in": 5, "left_over": 24}
OTHER = {"won": [10, 10, 10, 10, 10], "last_in": 1, "left_over": 2}


@pytest.fixture
def users(db):
    model = get_user_model()
    return [model.objects.create_user(name, password="pw") for name in ("amy", "ben", "cat")]


@pytest.fixture
def table(db):
    # Started: sheets are typed in for started rounds, and only those count in standings.
    table = TableFactory(number=1, round=RoundFactory(number=1, started=True))
    tournament = table.round.tournament
    seat_table(table, [PlayerFactory(tournament=tournament, name=n) for n in "ABCDE"])
    return table


def typed(row):
    """A row as the form sends it: every cell a string."""
    return {
        "won": [str(v) for v in row["won"]],
        "last_in": str(row["last_in"]),
        "left_over": str(row["left_over"]),
    }


def full_sheet():
    return [typed(WORKED), typed(OTHER), typed(WORKED), typed(OTHER), typed(WORKED)]


def test_a_draft_keeps_rows_as_typed_even_with_problems(table, users):
    rows = [typed(WORKED), {"won": ["6", "x", "", "", ""], "last_in": "", "left_over": ""}]
    result = save_sheet(table, users[0], rows, expected_version=0, final=False)
    assert result.status == SheetStatus.DRAFT
    assert result.sheet.pending[1]["won"] == [6, "x", None, None, None]
    assert Deal.objects.count() == 0


def test_a_complete_sheet_awaits_a_second_person(table, users):
    result = save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    assert result.status == SheetStatus.ENTERED
    assert Deal.objects.count() == 0
    result = confirm_sheet(table, users[1], expected_version=1)
    assert result.status == SheetStatus.CONFIRMED
    assert Deal.objects.filter(table=table).count() == 5
    assert confirmed_rows(table)[0] == WORKED


def test_the_person_who_entered_cannot_confirm(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    with pytest.raises(UserError, match="a different person must confirm it"):
        confirm_sheet(table, users[0], expected_version=1).or_raise()
    assert Deal.objects.count() == 0


def test_blind_retyping_highlights_mismatching_cells(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    retyped = full_sheet()
    retyped[2] = {**typed(WORKED), "won": ["6", "4", "10", "0", "6"], "left_over": "26"}
    with pytest.raises(SheetMismatchError) as caught:
        confirm_sheet(table, users[1], expected_version=1, retyped=retyped).or_raise()
    assert [(m.deal, m.field, m.seat, m.entered, m.retyped) for m in caught.value.mismatches] == [
        (3, "won", 5, 8, 6),
        (3, "left_over", None, 24, 26),
    ]
    assert [m.cell for m in caught.value.mismatches] == ["d3_s5", "d3_left_over"]
    assert Deal.objects.count() == 0
    confirm_sheet(table, users[1], expected_version=1, retyped=full_sheet())
    assert Deal.objects.count() == 5


def test_without_the_two_person_check_saving_confirms(table, users):
    tournament = table.round.tournament
    tournament.two_person_check = False
    tournament.save()
    result = save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    assert result.status == SheetStatus.CONFIRMED
    assert Deal.objects.count() == 5


def test_a_complete_sheet_must_pass_every_rule_and_nothing_is_lost(table, users):
    save_sheet(table, users[0], [typed(WORKED)], expected_version=0, final=False)
    rows = full_sheet()
    rows[1] = {**typed(OTHER), "won": ["10", "10", "11", "10", "10"]}
    with pytest.raises(SheetInvalidError) as caught:
        save_sheet(table, users[0], rows, expected_version=1, final=True).or_raise()
    assert caught.value.problems == ["deal 2: seat 3: 11 cards won is odd — cards are won in pairs"]
    sheet = sheet_of(table)
    assert (sheet.status, sheet.version, len(sheet.pending)) == (SheetStatus.DRAFT, 1, 1)


def test_a_short_sheet_needs_to_be_marked_stopped_early(table, users):
    with pytest.raises(SheetInvalidError) as caught:
        save_sheet(table, users[0], full_sheet()[:3], expected_version=0, final=True).or_raise()
    assert caught.value.problems == [
        "deals 4–5 are empty: fill them in, or mark the table as stopped early"
    ]
    result = save_sheet(
        table, users[0], full_sheet()[:3], expected_version=0, final=True, stopped_early=True
    )
    assert result.warnings == (
        "the table stopped after deal 3, not at the end of a rotation: "
        "2 players dealt one deal fewer than the others",
    )
    assert result.sheet.stopped_early


def test_more_deals_than_a_round_has_are_refused(table, users):
    with pytest.raises(SheetInvalidError, match="6 deals, but a table of 5 plays at most 5"):
        save_sheet(
            table, users[0], [*full_sheet(), typed(WORKED)], expected_version=0, final=True
        ).or_raise()


def test_a_blank_deal_between_filled_ones_is_refused(table, users):
    rows = full_sheet()
    rows[1] = {"won": [""] * 5, "last_in": "", "left_over": ""}
    with pytest.raises(SheetInvalidError, match="deal 2: blank, but later deals are filled in"):
        save_sheet(table, users[0], rows, expected_version=0, final=True).or_raise()


def test_two_scorers_saving_the_same_table_never_lose_a_save(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=False)
    theirs = full_sheet()
    theirs[0] = typed(OTHER)
    with pytest.raises(SheetChangedError) as caught:
        save_sheet(table, users[1], theirs, expected_version=0, final=False).or_raise()
    assert caught.value.current_rows[0] == WORKED
    assert "changed by amy" in str(caught.value)
    assert sheet_of(table).pending[0] == WORKED


def test_a_double_submit_records_once(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    again = save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    assert again.repeated
    assert SheetVersion.objects.count() == 1
    confirm_sheet(table, users[1], expected_version=1)
    assert confirm_sheet(table, users[1], expected_version=1).repeated
    assert SheetVersion.objects.count() == 2


def test_a_correction_keeps_history_and_standings_follow_the_latest_confirmed(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    confirm_sheet(table, users[1], expected_version=1)
    points_before = {
        r.name: r.points for r in tournament_standings(table.round.tournament).standings.rows
    }

    corrected = full_sheet()
    corrected[4] = typed(OTHER)
    save_sheet(table, users[2], corrected, expected_version=2, final=True)
    # Until the correction is confirmed, the official facts are the confirmed ones.
    assert confirmed_rows(table)[4] == WORKED
    standings = tournament_standings(table.round.tournament).standings
    assert {r.name: r.points for r in standings.rows} == points_before
    confirm_sheet(table, users[0], expected_version=3)
    assert confirmed_rows(table)[4] == OTHER
    standings = tournament_standings(table.round.tournament).standings
    assert {r.name: r.points for r in standings.rows} != points_before

    history = list(SheetVersion.objects.order_by("number").values_list("action", "by__username"))
    assert history == [
        ("entered", "amy"),
        ("confirmed", "ben"),
        ("correction", "cat"),
        ("correction_confirmed", "amy"),
    ]
    correction = SheetVersion.objects.get(number=3)
    assert correction.changes == [
        {"deal": 5, "field": "won", "seat": 1, "before": 6, "after": 10},
        {"deal": 5, "field": "won", "seat": 2, "before": 4, "after": 10},
        {"deal": 5, "field": "won", "seat": 4, "before": 0, "after": 10},
        {"deal": 5, "field": "won", "seat": 5, "before": 8, "after": 10},
        {"deal": 5, "field": "last_in", "seat": None, "before": 5, "after": 1},
        {"deal": 5, "field": "left_over", "seat": None, "before": 24, "after": 2},
    ]


def test_check_rows_gives_running_totals_and_a_derived_value(table):
    rows = [
        clean_row(typed(WORKED), 5),
        clean_row({"won": ["10", "10", "", "10", "10"], "last_in": "1", "left_over": "2"}, 5),
    ]
    check = check_rows(rows, table, final=False)
    assert check.totals == (3, 2, 5, 0, 16)
    assert check.rows[0].dealer == 1
    assert check.rows[1].dealer == 2
    assert check.rows[1].problems == ("deal 2: seat 3: cards won is missing",)
    assert check.rows[1].problem_cells == ("d2_s3",)
    assert check.rows[1].derived == ("d2_s3", 10)


@pytest.mark.parametrize(
    ("typed_value", "clean"),
    [
        ("", None),
        (" 12 ", 12),
        ("x", "x"),
        ("-2", "-2"),
        ("4.5", "4.5"),
        ("١٢", "١٢"),
        ("9999999", "9999999"),
    ],
)
def test_cells_are_cleaned_without_guessing(typed_value, clean):
    assert clean_value(typed_value) == clean


def test_unconfirmed_sheets_count_only_where_asked(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=True)
    tournament = table.round.tournament
    public = tournament_standings(tournament).standings
    assert {r.points for r in public.rows} == {0}
    private = tournament_standings(tournament, include_unconfirmed=True).standings
    assert max(r.points for r in private.rows) == 16 * 3 + 5 * 2


def test_check_rows_totals_the_left_over_cards_of_rows_that_add_up(table):
    rows = [
        clean_row(typed(WORKED), 5),
        clean_row(typed(OTHER), 5),
        clean_row({**typed(OTHER), "left_over": "3"}, 5),
    ]
    assert check_rows(rows, table, final=False).left_over == 24 + 2


def test_peeking_at_a_sheet_writes_nothing(table, users):
    sheet = peek_sheet(table)
    assert (sheet.pk, sheet.status, sheet.version) == (None, SheetStatus.NOT_STARTED, 0)
    assert not Sheet.objects.exists()
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=False)
    assert peek_sheet(table).status == SheetStatus.DRAFT


def test_a_sheet_nobody_entered_cannot_be_confirmed(table, users):
    with pytest.raises(UserError, match="not awaiting confirmation"):
        confirm_sheet(table, users[1], expected_version=0).or_raise()
    assert not Sheet.objects.exists()


@pytest.mark.parametrize("two_person", [True, False])
def test_saving_costs_the_same_queries_for_one_deal_or_a_whole_round(db, users, two_person):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for number, rows in ((1, full_sheet()[:1]), (2, full_sheet())):
        table = TableFactory(number=number, round=RoundFactory(number=number, started=True))
        tournament = table.round.tournament
        tournament.two_person_check = two_person
        tournament.save()
        seat_table(table, [PlayerFactory(tournament=tournament) for _ in range(5)])
        table = type(table).objects.select_related("round__tournament").get(pk=table.pk)
        with CaptureQueriesContext(connection) as captured:
            save_sheet(
                table, users[0], rows, expected_version=0, final=True, stopped_early=len(rows) < 5
            )
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_a_full_sheet_marked_stopped_early_is_refused(table, users):
    with pytest.raises(SheetInvalidError, match="did not stop early") as refused:
        save_sheet(
            table, users[0], full_sheet(), expected_version=0, final=True, stopped_early=True
        ).or_raise()
    assert refused.value.problems == [
        "the table is marked as stopped early, but all 5 deals of the round are filled in: a "
        "table that played every deal did not stop early — untick “stopped early”"
    ]
    assert not Sheet.objects.exists()


def test_the_check_warns_when_a_table_stopped_between_rotations(table):
    rows = [clean_row(typed(WORKED), 5)] * 3
    check = check_rows(rows, table, final=True, stopped_early=True)
    assert check.ok
    assert check.warnings == (
        "the table stopped after deal 3, not at the end of a rotation: 2 players dealt one "
        "deal fewer than the others",
    )
    assert not check_rows(rows, table, final=True, stopped_early=False).warnings


def test_drafts_and_entries_of_a_confirmed_sheet_are_recorded_as_corrections(table, users):
    save_sheet(table, users[0], full_sheet(), expected_version=0, final=False)
    save_sheet(table, users[0], full_sheet(), expected_version=1, final=True)
    confirm_sheet(table, users[1], expected_version=2)
    corrected = full_sheet()
    corrected[4] = typed(OTHER)
    save_sheet(table, users[2], corrected, expected_version=3, final=False)
    save_sheet(table, users[2], corrected, expected_version=4, final=True)
    actions = list(SheetVersion.objects.order_by("number").values_list("action", flat=True))
    assert actions == ["draft", "entered", "confirmed", "correction_draft", "correction"]


# Each seat's stored sums ---------------------------------------------------------------


def confirm_typed(table, users, rows, version=0, **options):
    save_sheet(table, users[0], rows, expected_version=version, final=True, **options)
    return confirm_sheet(table, users[1], expected_version=version + 1).or_raise()


def test_a_confirmed_sheet_stores_each_seats_sums(table, users):
    assert stored(table) == [SeatSums(0, 0, 0, 0, 0, 0)] * 5
    confirm_typed(table, users, full_sheet())  # worked, other, worked, other, worked
    sums = stored(table)
    # Seat 1: last in on both "other" deals (2 left over each), dealt deal 1 (24 left over).
    # Classic stakes at a table of five: 3 dealing and 2 otherwise, a last-in prize of 5,
    # a break-even of 8 a deal.
    assert sums[0] == SeatSums(
        5,
        won=38,
        last_in=2,
        last_in_left_over=4,
        dealt=1,
        dealt_left_over=24,
        stakes=11,
        prizes=10,
        break_even=40,
    )
    # Seat 5: last in on the three worked deals (24 left over each), dealt deal 5.
    assert sums[4] == SeatSums(
        5,
        won=44,
        last_in=3,
        last_in_left_over=72,
        dealt=1,
        dealt_left_over=24,
        stakes=11,
        prizes=15,
        break_even=40,
    )
    assert sums == from_deals(table)


def test_a_correction_replaces_the_sums(table, users):
    confirm_typed(table, users, full_sheet())
    shorter = [typed(OTHER), typed(OTHER)]
    result = confirm_typed(table, users, shorter, version=2, stopped_early=True)
    assert result.sheet.version == 4
    sums = stored(table)
    assert sums == from_deals(table)
    assert [seat.deals for seat in sums] == [2] * 5
    assert sums[0] == SeatSums(2, 20, 2, 4, 1, 2, stakes=5, prizes=10, break_even=16)
    assert sums[1] == SeatSums(2, 20, 0, 0, 1, 2, stakes=5, prizes=0, break_even=16)
