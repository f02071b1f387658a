"""``manage.py sheet_layout``: a table's boxes as JSON, in millimetres from the printed
page's top left, and the table's page in the round's PDF."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournament.printing.layout import page_offset, sheet_layout
from tournament.printing.pages import SheetNotReadable, round_sheets, table_layout


def _layout_json(*args, paper):
    out = StringIO()
    call_command("sheet_layout", *args, paper=paper, format="json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize(("paper", "size"), [("a4", [210.0, 297.0]), ("letter", [215.9, 279.4])])
def test_the_boxes_of_a_table_on_the_printed_page(seated_round, paper, size):
    slug = seated_round.tournament.slug
    data = _layout_json(slug, "1", "2", paper=paper)
    assert set(data) == {"page", "boxes"}
    assert data["page"] == {"index": 2, "width_mm": size[0], "height_mm": size[1]}
    sheet = sheet_layout(4, 4, order_needed=False)
    assert len(data["boxes"]) == len(sheet.boxes) == 4 * (4 * 3 + 2)
    left, top = page_offset(paper)
    for entry, box in zip(data["boxes"], sheet.boxes, strict=True):
        keys = {"deal", "field", "seat", "rect"} | ({"digit"} if box.digit is not None else set())
        assert set(entry) == keys
        assert (entry["deal"], entry["field"], entry["seat"], entry.get("digit")) == (
            box.deal,
            box.field,
            box.seat,
            box.digit,
        )
        x, y, width, height = entry["rect"]
        assert x == pytest.approx(left + box.rect[0], abs=0.006)
        assert y == pytest.approx(top + box.rect[1], abs=0.006)
        assert (width, height) == box.rect[2:]
    assert {entry["field"] for entry in data["boxes"]} == {"won", "last_in", "left_over"}
    assert all(entry["seat"] is None for entry in data["boxes"] if entry["field"] == "left_over")


def test_a_sheet_of_more_pages_moves_the_next_tables_page_and_is_not_read(seated_round):
    tournament = seated_round.tournament
    tournament.rotations_per_round = 10  # 40 deals at four seats: two pages a table
    tournament.save()
    assert [
        (sheet.table, sheet.first_page, sheet.pages) for sheet in round_sheets(seated_round)
    ] == [
        (1, 1, 2),
        (2, 3, 2),
        (3, 5, 2),
    ]
    with pytest.raises(CommandError, match=r"Round 1, table 3: its sheet of 40 deals runs to 2"):
        _layout_json(tournament.slug, "1", "3", paper="a4")


def test_the_layout_of_a_tables_sheet_for_a_reader_of_its_photo(seated_round):
    assert table_layout(seated_round, 3) == sheet_layout(4, 4, order_needed=False)
    seated_round.tournament.rotations_per_round = 10
    seated_round.tournament.save()
    with pytest.raises(SheetNotReadable, match="Type it in instead"):
        table_layout(seated_round, 3)


def test_the_lying_down_order_has_a_box_a_seat_where_the_scoring_needs_it(seated_round):
    tournament = seated_round.tournament
    tournament.scoring = "caidis"
    tournament.save()
    boxes = _layout_json(tournament.slug, "1", "1", paper="letter")["boxes"]
    order = [entry for entry in boxes if entry["field"] == "laid_down"]
    assert [(entry["deal"], entry["seat"], entry["digit"]) for entry in order] == [
        (deal, seat, 0) for deal in range(1, 5) for seat in range(1, 5)
    ]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("nope", "1", "1"), "No tournament 'nope'."),
        (("club-night", "9", "1"), "club-night has no round 9."),
        (("club-night", "1", "7"), "Round 1 of club-night has no table 7."),
    ],
)
def test_what_is_not_there_is_said(seated_round, args, words):
    with pytest.raises(CommandError, match=words):
        _layout_json(*args, paper="a4")


def test_print_sheets_says_when_it_has_no_browser(seated_round, monkeypatch, tmp_path):
    from tournament.management.commands import print_sheets

    monkeypatch.setattr(print_sheets, "CHROMIUM", tmp_path / "no-chromium")
    with pytest.raises(CommandError, match=r"needs Chromium at .*no-chromium: apt-get install"):
        call_command("print_sheets", "club-night", "1", str(tmp_path / "sheets.pdf"))
    assert not (tmp_path / "sheets.pdf").exists()
