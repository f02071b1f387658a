"""A phone at the table records a player who left mid-round: the "A player left" page,
the deal pages after it, the review, and the blind re-type by a second phone."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, make_players, seated_round
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import Player, Sheet, SheetStatus, Table
from tournament.sheets.reading import peek_sheet
from tournament.sheets.saving import save_sheet

FIVE = {"won": [10, 10, 10, 10, 10], "last_in": 1, "left_over": 2}
FOUR = {"won": [10, 10, None, 10, 10], "last_in": 2, "left_over": 12}


# The wrong-code counts live in the cache, which outlives a test.
pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture
def table(db, organiser, scorer):
    tournament = TournamentFactory(
        slug="leave-phones", owner=organiser, scorers=[scorer], rotations_per_round=2
    )
    tournament.table_confirm = True
    tournament.save()
    round_ = seated_round(tournament, make_players(tournament, 10))
    return Table.objects.get(round=round_, number=1)


@pytest.fixture
def phone(client):
    return client


def url(name, table, *args):
    return reverse(f"table:{name}", args=[table.code, *args])


def version(table):
    return peek_sheet(table).version


def cells(number, row):
    data = {
        cell_name(number, WON, seat): "" if v is None else str(v)
        for seat, v in enumerate(row["won"], start=1)
    }
    data[cell_name(number, LEFT_OVER)] = str(row["left_over"])
    data[cell_name(number, LAST_IN)] = str(row["last_in"])
    return data


def post_deal(phone, table, number, row):
    data = {**cells(number, row), "expected_version": version(table)}
    return phone.post(url("deal", table, number), data)


def record_leave(phone, table, seat="3", after="7", **extra):
    data = {"expected_version": version(table), "leave_seat": seat, "leave_after": after}
    return phone.post(url("left", table), {**data, **extra})


def test_a_phone_records_a_leave_and_the_later_deals_leave_the_player_out(phone, table):
    for number in range(1, 8):
        assert post_deal(phone, table, number, FIVE).status_code == 302
    response = record_leave(phone, table)
    assert response.status_code == 302
    sheet = Sheet.objects.get(table=table)
    assert sheet.pending_left == [{"seat": 3, "after_deal": 7}]
    assert sheet.status == SheetStatus.DRAFT
    assert not Player.objects.get(name="Player 0002").active
    page = phone.get(url("entry", table)).content.decode()
    assert "Seat 3 (Player 0002) left after deal 7" in page
    assert "Player 0002 left after deal 7 and is dropped from later rounds" in page
    deal_8 = phone.get(url("deal", table, 8)).content.decode()
    assert "of 9" in deal_8
    assert "Dealer: seat 4" in deal_8
    assert "Dealt at 4 players" in deal_8
    assert 'name="d8_s3"' not in deal_8
    assert 'name="d8_last_in" value="3"' not in deal_8
    assert 'name="d7_s3"' in phone.get(url("deal", table, 7)).content.decode()
    # The deal after the leave adds up at four, and the sheet is submitted.
    assert post_deal(phone, table, 8, FOUR).status_code == 302
    assert post_deal(phone, table, 9, FOUR).status_code == 302
    review = phone.get(url("review", table)).content.decode()
    assert re.search(r"<td[^>]*>left</td>", review)
    response = phone.post(url("review", table), {"expected_version": version(table)})
    assert response.status_code == 302
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED


@pytest.mark.parametrize(
    ("seat", "after", "message"),
    [
        ("3", "11", "Seat 3 left after deal 11: the round has 10 deals"),
        ("", "4", "A player left after deal 4: choose which player"),
        ("3", "x", "Seat 3 left after deal “x”: the deal is a whole number"),
    ],
)
def test_a_wrong_leave_is_refused_on_the_phone(phone, table, seat, after, message):
    post_deal(phone, table, 1, FIVE)
    response = record_leave(phone, table, seat, after)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Sheet.objects.get(table=table).pending_left == []


def test_a_count_typed_for_the_leaver_is_refused(phone, table):
    for number in range(1, 8):
        post_deal(phone, table, number, FIVE)
    record_leave(phone, table)
    response = post_deal(phone, table, 8, FIVE)
    assert response.status_code == 422
    page = response.content.decode()
    assert "Deal 8: seat 3: 10 cards won, but seat 3 had left the table" in page
    # Kept on the page, to be cleared.
    assert 'name="d8_s3" value="10"' in page


def test_removing_the_leave_on_the_phone(phone, table):
    post_deal(phone, table, 1, FIVE)
    record_leave(phone, table, after="1")
    response = phone.post(
        url("left", table),
        {"expected_version": version(table), "left": "3:1", "remove_leave": "3"},
    )
    assert response.status_code == 302
    assert Sheet.objects.get(table=table).pending_left == []


def test_a_second_phone_retypes_the_leave_blind(phone, table):
    for number in range(1, 8):
        post_deal(phone, table, number, FIVE)
    record_leave(phone, table)
    post_deal(phone, table, 8, FOUR)
    post_deal(phone, table, 9, FOUR)
    phone.post(url("review", table), {"expected_version": version(table)})
    second = Client()
    second.get(url("entry", table))
    retyped = {"expected_version": version(table)}
    for number, row in enumerate([FIVE] * 7 + [FOUR, FOUR], start=1):
        retyped.update(cells(number, row))
    # Recording the leave redraws the deals without comparing anything.
    response = second.post(
        url("confirm_leaves", table), {**retyped, "leave_seat": "3", "leave_after": "7"}
    )
    assert response.status_code == 200
    assert 'name="left" value="3:7"' in response.content.decode()
    response = second.post(url("confirm", table), {**retyped, "left": "3:6"})
    assert response.status_code == 422
    assert "the players who left differ" in response.content.decode()
    response = second.post(url("confirm", table), {**retyped, "left": "3:7"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.left == [{"seat": 3, "after_deal": 7}]


def test_a_closed_code_records_no_leave(phone, table):
    response = phone.post(reverse("table:left", args=["ZZZZZZZZ"]), {"expected_version": 0})
    assert response.status_code == 404


def test_the_totals_beside_a_deal_keep_the_later_deals_at_their_own_size(phone, table):
    for number in range(1, 8):
        post_deal(phone, table, number, FIVE)
    record_leave(phone, table)
    post_deal(phone, table, 8, FOUR)
    post_deal(phone, table, 9, FOUR)
    page = phone.get(url("deal", table, 7)).content.decode()
    # Deals 1–6 and 8–9: seat 1 won 60 + 20 cards; seat 3 only its six deals at five.
    rows = dict(re.findall(r"<th scope=\"row\">(\d) · [^<]*</th><td>(\d+)</td>", page))
    assert rows["1"] == "80"
    assert rows["3"] == "60"
    assert "The 8 other deals saved" in page


def test_a_sheet_the_desk_submitted_is_not_changed_by_the_phones_leave_page(phone, table, scorer):
    rows = [{"won": [10, 10, 10, 10, 10], "last_in": 1, "left_over": 2}] * 10
    save_sheet(table, scorer, rows, expected_version=0, final=True)
    response = phone.post(
        url("left", table),
        {"expected_version": 1, "leave_seat": "3", "leave_after": "7"},
        follow=True,
    )
    page = response.content.decode()
    # The sheet rule's own words, as every phone page gives them.
    assert (
        "Another phone or a scorer submitted this sheet: it awaits confirmation, and is no "
        "longer typed here." in page
    )
    assert peek_sheet(table).pending_left == []


def test_a_count_typed_before_the_leave_is_named_at_once_and_kept(phone, table):
    for number in range(1, 4):
        assert post_deal(phone, table, number, FIVE).status_code == 302
    # Seat 2 is recorded as leaving after deal 2, but deal 3 already holds its count.
    data = {"expected_version": version(table), "leave_seat": "2", "leave_after": "2"}
    response = phone.post(url("left", table), data, follow=True)
    warning = (
        "Deal 3: seat 2 (Player 0001) left after deal 2, but this deal holds 10 cards won "
        "for them — clear that count."
    )
    assert warning in response.content.decode()
    deal_3 = phone.get(url("deal", table, 3)).content.decode()
    assert warning.rstrip(".") in deal_3
    assert "Deal 3 needs a correction" in deal_3
    assert re.search(r'name="d3_s2" value="10"[^>]*aria-invalid="true"', deal_3)
    # Seat 2 has left: it is no longer offered as leaving.
    left_page = phone.get(url("left", table)).content.decode()
    assert 'name="leave_seat" value="2"' not in left_page
    assert 'name="leave_seat" value="3"' in left_page
