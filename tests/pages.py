"""Helpers for tests that read pages and post forms as a browser would."""

from html.parser import HTMLParser

from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
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
    return data
