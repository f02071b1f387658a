"""A round released "anyway" with a table unscored (``rounds.services.release_round`` with
``despite_missing``): the table's code stays open, its phones type and submit the sheet,
and only the desk confirms it; the phone's pages say so (the release question's words are
tests/rounds/test_release_missing.py's). And the phone's pages that would link back to a
sheet (the thanks page, a refusal) do so only while its code opens it.

club-night's round 1 seats three tables of four; ``table`` is table 1, unscored when the
round is released. Phones may confirm in this tournament (``confirm_at_table``), so what
the release takes away is visible.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import ROWS
from tests.pages import url as desk_url
from tests.phone import retype, submit, type_sheet, url, version
from tournament.models import Round, Sheet, SheetStatus, Table
from tournament.rounds import services as rounds
from tournament.sheets import at_table as table_entry

# The wrong-code counts live in the cache, which outlives a test.
pytestmark = pytest.mark.usefixtures("empty_cache")


@pytest.fixture
def table(seated_round, confirm_at_table):
    return Table.objects.get(round=seated_round, number=1)


@pytest.fixture
def phone(client):
    return client


@pytest.fixture
def second_phone(_backs_up):
    return Client()


def html(response, status=200):
    assert response.status_code == status, response.content.decode()[:2000]
    return unescape(response.content.decode())


def release_anyway(table):
    round_ = Round.objects.get(pk=table.round_id)
    with pytest.raises(rounds.TablesWithoutResult):
        rounds.release_round(round_)
    rounds.release_round(round_, despite_missing=True)


def status(table):
    sheet = Sheet.objects.filter(table=table).first()
    return sheet.status if sheet else SheetStatus.NOT_STARTED


# A released round keeps an unscored table's code open ------------------------------------


def test_the_code_still_opens_the_sheet_and_says_the_desk_confirms(phone, table):
    release_anyway(table)
    page = html(phone.get(url("entry", table)))
    assert "Round 1's results are already public, without this table's" in page
    assert "a scorer at the desk then confirms it against the paper" in page
    assert f'href="{url("deal", table, 1)}"' in page


def test_a_phone_types_and_submits_and_is_told_the_desk_confirms(phone, table):
    release_anyway(table)
    type_sheet(phone, table)
    review = html(phone.get(url("review", table)))
    assert "Round 1's results are already released: a scorer at the desk then confirms" in review
    assert "or another phone at this table" not in review
    response = submit(phone, table)
    assert response.status_code == 302
    assert status(table) == SheetStatus.ENTERED
    thanks = html(phone.get(response.url))
    assert (
        "Submitted by table 1 (phone 1). Round 1's results are already released, so a scorer "
        "at the desk confirms it against the paper: hand the paper sheet in at the desk."
    ) in thanks
    assert "another phone" not in thanks
    # The code still opens the sheet: the thanks page may link back to it.
    assert f'href="{url("entry", table)}"' in thanks
    entry = html(phone.get(url("entry", table)))
    assert "awaiting confirmation by a scorer at the desk." in entry
    assert "another phone at this table, re-typing it blind" not in entry


def test_no_phone_confirms_a_sheet_of_a_released_round(phone, second_phone, table):
    type_sheet(phone, table)
    submit(phone, table)
    # Before the release a second phone may confirm it...
    assert "Confirm it: re-type it blind" in html(second_phone.get(url("entry", table)))
    release_anyway(table)
    # ...once released, not: it is told the desk confirms it, and nothing is confirmed.
    entry = html(second_phone.get(url("entry", table)))
    assert "Confirm it: re-type it blind" not in entry
    assert "awaiting confirmation by a scorer at the desk" in entry
    assert (
        "Round 1's results are already public, without this table's: it has no result yet. "
        "A scorer at the desk confirms its sheet against the paper"
    ) in entry
    page = html(second_phone.get(url("confirm", table)))
    assert "This round's results are released: a scorer at the desk confirms its sheets" in page
    assert 'name="d1_left_over"' not in page
    refused = retype(second_phone, table, ROWS)
    assert "a scorer at the desk confirms its sheets now, not a phone" in html(refused, 409)
    assert status(table) == SheetStatus.ENTERED


def test_the_desk_confirms_it_and_the_code_closes(phone, table, second_scorer_client):
    release_anyway(table)
    type_sheet(phone, table)
    submit(phone, table)
    response = second_scorer_client.post(
        desk_url("confirm", table.number),
        {"expected_version": str(version(table)), "mode": "review"},
    )
    assert response.status_code == 302
    assert status(table) == SheetStatus.CONFIRMED
    assert phone.get(url("entry", table)).status_code == 404


def test_a_blind_confirmation_as_the_round_is_released_confirms_nothing(phone, second_phone, table):
    """The second phone's page opened before the release; its re-type arrives after."""
    type_sheet(phone, table)
    submit(phone, table)
    second_phone.get(url("confirm", table))
    release_anyway(table)
    refused = html(retype(second_phone, table, ROWS), 409)
    assert "a scorer at the desk confirms its sheets now" in refused
    # The code still opens the sheet: the page leads back to it.
    assert f'href="{url("entry", table)}"' in refused
    assert status(table) == SheetStatus.ENTERED


# Pages link back to a sheet only while its code opens it ---------------------------------


def test_the_thanks_page_links_back_while_the_sheet_awaits_confirmation(phone, table):
    type_sheet(phone, table)
    thanks = html(phone.get(submit(phone, table).url))
    assert f'<a href="{url("entry", table)}">Open the sheet of Round 1 · Table 1 again</a>' in (
        thanks
    )
    assert phone.get(url("entry", table)).status_code == 200


def test_after_confirming_the_thanks_page_offers_no_dead_link(phone, second_phone, table):
    type_sheet(phone, table)
    submit(phone, table)
    thanks = html(second_phone.get(retype(second_phone, table, ROWS).url))
    assert "Confirmed by table 1, phone 2" in thanks
    assert url("entry", table) not in thanks
    assert "is confirmed and counts: its code no longer opens it" in thanks
    assert "A correction is made by a scorer at the desk" in thanks
    # The phone that submitted it, on its own thanks page, is told the same once it counts.
    later = html(phone.get(reverse("table:thanks")))
    assert url("entry", table) not in later
    assert "is confirmed and counts" in later


def test_a_renewed_code_is_not_offered_on_the_thanks_page(phone, table):
    type_sheet(phone, table)
    thanks = submit(phone, table).url
    table_entry.renew_code(table)
    page = html(phone.get(thanks))
    assert "/e/" + table.code not in page
    assert 'href="/e/' + Table.objects.get(pk=table.pk).code not in page
    assert "no longer opens its sheet" in page
    assert "Hand the paper sheet in at the desk" in page


def test_every_link_on_the_thanks_page_opens(phone, second_phone, table):
    """Whatever became of the sheet, each link the thanks page offers answers 200."""
    type_sheet(phone, table)
    submit(phone, table)
    retype(second_phone, table, ROWS)
    for client in (phone, second_phone):
        page = html(client.get(reverse("table:thanks")))
        for href in links(page):
            assert client.get(href).status_code == 200, href


def links(page):
    return [href for href in re.findall(r'href="([^"#]+)"', page) if href.startswith("/e/")]
