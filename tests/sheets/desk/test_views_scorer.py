"""The scorer's pages: entering sheets, the live check, confirming, history, the desk."""

import re

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RoundFactory, TableFactory
from tests.pages import ROWS, enter, footer_row, form, inputs, table, url
from tournament.models import Deal, Round, Seat, Sheet, SheetStatus, SheetVersion, Table
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.saving import save_sheet


def names(table_number=1):
    seats = Seat.objects.filter(table__number=table_number, table__round__number=1)
    return {seat.position: seat.player.name for seat in seats.select_related("player")}


# Who may see what ---------------------------------------------------------------------

PAGES = [
    ("home", "get"),
    ("desk", "get"),
    ("sheet", "get"),
    ("sheet", "post"),
    ("check", "post"),
    ("confirm", "get"),
    ("confirm", "post"),
    ("history", "get"),
]


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_anonymous_visitors_are_sent_to_log_in(client, seated_round, name, method):
    response = getattr(client, method)(url(name))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_outsiders_are_told_the_tournament_does_not_exist(
    outsider_client, seated_round, name, method
):
    response = getattr(outsider_client, method)(url(name), form())
    assert response.status_code == 404
    assert not Sheet.objects.exists()


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("home", "post"),
        ("desk", "post"),
        ("sheet", "put"),
        ("check", "get"),
        ("confirm", "delete"),
        ("history", "post"),
    ],
)
def test_wrong_methods_are_refused(scorer_client, seated_round, name, method):
    assert getattr(scorer_client, method)(url(name)).status_code == 405


def test_the_organiser_may_enter_sheets_too(organiser_client, seated_round):
    assert organiser_client.get(url("sheet")).status_code == 200
    enter(organiser_client)
    assert Sheet.objects.get().entered_by.username == "olive"


@pytest.mark.parametrize("name", ["sheet", "check", "confirm", "desk", "history"])
def test_an_unknown_table_or_round_is_404(scorer_client, seated_round, name):
    method = scorer_client.post if name == "check" else scorer_client.get
    assert method(url(name, table=9, round_number=9), form()).status_code == 404


# The sheet entry page -----------------------------------------------------------------


def test_the_sheet_is_laid_out_like_the_paper(scorer_client, seated_round):
    response = scorer_client.get(url("sheet"))
    assert response.status_code == 200
    page = response.content.decode()
    players = names()
    for position, name in players.items():
        assert f'Seat {position} <span class="sub">{name}</span>' in page
    # Seat 1 deals deal 1, the deal passes to seat 2.
    assert f'<th scope="row">2<span class="sub dealer-name">{players[2]}</span>' in page
    cells = inputs(response)
    typed = [name for name in cells if name.startswith("d")]
    assert typed[:6] == ["d1_s1", "d1_s2", "d1_s3", "d1_s4", "d1_left_over", "d1_last_in"]
    assert len(typed) == 4 * 6
    assert cells["d3_s2"]["inputmode"] == "numeric"
    assert cells["d3_s2"]["pattern"] == "[0-9]*"
    assert cells["expected_version"]["value"] == "0"
    assert 'hx-post="' + url("check") + '"' in page
    assert "static/js/sheet.js" in page
    assert "<script>" not in page
    assert not Sheet.objects.exists()  # looking writes nothing


def test_a_draft_keeps_everything_as_typed(scorer_client, seated_round):
    data = form(ROWS[:2], action="draft", d2_s3="x")
    response = scorer_client.post(url("sheet"), data)
    assert response.status_code == 302
    assert response.url == url("sheet")
    sheet = Sheet.objects.get()
    assert (sheet.status, sheet.version, sheet.pending[1]["won"][2]) == ("draft", 1, "x")
    response = scorer_client.get(url("sheet"))
    assert "draft saved (version 1)" in response.content.decode()
    cells = inputs(response)
    assert cells["d2_s3"]["value"] == "x"
    assert "problem" in cells["d2_s3"]["class"]
    assert "deal 2: seat 3: “x” is not a whole number" in response.content.decode()
    assert cells["expected_version"]["value"] == "1"


def test_a_complete_sheet_awaits_confirmation(scorer_client, seated_round):
    response = enter(scorer_client)
    assert response.url == url("home") + "?round=1"
    response = scorer_client.get(response.url)
    assert "Round 1 · Table 1 saved: it now awaits confirmation" in response.content.decode()
    assert Sheet.objects.get().status == SheetStatus.ENTERED
    assert not Deal.objects.exists()
    response = scorer_client.get(url("sheet"))
    page = response.content.decode()
    assert "Awaiting confirmation:</strong> entered by simon" in page
    assert "A different person must confirm it" in page
    assert inputs(response)["d4_left_over"]["value"] == "22"


@pytest.mark.parametrize(
    ("cells", "message", "marked"),
    [
        ({"d1_s1": "9"}, "deal 1: seat 1: 9 cards won is odd — cards are won in pairs", ["d1_s1"]),
        ({"d1_s2": "-2"}, "deal 1: seat 2: “-2” is not a whole number", ["d1_s2"]),
        ({"d1_s2": "x"}, "deal 1: seat 2: “x” is not a whole number", ["d1_s2"]),
        ({"d1_s3": ""}, "deal 1: seat 3: cards won is missing", ["d1_s3"]),
        (
            {"d2_last_in": "5"},
            "deal 2: last in: seat 5 is not a seat at this table (seats 1–4)",
            ["d2_last_in"],
        ),
        ({"d2_last_in": ""}, "deal 2: last in: missing — which seat was last in?", ["d2_last_in"]),
        ({"d2_last_in": "X"}, "deal 2: last in: “X” is not a seat number", ["d2_last_in"]),
        ({"d2_left_over": ""}, "deal 2: left over: missing", ["d2_left_over"]),
        (
            {"d2_left_over": "1a"},
            "deal 2: left over: “1a” is not a whole number",
            ["d2_left_over"],
        ),
        (
            {"d2_left_over": "9"},
            "deal 2: left over: 9 is odd — cards are left over in pairs",
            ["d2_left_over"],
        ),
        (
            {"d2_left_over": "0"},
            "deal 2: left over: 0 is less than 2 — the last-in player always still holds cards",
            ["d2_left_over"],
        ),
        (
            {"d3_s1": "10"},
            "deal 3: cards won plus left over is 54, not 52",
            ["d3_s1", "d3_s2", "d3_s3", "d3_s4", "d3_left_over"],
        ),
        (
            {f"d2_{cell}": "" for cell in ("s1", "s2", "s3", "s4", "left_over", "last_in")},
            "deal 2: blank, but later deals are filled in",
            [],
        ),
        (
            {f"d4_{cell}": "" for cell in ("s1", "s2", "s3", "s4", "left_over", "last_in")},
            "deals 4–4 are empty: fill them in, or mark the table as stopped early",
            [],
        ),
    ],
)
def test_a_complete_sheet_with_problems_is_shown_again_with_each_problem_in_place(
    scorer_client, seated_round, cells, message, marked
):
    response = scorer_client.post(url("sheet"), form(**cells))
    assert response.status_code == 422
    assert message in response.content.decode()
    shown = inputs(response)
    assert sorted(name for name, attrs in shown.items() if "aria-invalid" in attrs) == sorted(
        marked
    )
    for name, value in form(**cells).items():
        if name.startswith("d"):
            assert shown[name]["value"] == value  # everything typed is kept
    assert not Sheet.objects.exists()


def test_a_blank_count_is_offered_as_derived_never_filled(scorer_client, seated_round):
    response = scorer_client.post(url("sheet"), form(d1_s3=""))
    page = response.content.decode()
    assert "seat 3: 10 (derived so that deal 1 adds up to 52)" in page
    assert 'data-fill="d1_s3" data-value="10"' in page
    blank = inputs(response)["d1_s3"]
    assert (blank["value"], blank["class"]) == ("", "cell missing")


def test_a_derived_count_stays_marked_in_the_draft_and_on_the_confirm_page(
    scorer_client, second_scorer_client, seated_round
):
    data = form(action="draft")
    data = {**data, "derived": ["d1_s3", "d2_left_over", "d9_s1", "d3_s9", "nonsense"]}
    scorer_client.post(url("sheet"), {**data, "d3_s9": ""})
    sheet = Sheet.objects.get()
    assert [row.get("derived") for row in sheet.pending] == [["s3"], ["left_over"], None, None]
    response = scorer_client.get(url("sheet"))
    cells = inputs(response)
    assert "derived" in cells["d1_s3"]["class"]
    assert "derived" in cells["d2_left_over"]["class"]
    assert "derived" not in cells["d1_s2"]["class"]
    page = response.content.decode()
    assert '<input type="hidden" name="derived" value="d1_s3">' in page

    response = scorer_client.post(
        url("sheet"), {**data, "action": "final", "expected_version": "1"}
    )
    assert response.status_code == 302
    page = second_scorer_client.get(url("confirm"), {"mode": "review"}).content.decode()
    assert re.search(r'class="value[^"]*derived" data-cell="d1_s3"[^>]*>10<span', page)
    assert not re.search(r'class="value[^"]*derived" data-cell="d1_s2"', page)


def test_a_row_being_typed_is_not_reported_missing_until_it_is_left(scorer_client, seated_round):
    half = form(ROWS[:2], action="", d2_s3="", d2_s4="", d2_left_over="", d2_last_in="", d1_s2="")
    response = scorer_client.post(url("check"), {**half, "typing": "2"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "deal 2:" not in page
    assert 'data-problem-cells="d1_s2"' in page
    assert "deal 1: seat 2: cards won is missing" in page
    response = scorer_client.post(url("check"), half, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "deal 2: seat 3: cards won is missing" in page
    assert "deal 2: last in: missing" in page
    # Saving checks every cell whatever is being typed.
    response = scorer_client.post(url("sheet"), {**half, "action": "final", "typing": "2"})
    assert response.status_code == 422
    assert "deal 2: seat 3: cards won is missing" in response.content.decode()


def test_a_table_that_stopped_early_is_saved_with_a_warning(scorer_client, seated_round):
    response = scorer_client.post(url("sheet"), form(ROWS[:2], stopped_early="1"), follow=True)
    page = response.content.decode()
    assert "The table stopped after deal 2, not at the end of a rotation: 2 players" in page
    assert Sheet.objects.get().stopped_early


def test_a_full_sheet_marked_stopped_early_is_refused_in_place(scorer_client, seated_round):
    response = scorer_client.post(url("sheet"), form(stopped_early="1"))
    assert response.status_code == 422
    assert "a table that played every deal did not stop early" in response.content.decode()
    assert not Sheet.objects.exists()
    response = scorer_client.post(
        url("check"), form(action="", stopped_early="1"), HTTP_HX_REQUEST="true"
    )
    assert "a table that played every deal did not stop early" in response.content.decode()


def test_the_live_check_and_the_confirm_page_warn_of_a_stop_between_rotations(
    scorer_client, second_scorer_client, seated_round
):
    warning = "The table stopped after deal 3, not at the end of a rotation: 1 player dealt"
    response = scorer_client.post(
        url("check"), form(ROWS[:3], action="", stopped_early="1"), HTTP_HX_REQUEST="true"
    )
    assert warning in response.content.decode()
    scorer_client.post(url("sheet"), form(ROWS[:3], stopped_early="1"))
    response = second_scorer_client.get(url("confirm"))
    assert warning in response.content.decode()
    response = scorer_client.post(url("check"), form(ROWS, action=""), HTTP_HX_REQUEST="true")
    assert "not at the end of a rotation" not in response.content.decode()


def test_saving_is_refused_for_a_round_not_started(scorer_client, seated_round):
    later = RoundFactory(tournament=seated_round.tournament, number=2)
    TableFactory(round=later, number=1, players=list(seated_round.tournament.players.all()[:4]))
    for response in (
        scorer_client.get(url("sheet", round_number=2)),
        scorer_client.post(url("sheet", round_number=2), form()),
    ):
        assert response.status_code == 302
        assert response.url == url("home")
    response = scorer_client.get(url("home"), {"round": 2})
    assert "Round 2 has not started yet" in response.content.decode()
    response = scorer_client.post(url("check", round_number=2), form(), HTTP_HX_REQUEST="true")
    assert response.headers["HX-Redirect"] == url("home")
    assert not Sheet.objects.exists()


def test_a_confirmed_sheet_can_be_corrected_and_says_so(
    scorer_client, second_scorer_client, seated_round
):
    enter(scorer_client)
    second_scorer_client.post(url("confirm"), {"mode": "review", "expected_version": "1"})
    response = scorer_client.get(url("sheet"))
    assert "makes a <strong>correction</strong>" in response.content.decode()
    scorer_client.post(url("sheet"), form(version=2, d1_s2="6", d1_left_over="26"))
    sheet = Sheet.objects.get()
    assert (sheet.status, sheet.version) == (SheetStatus.ENTERED, 3)
    assert confirmed_rows(table())[0]["won"][1] == 4  # the confirmed facts stand


# The live check -----------------------------------------------------------------------


def test_the_live_check_returns_the_report_partial(scorer_client, seated_round):
    data = form(ROWS[:2], action="", d2_s3="")
    response = scorer_client.post(url("check"), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<html" not in page
    assert page.lstrip().startswith('<div id="sheet-check"')
    assert 'data-problem-cells="d2_s3"' in page
    assert "deal 2: seat 3: cards won is missing" in page
    assert 'data-fill="d2_s3" data-value="10"' in page
    assert '<tr id="d1_notes" class="notes" hx-swap-oob="true" hidden>' in page
    assert '<tfoot id="totals" hx-swap-oob="true">' in page
    # The inputs being typed in are never swapped.
    assert "<input" not in page
    # Winner-advantage points of deal 1: the last-in seat 4 takes the 28 left over.
    assert footer_row(page, "points") == ["5", "2", "5", "14", "", ""]
    assert footer_row(page, "cards") == ["10", "4", "10", "0", "28", ""]
    assert not Sheet.objects.exists()


def test_the_check_without_htmx_shows_the_whole_page(scorer_client, seated_round):
    response = scorer_client.post(url("check"), form(d1_s1="9"))
    assert response.status_code == 200
    assert "<html" in response.content.decode()
    assert "problem" in inputs(response)["d1_s1"]["class"]


# Two scorers at once ------------------------------------------------------------------


def test_a_save_from_an_old_copy_shows_both_copies(
    scorer_client, second_scorer_client, seated_round
):
    # A draft: a sheet that awaits confirmation is not shown to who may confirm it
    # blind (tests/sheets/test_blind_confirmation.py).
    scorer_client.post(url("sheet"), form(action="draft"))
    theirs = form(d1_s1="12", d1_left_over="26")
    response = second_scorer_client.post(url("sheet"), theirs)
    assert response.status_code == 409
    page = response.content.decode()
    assert "This sheet changed while you were typing" in page
    assert "changed by simon while you were typing" in page
    cells = inputs(response)
    assert cells["d1_s1"]["value"] == "12"  # what this scorer typed is kept
    assert "differs" in cells["d1_s1"]["class"]
    assert "saved: 10" in page
    assert '<td class="value dealing differs" data-cell="d1_s1">10</td>' in page
    assert cells["expected_version"]["value"] == "1"
    assert Sheet.objects.get().pending[0]["won"][0] == 10
    # Saving again, with both in view, is a deliberate choice.
    response = second_scorer_client.post(url("sheet"), {**theirs, "expected_version": "1"})
    assert response.status_code == 302
    assert Sheet.objects.get().pending[0]["won"][0] == 12


def test_a_double_submit_records_once(scorer_client, seated_round):
    enter(scorer_client)
    response = scorer_client.post(url("sheet"), form(), follow=True)
    assert "already saved with these numbers" in response.content.decode()
    assert SheetVersion.objects.count() == 1


# Confirming ---------------------------------------------------------------------------


def test_the_person_who_entered_cannot_confirm(scorer_client, seated_round):
    enter(scorer_client)
    response = scorer_client.get(url("confirm"))
    assert "a different person must confirm it" in response.content.decode()
    assert '<form method="post" class="confirm-form">' not in response.content.decode()
    response = scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "1"}, follow=True
    )
    assert "You entered this sheet: a different person must confirm it" in (
        response.content.decode()
    )
    assert Sheet.objects.get().status == SheetStatus.ENTERED


def test_a_blind_retype_that_differs_highlights_cells_and_saves_nothing(
    scorer_client, second_scorer_client, seated_round
):
    enter(scorer_client)
    response = second_scorer_client.get(url("confirm"), {"mode": "retype"})
    cells = inputs(response)
    assert cells["d1_s1"]["value"] == ""
    assert ">28<" not in response.content.decode()  # blind: nothing entered is shown
    data = {**form(d1_s1="12", d1_left_over="26"), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert "2 cells differ from the sheet as entered" in page
    cells = inputs(response)
    assert "mismatch" in cells["d1_s1"]["class"]
    assert "mismatch" in cells["d1_left_over"]["class"]
    assert "mismatch" not in cells["d1_s2"]["class"]
    assert cells["d1_s1"]["value"] == "12"
    assert "entered: 10" in page
    assert "entered: 28" in page
    assert Sheet.objects.get().status == SheetStatus.ENTERED
    assert not Deal.objects.exists()
    response = second_scorer_client.post(url("confirm"), {**data, "d1_left_over": "28"})
    assert "1 cell differs from the sheet as entered" in response.content.decode()


def test_half_a_blind_retype_is_not_compared(scorer_client, second_scorer_client, seated_round):
    enter(scorer_client)
    data = {**form(ROWS[:2]), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert "Deal 3 is not complete" in page
    assert "entered:" not in page


def test_a_matching_blind_retype_confirms(scorer_client, second_scorer_client, seated_round):
    enter(scorer_client)
    data = {**form(), "mode": "retype", "expected_version": "1"}
    response = second_scorer_client.post(url("confirm"), data)
    assert response.status_code == 302
    assert Sheet.objects.get().status == SheetStatus.CONFIRMED
    assert Deal.objects.count() == 4


def test_a_review_against_the_paper_confirms(scorer_client, second_scorer_client, seated_round):
    enter(scorer_client)
    response = second_scorer_client.get(url("confirm"), {"mode": "review"})
    page = response.content.decode()
    assert "Confirm: matches the paper" in page
    assert 'data-cell="d1_left_over">28<' in page
    response = second_scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "1"}, follow=True
    )
    assert "Round 1 · Table 1 confirmed" in response.content.decode()
    sheet = Sheet.objects.get()
    assert (sheet.status, sheet.confirmed_by.username) == (SheetStatus.CONFIRMED, "sarah")
    assert confirmed_rows(table()) == ROWS
    response = second_scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "1"}, follow=True
    )
    assert "already confirmed" in response.content.decode()


def test_nothing_to_confirm_says_so(second_scorer_client, seated_round):
    response = second_scorer_client.get(url("confirm"))
    assert "This sheet is not awaiting confirmation: it is not started" in (
        response.content.decode()
    )
    response = second_scorer_client.post(
        url("confirm"), {"mode": "review", "expected_version": "0"}, follow=True
    )
    assert "This sheet is not awaiting confirmation" in response.content.decode()


# History ------------------------------------------------------------------------------


def test_the_history_lists_every_version_with_changes_in_words(
    scorer_client, second_scorer_client, seated_round
):
    enter(scorer_client)
    second_scorer_client.post(url("confirm"), {"mode": "review", "expected_version": "1"})
    scorer_client.post(url("sheet"), form(version=2, d1_s2="6", d1_left_over="26"))
    response = scorer_client.get(url("history"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Version 1: Entered, awaiting confirmation</strong> by simon" in page
    assert "Version 2: Confirmed</strong> by sarah" in page
    assert "Version 3: Correction entered, awaiting confirmation</strong> by simon" in page
    assert f"deal 1, seat 2 ({names()[2]}): 4 → 6" in page
    assert "deal 1, left over: 28 → 26" in page
    assert "deal 4 added: cards won 20, 0, 4, 6; left over 22; last in 3" in page


# The scorer's home and the round desk ---------------------------------------------------


def test_home_lists_the_tables_of_the_latest_started_round(scorer_client, seated_round):
    enter(scorer_client)
    Round.objects.create(tournament=seated_round.tournament, number=2)
    response = scorer_client.get(url("home"))
    page = response.content.decode()
    assert "Round 2 (not started)" in page
    assert f'href="{url("sheet", table=3)}"' in page
    assert '<span class="status">Entered by a scorer</span>' in page
    assert f'href="{url("confirm")}"' in page
    assert scorer_client.get(url("home"), {"round": "9"}).status_code == 404


def test_the_desk_shows_every_table_and_refreshes_itself(
    scorer_client, organiser_client, seated_round
):
    enter(scorer_client)
    scorer_client.post(url("sheet", table=2), form(ROWS[:1], action="draft"))
    response = organiser_client.get(url("desk"))
    page = response.content.decode()
    assert 'hx-trigger="every 5s"' in page
    assert f'href="{url("desk")}">Refresh now</a>' in page
    assert "Not yet confirmed: tables 1, 2, 3." in page
    desk = {row["number"]: row for row in response.context["desk_table"].data}
    assert [desk[n]["status_label"] for n in (1, 2, 3)] == [
        "Entered by a scorer",
        "Being entered by a scorer",
        "Not started",
    ]
    assert (desk[1]["entered_by"], desk[1]["deals"], desk[2]["deals"]) == ("simon", 4, 1)
    response = organiser_client.get(url("desk"), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="desk"')
    assert "<html" not in page


def test_the_desk_shows_no_time_for_sheets_nobody_has_saved(
    scorer_client, organiser_client, seated_round
):
    # Seating creates the sheets of a round before anyone types one in.
    Sheet.objects.bulk_create(Sheet(table=t) for t in seated_round.tables.all())
    enter(scorer_client)
    response = organiser_client.get(url("desk"))
    desk = {row["number"]: row for row in response.context["desk_table"].data}
    assert desk[1]["updated"] is not None
    assert (desk[2]["updated"], desk[3]["updated"]) == (None, None)
    page = response.content.decode()
    saved, unsaved = (re.search(rf'data-table="{n}">(.*?)</tr>', page, re.S)[1] for n in (1, 2))
    assert re.search(
        r'<td class="status">.*<time datetime="[^"]+" title="[^"]+">just now</time>', saved
    )
    assert "<time" not in unsaved


def _more_tables(round_, count):
    tournament = round_.tournament
    start = Table.objects.filter(round=round_).count()
    for number in range(start + 1, start + count + 1):
        players = [PlayerFactory(tournament=tournament, ref=f"t{number}s{i}") for i in range(5)]
        TableFactory(round=round_, number=number, players=players)


def test_the_desk_costs_the_same_queries_however_many_tables(
    scorer_client, organiser_client, seated_round, django_assert_num_queries
):
    enter(scorer_client)
    with django_assert_num_queries(6):
        organiser_client.get(url("desk"), HTTP_HX_REQUEST="true")
    _more_tables(seated_round, 5)
    scorer_client.post(url("sheet", table=5), form(ROWS[:1], action="draft"))
    with django_assert_num_queries(6):
        response = organiser_client.get(url("desk"), HTTP_HX_REQUEST="true")
    assert len(response.context["desk_table"].data) == 8


@pytest.mark.parametrize("size", [4, 5, 6])
@pytest.mark.parametrize(("state", "queries"), [("draft", 8), ("entered", 8), ("confirmed", 9)])
def test_the_sheet_page_costs_the_same_queries_whatever_the_table_size(
    scorer,
    second_scorer,
    scorer_client,
    seated_round,
    django_assert_num_queries,
    size,
    state,
    queries,
):
    new = TableFactory(round=seated_round, number=4, size=size)
    rows = [{"won": [2] * size, "last_in": 1, "left_over": 52 - 2 * size}] * size
    save_sheet(new, scorer, rows, expected_version=0, final=state != "draft")
    if state == "confirmed":
        confirm_sheet(new, second_scorer, expected_version=1)
    with django_assert_num_queries(queries):
        response = scorer_client.get(url("sheet", table=4))
    assert len(response.context["rows"]) == size
    assert response.context["sheet"].status == state
