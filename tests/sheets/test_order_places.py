"""Each seat's place as a page types it, turned into the lying-down order a row keeps
(``sheets.order``), and two copies of a row compared seat by seat. No database."""

import pytest

from tournament.kernel.cells import ORDER
from tournament.sheets.order import ordinal, places_of, stored_order
from tournament.sheets.rows import Mismatch, clean_row, compare, diff

ROW = {"won": ["10", "4", "10", "0"], "last_in": "4", "left_over": "28"}


@pytest.mark.parametrize(
    ("number", "said"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (21, "21st")],
)
def test_a_place_is_said_as_an_ordinal(number, said):
    assert ordinal(number) == said


@pytest.mark.parametrize(
    ("places", "order"),
    [
        ([3, 1, 2, None], [2, 3, 1]),
        ([None, None, None, None], []),
        # Typed part-way: nobody is out 2nd yet.
        ([1, None, 3, None], [1, None, 3]),
        # The last in's place too: a stored order the rules then refuse.
        ([3, 1, 2, 4], [2, 3, 1, 4]),
        # No order at all: kept as typed, never saved.
        (["x", 1, 2, None], None),
        ([0, 1, 2, None], None),
        ([2, 2, 1, None], None),
        ([5, 1, 2, None], None),
    ],
)
def test_places_make_the_order_the_seats_lay_down_in(places, order):
    assert stored_order(places, 4) == order


def test_a_row_keeps_the_order_its_places_make():
    cleaned = clean_row({**ROW, "out": ["3", "1", "2", ""]}, 4)
    assert cleaned["laid_down"] == [2, 3, 1]
    assert "out" not in cleaned
    assert clean_row(cleaned, 4) == cleaned
    assert places_of(cleaned, 4) == [3, 1, 2, None]


def test_places_that_make_no_order_stay_as_typed():
    cleaned = clean_row({**ROW, "out": ["2", "2", " 1 ", ""]}, 4)
    assert cleaned["out"] == [2, 2, 1, None]
    assert "laid_down" not in cleaned
    assert clean_row(cleaned, 4) == cleaned


def test_a_row_without_places_has_no_order():
    assert "laid_down" not in clean_row({**ROW, "out": ["", "", "", ""]}, 4)
    assert "laid_down" not in clean_row(ROW, 4)


def test_two_copies_differ_seat_by_seat_and_the_history_names_the_order():
    entered = [clean_row({**ROW, "laid_down": [2, 3, 1]}, 4)]
    retyped = [clean_row({**ROW, "out": ["3", "2", "1", ""]}, 4)]
    assert compare(entered, retyped) == [
        Mismatch(1, ORDER, 2, 1, 2),
        Mismatch(1, ORDER, 3, 2, 1),
    ]
    assert [m.cell for m in compare(entered, retyped)] == ["d1_o2", "d1_o3"]
    assert diff(entered, retyped) == [
        {"deal": 1, "field": ORDER, "seat": None, "before": [2, 3, 1], "after": [3, 2, 1]}
    ]
