"""A sheet cell's name is made in one place (tournament/kernel/cells.py) and read back there."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.pages import form, inputs, url
from tournament.kernel.cells import (
    CHECKSUM,
    LAST_IN,
    LEFT_OVER,
    NOTES,
    WON,
    Cell,
    cell_name,
    cell_part,
    parse_cell,
    parse_part,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("deal", "field", "seat", "name"),
    [
        (1, WON, 1, "d1_s1"),
        (12, WON, 5, "d12_s5"),
        (3, LEFT_OVER, None, "d3_left_over"),
        (3, LAST_IN, None, "d3_last_in"),
        (30, CHECKSUM, None, "d30_checksum"),
        (2, NOTES, None, "d2_notes"),
        (4, WON, None, "d4_won"),
    ],
)
def test_a_cell_name_is_spelled_as_the_sheet_page_has_it_and_reads_back(deal, field, seat, name):
    assert cell_name(deal, field, seat) == name
    assert parse_cell(name) == Cell(deal, field, seat)
    assert parse_cell(name).name == name
    assert parse_part(cell_part(field, seat)) == (field, seat)


@pytest.mark.parametrize(
    "name",
    [
        "",
        "d1",
        "d1_",
        "d1_s",
        "d_s1",
        "x1_s1",
        "d1_s123",
        "d1234_s1",
        "d1_seat",
        "d1_s1 ",
        "d1_derived",
    ],
)
def test_a_name_that_is_no_cell_reads_back_as_none(name):
    assert parse_cell(name) is None


def test_a_field_that_is_no_cell_is_refused_loudly():
    with pytest.raises(ValueError, match="no sheet cell is called 'points'"):
        cell_name(1, "points")


def test_every_name_on_the_sheet_page_is_one_that_cell_name_makes(scorer_client, seated_round):
    # A blank count (offered as derived) and a row that does not add up (its checksum marks
    # every count of the row).
    response = scorer_client.post(url("sheet"), form(d1_s3="", d2_left_over="12"))
    page = response.content.decode()
    cells = [name for name, attrs in inputs(response).items() if "cell" in attrs.get("class", "")]
    assert len(cells) == 4 * (4 + 2)
    shown = {
        *cells,
        *re.findall(r'data-fill="([^"]*)"', page),
        *re.findall(r'<tr id="([^"]*)" class="notes"', page),
        *re.search(r'data-problem-cells="([^"]*)"', page)[1].split(),
    }
    assert "d1_s3" in shown
    assert "d2_notes" in shown
    for name in shown:
        cell = parse_cell(name)
        assert cell is not None, name
        assert cell.name == name


# Spelling a name out: ``d{deal}_...`` in an f-string, ``_s{seat}``, ``{deal}_left_over``...
_PYTHON = re.compile(r"(?<![\w\\])d\{|_s\{|\}_(?:left_over|last_in|checksum|notes)\b|\bf[\"']s\{")
# ... or in a template, by joining the deal's number to the rest.
_TEMPLATE = re.compile(r"\bd\{\{|_s\{\{|\}\}_(?:s|left_over|last_in|checksum|notes)\b")
_SCRIPT = re.compile(r"[\"']d[\"']\s*\+|\+\s*[\"']_(?:s|left_over|last_in|checksum|notes)")


def _spelled_out(paths, pattern):
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_code_but_the_kernels_cells_spells_out_a_cell_name():
    python = [
        path
        for folder in ("tournament", "tests", "bench", "scoring", "config")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path not in (ROOT / "tournament" / "kernel" / "cells.py", Path(__file__).resolve())
    ]
    templates = sorted((ROOT / "templates").rglob("*.html"))
    scripts = sorted((ROOT / "static" / "js").glob("*.js"))
    assert python
    assert templates
    assert scripts
    found = [
        *_spelled_out(python, _PYTHON),
        *_spelled_out(templates, _TEMPLATE),
        *_spelled_out(scripts, _SCRIPT),
    ]
    assert found == [], (
        "name cells with tournament.kernel.cells.cell_name (templates: from the context)"
    )


def test_the_sheet_script_says_where_the_names_are_defined():
    script = (ROOT / "static" / "js" / "sheet.js").read_text()
    assert "tournament/kernel/cells.py" in script


def test_the_sheet_page_answers_the_script_in_the_names_it_reads(scorer_client, seated_round):
    # The live check names the marked cells in data-problem-cells, which sheet.js matches
    # against the inputs' names: the two must agree.
    response = scorer_client.post(
        reverse("scorer:check", args=["club-night", 1, 1]),
        form(d2_left_over="12"),
        HTTP_HX_REQUEST="true",
    )
    marked = re.search(r'data-problem-cells="([^"]*)"', response.content.decode())[1].split()
    assert sorted(marked) == sorted(
        [*(cell_name(2, WON, seat) for seat in range(1, 5)), cell_name(2, LEFT_OVER)]
    )
