"""Entry at the table on a phone (``sheets.phone.views``), through the Django client without
script: plain posts and redirects, as a phone without JavaScript would use them.

club-night's round 1 seats three tables of four (four deals each); ``table`` is table 1,
``phone`` and ``second_phone`` are two anonymous clients (two phones at the table).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seated_round as seat_round
from tests.pages import ROWS
from tests.phone import MISTYPED, post_deal, retype, submit, type_sheet, url, version
from tournament.models import Round, Sheet, SheetStatus, SheetVersion, Table, Tournament
from tournament.sheets import at_table as table_entry
from tournament.sheets import saving
from tournament.sheets.authors import AtTable
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet

# The wrong-code counts live in the cache, which outlives a test.
pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture
def table(seated_round):
    return Table.objects.get(round=seated_round, number=1)


@pytest.fixture
def phone(client):
    return client


@pytest.fixture
def second_phone(_backs_up):
    return Client()


def sheet(table):
    return Sheet.objects.get(table=table)


def html(response):
    return response.content.decode()


def without_csrf(body: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)


# Opening a code -----------------------------------------------------------------------


def test_the_code_opens_the_tables_page_with_names_and_dealers(phone, table):
    response = phone.get(url("entry", table))
    assert response.status_code == 200
    page = html(response)
    assert "Round 1 · Table 1" in page
    for seat in table.seats.all():
        assert seat.player.name in page
    assert "deals 1" in page
    assert "deals 4" in page
    assert "Nobody has typed this sheet yet" in page
    assert f'href="{url("deal", table, 1)}"' in page
    assert response["Cache-Control"]
    assert "no-store" in response["Cache-Control"]


def test_a_deal_page_names_the_dealer_and_has_big_numeric_inputs(phone, table):
    page = html(phone.get(url("deal", table, 2)))
    dealer = table.seats.get(position=2).player.name
    assert f"Dealer: seat 2, {dealer}" in page
    assert page.count('inputmode="numeric"') == table.size + 1
    assert page.count('type="radio"') == table.size
    assert 'data-keep="sheet:club-night:1:1:deal2:v0"' in page
    assert 'data-keep-table="sheet:club-night:1:1:deal2"' in page


def test_typing_the_code_on_the_code_page_opens_the_table(phone, table):
    typed = f"{table.code[:4].lower()}-{table.code[4:].lower()}"
    response = phone.post(reverse("table:code"), {"code": typed})
    assert response.status_code == 302
    assert response.url == url("entry", table)


@pytest.fixture
def refused_codes(seated_round, make_played, table):
    """A code for each reason a code opens nothing."""
    tournament = seated_round.tournament
    players = [seat.player for t in seated_round.tables.all() for seat in t.seats.all()]
    later = seat_round(tournament, players, number=2, started=False)
    other = make_played(players=6, rounds=1, slug="other-open")
    confirmed = Table.objects.get(round=seated_round, number=2)
    save_sheet(confirmed, AtTable("x"), ROWS, expected_version=0, final=True)
    confirm_sheet(confirmed, tournament.scorers.get(username="simon"), expected_version=1)
    released = Table.objects.filter(round__tournament=other).first()
    assert Round.objects.get(pk=released.round_id).released
    assert released.deals.exists()
    return {
        "wrong": "ZZZZZZZZ",
        "malformed": "not a code!",
        "too long": "A" * 40,
        "not started": Table.objects.filter(round=later).first().code,
        "confirmed, released": released.code,
        "confirmed": confirmed.code,
    }


def without_typed_code(body: str) -> str:
    return re.sub(r'(<input id="code"[^>]*?) value="[^"]*"', r"\1", body)


def test_every_refused_code_gets_the_same_404(client, refused_codes):
    bodies = set()
    for reason, code in refused_codes.items():
        response = client.get(reverse("table:entry", args=[code]))
        assert response.status_code == 404, reason
        bodies.add(without_typed_code(without_csrf(html(response))))
        typed = client.post(reverse("table:code"), {"code": code})
        assert typed.status_code == 404, reason
        bodies.add(without_typed_code(without_csrf(html(typed))))
    assert len(bodies) == 1
    body = bodies.pop()
    assert "This code opens no sheet now" in body
    assert "ask the organiser" in body


def code_box(body: str) -> str:
    (box,) = re.findall(r'<input id="code"[^>]*>', body)
    return box


@pytest.mark.parametrize(
    ("typed", "box"),
    [
        ("k7qm-3rxd", 'value="k7qm-3rxd"'),
        ("  ZZZZ ZZZZ ", 'value="ZZZZ ZZZZ"'),
        ('"><script>alert(1)</script>', 'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'),
        ("A" * 40, None),
        ("ABCD\x00EFGH", None),
        ("ABCD\nEFGH", None),
    ],
    ids=["mistyped", "spaced", "markup", "longer than the box", "NUL", "two lines"],
)
def test_a_wrong_code_is_given_back_in_the_box(client, table, typed, box):
    """The code is corrected where it was typed, not typed again; junk the box cannot
    hold is not given back."""
    response = client.post(reverse("table:code"), {"code": typed})
    assert response.status_code == 404
    given_back = code_box(html(response))
    if box is None:
        assert "value=" not in given_back
    else:
        assert box in given_back
    assert 'maxlength="32"' in given_back


def test_a_refused_link_gives_its_code_back_in_the_box(client, refused_codes):
    code = refused_codes["confirmed, released"]
    response = client.get(reverse("table:entry", args=[code]))
    assert f'value="{code}"' in code_box(html(response))


def test_the_code_page_starts_with_an_empty_box(client):
    assert "value=" not in code_box(html(client.get(reverse("table:code"))))


def test_table_entry_turned_off_refuses_the_code_alike(client, table, refused_codes):
    wrong = html(client.get(reverse("table:entry", args=[refused_codes["wrong"]])))
    tournament = table.round.tournament
    tournament.table_entry = False
    tournament.save()
    for name, args in [("entry", ()), ("deal", (1,)), ("review", ()), ("confirm", ())]:
        response = client.get(url(name, table, *args))
        assert response.status_code == 404, name
        assert without_typed_code(without_csrf(html(response))) == without_typed_code(
            without_csrf(wrong)
        )
    response = post_deal(client, table, 1, ROWS[0], expected=0)
    assert response.status_code == 404
    assert not Sheet.objects.filter(table=table).exists()


def test_a_code_stops_working_once_its_sheet_is_confirmed(phone, table, scorer):
    type_sheet(phone, table)
    submit(phone, table)
    confirm_sheet(table, scorer, expected_version=version(table))
    assert phone.get(url("entry", table)).status_code == 404
    assert post_deal(phone, table, 1, ROWS[0]).status_code == 404


def test_a_renewed_code_replaces_the_old_one(phone, table):
    old = table.code
    new = table_entry.renew_code(table)
    assert phone.get(reverse("table:entry", args=[old])).status_code == 404
    assert phone.get(reverse("table:entry", args=[new])).status_code == 200


@pytest.mark.usefixtures("one_window")
def test_the_wrong_code_limit_counts_without_crashing(rf):
    """``is_ratelimited`` needs a method to count for (it crashed with None)."""
    request = rf.get("/e/ZZZZZZZZ/", REMOTE_ADDR="10.0.0.9")
    results = [table_entry.wrong_code_limit(request, count=True) for _ in range(21)]
    assert results == [False] * 20 + [True]
    assert table_entry.wrong_code_limit(request, count=False)


@pytest.mark.usefixtures("_backs_up", "one_window")
def test_too_many_wrong_codes_from_one_address_wait_a_minute(table):
    guesser = Client()
    for attempt in range(20):
        assert guesser.get(f"/e/ZZZZZZ{attempt:02d}/").status_code == 404
    response = guesser.get("/e/ZZZZZZ99/")
    assert response.status_code == 429
    assert "Wait a minute" in html(response)
    # Past the limit, a right code from a phone that never opened it is not looked up
    # either: otherwise a guesser would learn which guess was right.
    assert guesser.get(url("entry", table)).status_code == 429
    assert guesser.post(reverse("table:code"), {"code": table.code}).status_code == 429


@pytest.mark.usefixtures("one_window")
def test_a_phone_that_opened_its_table_carries_on_past_the_limit(phone, table):
    assert phone.get(url("entry", table)).status_code == 200
    stranger = Client()
    for attempt in range(21):
        stranger.get(f"/e/ZZZZZZ{attempt:02d}/")
    # Same address (the pub's wifi): the stranger is held up, this phone is not.
    assert stranger.get("/e/ZZZZZZZZ/").status_code == 429
    assert phone.get(url("entry", table)).status_code == 200
    assert post_deal(phone, table, 1, ROWS[0]).status_code == 302


# Typing deals ---------------------------------------------------------------------------


def test_a_deal_is_saved_as_a_draft_by_the_phone(phone, table):
    response = post_deal(phone, table, 1, ROWS[0])
    assert response.status_code == 302
    assert response.url == url("deal", table, 2)
    saved = sheet(table)
    assert saved.status == SheetStatus.DRAFT
    assert saved.entered_by_phone == 1
    assert saved.entered_by is None
    assert saved.pending == [ROWS[0]]
    page = html(phone.get(url("entry", table)))
    assert "Being typed on this phone (phone 1): 1 of 4 deals" in page
    history = html(_scorer(table).get(_history(table)))
    assert "table 1, phone 1" in history


def _scorer(table):
    client = Client()
    client.force_login(table.round.tournament.owner)
    return client


def _history(table):
    return reverse("scorer:history", args=["club-night", 1, table.number])


def test_a_deal_that_does_not_add_up_is_shown_again_naming_it(phone, table):
    post_deal(phone, table, 1, ROWS[0])
    wrong = {"won": [12, 10, 10, 10], "last_in": 1, "left_over": 8}  # 50
    response = post_deal(phone, table, 2, wrong)
    assert response.status_code == 422
    page = html(response)
    assert "Deal 2: cards won plus left over is 50, not 52" in page
    assert "Deal 2 was not saved" in page
    # The typed counts are kept, marked; deal 1 is not lost.
    assert 'name="d2_s1" value="12"' in page
    assert page.count('aria-invalid="true"') == table.size + 1
    assert sheet(table).pending == [ROWS[0]]
    assert post_deal(phone, table, 2, ROWS[1]).status_code == 302
    assert sheet(table).pending == ROWS[:2]


def test_a_blank_deal_is_refused_with_the_reason(phone, table):
    response = phone.post(url("deal", table, 1), {"expected_version": 0})
    assert response.status_code == 422
    assert "Deal 1: nothing typed yet" in html(response)
    assert not Sheet.objects.filter(table=table).exists()


def test_the_running_totals_show_the_other_deals(phone, table):
    type_sheet(phone, table, ROWS[:2])
    page = html(phone.get(url("deal", table, 3)))
    # Seat 1 won 10 + 12 cards; seat 4 was last in at deal 1 with 28 left over: 14 points.
    assert "<td>22</td>" in page
    assert "<td>14</td>" in page
    assert "The 2 other deals saved" in page


def test_a_deal_number_beyond_the_round_goes_back_to_the_table(phone, table):
    response = phone.get(url("deal", table, 5))
    assert response.status_code == 302
    assert response.url == url("entry", table)
    follow = phone.get(response.url)
    assert "A table of 4 plays 4 deals: there is no deal 5." in html(follow)


def test_a_stale_version_gets_the_conflict_showing_both(phone, second_phone, table):
    post_deal(phone, table, 1, ROWS[0])
    stale = version(table)
    post_deal(second_phone, table, 2, ROWS[1])
    response = post_deal(phone, table, 2, MISTYPED[1], expected=stale)
    assert response.status_code == 409
    page = html(response)
    assert "The sheet changed while you were typing" in page
    assert "Table 1, phone 2 saved it meanwhile" in page
    assert "seat 3 10," in page  # theirs
    assert 'name="d2_s3" value="12"' in page  # mine, kept
    assert f'name="expected_version" value="{version(table)}"' in page
    assert sheet(table).pending == ROWS[:2]


# Submitting -------------------------------------------------------------------------------


def test_submitting_awaits_confirmation_entered_by_the_phone(phone, table):
    type_sheet(phone, table)
    review = html(phone.get(url("review", table)))
    assert "Submit the sheet" in review
    response = submit(phone, table)
    assert response.status_code == 302
    assert response.url == reverse("table:thanks")
    thanks = html(phone.get(response.url))
    assert "Submitted by table 1 (phone 1): a scorer at the desk confirms it" in thanks
    saved = sheet(table)
    assert (saved.status, saved.entered_by_phone) == (SheetStatus.ENTERED, 1)
    assert "Submitted by this phone (phone 1)" in html(phone.get(url("entry", table)))
    desk = html(_scorer(table).get(reverse("scorer:desk", args=["club-night", 1])))
    assert "Submitted by the table" in desk


def test_an_incomplete_sheet_is_not_submitted_and_says_why(phone, table):
    type_sheet(phone, table, ROWS[:2])
    response = submit(phone, table)
    assert response.status_code == 422
    page = html(response)
    assert "Deals 3–4 are empty: fill them in, or mark the table as stopped early" in page
    assert sheet(table).status == SheetStatus.DRAFT
    # Stopped early at the end of... deal 2 (not a rotation): submitted with the warning.
    assert submit(phone, table, stopped_early="on").status_code == 302
    assert sheet(table).stopped_early


def test_a_retried_deal_with_its_key_is_saved_once(phone, table):
    for _ in range(2):
        response = post_deal(phone, table, 1, ROWS[0], key="deal-one-key", expected=0)
        assert response.status_code == 302
    assert SheetVersion.objects.filter(sheet__table=table).count() == 1


def test_a_retried_submission_after_confirmation_is_told_it_was_saved(phone, table, scorer):
    type_sheet(phone, table)
    expected = version(table)
    data = {"expected_version": expected, "key": "submit-key-1"}
    assert phone.post(url("review", table), data).status_code == 302
    confirm_sheet(table, scorer, expected_version=version(table))
    # The answer was lost; the phone sends it again once the sheet counts.
    again = phone.post(url("review", table), data)
    assert again.status_code == 302
    assert again.url == reverse("table:thanks")
    assert "this was already saved" in html(phone.get(again.url))
    assert SheetVersion.objects.filter(sheet__table=table, key="submit-key-1").count() == 1
    # With script (keep.js): told where to go, not redirected.
    scripted = phone.post(url("review", table), data, HTTP_HX_REQUEST="true")
    assert scripted.status_code == 200
    assert scripted["HX-Redirect"] == reverse("table:thanks")


def test_a_submission_refused_because_entry_was_turned_off_meanwhile(phone, table, monkeypatch):
    type_sheet(phone, table)
    before = version(table)
    # Turned off between the phone's page opening the code and the save's locks.
    real = saving.check_may

    def turned_off_meanwhile(table_, sheet_, author, act):
        Tournament.objects.filter(pk=table_.round.tournament_id).update(table_entry=False)
        table_.round.tournament.table_entry = False
        real(table_, sheet_, author, act)

    monkeypatch.setattr(saving, "check_may", turned_off_meanwhile)
    response = submit(phone, table)
    assert response.status_code == 409
    page = html(response)
    assert "This sheet can no longer be changed at the table" in page
    assert "Nothing was saved" in page
    assert (version(table), sheet(table).status) == (before, SheetStatus.DRAFT)
    # The code no longer opens the sheet: no link back to it.
    assert url("entry", table) not in page
    assert "hand it in at the desk" in page


def test_a_submission_as_the_round_is_released_meanwhile_is_saved(phone, table, monkeypatch):
    type_sheet(phone, table)
    real = saving.check_may

    def released_meanwhile(table_, sheet_, author, act):
        Round.objects.filter(pk=table_.round_id).update(released=True)
        table_.round.released = True
        real(table_, sheet_, author, act)

    monkeypatch.setattr(saving, "check_may", released_meanwhile)
    response = submit(phone, table)
    assert response.status_code == 302
    assert sheet(table).status == SheetStatus.ENTERED
    thanks = html(phone.get(response.url))
    assert "results are already released, so a scorer at the desk confirms it" in thanks


# Confirming from a second phone -------------------------------------------------------------


def test_a_second_phone_confirms_by_retyping_blind(phone, second_phone, table, confirm_at_table):
    type_sheet(phone, table)
    submit(phone, table)
    entry = html(second_phone.get(url("entry", table)))
    assert "Confirm it: re-type it blind" in entry
    page = html(second_phone.get(url("confirm", table)))
    # Blind: none of the entered numbers are in the form.
    assert 'value="28"' not in page
    assert 'name="d4_left_over" value=""' in page
    response = retype(second_phone, table, ROWS)
    assert response.status_code == 302
    assert "Confirmed by table 1, phone 2" in html(second_phone.get(response.url))
    saved = sheet(table)
    assert (saved.status, saved.entered_by_phone, saved.confirmed_by_phone) == (
        SheetStatus.CONFIRMED,
        1,
        2,
    )
    history = html(_scorer(table).get(_history(table)))
    assert "table 1, phone 2" in history
    assert "Confirmed" in history


def test_a_mismatch_is_shown_to_both_phones(phone, second_phone, table, confirm_at_table):
    type_sheet(phone, table)
    submit(phone, table)
    second_phone.get(url("entry", table))
    response = retype(second_phone, table, MISTYPED)
    assert response.status_code == 422
    page = html(response)
    assert "2 cells differ" in page
    name = table.seats.get(position=3).player.name
    assert f"Deal 2, seat 3 ({name})" in page
    assert sheet(table).status == SheetStatus.ENTERED
    first = html(phone.get(url("entry", table)))
    assert "Table 1, phone 2's blind re-type differs" in first
    assert f"Deal 2, seat 3 ({name})" in first
    assert "Deal 2, left over" in first
    second = html(second_phone.get(url("entry", table)))
    assert "Re-type it again" in second
    assert f"Deal 2, seat 3 ({name})" in second
    # Settled from the paper: the second phone mistyped, re-types, and it counts.
    assert retype(second_phone, table, ROWS).status_code == 302
    assert sheet(table).status == SheetStatus.CONFIRMED


def test_the_phone_that_submitted_cannot_confirm_it(phone, table, confirm_at_table):
    type_sheet(phone, table)
    submit(phone, table)
    page = html(phone.get(url("confirm", table)))
    assert "This phone submitted the sheet" in page
    response = retype(phone, table, ROWS)
    assert response.status_code == 409
    assert "This phone submitted the sheet" in html(response)
    assert sheet(table).status == SheetStatus.ENTERED


def test_without_table_confirm_a_phone_is_told_a_scorer_confirms(phone, second_phone, table):
    type_sheet(phone, table)
    submit(phone, table)
    entry = html(second_phone.get(url("entry", table)))
    assert "awaiting confirmation by a scorer at the desk" in entry
    assert "re-type it blind" not in entry
    response = retype(second_phone, table, ROWS)
    assert response.status_code == 409
    assert "confirmed by a scorer at the desk, not at the table" in html(response)
    assert sheet(table).status == SheetStatus.ENTERED


def test_a_scorers_sheet_is_not_confirmed_from_a_phone(
    second_phone, table, scorer, confirm_at_table
):
    save_sheet(table, scorer, ROWS, expected_version=0, final=True)
    entry = html(second_phone.get(url("entry", table)))
    assert "Entered by a scorer at the desk" in entry
    assert retype(second_phone, table, ROWS).status_code == 409
    assert sheet(table).status == SheetStatus.ENTERED
    # Nor changed: the deal pages send the phone back to the table's page.
    response = second_phone.get(url("deal", table, 1))
    assert response.status_code == 302
    assert response.url == url("entry", table)


def test_an_incomplete_blind_retype_compares_nothing(phone, second_phone, table, confirm_at_table):
    type_sheet(phone, table)
    submit(phone, table)
    response = retype(second_phone, table, ROWS[:3])
    assert response.status_code == 422
    assert "Deal 4 is not complete" in html(response)
    assert sheet(table).retyped == []
