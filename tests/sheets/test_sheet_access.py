"""Who may write a score sheet in which stage (``sheets.access``): the table in
docs/score-sheets.md checked against the rule cell by cell, then every pair of writer
(phone, scorer, organiser) and stage (not started, draft, entered, confirmed,
correction draft, correction entered) through the real pages, in a round before and
after its release.

club-night's round 1 seats three tables of four (four deals each); its tournament has
table entry, phones confirming and the two-person check on.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.pages import sheet_cells
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import Round, Sheet, SheetStatus, SheetVersion, Table
from tournament.sheets.access import Act, SheetFacts, Stage, Writer, refusal
from tournament.sheets.authors import AtTable, ClosedAtTableError
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.reading import peek_sheet
from tournament.sheets.saving import save_sheet

ROWS = [
    {"won": [10, 4, 10, 0], "last_in": 4, "left_over": 28},
    {"won": [12, 10, 10, 10], "last_in": 1, "left_over": 10},
    {"won": [8, 8, 8, 8], "last_in": 2, "left_over": 20},
    {"won": [20, 0, 4, 6], "last_in": 3, "left_over": 22},
]
# The same four deals with deal 1's first two counts swapped (still 52 cards).
CORRECTED = [{"won": [4, 10, 10, 0], "last_in": 4, "left_over": 28}, *ROWS[1:]]


# The table in the docs ----------------------------------------------------------------

DOC = Path(settings.BASE_DIR) / "docs" / "score-sheets.md"


# A column's heading after the writer and the act: the round it holds in (None: either).
RELEASE = {"before the release": False, "once released": True}


def doc_table() -> dict[tuple[Stage, Writer, Act, bool | None], str]:
    """Each cell of the "Who may do what" table, by stage, writer, act and whether the
    round is released (None for a column that holds either way)."""
    text = DOC.read_text(encoding="utf-8").split("## Who may do what", 1)[1]
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    columns = []
    for heading in header[1:]:
        writer, act = heading.split(": ")
        act, _, released = act.partition(", ")
        columns.append((Writer(writer), Act(act), RELEASE[released] if released else None))
    cells = {}
    for line in lines[2:]:
        stage, *values = (cell.strip() for cell in line.strip("|").split("|"))
        for (writer, act, released), value in zip(columns, values, strict=True):
            cells[Stage(stage), writer, act, released] = value
    return cells


def releases(released: bool | None) -> tuple[bool, ...]:
    """The rounds a column holds in: released or not, or both."""
    return (False, True) if released is None else (released,)


# What each wording in the table allows, given who entered the sheet and where.
WORDINGS = {
    "yes": lambda entered_it, at_table, phones_confirm: True,
    "no": lambda entered_it, at_table, phones_confirm: False,
    "the phone that entered it": lambda entered_it, at_table, phones_confirm: entered_it,
    "someone else": lambda entered_it, at_table, phones_confirm: not entered_it,
    "another phone, blind, where phones confirm and a phone entered it": (
        lambda entered_it, at_table, phones_confirm: not entered_it and at_table and phones_confirm
    ),
}

TABLE = doc_table()


def test_the_doc_table_covers_every_writer_act_stage_and_release():
    phone_acts = {(Writer.PHONE, act) for act in Act}
    desk_acts = {(w, a) for w in (Writer.SCORER, Writer.ORGANISER) for a in (Act.SAVE, Act.CONFIRM)}
    covered = {
        (stage, writer, act, released)
        for stage, writer, act, column in TABLE
        for released in releases(column)
    }
    assert covered == {
        (s, *wa, released)
        for s in Stage
        for wa in phone_acts | desk_acts
        for released in (False, True)
    }
    # Each stage, writer, act and round once: no cell said twice.
    assert len(covered) == sum(len(releases(column)) for *_, column in TABLE)
    assert set(TABLE.values()) <= set(WORDINGS)


def cell_ids(cell):
    stage, writer, act, released = cell
    round_ = {None: "", False: "-before release", True: "-once released"}[released]
    return f"{stage}-{writer}-{act}{round_}".replace(" ", "_")


@pytest.mark.parametrize("cell", sorted(TABLE, key=cell_ids), ids=cell_ids)
def test_the_rule_is_the_doc_table(cell):
    stage, writer, act, column = cell
    allowed = WORDINGS[TABLE[cell]]
    for released in releases(column):
        for entered_it, at_table, phones_confirm in itertools.product((False, True), repeat=3):
            facts = SheetFacts(
                stage=stage,
                round_started=True,
                round_released=released,
                table_entry=True,
                table_confirm=phones_confirm,
                entered_at_table=at_table,
                writer_entered_it=entered_it,
            )
            refused = refusal(writer, act, facts)
            assert (refused is None) == allowed(entered_it, at_table, phones_confirm), (
                stage,
                writer,
                act,
                released,
                entered_it,
                at_table,
                phones_confirm,
                refused,
            )


def test_once_released_a_phone_is_told_the_desk_confirms():
    facts = SheetFacts(
        stage=Stage.ENTERED,
        round_started=True,
        round_released=True,
        table_entry=True,
        table_confirm=True,
        entered_at_table=True,
    )
    refused = refusal(Writer.PHONE, Act.CONFIRM, facts)
    assert refused is not None
    assert not refused.closed
    assert refused.reason == (
        "this round's results are released: a scorer at the desk confirms its sheets now, not "
        "a phone; hand the paper sheet in at the desk"
    )
    # The code stays open: the phone that submitted it may still change it.
    assert refusal(Writer.PHONE, Act.OPEN, facts) is None
    submitted_here = SheetFacts(**{**facts.__dict__, "writer_entered_it": True})
    assert refusal(Writer.PHONE, Act.SAVE, submitted_here) is None


@pytest.mark.parametrize("stage", list(Stage))
@pytest.mark.parametrize(
    "closed",
    [
        {"table_entry": False},
        {"round_started": False},
    ],
    ids=["table entry off", "round not started"],
)
def test_phones_write_nothing_outside_an_open_round(stage, closed):
    facts = SheetFacts(
        **{
            "stage": stage,
            "round_started": True,
            "round_released": False,
            "table_entry": True,
            "table_confirm": True,
            "entered_at_table": True,
            **closed,
        }
    )
    for act in Act:
        refused = refusal(Writer.PHONE, act, facts)
        assert refused is not None
        assert refused.closed


@pytest.mark.parametrize("writer", [Writer.SCORER, Writer.ORGANISER])
def test_the_desk_writes_only_in_a_started_round(writer):
    facts = SheetFacts(
        stage=Stage.DRAFT,
        round_started=False,
        round_released=False,
        table_entry=True,
        table_confirm=True,
    )
    assert refusal(writer, Act.SAVE, facts) is not None
    assert (
        refusal(writer, Act.SAVE, SheetFacts(**{**facts.__dict__, "round_started": True})) is None
    )


# Every writer against every stage, through the pages -------------------------------------


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Wrong-code counts live in the cache, which outlives a test.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table(seated_round):
    tournament = seated_round.tournament
    tournament.table_entry = True
    tournament.table_confirm = True
    tournament.two_person_check = True
    tournament.save()
    return Table.objects.select_related("round__tournament").get(round=seated_round, number=1)


def bring_to(stage: Stage, table: Table, scorer, second_scorer) -> None:
    """Put the table's sheet in ``stage``: entered by another phone ("entered"), by the
    second scorer (corrections), confirmed by the second scorer."""
    if stage is Stage.NOT_STARTED:
        return
    if stage is Stage.DRAFT:
        save_sheet(table, AtTable("other"), ROWS[:2], expected_version=0, final=False)
        return
    if stage is Stage.ENTERED:
        save_sheet(table, AtTable("other"), ROWS, expected_version=0, final=True)
        return
    save_sheet(table, scorer, ROWS, expected_version=0, final=True)
    confirm_sheet(table, second_scorer, expected_version=1)
    if stage is Stage.CORRECTION_DRAFT:
        save_sheet(table, second_scorer, CORRECTED[:1], expected_version=2, final=False)
    elif stage is Stage.CORRECTION_ENTERED:
        save_sheet(table, second_scorer, CORRECTED, expected_version=2, final=True)


def state(table):
    sheet = Sheet.objects.filter(table=table).first()
    return (sheet.version, sheet.status) if sheet else (0, SheetStatus.NOT_STARTED)


def phone_cells(number, row):
    data = {cell_name(number, WON, seat): str(v) for seat, v in enumerate(row["won"], start=1)}
    data[cell_name(number, LEFT_OVER)] = str(row["left_over"])
    data[cell_name(number, LAST_IN)] = str(row["last_in"])
    return data


def pending_rows(table):
    sheet = Sheet.objects.filter(table=table).first()
    return list(sheet.pending) if sheet else []


def act_as(writer, act, table, clients):
    """Do ``act`` on the table's sheet as ``writer`` through its pages; whether the sheet
    changed (and, for open, whether the page opened)."""
    before = state(table)
    version = before[0]
    if writer is Writer.PHONE:
        phone = clients["phone"]
        code_url = reverse("table:entry", args=[table.code])
        if act is Act.OPEN:
            response = phone.get(code_url)
            assert response.status_code in (200, 404)
            if response.status_code == 404:
                assert "This code opens no sheet" in response.content.decode()
            return response.status_code == 200
        if act is Act.SAVE:
            phone.post(
                reverse("table:deal", args=[table.code, 1]),
                {**phone_cells(1, CORRECTED[0]), "expected_version": version, "key": "k-save"},
            )
        else:
            data = {"expected_version": version, "key": "k-confirm"}
            for number, row in enumerate(pending_rows(table), start=1):
                data |= phone_cells(number, row)
            phone.post(reverse("table:confirm", args=[table.code]), data)
        return state(table) != before
    client = clients[writer]
    args = ["club-night", 1, table.number]
    if act is Act.SAVE:
        client.post(
            reverse("scorer:sheet", args=args),
            {
                "expected_version": str(version),
                "action": "draft",
                "key": "k-desk",
                **sheet_cells(CORRECTED),
            },
        )
    else:
        client.post(
            reverse("scorer:confirm", args=args),
            {"expected_version": str(version), "mode": "review", "key": "k-desk-confirm"},
        )
    return state(table) != before


# Each cell of the table, once for each round it holds in.
PAGE_CELLS = sorted(
    (stage, writer, act, released)
    for stage, writer, act, column in TABLE
    for released in releases(column)
)


def cell_in_table(stage, writer, act, released):
    """The doc table's cell for this act in a round released or not."""
    if (stage, writer, act, released) in TABLE:
        return TABLE[stage, writer, act, released]
    return TABLE[stage, writer, act, None]


@pytest.mark.parametrize("cell", PAGE_CELLS, ids=cell_ids)
def test_every_writer_in_every_stage(
    cell, table, scorer, second_scorer, organiser_client, scorer_client, client
):
    stage, writer, act, released = cell
    bring_to(stage, table, scorer, second_scorer)
    if released:
        Round.objects.filter(pk=table.round_id).update(released=True)
    sheet = Sheet.objects.filter(table=table).first()
    # The acting phone is a new one and the desk users did not enter the sheet (the
    # corrections are the second scorer's), so "the phone that entered it" never acts.
    allowed = WORDINGS[cell_in_table(*cell)](
        False,
        sheet is not None and sheet.entered_by_phone is not None,
        True,
    )
    clients = {"phone": client, Writer.SCORER: scorer_client, Writer.ORGANISER: organiser_client}
    assert act_as(writer, act, table, clients) == allowed


def test_a_correction_does_not_reopen_the_table_code(table, scorer, second_scorer, client):
    """The review's finding: a scorer's correction draft reopened the code, and phones
    overwrote and confirmed it."""
    bring_to(Stage.CORRECTION_DRAFT, table, scorer, second_scorer)
    before = state(table)
    entry = client.get(reverse("table:entry", args=[table.code]))
    assert entry.status_code == 404
    saved = client.post(
        reverse("table:deal", args=[table.code, 1]),
        {**phone_cells(1, ROWS[0]), "expected_version": before[0]},
    )
    assert saved.status_code == 404
    submitted = client.post(
        reverse("table:review", args=[table.code]), {"expected_version": before[0]}
    )
    assert submitted.status_code == 404
    assert state(table) == before
    assert pending_rows(table) == CORRECTED[:1]
    # The desk's correction carries on, and confirming it is the desk's too.
    assert peek_sheet(table).status == SheetStatus.DRAFT


def test_a_phone_save_racing_a_correction_is_refused_under_the_locks(table, scorer, second_scorer):
    """A phone whose page opened before the sheet was confirmed: the service refuses it."""
    bring_to(Stage.CORRECTION_DRAFT, table, scorer, second_scorer)
    version = state(table)[0]
    with pytest.raises(ClosedAtTableError):
        save_sheet(table, AtTable("late"), ROWS, expected_version=version, final=False).or_raise()
    with pytest.raises(ClosedAtTableError):
        confirm_sheet(table, AtTable("late"), expected_version=version, retyped=ROWS).or_raise()


# A closed code and an unknown code take the same path -----------------------------------


def captured_sql(client, code):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("table:entry", args=[code]))
    assert response.status_code == 404
    # Sessions and rate limits aside, the statements that looked the code up.
    return [
        re.sub(code, "CODE", q["sql"])
        for q in captured.captured_queries
        if "tournament_" in q["sql"]
    ], re.sub(rb'(nonce|name="csrfmiddlewaretoken" value)="[^"]*"', b"", response.content)


@pytest.mark.parametrize("stage", [Stage.CONFIRMED, Stage.CORRECTION_DRAFT])
def test_a_closed_code_is_looked_up_as_an_unknown_one(table, scorer, second_scorer, stage):
    bring_to(stage, table, scorer, second_scorer)
    unknown = "ZZZZ9999" if table.code != "ZZZZ9999" else "YYYY9999"
    closed_sql, closed_page = captured_sql(Client(), table.code)
    unknown_sql, unknown_page = captured_sql(Client(), unknown)
    assert len(closed_sql) == len(unknown_sql) == 1
    assert closed_sql == unknown_sql
    assert closed_page.replace(table.code.encode(), b"CODE") == unknown_page.replace(
        unknown.encode(), b"CODE"
    )


def test_a_released_round_keeps_an_unscored_tables_code_open(table, scorer, second_scorer):
    """Released "anyway" with table 1 unscored: its code still opens the sheet; table 2,
    confirmed, is closed as an unknown code is."""
    confirmed = Table.objects.get(round=table.round, number=2)
    save_sheet(confirmed, scorer, ROWS, expected_version=0, final=True)
    confirm_sheet(confirmed, second_scorer, expected_version=1)
    Round.objects.filter(pk=table.round_id).update(released=True)
    assert Client().get(reverse("table:entry", args=[table.code])).status_code == 200
    closed_sql, _ = captured_sql(Client(), confirmed.code)
    unknown_sql, _ = captured_sql(Client(), "ZZZZ9998")
    assert closed_sql == unknown_sql


# A replayed save tells the truth ----------------------------------------------------------


def test_the_desk_refuses_a_replay_with_other_numbers(table, scorer_client):
    url = reverse("scorer:sheet", args=["club-night", 1, table.number])
    first = {"expected_version": "0", "action": "draft", "key": "same-key", **sheet_cells(ROWS)}
    assert scorer_client.post(url, first).status_code == 302
    again = scorer_client.post(url, first, follow=True)
    assert "already saved with these numbers: nothing changed" in again.content.decode()
    other = {**first, **sheet_cells(CORRECTED)}
    refused = scorer_client.post(url, other, follow=True)
    page = refused.content.decode()
    assert "this save was already recorded with other numbers: reload the sheet" in page
    assert "Nothing was saved" in page
    assert state(table) == (1, SheetStatus.DRAFT)
    assert pending_rows(table) == ROWS
    assert SheetVersion.objects.filter(sheet__table=table, key="same-key").count() == 1


def test_the_desk_refuses_a_replayed_blind_confirmation_with_other_numbers(
    table, scorer, second_scorer_client
):
    save_sheet(table, scorer, ROWS, expected_version=0, final=True)
    url = reverse("scorer:confirm", args=["club-night", 1, table.number])
    first = {"expected_version": "1", "mode": "retype", "key": "confirm-key", **sheet_cells(ROWS)}
    assert second_scorer_client.post(url, first).status_code == 302
    assert state(table) == (2, SheetStatus.CONFIRMED)
    other = {**first, **sheet_cells(CORRECTED)}
    refused = second_scorer_client.post(url, other, follow=True)
    assert "already recorded with other numbers" in refused.content.decode()
    assert state(table) == (2, SheetStatus.CONFIRMED)


def test_a_phone_replay_with_other_numbers_is_refused(table, client):
    url = reverse("table:deal", args=[table.code, 1])
    first = {**phone_cells(1, ROWS[0]), "expected_version": 0, "key": "phone-key"}
    assert client.post(url, first).status_code == 302
    # The same submission again: recorded once, and the phone moves on.
    again = client.post(url, first)
    assert again.status_code == 302
    assert again.url == reverse("table:deal", args=[table.code, 2])
    refused = client.post(url, {**first, **phone_cells(1, CORRECTED[0])})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "this save was already recorded with other numbers: reload the sheet" in page
    assert "Open the sheet again" in page
    assert state(table) == (1, SheetStatus.DRAFT)
    assert pending_rows(table) == ROWS[:1]


def test_a_phone_replay_after_the_sheet_closed_is_checked_too(table, client, scorer, second_scorer):
    url = reverse("table:deal", args=[table.code, 1])
    first = {**phone_cells(1, ROWS[0]), "expected_version": 0, "key": "phone-key"}
    assert client.post(url, first).status_code == 302
    # The desk finishes and confirms the sheet: the code closes.
    save_sheet(table, scorer, ROWS, expected_version=1, final=True)
    confirm_sheet(table, second_scorer, expected_version=2)
    same = client.post(url, first)
    assert same.status_code == 302
    assert same.url == reverse("table:thanks")
    other = client.post(url, {**first, **phone_cells(1, CORRECTED[0])})
    assert other.status_code == 409
    assert "already recorded with other numbers" in other.content.decode()
    assert state(table) == (3, SheetStatus.CONFIRMED)


def test_a_replay_with_the_same_numbers_typed_differently_is_the_same(table, scorer):
    """How a number was typed (derived from the checksum or not) is not a number."""
    rows = [dict(ROWS[0], derived=["s1"]), *ROWS[1:]]
    save_sheet(table, scorer, rows, expected_version=0, final=False, key="k")
    result = save_sheet(table, scorer, ROWS, expected_version=0, final=False, key="k")
    assert result.repeated
