"""Faster typing at the desk: where the cursor starts, problems that link to their deal,
cells that say where they are, and the review page's totals to compare with the paper."""

import re

from tests.pages import ROWS, enter, footer_row, form, inputs, url


def autofocused(response):
    return [name for name, attrs in inputs(response).items() if "autofocus" in attrs]


def test_a_new_sheet_opens_with_the_first_cell_focused(scorer_client, seated_round):
    assert autofocused(scorer_client.get(url("sheet"))) == ["d1_s1"]


def test_a_draft_opens_at_its_first_empty_cell(scorer_client, seated_round):
    draft = form(action="draft", d2_s3="", d2_left_over="", d3_s1="")
    assert scorer_client.post(url("sheet"), draft).status_code == 302
    assert autofocused(scorer_client.get(url("sheet"))) == ["d2_s3"]


def test_a_full_sheet_focuses_no_cell(scorer_client, seated_round):
    assert scorer_client.post(url("sheet"), form(action="draft")).status_code == 302
    assert autofocused(scorer_client.get(url("sheet"))) == []


def test_each_cell_says_where_it_is_for_the_refusal_of_a_pasted_word(scorer_client, seated_round):
    shown = inputs(scorer_client.get(url("sheet")))
    assert shown["d3_s2"]["data-where"] == "deal 3, seat 2"
    assert shown["d4_left_over"]["data-where"] == "deal 4, left over"
    assert shown["d1_last_in"]["data-where"] == "deal 1, last in"
    assert 'id="typed-refusal"' in scorer_client.get(url("sheet")).content.decode()


def test_each_problem_links_to_its_deals_first_cell(scorer_client, seated_round):
    response = scorer_client.post(
        url("sheet"),
        form(d3_s2="1O", d4_s1="", d4_s2="", d4_s3="", d4_s4="", d4_left_over="", d4_last_in=""),
    )
    assert response.status_code == 422
    page = response.content.decode()
    summary = re.search(r'<ul class="problems">(.*?)</ul>', page, re.S)[1]
    links = re.findall(r'<a class="problem-link" href="#(\w+)">(.*?)</a>', summary)
    assert links == [
        ("d3_s1", "deal 3: seat 2: “1O” is not a whole number"),
        ("d4_s1", "deals 4–4 are empty: fill them in, or mark the table as stopped early"),
    ]
    # The note under deal 3's row links there too.
    assert '<a class="problem-link" href="#d3_s1">deal 3: seat 2: “1O”' in page


def test_the_live_checks_problems_link_to_their_deal(scorer_client, seated_round):
    response = scorer_client.post(url("check"), form(d2_s1="3"), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert '<a class="problem-link" href="#d2_s1">deal 2: seat 1: 3 cards won is odd' in page


def test_the_review_page_totals_every_deal_to_compare_with_the_paper(
    scorer_client, second_scorer_client, seated_round
):
    enter(scorer_client)
    response = second_scorer_client.get(url("confirm"), {"mode": "review"})
    page = response.content.decode()
    cards = [sum(row["won"][seat] for row in ROWS) for seat in range(4)]
    left_over = sum(row["left_over"] for row in ROWS)
    assert footer_row(page, "cards") == [*map(str, cards), str(left_over), ""]
    assert "Totals over all deals: compare them with the totals on the paper." in page


def test_the_blind_retype_opens_with_the_first_cell_focused(
    scorer_client, second_scorer_client, seated_round
):
    enter(scorer_client)
    response = second_scorer_client.get(url("confirm"), {"mode": "retype"})
    assert autofocused(response) == ["d1_s1"]
    assert "<tfoot>" not in response.content.decode()  # totals would tell the numbers
