"""Pages say where you are: a refused form starts with why (its error summary, first in the
page's main content, the element static/js/focus.js focuses: ``data-error-summary``), and
nothing else takes the focus from it; each deal saved at the table says so on the next
deal's page, and a save that static/js/keep.js sent again once the network was back says
that it went through.

Through the Django client, as a phone or a desk without JavaScript would use the pages
(the script's part is in tests/browser/test_where_you_are.py).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import ROWS, form
from tests.pages import url as desk_url
from tests.phone import MISTYPED, cells, retype, submit, type_sheet, url, version
from tournament.kernel.http import RESENT_HEADER
from tournament.models import Table

RESENT = {"HX-Request": "true", RESENT_HEADER: "1"}


@pytest.fixture
def table(seated_round):
    return Table.objects.get(round=seated_round, number=1)


@pytest.fixture
def second_phone(_backs_up):
    return Client()


def first_in_main(page: str) -> str:
    """The opening tag of the first thing in the page's main content: the first message
    the page was sent on with, or the first element of the page's own (in a phone
    page's column)."""
    main = page.split('<main id="main" tabindex="-1">', 1)[1]
    containers = ('<ul class="messages">', '<div class="phone-page')
    return next(tag for tag in re.findall(r"<[a-z][^>]*>", main) if not tag.startswith(containers))


def starts_with_its_summary(page: str) -> None:
    assert "data-error-summary" in first_in_main(page), first_in_main(page)
    assert page.count("data-error-summary") == 1
    assert page.index("data-error-summary") < page.index("<h1")
    assert " autofocus" not in page  # nothing takes the focus from the summary


def deal(client, table, number, row, **extra):
    data = {**cells(number, row), "expected_version": version(table)}
    return client.post(url("deal", table, number), data, **extra)


# Saved ------------------------------------------------------------------------------------


def test_each_saved_deal_says_so_on_the_next_deals_page_once(client, table):
    page = deal(client, table, 1, ROWS[0], follow=True).content.decode()
    assert '<h1>Deal 2 <span class="of">of 4</span></h1>' in page
    assert '<li class="success">Deal 1 saved ✓</li>' in page
    assert "Deal 1 saved" not in client.get(url("deal", table, 2)).content.decode()
    for number in (2, 3):
        deal(client, table, number, ROWS[number - 1], follow=True)
    review = deal(client, table, 4, ROWS[3], follow=True).content.decode()
    assert "<h1>Review the sheet</h1>" in review
    assert '<li class="success">Deal 4 saved ✓</li>' in review


def test_a_deal_sent_again_once_the_network_was_back_says_it_went_through(client, table):
    response = deal(client, table, 1, ROWS[0], headers=RESENT)
    assert response["HX-Redirect"] == url("deal", table, 2)
    page = client.get(response["HX-Redirect"]).content.decode()
    assert '<li class="success">Deal 1 saved ✓ (sent again when the network came back)</li>' in page


def test_a_submission_sent_again_says_it_went_through(client, table):
    type_sheet(client, table)
    response = client.post(
        url("review", table), {"expected_version": version(table)}, headers=RESENT
    )
    thanks = client.get(response["HX-Redirect"]).content.decode()
    assert "Keep the paper sheet for the desk. It was sent again when the network came back." in (
        thanks
    )


def test_a_desk_save_sent_again_says_it_went_through(scorer_client, seated_round):
    response = scorer_client.post(desk_url("sheet"), form(action="draft"), headers=RESENT)
    page = scorer_client.get(response["HX-Redirect"]).content.decode()
    assert "draft saved (version 1). It counts nowhere until it is saved as complete. It was " in (
        page
    )
    assert "It was sent again when the network came back.</li>" in page


# Refused at the table -----------------------------------------------------------------------


def test_a_refused_deal_starts_with_why(client, table):
    deal(client, table, 1, ROWS[0], follow=True)
    response = deal(client, table, 2, {**ROWS[1], "last_in": ""})
    assert response.status_code == 422
    page = response.content.decode()
    starts_with_its_summary(page)
    assert "Deal 2 was not saved" in page
    assert re.search(r'<input id="d2_s1" name="d2_s1" value="12"', page)  # kept as typed


def test_a_deal_page_not_refused_starts_typing_at_seat_one(client, table):
    page = client.get(url("deal", table, 1)).content.decode()
    assert "data-error-summary" not in page
    assert page.count(" autofocus") == 1
    assert re.search(r'<input id="d1_s1"[^>]* autofocus>', page)


def test_a_deal_saved_meanwhile_elsewhere_starts_with_the_conflict(client, second_phone, table):
    deal(client, table, 1, ROWS[0], follow=True)
    stale = version(table)
    deal(second_phone, table, 2, ROWS[1])
    data = {**cells(2, MISTYPED[1]), "expected_version": stale}
    response = client.post(url("deal", table, 2), data)
    assert response.status_code == 409
    starts_with_its_summary(response.content.decode())


def test_a_refused_submission_starts_with_why_and_a_review_only_lists_them(client, table):
    type_sheet(client, table, ROWS[:2])
    review = client.get(url("review", table)).content.decode()
    assert "data-error-summary" not in review
    response = submit(client, table)
    assert response.status_code == 422
    page = response.content.decode()
    starts_with_its_summary(page)
    assert "Deals 3–4 are empty" in page


def test_a_refused_blind_retype_starts_with_why(client, second_phone, table, confirm_at_table):
    type_sheet(client, table)
    client.get(submit(client, table).url)  # the thanks page, and the messages shown
    second = second_phone
    second.get(url("entry", table))
    incomplete = retype(second, table, ROWS[:2])
    assert incomplete.status_code == 422
    starts_with_its_summary(incomplete.content.decode())
    # The phone that submitted it may not confirm it: refused, saying so first.
    mine = retype(client, table, ROWS)
    assert mine.status_code == 409
    starts_with_its_summary(mine.content.decode())
    assert "data-error-summary" not in client.get(url("confirm", table)).content.decode()


def test_an_error_the_page_was_sent_on_with_takes_the_focus(client, table):
    page = client.get(url("deal", table, 9), follow=True).content.decode()
    assert re.search(r'<li class="error" tabindex="-1" data-error-summary>A table of 4 plays', page)
    assert "data-error-summary" in first_in_main(page)


# Refused at the desk --------------------------------------------------------------------------


def test_a_refused_desk_sheet_starts_with_why(scorer_client, seated_round):
    response = scorer_client.post(desk_url("sheet"), form(d2_s1="11"))
    assert response.status_code == 422
    page = response.content.decode()
    starts_with_its_summary(page)
    assert "The sheet was not saved" in page
    assert re.search(r'<a class="problem-link" href="#d2_s1">Deal 2', page)
    fresh = scorer_client.get(desk_url("sheet")).content.decode()
    assert "data-error-summary" not in fresh
    assert " autofocus" in fresh


def test_a_desk_sheet_saved_meanwhile_starts_with_the_conflict(
    scorer_client, second_scorer_client, seated_round
):
    scorer_client.post(desk_url("sheet"), form(action="draft"))
    response = second_scorer_client.post(desk_url("sheet"), form(d1_s1="12", d1_left_over="26"))
    assert response.status_code == 409
    starts_with_its_summary(response.content.decode())


def test_a_refused_desk_confirmation_starts_with_why(
    scorer_client, second_scorer_client, seated_round
):
    scorer_client.post(desk_url("sheet"), form())
    data = {**form(ROWS[:2]), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(desk_url("confirm"), data)
    assert response.status_code == 422
    page = response.content.decode()
    starts_with_its_summary(page)
    assert "Deal 3 is not complete" in page


def test_a_refused_code_says_why_before_its_box(client):
    page = client.post(reverse("table:code"), {"code": "ABCD-EFGH"}).content.decode()
    assert page.index("data-error-summary") < page.index("<form")


# Refused organiser forms ---------------------------------------------------------------------


def test_refused_organiser_forms_start_with_their_summary(organiser_client, seated_round):
    slug = seated_round.tournament.slug
    player = seated_round.tournament.players.first()
    refused = [
        (reverse("organiser:create"), {"name": ""}),
        (reverse("organiser:edit", args=[slug]), {"name": ""}),
        (reverse("organiser:player_edit", args=[slug, player.pk]), {"name": ""}),
        (reverse("organiser:rounds", args=[slug]), {"method": "nonsense"}),
        (reverse("organiser:series_create"), {"name": ""}),
        (reverse("people:add"), {"name": ""}),
    ]
    for address, data in refused:
        response = organiser_client.post(address, data)
        assert response.status_code in (200, 422), (address, response.status_code)
        page = response.content.decode()
        assert "data-error-summary" in first_in_main(page), address
        assert page.index("data-error-summary") < page.index("<h1"), address


def test_a_refused_log_in_starts_with_its_summary(client, organiser):
    page = client.post(reverse("login"), {"username": "olive", "password": "wrong"})
    assert "data-error-summary" in first_in_main(page.content.decode())
