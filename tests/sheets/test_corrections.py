"""A correction of a confirmed sheet shows as one wherever the sheet's state is shown (the
sheet page, the round desk and the scorer's home, the Rounds page, the history), and its
confirmer is told it is one: before a blind re-type, which places it changes and what they
held when confirmed, never the corrected values; after the re-type, the corrected values
as far as the blind comparison shows them; reviewing against the paper shows them all.

Table 1 of club-night's round 1: simon enters ROWS, sarah confirms them, simon corrects
deal 1 (seat 2 took 6 cards, not 4; 26 left over, not 28) and sarah confirms the
correction.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.pages import ROWS, enter, form, inputs, url
from tournament.models import Seat, Sheet, SheetStatus
from tournament.sheets.reading import confirmed_rows

CORRECTED = [{"won": [10, 6, 10, 0], "last_in": 4, "left_over": 26}, *ROWS[1:]]


def name(position, table=1):
    seat = Seat.objects.select_related("player").get(
        table__number=table, table__round__number=1, position=position
    )
    return seat.player.name


def page_of(response, status=200):
    assert response.status_code == status, response.content.decode()[:3000]
    return unescape(response.content.decode())


def correction_of(page):
    """The confirmation page's account of the correction."""
    match = re.search(r'<section class="correction".*?</section>', page, re.S)
    assert match, "no correction on the page"
    return match.group(0)


def rows_of(section):
    """Each row of the correction's table: (where, confirmed, corrected)."""
    return [
        tuple(re.sub(r"<[^>]+>", "", cell).strip() for cell in cells)
        for cells in re.findall(
            r'<tr><th scope="row">(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>', section, re.S
        )
    ]


@pytest.fixture
def confirmed(scorer_client, second_scorer_client, seated_round):
    enter(scorer_client)
    response = second_scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "1"}
    )
    assert response.status_code == 302


@pytest.fixture
def correction(scorer_client, confirmed):
    """simon's correction of deal 1, entered and awaiting confirmation (version 3)."""
    response = scorer_client.post(url("sheet"), form(version=2, d1_s2="6", d1_left_over="26"))
    assert response.status_code == 302
    assert Sheet.objects.get().status == SheetStatus.ENTERED


# Where the sheet's state is shown -------------------------------------------------------


def test_the_desk_shows_a_correction_as_one(organiser_client, correction):
    response = organiser_client.get(url("desk"))
    page = page_of(response)
    desk = {row["number"]: row for row in response.context["desk_table"].data}
    assert desk[1]["status_label"] == "Correction of a confirmed sheet"
    assert desk[1]["status_note"] == "awaiting confirmation; the confirmed results stand meanwhile"
    row = re.search(r'data-table="1">(.*?)</tr>', page, re.S)[1]
    assert "Correction of a confirmed sheet" in row
    assert "Entered by a scorer" not in row
    assert "Not yet confirmed: tables 2, 3." in page
    assert (
        "Corrections of confirmed sheets, not yet confirmed: table 1 (the confirmed results "
        "stand meanwhile)."
    ) in page
    assert "Correction of a confirmed sheet: <strong>1</strong>" in page


def test_a_correction_draft_shows_as_one_too(scorer_client, organiser_client, confirmed):
    scorer_client.post(url("sheet"), form(version=2, action="draft", d1_s2="6"))
    response = organiser_client.get(url("desk"))
    desk = {row["number"]: row for row in response.context["desk_table"].data}
    assert desk[1]["status_label"] == "Correction of a confirmed sheet"
    assert desk[1]["status_note"] == "being typed; the confirmed results stand meanwhile"
    assert "Being entered by a scorer" not in page_of(response).split('data-table="1"')[1][:600]


def test_the_scorers_home_shows_a_correction_as_one(second_scorer_client, correction):
    page = page_of(second_scorer_client.get(url("home")))
    item = re.search(r'<li class="status-entered" data-table="1">(.*?)</li>', page, re.S)[1]
    assert '<span class="status">Correction of a confirmed sheet</span>' in item
    assert "awaiting confirmation; the confirmed results stand meanwhile" in item
    assert "Entered by a scorer" not in item
    assert f'href="{url("confirm")}"' in item


def test_the_sheet_page_shows_a_correction_as_one(second_scorer_client, correction):
    page = page_of(second_scorer_client.get(url("sheet")))
    assert "<strong>Correction of a confirmed sheet:</strong> entered by simon" in page
    assert "awaiting confirmation; the confirmed results stand meanwhile" in page
    assert "<strong>Awaiting confirmation:</strong>" not in page


def test_the_history_shows_a_correction_as_one(second_scorer_client, correction):
    page = page_of(second_scorer_client.get(url("history")))
    assert (
        "Now: correction of a confirmed sheet, awaiting confirmation; the confirmed results "
        "stand meanwhile, version 3."
    ) in page


def test_the_rounds_page_shows_a_correction_as_one(organiser_client, correction):
    page = page_of(organiser_client.get(reverse("organiser:round", args=["club-night", 1])))
    heading = re.search(r"<h3>Table 1 <small[^>]*>(.*?)</small>", page)[1]
    assert heading == "Correction of a confirmed sheet"
    assert re.search(r"<h3>Table 2 <small[^>]*>(.*?)</small>", page)[1] == "Not started"


def test_a_sheet_awaiting_its_first_confirmation_is_no_correction(
    scorer_client, second_scorer_client, organiser_client, seated_round
):
    enter(scorer_client)
    response = organiser_client.get(url("desk"))
    desk = {row["number"]: row for row in response.context["desk_table"].data}
    assert (desk[1]["status_label"], desk[1]["status_note"]) == ("Entered by a scorer", "")
    page = page_of(second_scorer_client.get(url("confirm"), {"mode": "retype"}))
    assert 'class="correction"' not in page
    assert "Now: awaiting confirmation, version 1." in page_of(
        second_scorer_client.get(url("history"))
    )


# Confirming a correction ------------------------------------------------------------------


@pytest.mark.parametrize("mode", [None, "retype"])
def test_before_the_retype_the_confirmer_sees_the_places_and_their_confirmed_values(
    second_scorer_client, correction, mode
):
    response = second_scorer_client.get(url("confirm"), {"mode": mode} if mode else {})
    page = page_of(response)
    section = correction_of(page)
    assert "Correction of a confirmed sheet" in section
    assert "The correction changes 2 places, listed with their confirmed values." in section
    assert "The corrected values are not shown" in section
    assert rows_of(section) == [
        (f"Deal 1, seat 2 ({name(2)})", "4", "not shown"),
        ("Deal 1, left over", "28", "not shown"),
    ]
    # Not the corrected values, anywhere: not in the table, not in a cell of the re-type.
    assert ">6<" not in section
    assert "26" not in section
    filled = {k: v.get("value") for k, v in inputs(response).items() if k.startswith("d")}
    assert not any(filled.values())


def test_after_a_retype_that_differs_the_corrected_values_are_shown_as_far_as_blind_allows(
    second_scorer_client, correction
):
    # Re-typed as corrected, but for deal 3, seat 1 (9, not 8; 19 left over, not 20).
    data = {
        **form(CORRECTED, d3_s1="9", d3_left_over="19"),
        "mode": "retype",
        "expected_version": "3",
    }
    page = page_of(second_scorer_client.post(url("confirm"), data), 422)
    assert "2 cells differ from the sheet as entered" in page
    # The re-type found the corrected cells: they are shown now.
    assert rows_of(correction_of(page)) == [
        (f"Deal 1, seat 2 ({name(2)})", "4", "6"),
        ("Deal 1, left over", "28", "26"),
    ]
    assert Sheet.objects.get().status == SheetStatus.ENTERED


def test_a_retype_too_far_off_shows_no_corrected_value_of_the_deals_it_missed(
    second_scorer_client, correction
):
    wrong = [{"won": [2, 2, 2, 2], "last_in": 1, "left_over": 44}] * 4
    data = {**form(wrong), "mode": "retype", "expected_version": "3"}
    page = page_of(second_scorer_client.post(url("confirm"), data), 422)
    assert "too many to be slips of the finger" in page
    assert rows_of(correction_of(page)) == [
        (f"Deal 1, seat 2 ({name(2)})", "4", "not shown"),
        ("Deal 1, left over", "28", "not shown"),
    ]


def test_reviewing_against_the_paper_shows_the_corrected_values(second_scorer_client, correction):
    page = page_of(second_scorer_client.get(url("confirm"), {"mode": "review"}))
    assert rows_of(correction_of(page)) == [
        (f"Deal 1, seat 2 ({name(2)})", "4", "6"),
        ("Deal 1, left over", "28", "26"),
    ]
    assert "The corrected values are not shown" not in page


def test_a_matching_retype_confirms_the_correction_and_says_what_changed(
    second_scorer_client, correction
):
    data = {**form(CORRECTED), "mode": "retype", "expected_version": "3"}
    page = page_of(second_scorer_client.post(url("confirm"), data, follow=True))
    assert (
        "Round 1 · Table 1: the correction is confirmed and now counts. It changed deal 1, "
        f"seat 2 ({name(2)}): 4 → 6; deal 1, left over: 28 → 26."
    ) in page
    assert confirmed_rows(Sheet.objects.get().table) == CORRECTED


def test_a_correction_that_adds_a_deal_names_it_without_its_numbers(
    scorer_client, second_scorer_client, seated_round
):
    scorer_client.post(url("sheet"), form(ROWS[:3], stopped_early="1"))
    second_scorer_client.post(url("confirm"), {"mode": "review", "expected_version": "1"})
    scorer_client.post(url("sheet"), form(ROWS, version=2))
    assert Sheet.objects.get().status == SheetStatus.ENTERED
    page = page_of(second_scorer_client.get(url("confirm"), {"mode": "retype"}))
    assert rows_of(correction_of(page)) == [("Deal 4", "not on the confirmed sheet", "not shown")]
    assert "cards won 20, 0, 4, 6" not in page
    review = page_of(second_scorer_client.get(url("confirm"), {"mode": "review"}))
    assert rows_of(correction_of(review)) == [
        ("Deal 4", "not on the confirmed sheet", "cards won 20, 0, 4, 6; left over 22; last in 3")
    ]
