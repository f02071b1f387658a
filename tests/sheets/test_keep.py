"""Nothing typed is lost, the server's part: a sheet saved or confirmed with an idempotency
key is recorded once however often it is sent; a form sent by static/js/keep.js is told
where to go (HX-Redirect) rather than redirected; a stale version still gets the conflict
page; the forms carry the keys keep.js keeps their cells under."""

import pytest

from tests.pages import ROWS, form, table, url
from tournament.models import SheetStatus, SheetVersion
from tournament.sheets.saving import save_sheet

KEY = "Zq3v_9kLm-2pXw8rT4yB1A"
HTMX = {"HTTP_HX_REQUEST": "true"}


def recorded():
    return list(SheetVersion.objects.order_by("number").values_list("action", "key"))


def messages_of(response):
    return [str(message) for message in response.context["messages"]]


def test_a_save_with_a_key_is_recorded_once_however_often_it_is_sent(scorer_client, seated_round):
    first = scorer_client.post(url("sheet"), form(key=KEY), follow=True)
    assert messages_of(first) == [
        "Round 1 · Table 1 saved: it now awaits confirmation by a different person."
    ]
    again = scorer_client.post(url("sheet"), form(key=KEY), follow=True)
    assert again.status_code == 200
    assert messages_of(again) == [
        "Round 1 · Table 1 was already saved with these numbers: nothing changed."
    ]
    assert recorded() == [("entered", KEY)]


def test_a_form_sent_by_script_is_told_where_to_go_and_the_message_waits_there(
    scorer_client, seated_round
):
    response = scorer_client.post(url("sheet"), form(action="draft", key=KEY), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == url("sheet")
    shown = scorer_client.get(response["HX-Redirect"])
    assert "Round 1 · Table 1: draft saved (version 1)" in shown.content.decode()

    final = scorer_client.post(url("sheet"), form(version=1, key="another-key-1234567890"), **HTMX)
    assert final["HX-Redirect"] == f"{url('home')}?round=1"
    home = scorer_client.get(final["HX-Redirect"]).content.decode()
    assert "it now awaits confirmation by a different person" in home


def test_a_retried_key_is_recognised_after_someone_else_saved_meanwhile(
    scorer_client, second_scorer, seated_round
):
    scorer_client.post(url("sheet"), form(action="draft", key=KEY), **HTMX)
    theirs = [dict(ROWS[0], won=[12, 2, 10, 0], left_over=28), *ROWS[1:]]
    save_sheet(table(), second_scorer, theirs, expected_version=1, final=False)

    # The answer to the first try was lost: the page sends it again, from version 0.
    retry = scorer_client.post(url("sheet"), form(action="draft", key=KEY), **HTMX)
    assert retry.status_code == 200, "no conflict page: this submission is already saved"
    assert "HX-Redirect" in retry
    page = scorer_client.get(retry["HX-Redirect"]).content.decode()
    assert "was already saved with these numbers: nothing changed" in page
    assert [action for action, _ in recorded()] == ["draft", "draft"]


@pytest.mark.parametrize("version", [0, 1], ids=["from the page of the draft", "reloaded"])
def test_a_draft_then_the_same_numbers_as_final_under_one_key_is_saved_final(
    scorer_client, seated_round, version
):
    draft = scorer_client.post(url("sheet"), form(action="draft", key=KEY), follow=True)
    assert messages_of(draft)[0].startswith("Round 1 · Table 1: draft saved (version 1).")
    final = scorer_client.post(url("sheet"), form(version=version, key=KEY), follow=True)
    assert messages_of(final) == [
        "Round 1 · Table 1 saved: it now awaits confirmation by a different person."
    ]
    assert table().sheet.status == SheetStatus.ENTERED
    assert [action for action, _ in recorded()] == ["draft", "entered"]
    # Each of the two sent again is the save it was, recorded once.
    for again in (form(version=version, key=KEY), form(action="draft", key=KEY)):
        response = scorer_client.post(url("sheet"), again, follow=True)
        assert messages_of(response)[0].endswith("nothing changed."), again["action"]
    assert [action for action, _ in recorded()] == ["draft", "entered"]
    assert table().sheet.status == SheetStatus.ENTERED


def test_a_final_save_under_a_drafts_key_after_someone_else_saved_shows_both(
    scorer_client, second_scorer, seated_round
):
    scorer_client.post(url("sheet"), form(action="draft", key=KEY))
    theirs = [dict(ROWS[0], won=[12, 2, 10, 0], left_over=28), *ROWS[1:]]
    save_sheet(table(), second_scorer, theirs, expected_version=1, final=False)
    response = scorer_client.post(url("sheet"), form(key=KEY))
    assert response.status_code == 409
    assert "This sheet changed while you were typing" in response.content.decode()
    assert table().sheet.status == SheetStatus.DRAFT
    assert len(recorded()) == 2


def test_a_confirmation_with_a_key_sent_twice_confirms_once(
    scorer_client, second_scorer_client, seated_round
):
    scorer_client.post(url("sheet"), form())
    confirm = {"mode": "review", "expected_version": "1", "key": KEY}
    first = second_scorer_client.post(url("confirm"), confirm, **HTMX)
    assert first["HX-Redirect"] == f"{url('home')}?round=1"
    assert "Round 1 · Table 1 confirmed: it now counts." in (
        second_scorer_client.get(first["HX-Redirect"]).content.decode()
    )
    again = second_scorer_client.post(url("confirm"), confirm, follow=True)
    assert messages_of(again) == ["Round 1 · Table 1 was already confirmed: nothing changed."]
    assert recorded() == [("entered", ""), ("confirmed", KEY)]
    assert table().sheet.status == SheetStatus.CONFIRMED


def test_a_blind_retype_with_a_key_sent_twice_confirms_once(
    scorer_client, second_scorer_client, seated_round
):
    scorer_client.post(url("sheet"), form())
    retyped = {**form(version=1), "mode": "retype", "key": KEY}
    for _ in range(2):
        response = second_scorer_client.post(url("confirm"), retyped, **HTMX)
        assert response["HX-Redirect"] == f"{url('home')}?round=1"
    assert recorded() == [("entered", ""), ("confirmed", KEY)]


def test_a_stale_version_without_a_key_still_shows_both_versions(
    scorer_client, second_scorer, seated_round
):
    theirs = [dict(ROWS[0], won=[12, 2, 10, 0], left_over=28)]
    save_sheet(table(), second_scorer, theirs, expected_version=0, final=False)
    for headers in ({}, HTMX):
        response = scorer_client.post(url("sheet"), form(action="draft"), **headers)
        assert response.status_code == 409
        assert "HX-Redirect" not in response
        page = response.content.decode()
        assert "This sheet changed while you were typing" in page
        assert "The sheet as saved" in page
        # The conflict page's form: saving from it is a choice made with both in view.
        assert 'data-keep="sheet:club-night:1:1:v1"' in page
    assert len(recorded()) == 1


@pytest.mark.parametrize("key", ["short", "has spaces in it 123", "é" * 30, "x" * 65])
def test_a_malformed_key_is_ignored_and_the_sheet_saved_as_without_script(
    scorer_client, seated_round, key
):
    response = scorer_client.post(url("sheet"), form(action="draft", key=key), follow=True)
    assert response.status_code == 200
    assert "draft saved (version 1)" in response.content.decode()
    assert recorded() == [("draft", "")]


def test_the_sheet_form_says_which_table_and_version_its_cells_are_kept_under(
    scorer_client, seated_round
):
    page = scorer_client.get(url("sheet")).content.decode()
    assert 'data-keep="sheet:club-night:1:1:v0" data-keep-table="sheet:club-night:1:1"' in page
    assert 'data-keep-hidden="derived"' in page
    scorer_client.post(url("sheet"), form(action="draft"))
    page = scorer_client.get(url("sheet")).content.decode()
    assert 'data-keep="sheet:club-night:1:1:v1"' in page
    other = scorer_client.get(url("sheet", table=2)).content.decode()
    assert 'data-keep="sheet:club-night:1:2:v0" data-keep-table="sheet:club-night:1:2"' in other


def test_the_blind_retype_form_keeps_its_cells_apart_from_the_sheets(
    scorer_client, second_scorer_client, seated_round
):
    scorer_client.post(url("sheet"), form())
    page = second_scorer_client.get(url("confirm"), {"mode": "retype"}).content.decode()
    assert (
        'data-keep="sheet:club-night:1:1:retype:v1" '
        'data-keep-table="sheet:club-night:1:1:retype"' in page
    )
    # Reviewing against the paper types nothing.
    review = second_scorer_client.get(url("confirm"), {"mode": "review"}).content.decode()
    assert "data-keep" not in review


def test_every_page_loads_the_script_that_keeps_typed_cells(client, scorer_client, seated_round):
    assert "/static/js/keep.js" in client.get("/").content.decode()
    assert "/static/js/keep.js" in scorer_client.get(url("sheet")).content.decode()
