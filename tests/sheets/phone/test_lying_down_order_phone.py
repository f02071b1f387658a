"""The lying-down order on a phone at the table, under Caidis scoring: each seat's place
typed on the deal page, refused where it is wrong with the typed places kept, shown on
the review, compared by a second phone's blind re-type, and scored; and a table of eight
(Justin du Coeur's rule set) typed on a phone and confirmed at the desk.

``table`` is table 1 of a Caidis tournament's round 1, four players, where a second phone
may confirm; its rows are ``CAIDIS_ROWS``; ``phone`` and ``second_phone`` are two
anonymous clients.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import CAIDIS_ROWS, EIGHT_ROWS, table_of
from tests.pages import inputs
from tests.phone import cells, submit, url, version
from tournament.kernel.cells import ORDER, WON, cell_name
from tournament.models import Deal, Sheet, SheetStatus
from tournament.standings.services import tournament_standings

# Each seat's points, by hand: tests/sheets/test_lying_down_order.py works them out.
BY_HAND = [3, -5, 4, -2]


# The wrong-code counts live in the cache, which outlives a test.
pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture
def table(db):
    return table_of(
        4, name="Caidis Night", scoring="caidis", table_sizes=[3, 4, 5], table_confirm=True
    )


@pytest.fixture
def phone(client):
    return client


@pytest.fixture
def second_phone(_backs_up):
    return Client()


def places(number, row, size=4):
    """Deal ``number``'s places as a phone types them: each seat's place (1 for the first
    out), the last in blank."""
    order = row.get("laid_down", [])
    return {
        cell_name(number, ORDER, seat): str(order.index(seat) + 1) if seat in order else ""
        for seat in range(1, size + 1)
    }


def post_deal(client, table, number, row, **typed):
    data = {**cells(number, row), **places(number, row), **typed}
    return client.post(url("deal", table, number), {**data, "expected_version": version(table)})


def type_sheet(client, table, rows=CAIDIS_ROWS):
    for number, row in enumerate(rows, start=1):
        response = post_deal(client, table, number, row)
        assert response.status_code == 302, response.content.decode()[:3000]


def retype(client, table, rows=CAIDIS_ROWS, **typed):
    data = {"expected_version": version(table)}
    for number, row in enumerate(rows, start=1):
        data |= cells(number, row) | places(number, row)
    return client.post(url("confirm", table), {**data, **typed})


def points_by_seat(table):
    standings = tournament_standings(table.round.tournament)
    points = {row.key: row.points for row in standings.standings.rows}
    return [points[seat.player_id] for seat in table.seats.order_by("position")]


def test_a_caidis_deal_page_has_a_place_for_each_seat(phone, table):
    response = phone.get(url("deal", table, 1))
    shown = inputs(response)
    assert [shown[cell_name(1, ORDER, seat)]["data-place"] for seat in range(1, 5)] == [
        "1",
        "2",
        "3",
        "4",
    ]
    page = response.content.decode()
    assert "<legend>Lying-down order</legend>" in page
    assert "The last in stays blank." in page


def test_a_deal_page_without_the_order_has_no_places(phone, seated_round):
    table = seated_round.tables.get(number=1)
    assert "d1_s4" in inputs(phone.get(url("deal", table, 1)))
    assert "d1_o1" not in inputs(phone.get(url("deal", table, 1)))


def test_a_deal_typed_with_its_order_is_saved(phone, table):
    assert post_deal(phone, table, 1, CAIDIS_ROWS[0]).status_code == 302
    assert Sheet.objects.get(table=table).pending[0]["laid_down"] == [2, 3, 1]
    # Open again: each seat's place in its box, the last in's blank.
    shown = inputs(phone.get(url("deal", table, 1)))
    assert [shown[cell_name(1, ORDER, seat)]["value"] for seat in range(1, 5)] == [
        "3",
        "1",
        "2",
        "",
    ]


# Deal 1: out 2, 3, 1; seat 4 last in.
BAD_ORDERS = [
    pytest.param(
        {"d1_o3": "1"},
        "Deal 1: lying-down order: seat 3 is out 1st, as is seat 2 — one seat lies down at "
        "each place",
        ["d1_o3"],
        id="a place two seats share",
    ),
    pytest.param(
        {"d1_o1": "x"},
        "Deal 1: lying-down order: seat 1 is out “x”, which is no place — type 1 for the "
        "first to lie down, 2 for the next, and so on",
        ["d1_o1"],
        id="not a number",
    ),
    pytest.param(
        {"d1_o2": "4"},
        "Deal 1: lying-down order: seat 2 is out 4th, but 3 seats lie down in this deal — "
        "type 1 to 3",
        ["d1_o2"],
        id="a place beyond the seats lying down",
    ),
    pytest.param(
        {"d1_o1": "", "d1_o4": "3"},
        "Deal 1: lying-down order: seat 4 was last in, so it never lay down",
        ["d1_o4"],
        id="a place for the last in",
    ),
    pytest.param(
        {"d1_o3": ""},
        "Deal 1: lying-down order: seat 3 never lay down — every seat but the last in lies down",
        ["d1_o3"],
        id="a seat with no place",
    ),
    pytest.param(
        {cell_name(1, ORDER, seat): "" for seat in range(1, 5)},
        "Deal 1: lying-down order: missing — type where each seat lay down: 1 for the first "
        "out, 2 for the next, and so on; the last in stays blank",
        ["d1_o1", "d1_o2", "d1_o3", "d1_o4"],
        id="no order at all",
    ),
]


@pytest.mark.parametrize(("typed", "message", "marked"), BAD_ORDERS)
def test_a_wrong_order_is_refused_where_it_is_and_kept_as_typed(
    phone, table, typed, message, marked
):
    response = post_deal(phone, table, 1, CAIDIS_ROWS[0], **typed)
    assert response.status_code == 422
    page = response.content.decode()
    assert "Deal 1 was not saved" in page
    assert message in page
    shown = inputs(response)
    for name, value in {**places(1, CAIDIS_ROWS[0]), **typed}.items():
        assert shown[name]["value"] == value, name
    for name in marked:
        assert shown[name].get("aria-invalid") == "true", name
    assert shown["d1_s1"]["value"] == "10"
    assert not Sheet.objects.filter(table=table).exists()


def test_the_review_shows_each_deals_order(phone, table):
    type_sheet(phone, table)
    page = phone.get(url("review", table)).content.decode()
    assert '<th scope="col">Out</th>' in page
    assert re.findall(r'<td class="order">([^<]*)</td>', page) == [
        "2, 3, 1",
        "4, 2, 3",
        "1, 4, 3",
        "2, 4, 1",
    ]


def test_a_second_phones_retype_that_differs_in_the_order_is_refused(phone, second_phone, table):
    type_sheet(phone, table)
    assert submit(phone, table).status_code == 302
    # The second phone reads deal 4 as out 4, 2, 1: seats 2 and 4 swapped.
    response = retype(second_phone, table, d4_o2="2", d4_o4="1")
    assert response.status_code == 422
    page = response.content.decode()
    assert "2 cells differ from the sheet as entered" in page
    rows = re.findall(
        r'<tr><th scope="row"><a href="#deal-4">(.*?)</a></th><td>(.*?)</td>'
        r"<td>(.*?)</td></tr>",
        page,
    )
    assert rows == [
        ("Deal 4, seat 2 (Player 0001), place in the lying-down order", "1st", "2nd"),
        ("Deal 4, seat 4 (Player 0003), place in the lying-down order", "2nd", "1st"),
    ]
    # The re-type stays in its boxes, and the sheet awaits confirmation still.
    shown = inputs(response)
    assert (shown["d4_o2"]["value"], shown["d4_o4"]["value"]) == ("2", "1")
    assert Sheet.objects.get(table=table).status == SheetStatus.ENTERED
    # The phone that entered it sees where they differ.
    entry = phone.get(url("entry", table)).content.decode()
    assert "Deal 4, seat 2 (Player 0001), place in the lying-down order" in entry
    # Re-typed as the paper says, the sheet counts.
    assert retype(second_phone, table).status_code == 302
    assert list(Deal.objects.filter(table=table).values_list("laid_down", flat=True)) == [
        row["laid_down"] for row in CAIDIS_ROWS
    ]
    assert points_by_seat(table) == BY_HAND


def test_a_retype_without_the_order_is_not_compared_yet(phone, second_phone, table):
    type_sheet(phone, table)
    assert submit(phone, table).status_code == 302
    response = retype(second_phone, table, d2_o3="")
    assert response.status_code == 422
    page = response.content.decode()
    assert "Deal 2 is not complete: type every count and place" in page
    assert "differ" not in page


def test_a_table_of_eight_is_typed_on_a_phone_and_confirmed(phone, scorer, scorer_client):
    table = table_of(8, name="Eight Night", slug="eight-night", rule_set="du-coeur")
    table.round.tournament.scorers.set([scorer])
    page = phone.get(url("deal", table, 1))
    shown = inputs(page)
    assert {cell_name(1, WON, seat) for seat in range(1, 9)} <= set(shown)
    assert page.content.decode().count('name="d1_last_in"') == 8
    for number, row in enumerate(EIGHT_ROWS, start=1):
        data = {**cells(number, row), "expected_version": version(table)}
        assert phone.post(url("deal", table, number), data).status_code == 302
    assert submit(phone, table).status_code == 302
    confirm = reverse("scorer:confirm", args=["eight-night", 1, 1])
    review = {"mode": "review", "expected_version": version(table)}
    assert scorer_client.post(confirm, review).status_code == 302
    assert Sheet.objects.get(table=table).status == SheetStatus.CONFIRMED
    assert points_by_seat(table) == [45, 37, 29, 29, 21, 21, 13, 13]
