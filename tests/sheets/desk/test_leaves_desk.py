"""Recording a player who left mid-round at the desk: the sheet page's "A player left"
fields, the rows they redraw, the save, the blind re-type and the history."""

import re

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, make_players, seated_round
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import Player, Sheet, SheetStatus, SheetVersion, Table

SLUG = "leave-night"
FIVE = {"won": ["10", "10", "10", "10", "10"], "last_in": "1", "left_over": "2"}
FOUR = {"won": ["10", "10", "", "10", "10"], "last_in": "2", "left_over": "12"}


@pytest.fixture
def round_one(db, organiser, scorer, second_scorer):
    """Two tables of five playing two rotations a round (ten deals each)."""
    tournament = TournamentFactory(
        name="Leave Night",
        slug=SLUG,
        owner=organiser,
        scorers=[scorer, second_scorer],
        rotations_per_round=2,
    )
    return seated_round(tournament, make_players(tournament, 10))


def url(name):
    return reverse(f"scorer:{name}", args=[SLUG, 1, 1])


def cells(rows):
    data = {}
    for number, row in enumerate(rows, start=1):
        for seat, won in enumerate(row["won"], start=1):
            data[cell_name(number, WON, seat)] = won
        data[cell_name(number, LEFT_OVER)] = row["left_over"]
        data[cell_name(number, LAST_IN)] = row["last_in"]
    return data


def sheet_rows():
    return [FIVE] * 7 + [FOUR, FOUR]


def deal_headers(page):
    return re.findall(r'<tr class="deal" data-deal="(\d+)">\s*<th scope="row">(.*?)</th>', page)


def test_recording_a_leave_redraws_the_sheet_without_saving(scorer_client, round_one):
    # The page posts all ten rows it showed, the last ones blank.
    blank_rows = {cell_name(deal, WON, seat): "" for deal in range(1, 11) for seat in range(1, 6)}
    response = scorer_client.post(
        url("sheet_leaves"),
        {
            "expected_version": "0",
            "leave_seat": "3",
            "leave_after": "7",
            **blank_rows,
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Seat 3 (Player 0002) left after deal 7" in page
    assert "not saved yet" in page
    assert '<input type="hidden" name="left" value="3:7">' in page
    headers = deal_headers(page)
    # Nine deals: seat 3's second turn is skipped; deals 8 and 9 are dealt at four.
    assert [number for number, _ in headers] == [str(n) for n in range(1, 10)]
    assert "Player 0003" in headers[7][1]
    assert "4 players" in headers[7][1]
    assert "4 players" not in headers[6][1]
    # The leaver's cells after deal 7 are not typed in.
    assert 'name="d8_s3"' not in page
    assert 'name="d7_s3"' in page
    assert not Sheet.objects.filter(table__number=1, version__gt=0).exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"leave_seat": "3", "leave_after": "12"}, "Seat 3 left after deal 12: the round has"),
        ({"leave_seat": "3", "leave_after": ""}, "Seat 3 left: type the deal after which"),
        ({"leave_seat": "", "leave_after": "4"}, "A player left after deal 4: choose which"),
        ({"leave_seat": "9", "leave_after": "4"}, "Seat 9 left after deal 4: there is no seat 9"),
    ],
)
def test_a_wrong_leave_is_named_in_the_error_summary(scorer_client, round_one, fields, message):
    typed = cells([FIVE])
    response = scorer_client.post(url("sheet_leaves"), {"expected_version": "0", **typed, **fields})
    assert response.status_code == 422
    page = response.content.decode()
    summary = re.search(r'<div class="error-summary".*?</div>', page, re.S)[0]
    assert message in summary
    # What was typed is still there.
    assert 'name="d1_s1" value="10"' in page
    assert f'name="leave_after" value="{fields["leave_after"]}"' in page


def test_saving_with_a_leave_records_it_and_drops_the_player(scorer_client, round_one):
    data = {
        "expected_version": "0",
        "action": "final",
        "left": "3:7",
        **cells(sheet_rows()),
    }
    response = scorer_client.post(url("sheet"), data, follow=True)
    assert response.status_code == 200
    sheet = Sheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.status == SheetStatus.ENTERED
    assert sheet.pending_left == [{"seat": 3, "after_deal": 7}]
    assert not Player.objects.get(name="Player 0002").active
    page = response.content.decode()
    assert "Player 0002 left after deal 7 and is dropped from later rounds" in page


def test_a_draft_sent_again_under_its_key_with_a_player_who_left_is_saved_with_it(
    scorer_client, round_one
):
    key = "Zq3v_9kLm-2pXw8rT4yB1A"
    draft = {"expected_version": "0", "action": "draft", "key": key, **cells(sheet_rows())}
    scorer_client.post(url("sheet"), draft)
    response = scorer_client.post(url("sheet"), {**draft, "left": "3:7"}, follow=True)
    page = response.content.decode()
    assert "nothing changed" not in page
    assert "draft saved (version 2)" in page
    sheet = Sheet.objects.get(table__round__number=1, table__number=1)
    assert sheet.pending_left == [{"seat": 3, "after_deal": 7}]
    assert SheetVersion.objects.filter(sheet=sheet).count() == 2
    # Sent once more, the same save: recorded once.
    again = scorer_client.post(url("sheet"), {**draft, "left": "3:7"}, follow=True)
    assert "nothing changed" in again.content.decode()
    assert SheetVersion.objects.filter(sheet=sheet).count() == 2


def test_a_half_typed_leave_refuses_the_save_and_keeps_everything(scorer_client, round_one):
    data = {"expected_version": "0", "action": "draft", "leave_after": "7", **cells([FIVE])}
    response = scorer_client.post(url("sheet"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert "A player left after deal 7: choose which player" in page
    assert 'name="leave_after" value="7"' in page
    assert not SheetVersion.objects.exists()


def test_typing_a_count_for_the_leaver_is_refused_and_kept(scorer_client, round_one):
    rows = sheet_rows()
    rows[7] = {**FOUR, "won": ["10", "10", "6", "10", "10"]}
    data = {"expected_version": "0", "action": "final", "left": "3:7", **cells(rows)}
    response = scorer_client.post(url("sheet"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert "deal 8: seat 3: 6 cards won, but seat 3 had left the table" in page
    assert 'name="d8_s3" value="6"' in page
    assert not SheetVersion.objects.exists()


def test_removing_a_leave_redraws_the_full_round(scorer_client, round_one):
    response = scorer_client.post(
        url("sheet_leaves"), {"expected_version": "0", "left": "3:7", "remove_leave": "3"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'value="3:7"' not in page
    assert len(deal_headers(page)) == 10


def test_a_saved_leave_is_shown_and_its_history_names_the_player(
    scorer_client, second_scorer_client, round_one
):
    data = {"expected_version": "0", "action": "final", "left": "3:7", **cells(sheet_rows())}
    scorer_client.post(url("sheet"), data)
    page = scorer_client.get(url("sheet")).content.decode()
    assert "Seat 3 (Player 0002) left after deal 7" in page
    assert "not saved yet" not in page
    history = scorer_client.get(url("history")).content.decode()
    assert "seat 3 (Player 0002) left after deal 7" in history


def test_a_blind_retype_compares_the_leaves(scorer_client, second_scorer_client, round_one):
    data = {"expected_version": "0", "action": "final", "left": "3:7", **cells(sheet_rows())}
    scorer_client.post(url("sheet"), data)
    retype = {"expected_version": "1", "mode": "retype", **cells(sheet_rows())}
    response = second_scorer_client.post(url("confirm"), retype)
    # Without the leave, deal 8 lacks seat 3's count: not compared yet.
    assert response.status_code == 422
    assert "Deal 8 is not complete" in response.content.decode()
    # Record redraws the re-type with the leave, comparing nothing.
    response = second_scorer_client.post(
        url("confirm_leaves"), {**retype, "leave_seat": "3", "leave_after": "7"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert '<input type="hidden" name="left" value="3:7">' in page
    assert 'name="d8_s3"' not in page
    response = second_scorer_client.post(url("confirm"), {**retype, "left": "3:6"})
    assert response.status_code == 422
    assert "the players who left differ from the sheet as entered" in response.content.decode()
    response = second_scorer_client.post(url("confirm"), {**retype, "left": "3:7"})
    assert response.status_code == 302
    table = Table.objects.get(round__number=1, number=1)
    assert table.left == [{"seat": 3, "after_deal": 7}]
    assert SheetVersion.objects.filter(sheet__table=table, action="confirmed").exists()


def test_the_sheet_page_tells_a_blind_confirmer_nothing_of_the_entered_leaves(
    scorer_client, second_scorer_client, round_one
):
    """Recording a leave on the sheet page marks the leaves already saved: not for whoever
    may still confirm the sheet blind, who could otherwise guess the entered leave."""
    data = {"expected_version": "0", "action": "final", "left": "3:7", **cells(sheet_rows())}
    scorer_client.post(url("sheet"), data)
    pages = [
        second_scorer_client.post(
            url("sheet_leaves"),
            {"expected_version": "1", "leave_seat": "3", "leave_after": after},
        ).content.decode()
        for after in ("7", "6")
    ]
    assert all("— not saved yet</em>" in page for page in pages)
    # The scorer who entered it still sees which leave is saved.
    own = scorer_client.post(
        url("sheet_leaves"), {"expected_version": "1", "leave_seat": "3", "leave_after": "7"}
    ).content.decode()
    assert "— not saved yet</em>" not in own


def test_recording_a_leave_in_a_blind_retype_shortens_it_to_the_rounds_deals(
    scorer_client, second_scorer_client, round_one
):
    data = {"expected_version": "0", "action": "final", "left": "3:7", **cells(sheet_rows())}
    scorer_client.post(url("sheet"), data)
    # The re-type page showed ten blank lines before the leave was recorded.
    blank_rows = {cell_name(deal, WON, seat): "" for deal in range(1, 11) for seat in range(1, 6)}
    response = second_scorer_client.post(
        url("confirm_leaves"),
        {
            "expected_version": "1",
            "mode": "retype",
            **blank_rows,
            "leave_seat": "3",
            "leave_after": "7",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert [number for number, _ in deal_headers(page)] == [str(n) for n in range(1, 10)]
    assert 'name="d10_s1"' not in page


def test_an_outsider_cannot_record_a_leave(outsider_client, round_one):
    response = outsider_client.post(
        url("sheet_leaves"), {"expected_version": "0", "leave_seat": "3"}
    )
    assert response.status_code == 404


def test_anonymous_is_sent_to_log_in(client, round_one):
    response = client.post(url("sheet_leaves"), {"expected_version": "0"})
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_the_round_desk_counts_the_deals_of_a_table_with_a_leave(scorer_client, round_one):
    data = {"expected_version": "0", "action": "final", "left": "3:7", **cells(sheet_rows())}
    scorer_client.post(url("sheet"), data)
    desk = scorer_client.get(reverse("scorer:desk", args=[SLUG, 1])).content.decode()
    assert "9 of 9" in desk
    assert "0 of 10" in desk
