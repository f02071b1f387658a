"""Blind re-typing stays blind: until the second person submits a complete re-type, no
page shows them the entered numbers (not the sheet page, its hidden inputs or totals,
the live check, a save conflict or the history); after it, only the few cells that
differ. Reviewing against the paper is the deliberate way to see them."""

from __future__ import annotations

import re

import pytest

from tests.pages import ROWS, enter, form, inputs, sheet_cells, url
from tournament.models import Deal, Sheet, SheetStatus
from tournament.sheets.blind import MISMATCHES_SHOWN

# Each seat's cards won and the left over summed over ROWS: the sheet's running totals.
CARD_TOTALS = ("50", "22", "32", "24", "80")


def assert_no_entered_numbers(page, typed=None):
    """Nothing of the entered sheet in the page's source: no filled cell (visible or
    hidden) but those the viewer ``typed``, no read-only copy, no running totals, no
    history of cells."""
    filled = {
        name: attrs.get("value")
        for name, attrs in inputs_of(page).items()
        if re.match(r"^d\d+_", name) and attrs.get("value")
    }
    assert filled == (typed or {})
    assert "data-cell=" not in page
    assert 'id="totals"' not in page or not any(f"<td>{t}</td>" in page for t in CARD_TOTALS)
    assert '<span class="other">' not in page
    assert "cards won 10, 4, 10, 0" not in page
    assert "28 →" not in page


def inputs_of(page):
    class Response:
        content = page.encode()

    return inputs(Response)


@pytest.fixture
def entered(scorer_client, seated_round):
    """Table 1's sheet entered by simon, awaiting confirmation."""
    enter(scorer_client)
    assert Sheet.objects.get().status == SheetStatus.ENTERED


def test_the_sheet_page_hides_the_entered_numbers_from_the_confirmer(second_scorer_client, entered):
    response = second_scorer_client.get(url("sheet"))
    assert response.status_code == 200
    page = response.content.decode()
    assert_no_entered_numbers(page)
    assert "Awaiting confirmation" in page
    assert "?mode=retype" in page
    assert "?mode=review" in page


def test_the_organiser_who_did_not_enter_it_is_blind_too(organiser_client, entered):
    assert_no_entered_numbers(organiser_client.get(url("sheet")).content.decode())


def test_opening_the_entered_numbers_is_a_deliberate_choice(second_scorer_client, entered):
    response = second_scorer_client.get(url("sheet"), {"show": "entered"})
    assert inputs(response)["d1_left_over"]["value"] == "28"


def test_who_entered_the_sheet_still_sees_it(scorer_client, entered):
    assert inputs(scorer_client.get(url("sheet")))["d1_left_over"]["value"] == "28"


def test_the_live_check_shows_only_what_was_typed(second_scorer_client, entered):
    data = {"expected_version": "0", "d1_s1": "3"}
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        page = second_scorer_client.post(url("check"), data, **headers).content.decode()
        filled = {
            name: attrs["value"]
            for name, attrs in inputs_of(page).items()
            if name.startswith("d") and attrs.get("value")
        }
        assert filled in ({}, {"d1_s1": "3"})
        assert not any(f"<td>{total}</td>" in page for total in CARD_TOTALS)
        assert '<span class="other">' not in page


def test_a_save_conflict_does_not_show_the_sheet_awaiting_confirmation(
    second_scorer_client, entered
):
    response = second_scorer_client.post(url("sheet"), form([], action="draft"))
    assert response.status_code == 409
    page = response.content.decode()
    assert_no_entered_numbers(page)
    assert "it now awaits confirmation by a different person" in page
    assert Sheet.objects.get().pending[0]["left_over"] == 28


def test_the_history_hides_the_numbers_awaiting_blind_confirmation(
    scorer_client, second_scorer_client, entered
):
    page = second_scorer_client.get(url("history")).content.decode()
    assert_no_entered_numbers(page)
    assert "Version 1: Entered, awaiting confirmation</strong> by simon" in page
    assert "Numbers not shown" in page
    # Who entered it sees them; once confirmed, everyone does.
    assert "cards won 10, 4, 10, 0" in scorer_client.get(url("history")).content.decode()
    second_scorer_client.post(url("confirm"), {"mode": "review", "expected_version": "1"})
    assert "cards won 10, 4, 10, 0" in second_scorer_client.get(url("history")).content.decode()


def test_a_wholly_wrong_retype_shows_no_entered_value(second_scorer_client, entered):
    wrong = [{"won": [1, 1, 1, 1], "last_in": 1, "left_over": 1}] * len(ROWS)
    data = {**form(wrong), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert_no_entered_numbers(page, typed=sheet_cells(wrong))
    assert "cells differ from the sheet as entered, in deals 1, 2, 3" in page
    assert "too many to be slips of the finger" in page
    cells = inputs(response)
    # Not even which cells differ: re-typing one value everywhere would otherwise tell
    # every cell that holds it.
    assert not any("mismatch" in cell.get("class", "") for cell in cells.values())
    assert cells["d1_s1"]["value"] == "1"  # what they typed is kept
    assert not Deal.objects.exists()


def test_a_retype_with_a_few_slips_shows_only_those_entered_values(second_scorer_client, entered):
    slips = {
        "d1_s1": "12",
        "d1_left_over": "26",
        "d2_s2": "9",
        "d3_last_in": "4",
        "d4_s4": "7",
    }
    assert len(slips) == MISMATCHES_SHOWN
    data = {**form(), **slips, "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), data)
    assert response.status_code == 422
    shown = re.findall(
        r'<input id="(d\d+_\w+)"[^>]*>\s*<span class="other">entered: (\w+)<',
        (response.content.decode()),
    )
    assert dict(shown) == {
        "d1_s1": "10",
        "d1_left_over": "28",
        "d2_s2": "10",
        "d3_last_in": "2",
        "d4_s4": "6",
    }
    # One slip more and none are shown.
    data["d2_s3"] = "9"
    page = second_scorer_client.post(url("confirm"), data).content.decode()
    assert '<span class="other">' not in page


def test_the_blind_retype_page_holds_no_entered_value(second_scorer_client, entered):
    response = second_scorer_client.get(url("confirm"), {"mode": "retype"})
    assert_no_entered_numbers(response.content.decode())
    assert sheet_cells(ROWS)  # the cells the confirmer will type
