"""Helpers for tests of entry at the table: a phone's pages, reached by a table's code,
and typing, submitting and re-typing a sheet on them as a phone does."""

from __future__ import annotations

from django.urls import reverse

from tests.pages import ROWS, order_cells
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.sheets.reading import peek_sheet

# Deal 2, seat 3 typed 12 instead of 10 and left over 8 instead of 10 (it still adds up).
MISTYPED = [ROWS[0], {"won": [12, 10, 12, 10], "last_in": 1, "left_over": 8}, *ROWS[2:]]


def url(name, table, *args):
    return reverse(f"table:{name}", args=[table.code, *args])


def cells(number, row):
    data = {cell_name(number, WON, seat): str(v) for seat, v in enumerate(row["won"], start=1)}
    data[cell_name(number, LEFT_OVER)] = str(row["left_over"])
    data[cell_name(number, LAST_IN)] = str(row["last_in"])
    return data | order_cells(number, row)


def version(table):
    return peek_sheet(table).version


def post_deal(client, table, number, row, *, key=None, expected=None):
    data = {
        **cells(number, row),
        "expected_version": expected if expected is not None else version(table),
    }
    if key:
        data["key"] = key
    return client.post(url("deal", table, number), data)


def type_sheet(client, table, rows=ROWS):
    for number, row in enumerate(rows, start=1):
        response = post_deal(client, table, number, row)
        assert response.status_code == 302, response.content.decode()[:2000]


def submit(client, table, **extra):
    return client.post(url("review", table), {"expected_version": version(table), **extra})


def retype(client, table, rows):
    data = {"expected_version": version(table)}
    for number, row in enumerate(rows, start=1):
        data |= cells(number, row)
    return client.post(url("confirm", table), data)
