"""A player leaves a table mid-round (docs/rules.md, "A player leaves mid-round"): the
sheet records it, the rows after it are read at the smaller size, the confirmed facts and
seat sums keep it, and the player is dropped from later rounds."""

import pytest
from django.contrib.auth import get_user_model

from scoring.rules import Leave
from scoring.systems import ScoringSystem, points_from_sums
from tests.factories import PlayerFactory, RoundFactory, TableFactory, seat_table
from tournament.models import Deal, DealResult, Player, Seat, SheetStatus, SheetVersion
from tournament.rounds import seating
from tournament.sheets.checking import SheetInvalidError, check_rows
from tournament.sheets.confirming import LeavesMismatchError, confirm_sheet
from tournament.sheets.leaves import current_leaves
from tournament.sheets.reading import confirmed_rows, peek_sheet
from tournament.sheets.rotations import deals_beyond_rotations
from tournament.sheets.rows import clean_row
from tournament.sheets.saving import SheetChangedError, save_sheet
from tournament.standings.services import tournament_standings

FIVE = {"won": ["10", "10", "10", "10", "10"], "last_in": "1", "left_over": "2"}
# Dealt at four after seat 3 left: 10 cards each, 12 on the table.
FOUR = {"won": ["10", "10", "", "10", "10"], "last_in": "2", "left_over": "12"}
SEAT_3_AFTER_7 = [Leave(after_deal=7, seat=3)]


@pytest.fixture
def users(db):
    model = get_user_model()
    return [model.objects.create_user(name, password="pw") for name in ("amy", "ben")]


@pytest.fixture
def table(db):
    table = TableFactory(number=1, round=RoundFactory(number=1, started=True))
    tournament = table.round.tournament
    tournament.rotations_per_round = 2
    tournament.save()
    names = ["Ann Lee", "Bob", "Cy", "Di", "Ed"]
    seat_table(table, [PlayerFactory(tournament=tournament, name=n) for n in names])
    return table


def leaving_sheet():
    """Seven deals at five, then two at four: seat 3 left after deal 7."""
    return [dict(FIVE) for _ in range(7)] + [dict(FOUR), dict(FOUR)]


def test_a_sheet_with_a_leave_is_saved_confirmed_and_summed(table, users):
    result = save_sheet(
        table, users[0], leaving_sheet(), expected_version=0, final=True, left=SEAT_3_AFTER_7
    )
    assert result.status == SheetStatus.ENTERED
    assert result.sheet.pending_left == [{"seat": 3, "after_deal": 7}]
    confirm_sheet(table, users[1], expected_version=1)
    table.refresh_from_db()
    assert table.left == [{"seat": 3, "after_deal": 7}]
    assert Deal.objects.filter(table=table).count() == 9
    # No count is written for a seat that had left.
    assert not DealResult.objects.filter(deal__table=table, deal__number=8, seat=3).exists()
    rows = confirmed_rows(table)
    assert rows[7]["won"] == [10, 10, None, 10, 10]
    assert rows[6]["won"] == [10] * 5
    seats = {seat.position: seat for seat in Seat.objects.filter(table=table)}
    # Seat 3 played seven deals and dealt once (deal 3); the others played nine.
    assert seats[3].sum_deals == 7
    assert seats[3].sum_dealt == 1
    assert seats[1].sum_deals == 9
    assert seats[1].sum_dealt == 2
    versions = SheetVersion.objects.filter(sheet=result.sheet).order_by("number")
    assert [v.left for v in versions] == [[{"seat": 3, "after_deal": 7}]] * 2


def test_the_rows_after_a_leave_are_checked_at_the_smaller_size(table, users):
    rows = leaving_sheet()
    # At five, seat 3's 10 cards would be needed for 52; at four they must be blank.
    rows[7] = dict(FIVE)
    with pytest.raises(SheetInvalidError) as refused:
        save_sheet(
            table, users[0], rows, expected_version=0, final=True, left=SEAT_3_AFTER_7
        ).or_raise()
    assert (
        "deal 8: seat 3: 10 cards won, but seat 3 had left the table — leave its count blank"
        in refused.value.problems
    )
    rows[7] = {**FOUR, "left_over": "10"}
    with pytest.raises(SheetInvalidError) as refused:
        save_sheet(
            table, users[0], rows, expected_version=0, final=True, left=SEAT_3_AFTER_7
        ).or_raise()
    assert "deal 8: cards won plus left over is 50, not 52" in refused.value.problems
    rows[7] = {**FOUR, "last_in": "3"}
    with pytest.raises(SheetInvalidError) as refused:
        save_sheet(
            table, users[0], rows, expected_version=0, final=True, left=SEAT_3_AFTER_7
        ).or_raise()
    assert "deal 8: last in: seat 3 had left the table — name a seat still playing" in (
        refused.value.problems
    )


def test_without_the_leave_the_same_sheet_is_short_and_wrong(table, users):
    with pytest.raises(SheetInvalidError) as refused:
        save_sheet(
            table, users[0], leaving_sheet(), expected_version=0, final=True, left=[]
        ).or_raise()
    assert any(p.startswith("deal 8: seat 3: cards won is missing") for p in refused.value.problems)


@pytest.mark.parametrize(
    ("leaves", "message"),
    [
        ([Leave(7, 6)], "seat 6 left after deal 7: there is no seat 6 at a table of 5"),
        ([Leave(0, 3)], "seat 3 left after deal 0: a player who leaves before deal 1"),
        ([Leave(10, 3)], "seat 3 left after deal 10: the round has 10 deals"),
        (
            [Leave(2, 1), Leave(3, 2), Leave(4, 3)],
            "seat 1 left after deal 2, seat 2 left after deal 3 and seat 3 left after deal 4: "
            "2 players",
        ),
    ],
)
def test_impossible_leaves_are_refused_naming_seat_and_deal(table, users, leaves, message):
    with pytest.raises(SheetInvalidError) as refused:
        save_sheet(
            table, users[0], [dict(FIVE)], expected_version=0, final=False, left=leaves
        ).or_raise()
    assert any(problem.startswith(message) for problem in refused.value.problems)
    assert not SheetVersion.objects.exists()


def test_a_leave_after_the_last_deal_typed_is_refused_in_a_complete_sheet(table, users):
    with pytest.raises(SheetInvalidError) as refused:
        save_sheet(
            table,
            users[0],
            [dict(FIVE)] * 5,
            expected_version=0,
            final=True,
            stopped_early=True,
            left=SEAT_3_AFTER_7,
        ).or_raise()
    assert refused.value.problems == [
        "seat 3 left after deal 7, but the sheet has 5 deals: correct the deal, or remove the leave"
    ]


def test_a_draft_keeps_its_leaves_and_a_save_without_leaves_keeps_them(table, users):
    save_sheet(table, users[0], [dict(FIVE)], expected_version=0, final=False, left=SEAT_3_AFTER_7)
    # A phone's deal page carries no leaves: the sheet's stand.
    result = save_sheet(table, users[0], [dict(FIVE)] * 2, expected_version=1, final=False)
    assert result.sheet.pending_left == [{"seat": 3, "after_deal": 7}]
    assert result.dropped == ()


def test_the_leaver_is_dropped_and_not_seated_in_the_next_round(table, users):
    tournament = table.round.tournament
    for name in ("Fay", "Gus", "Hal", "Ivy"):
        PlayerFactory(tournament=tournament, name=name)
    result = save_sheet(
        table, users[0], leaving_sheet(), expected_version=0, final=True, left=SEAT_3_AFTER_7
    )
    cy = Player.objects.get(tournament=tournament, name="Cy")
    assert not cy.active
    assert result.dropped == (
        "Cy left after deal 7 and is dropped from later rounds; Return on the Players page "
        "brings them back",
    )
    confirm_sheet(table, users[1], expected_version=1)
    round_2 = seating.seat_next_round(tournament)
    seated = set(Seat.objects.filter(round=round_2).values_list("player__name", flat=True))
    assert "Cy" not in seated
    assert "Ann Lee" in seated


def test_removing_the_leave_does_not_bring_the_player_back(table, users):
    save_sheet(table, users[0], [dict(FIVE)], expected_version=0, final=False, left=SEAT_3_AFTER_7)
    result = save_sheet(table, users[0], [dict(FIVE)], expected_version=1, final=False, left=[])
    assert result.sheet.pending_left == []
    assert not Player.objects.get(name="Cy").active


def test_a_correction_starts_from_the_confirmed_leaves(table, users):
    tournament = table.round.tournament
    tournament.two_person_check = False
    tournament.save()
    save_sheet(
        table, users[0], leaving_sheet(), expected_version=0, final=True, left=SEAT_3_AFTER_7
    )
    table.refresh_from_db()
    sheet = peek_sheet(table)
    assert current_leaves(sheet) == tuple(SEAT_3_AFTER_7)
    # Seat 3 in fact left after deal 8, its own second deal: the round then has ten.
    rows = [dict(FIVE) for _ in range(8)] + [dict(FOUR), dict(FOUR)]
    result = save_sheet(table, users[0], rows, expected_version=1, final=True, left=[Leave(8, 3)])
    assert result.dropped == ()
    table.refresh_from_db()
    assert table.left == [{"seat": 3, "after_deal": 8}]
    assert SheetVersion.objects.get(sheet=sheet, number=2).action == "corrected"
    assert Seat.objects.get(table=table, position=3).sum_deals == 8


def test_a_save_from_an_older_version_with_other_leaves_is_a_conflict(table, users):
    save_sheet(table, users[0], [dict(FIVE)], expected_version=0, final=False)
    with pytest.raises(SheetChangedError):
        save_sheet(
            table, users[1], [dict(FIVE)], expected_version=0, final=False, left=SEAT_3_AFTER_7
        ).or_raise()


def test_a_blind_retype_must_record_the_same_leaves(table, users):
    save_sheet(
        table, users[0], leaving_sheet(), expected_version=0, final=True, left=SEAT_3_AFTER_7
    )
    with pytest.raises(LeavesMismatchError, match="re-typed: nobody left"):
        confirm_sheet(
            table, users[1], expected_version=1, retyped=leaving_sheet(), retyped_left=[]
        ).or_raise()
    assert Deal.objects.count() == 0
    confirm_sheet(
        table, users[1], expected_version=1, retyped=leaving_sheet(), retyped_left=SEAT_3_AFTER_7
    )
    assert Deal.objects.count() == 9


def test_stopping_early_after_a_leave_warns_by_the_deals_of_those_still_playing(table, users):
    # Deals 1–8 dealt by 1,2,3,4,5,1,2,4: seat 5 dealt once, the other three twice.
    result = save_sheet(
        table,
        users[0],
        leaving_sheet()[:8],
        expected_version=0,
        final=True,
        stopped_early=True,
        left=SEAT_3_AFTER_7,
    )
    assert result.warnings == (
        "the table stopped after deal 8, not at the end of a rotation: 1 player dealt one "
        "deal fewer than the others",
    )


def test_the_rotations_cannot_go_below_a_sheet_with_a_leave(table, users):
    save_sheet(
        table, users[0], leaving_sheet(), expected_version=0, final=True, left=SEAT_3_AFTER_7
    )
    assert deals_beyond_rotations(table.round.tournament, 2) == []
    assert deals_beyond_rotations(table.round.tournament, 1) == [
        "round 1, table 1 already has 9 deals awaiting confirmation; a table of 5 at 1 "
        "rotation plays 5 with its players who left"
    ]


def test_the_rotations_cannot_go_below_a_drafts_leave_beyond_its_rows(table, users):
    # Three deals typed so far; seat 3 is to leave after deal 7 of the two rotations.
    save_sheet(
        table, users[0], leaving_sheet()[:3], expected_version=0, final=False, left=SEAT_3_AFTER_7
    )
    assert deals_beyond_rotations(table.round.tournament, 2) == []
    assert deals_beyond_rotations(table.round.tournament, 1) == [
        "round 1, table 1: seat 3 left after deal 7: the round has 5 deals, so after deal 7 "
        "there is nothing left to leave"
    ]


def ordered_sheet(system):
    """``leaving_sheet``, with each deal's lying-down order where ``system`` scores it: the
    seats but the last in, in seat order (seat 3 not at all once it has left)."""
    rows = leaving_sheet()
    if system.needs_order:
        for row in rows:
            playing = [seat for seat, won in enumerate(row["won"], start=1) if won != ""]
            row["laid_down"] = [seat for seat in playing if seat != int(row["last_in"])]
    return rows


@pytest.mark.parametrize("system", list(ScoringSystem))
def test_standings_count_the_leavers_deals_played_only(table, users, system):
    tournament = table.round.tournament
    tournament.scoring = system
    tournament.two_person_check = False
    tournament.save()
    save_sheet(
        table, users[0], ordered_sheet(system), expected_version=0, final=True, left=SEAT_3_AFTER_7
    )
    standings = tournament_standings(tournament)
    row = next(r for r in standings.standings.rows if r.name == "Cy")
    seat = Seat.objects.get(table=table, position=3)
    assert row.points == points_from_sums(seat.sums, system)
    # The same points deal by deal: seat 3 scores in deals 1–7 only.
    check = check_rows(
        [clean_row(r, 5) for r in ordered_sheet(system)], table, final=True, leaves=SEAT_3_AFTER_7
    )
    assert [r.points[2] for r in check.rows[7:]] == [0, 0]
    assert check.totals[2] == row.points
    assert row.deals == 7
