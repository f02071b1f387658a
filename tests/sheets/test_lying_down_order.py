"""The lying-down order at the desk, under Caidis scoring: each seat's place typed under
each deal, checked where it is wrong with the typed places kept, saved as the order,
compared by a blind re-type, shown in the history and scored; and a table of eight
(Justin du Coeur's rule set) typed at the desk and confirmed.

``table`` is table 1 of club-night's round 1 (``tests.pages.SLUG``), four players, under
Caidis scoring; its rows are ``CAIDIS_ROWS``.
"""

import re

import pytest

from tests.factories import CAIDIS_ROWS, EIGHT_ROWS, table_of
from tests.pages import SLUG, form, inputs, url
from tournament.kernel.cells import ORDER, WON, cell_name, parse_cell
from tournament.models import Deal, Sheet
from tournament.sheets.saving import save_sheet
from tournament.standings.services import tournament_standings

# Each seat's points by hand (Caidis at four: the 1st, 2nd and 3rd to lie down net -3,
# -1 and +1, the last in +3; the dealer takes the left over, and the one seat with the
# most cards then wins the dealer's stake of 1, which stays when two share the most):
#   deal 1 (seat 1 deals, out 2, 3, 1, seat 4 last in): +1, -3, -1, +3; the dealer's 38
#     are the most.
#   deal 2 (seat 2 deals, out 4, 2, 3, seat 1 last in): +3, -1, +1, -3; seat 1's 24
#     beat the dealer's 14: +1 to seat 1, -1 to seat 2.
#   deal 3 (seat 3 deals, out 1, 4, 3, seat 2 last in): -3, +3, +1, -1; the dealer's 28.
#   deal 4 (seat 4 deals, out 2, 4, 1, seat 3 last in): +1, -3, +3, -1; seats 1 and 3
#     share the most (20): the stake stays.
BY_HAND = [1 + 4 - 3 + 1, -3 - 2 + 3 - 3, -1 + 1 + 1 + 3, 3 - 3 - 1 - 1]


@pytest.fixture
def table(organiser, scorer, second_scorer):
    return table_of(
        4,
        name="Caidis Night",
        slug=SLUG,
        scoring="caidis",
        table_sizes=[3, 4, 5],
        owner=organiser,
        scorers=[scorer, second_scorer],
    )


def places(number, row, size=4):
    """Deal ``number``'s places as the scorer types them: each seat's place in the order
    (1 for the first out), the last in blank."""
    order = row.get("laid_down", [])
    return {
        cell_name(number, ORDER, seat): str(order.index(seat) + 1) if seat in order else ""
        for seat in range(1, size + 1)
    }


def caidis_form(rows=CAIDIS_ROWS, action="final", version=0, **cells):
    data = form(rows, version=version, action=action)
    for number, row in enumerate(rows, start=1):
        data |= places(number, row)
    return {**data, **cells}


def points_by_seat(table):
    standings = tournament_standings(table.round.tournament)
    points = {row.key: row.points for row in standings.standings.rows}
    return [points[seat.player_id] for seat in table.seats.order_by("position")]


def test_a_caidis_sheet_has_a_place_for_each_seat_under_each_deal(scorer_client, table):
    shown = inputs(scorer_client.get(url("sheet")))
    ordered = [name for name in shown if (cell := parse_cell(name)) and cell.field == ORDER]
    assert ordered == [cell_name(deal, ORDER, seat) for deal in range(1, 5) for seat in range(1, 5)]
    assert shown["d2_o3"]["data-where"] == "deal 2, seat 3, place in the lying-down order"
    assert shown["d2_o3"]["aria-label"].startswith("deal 2, Player 0002, out")


def test_a_sheet_scored_without_the_order_has_no_places(scorer_client, seated_round):
    shown = inputs(scorer_client.get(url("sheet")))
    assert "d1_s1" in shown
    assert not [name for name in shown if (cell := parse_cell(name)) and cell.field == ORDER]


def test_the_order_typed_at_the_desk_is_confirmed_and_scored(
    scorer_client, second_scorer_client, table
):
    assert scorer_client.post(url("sheet"), caidis_form()).status_code == 302
    sheet = Sheet.objects.get(table=table)
    assert [row["laid_down"] for row in sheet.pending] == [
        [2, 3, 1],
        [4, 2, 3],
        [1, 4, 3],
        [2, 4, 1],
    ]
    # The sheet as entered, reviewed against the paper: deal 2's seat 4 lay down first.
    review = second_scorer_client.get(url("confirm") + "?mode=review").content.decode()
    assert re.search(r'data-cell="d2_o4">\s*1\s*</td>', review)
    confirmed = second_scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "1"}
    )
    assert confirmed.status_code == 302
    assert list(Deal.objects.filter(table=table).values_list("laid_down", flat=True)) == [
        [2, 3, 1],
        [4, 2, 3],
        [1, 4, 3],
        [2, 4, 1],
    ]
    assert points_by_seat(table) == BY_HAND == [3, -5, 4, -2]
    # The sheet shows the confirmed order again, each seat's place in its box.
    shown = inputs(scorer_client.get(url("sheet")))
    assert [shown[cell_name(4, ORDER, seat)]["value"] for seat in range(1, 5)] == [
        "3",
        "1",
        "",
        "2",
    ]


# Deal 1: out 2, 3, 1, seat 4 last in. Deal 2: out 4, 2, 3. Deal 3: out 1, 4, 3.
BAD_ORDERS = [
    pytest.param(
        {"d2_o3": "2"},
        "deal 2: lying-down order: seat 3 is out 2nd, as is seat 2 — one seat lies down at "
        "each place",
        ["d2_o3"],
        id="a place two seats share",
    ),
    pytest.param(
        {"d3_o4": "x"},
        "deal 3: lying-down order: seat 4 is out “x”, which is no place — type 1 for the "
        "first to lie down, 2 for the next, and so on",
        ["d3_o4"],
        id="not a number",
    ),
    pytest.param(
        {"d1_o1": "4"},
        "deal 1: lying-down order: seat 1 is out 4th, but 3 seats lie down in this deal — "
        "type 1 to 3",
        ["d1_o1"],
        id="a place beyond the seats lying down",
    ),
    pytest.param(
        {"d1_o1": "", "d1_o4": "3"},
        "deal 1: lying-down order: seat 4 was last in, so it never lay down",
        ["d1_o4"],
        id="a place for the last in",
    ),
    pytest.param(
        {"d3_o1": ""},
        "deal 3: lying-down order: seat 1 never lay down — every seat but the last in lies down",
        ["d3_o1"],
        id="a seat with no place",
    ),
    pytest.param(
        {cell_name(4, ORDER, seat): "" for seat in range(1, 5)},
        "deal 4: lying-down order: missing — type where each seat lay down: 1 for the first "
        "out, 2 for the next, and so on; the last in stays blank",
        ["d4_o1", "d4_o2", "d4_o3", "d4_o4"],
        id="no order at all",
    ),
]


@pytest.mark.parametrize(("typed", "message", "marked"), BAD_ORDERS)
def test_a_wrong_order_is_refused_where_it_is_and_kept_as_typed(
    scorer_client, table, typed, message, marked
):
    response = scorer_client.post(url("sheet"), caidis_form(**typed))
    assert response.status_code == 422
    page = response.content.decode()
    assert "The sheet was not saved" in page
    assert message in page
    shown = inputs(response)
    for name, value in typed.items():
        assert shown[name]["value"] == value
    for name in marked:
        assert shown[name].get("aria-invalid") == "true", name
    # Every other place stays as typed too.
    assert shown["d2_o4"]["value"] == "1"
    assert not Sheet.objects.filter(table=table).exists()


def test_the_live_check_marks_a_shared_place(scorer_client, table):
    response = scorer_client.post(url("check"), caidis_form(d2_o3="2"), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "deal 2: lying-down order: seat 3 is out 2nd, as is seat 2" in page
    cells = re.search(r'data-problem-cells="([^"]*)"', page)[1].split()
    assert cells == ["d2_o3"]


def test_the_live_check_waits_for_the_places_of_the_deal_being_typed(scorer_client, table):
    rows = [*CAIDIS_ROWS[:3], {"won": [20, 0, 20, 2], "last_in": 3, "left_over": 10}]
    response = scorer_client.post(
        url("check"), {**caidis_form(rows), "typing": "4"}, HTTP_HX_REQUEST="true"
    )
    assert "lying-down order" not in response.content.decode()
    response = scorer_client.post(url("check"), caidis_form(rows), HTTP_HX_REQUEST="true")
    assert "deal 4: lying-down order: missing" in response.content.decode()


def test_a_draft_keeps_an_order_typed_part_way(scorer_client, table):
    # Deal 2: seat 4 out 1st and seat 3 out 3rd, seat 2's place not typed yet.
    draft = caidis_form(action="draft", d2_o2="")
    assert scorer_client.post(url("sheet"), draft).status_code == 302
    sheet = Sheet.objects.get(table=table)
    assert sheet.pending[1]["laid_down"] == [4, None, 3]
    shown = inputs(scorer_client.get(url("sheet")))
    assert [shown[cell_name(2, ORDER, seat)]["value"] for seat in range(1, 5)] == ["", "", "3", "1"]


def test_a_draft_refuses_places_that_make_no_order_and_keeps_them_typed(scorer_client, table):
    response = scorer_client.post(url("sheet"), caidis_form(action="draft", d2_o3="2"))
    assert response.status_code == 422
    page = response.content.decode()
    assert "except places in the lying-down order that make no order" in page
    summary = re.search(r'<div class="error-summary".*?</div>', page, re.S)[0]
    assert "Deal 2: lying-down order: seat 3 is out 2nd, as is seat 2" in summary
    # Only what a draft cannot keep: deal 4's counts are fine, and so are the other deals.
    assert summary.count("<li>") == 1
    assert inputs(response)["d2_o3"]["value"] == "2"
    assert not Sheet.objects.filter(table=table).exists()


def test_the_history_names_a_changed_order(scorer_client, table):
    assert scorer_client.post(url("sheet"), caidis_form(action="draft")).status_code == 302
    # Deal 2 read again from the paper: seat 2 lay down first, then seat 4.
    changed = caidis_form(action="draft", version=1, d2_o2="1", d2_o4="2")
    assert scorer_client.post(url("sheet"), changed).status_code == 302
    page = scorer_client.get(url("history")).content.decode()
    assert "deal 2: lying-down order 4, 2, 3 → 2, 4, 3" in page
    assert (
        "deal 1 added: cards won 10, 4, 10, 0; left over 28; last in 4; lying-down order 2, 3, 1"
        in page
    )


def test_a_blind_retype_that_differs_in_the_order_is_refused_seat_by_seat(
    scorer_client, second_scorer_client, table
):
    assert scorer_client.post(url("sheet"), caidis_form()).status_code == 302
    # The re-type reads deal 4 as out 4, 2, 1: seats 2 and 4 swapped.
    retype = {**caidis_form(d4_o2="2", d4_o4="1"), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), retype)
    assert response.status_code == 422
    page = response.content.decode()
    assert "2 cells differ from the sheet as entered" in page
    shown = inputs(response)
    assert "mismatch" in shown["d4_o2"]["class"]
    assert "mismatch" in shown["d4_o4"]["class"]
    assert "mismatch" not in shown["d4_o1"]["class"]
    assert re.search(r'name="d4_o2" value="2".*?entered: 1', page, re.S)
    assert Sheet.objects.get(table=table).status == "entered"
    # Re-typed as the paper says, it counts.
    retype |= {"d4_o2": "1", "d4_o4": "2"}
    assert second_scorer_client.post(url("confirm"), retype).status_code == 302
    assert points_by_seat(table) == [3, -5, 4, -2]


def test_a_blind_retype_without_the_order_is_not_compared_yet(
    scorer_client, second_scorer_client, table
):
    assert scorer_client.post(url("sheet"), caidis_form()).status_code == 302
    retype = {**caidis_form(d3_o4=""), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), retype)
    assert response.status_code == 422
    assert "Deal 3 is not complete: type every count and place" in response.content.decode()


def test_a_table_of_eight_is_typed_at_the_desk_and_confirmed(
    organiser, scorer, second_scorer, scorer_client, second_scorer_client
):
    table = table_of(
        8,
        name="Eight Night",
        slug=SLUG,
        rule_set="du-coeur",
        owner=organiser,
        scorers=[scorer, second_scorer],
    )
    shown = inputs(scorer_client.get(url("sheet")))
    assert {cell_name(8, WON, seat) for seat in range(1, 9)} <= set(shown)
    assert "d9_s1" not in shown
    assert scorer_client.post(url("sheet"), form(EIGHT_ROWS)).status_code == 302
    confirmed = second_scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "1"}
    )
    assert confirmed.status_code == 302
    # Winner-advantage: a seat's pairs, with the 10 left over for the last in; every seat
    # is last in once: seat 1 has 8 × 10 / 2 + 5 = 45.
    assert points_by_seat(table) == [45, 37, 29, 29, 21, 21, 13, 13]


def test_an_order_recorded_under_another_system_is_kept_by_a_correction(
    organiser, scorer, scorer_client
):
    table = table_of(4, slug=SLUG, owner=organiser, scorers=[scorer], two_person_check=False)
    save_sheet(table, organiser, CAIDIS_ROWS, expected_version=0, final=True)
    # Winner-advantage scores no order, but the sheet recorded one: the desk shows it.
    shown = inputs(scorer_client.get(url("sheet")))
    assert [shown[cell_name(2, ORDER, seat)]["value"] for seat in range(1, 5)] == [
        "",
        "2",
        "3",
        "1",
    ]
    # Deal 1's counts corrected at the desk: every deal keeps its order.
    correction = caidis_form(version=1, d1_s1="12", d1_left_over="26")
    assert scorer_client.post(url("sheet"), correction).status_code == 302
    deals = Deal.objects.filter(table=table).order_by("number")
    assert [deal.laid_down for deal in deals] == [row["laid_down"] for row in CAIDIS_ROWS]
    assert deals[0].results.get(seat=1).won == 12


def test_a_correction_of_the_order_is_confirmed_and_rescored(
    scorer_client, second_scorer_client, table
):
    assert scorer_client.post(url("sheet"), caidis_form()).status_code == 302
    review = {"mode": "review", "expected_version": "1"}
    assert second_scorer_client.post(url("confirm"), review).status_code == 302
    # Deal 3 read again from the paper: out 4, 1, 3 rather than 1, 4, 3.
    correction = caidis_form(version=2, d3_o1="2", d3_o4="1")
    assert scorer_client.post(url("sheet"), correction).status_code == 302
    history = scorer_client.get(url("history")).content.decode()
    assert "Correction entered, awaiting confirmation" in history
    assert "deal 3: lying-down order 1, 4, 3 → 4, 1, 3" in history
    # Until it is confirmed, the confirmed order still counts.
    assert points_by_seat(table) == [3, -5, 4, -2]
    review["expected_version"] = "3"
    assert second_scorer_client.post(url("confirm"), review).status_code == 302
    assert Deal.objects.get(table=table, number=3).laid_down == [4, 1, 3]
    # Deal 3 by hand now: seat 4 out 1st (-3), seat 1 out 2nd (-1), the rest as before.
    assert points_by_seat(table) == [3 + 2, -5, 4, -2 - 2]
