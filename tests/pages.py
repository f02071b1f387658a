"""Helpers for tests that read pages and post forms as a browser would: a page's inputs,
a sheet's cells, and the scorer's sheet pages of the ``tournament`` fixture
(tests/conftest.py; its slug is ``SLUG``): their addresses, a whole sheet's form, and
entering it."""

import re
from html.parser import HTMLParser

from django.test import Client
from django.urls import reverse

from tournament.kernel.cells import LAST_IN, LEFT_OVER, ORDER, WON, cell_name
from tournament.models import Table
from tournament.sheets.rows import Row


class _Inputs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.inputs = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and "name" in attrs:
            self.inputs[attrs["name"]] = attrs


def inputs(response):
    """The page's form inputs by name, with their attributes."""
    parser = _Inputs()
    parser.feed(response.content.decode())
    return parser.inputs


def sheet_cells(rows: list[Row]) -> dict[str, str]:
    """The sheet entry form's cells for ``rows`` (``{"won": [...], "last_in", "left_over"}``),
    as the scorer types them."""
    data = {}
    for number, row in enumerate(rows, start=1):
        for seat, won in enumerate(row["won"], start=1):
            data[cell_name(number, WON, seat)] = str(won)
        data[cell_name(number, LEFT_OVER)] = str(row["left_over"])
        data[cell_name(number, LAST_IN)] = str(row["last_in"])
        data |= order_cells(number, row)
    return data


def order_cells(number: int, row: Row) -> dict[str, str]:
    """A row's lying-down order as its place boxes: ``o{seat}`` holds the seat's place,
    1 for the first out; none when the row has no order."""
    order = row.get("laid_down") or []
    return {cell_name(number, ORDER, seat): str(place) for place, seat in enumerate(order, 1)}


# The ``tournament`` fixture's slug (tests/conftest.py).
SLUG = "club-night"


# Four deals at a table of four (one rotation); each row adds up to 52.
ROWS = [
    {"won": [10, 4, 10, 0], "last_in": 4, "left_over": 28},
    {"won": [12, 10, 10, 10], "last_in": 1, "left_over": 10},
    {"won": [8, 8, 8, 8], "last_in": 2, "left_over": 20},
    {"won": [20, 0, 4, 6], "last_in": 3, "left_over": 22},
]


def url(name, table=1, round_number=1):
    if name == "home":
        return reverse("scorer:home", args=[SLUG])
    if name == "desk":
        return reverse("scorer:desk", args=[SLUG, round_number])
    return reverse(f"scorer:{name}", args=[SLUG, round_number, table])


def form(rows=ROWS, version=0, action="final", **cells):
    return {"expected_version": str(version), "action": action, **sheet_cells(rows), **cells}


def table(number=1):
    return Table.objects.get(round__number=1, number=number)


def enter(client, rows=ROWS):
    response = client.post(url("sheet"), form(rows))
    assert response.status_code == 302
    return response


def header_labels(html):
    head = html[html.index("<thead") : html.index("</thead>")]
    return [
        label.strip() for label in re.findall(r"<th(?:\s[^>]*)?>(?:\s*<a [^>]*>)?([^<]*)<", head)
    ]


SETTINGS = {
    "name": "Club Night",
    "slug": "club-night",
    "scoring": "winner-advantage",
    "rotations_per_round": 1,
    "planned_rounds": 4,
    "table_policy": "mixed",
    "table_sizes": ["4", "5", "6"],
    "bye_score": "zero",
    "keep_clubs_apart_rounds": 0,
    "two_person_check": "on",
}


def footer_row(page, css_class):
    row = re.search(rf'<tr class="{css_class}">(.*?)</tr>', page, re.S)[1]
    return re.findall(r"<td>(.*?)</td>", row)


def lock_out(username: str) -> None:
    client = Client(REMOTE_ADDR=PUB)
    for _ in range(5):
        client.post(reverse("login"), {"username": username, "password": "wrong"})


def can_log_in(username: str, password: str = "pw") -> bool:
    client = Client(REMOTE_ADDR=PUB)
    client.post(reverse("login"), {"username": username, "password": password})
    return "_auth_user_id" in client.session


PUB = "192.0.2.50"  # every phone on the pub's wifi
