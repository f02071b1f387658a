"""Hostile and random input, fed by hypothesis to everything a person can type or upload.

Deal validation, the score sheet form, CSV player lists and tournament files either give
a clear error that says where the problem is, or store the input and show it escaped:
never a 500, never a partial write.

Terms: a *payload* is text that would run or change the page if it were not escaped; a
*snapshot* counts the rows an input could write, to show that a refusal wrote nothing.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring.errors import UserError
from scoring.rules import DealError, make_deal, validate_deal
from tests.pages import sheet_cells
from tournament.kernel.cells import CHECKSUM, LAST_IN, LEFT_OVER, WON, cell_name, parse_cell
from tournament.models import (
    Deal,
    DealResult,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.players import lists as player_lists
from tournament.players import services as player_service
from tournament.sheets.checking import check_rows
from tournament.sheets.reading import current_rows
from tournament.sheets.rows import clean_row
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import checking, file_format, loading
from tournament.tournament_file.problems import TournamentFileError

pytestmark = pytest.mark.usefixtures("empty_cache")

# Each example of a database property costs a request or a transaction: enough of them to
# find the crashes, few enough to keep this file well under a minute.
DB_PROPERTY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PURE_PROPERTY = settings(max_examples=300, deadline=None)

PAYLOADS = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "</textarea><svg onload=alert(3)>",
    "'; DROP TABLE tournament_player; --",
    "{{ request }}{% csrf_token %}",
)
RAW_MARKUP = [p for p in PAYLOADS if "<" in p]
WORKED = {"won": [6, 4, 10, 0, 8], "last_in": 5, "left_over": 24}
MODELS = (Tournament, Player, Round, Table, Seat, Deal, DealResult, Sheet, SheetVersion)


@contextlib.contextmanager
def rolled_back():
    """Run one hypothesis example and undo its writes, so that every example starts from
    the fixture's database rather than from the last example's."""
    with transaction.atomic():
        cache.clear()
        yield
        transaction.set_rollback(True)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def assert_escaped(page: str) -> None:
    for payload in RAW_MARKUP:
        assert payload not in page


# Strategies -------------------------------------------------------------------------------

huge_numbers = st.sampled_from([10**30, -(10**30), 2**63, -(2**63) - 1, 10**18 + 1, 32768, 65536])
any_number = st.one_of(
    st.integers(-100, 100), huge_numbers, st.floats(allow_nan=True, allow_infinity=True)
)
odd_text = st.sampled_from(
    [
        "",
        " ",
        "4.0",
        "1e3",
        "0x10",
        "-2",
        "+4",
        "٤",
        "４",
        "NaN",
        "null",
        "None",
        "[]",
        "\x00",
        "4\x00",
        "\u202e42",
        "😀",
        "x" * 3000,
        "9" * 3000,
    ]
)
hostile_text = st.one_of(
    st.sampled_from(PAYLOADS),
    odd_text,
    st.text(max_size=20),
    any_number.map(str),
)
# Any value a caller might pass where a count belongs.
any_value = st.one_of(
    st.none(),
    st.booleans(),
    any_number,
    hostile_text,
    st.lists(st.integers(0, 52), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def valid_deals(draw, size=None):
    """A deal that obeys every rule: (won, last_in, left_over, table size)."""
    size = size or draw(st.integers(3, 6))
    left_pairs = draw(st.integers(1, 26))
    cuts = sorted(
        draw(st.lists(st.integers(0, 26 - left_pairs), min_size=size - 1, max_size=size - 1))
    )
    won = [2 * (b - a) for a, b in itertools.pairwise([0, *cuts, 26 - left_pairs])]
    return won, draw(st.integers(1, size)), 2 * left_pairs, size


# Deal validation ----------------------------------------------------------------------------


@PURE_PROPERTY
@given(valid_deals())
def test_every_valid_deal_is_accepted(deal):
    won, last_in, left_over, size = deal
    assert validate_deal(won, last_in, left_over, size) == []
    assert make_deal(won, last_in, left_over, size).won == tuple(won)


def assert_located(problem, size):
    """Each problem names what it is about: a seat's count, the left over, the last in,
    the number of counts, or the checksum."""
    text = str(problem)
    if problem.seat is not None:
        assert problem.field == "won"
        assert problem.seat >= 1
        assert text.startswith(f"seat {problem.seat}: ")
    elif problem.field == "won":
        assert f"for a table of {size}" in text
    elif problem.field == "left_over":
        assert text.startswith("left over: ")
    elif problem.field == "last_in":
        assert text.startswith("last in: ")
    else:
        assert problem.field == "checksum"
        assert "not 52" in text
    # Whatever was pasted, the message stays readable.
    assert len(text) < 200


@PURE_PROPERTY
@given(
    won=st.lists(any_value, max_size=8),
    last_in=any_value,
    left_over=any_value,
    size=st.integers(1, 8),
)
@example(won=["x" * 10_000] * 5, last_in="<b>" * 1000, left_over=[1] * 1000, size=5)
@example(won=[10**30, -(10**30), True, None, 4.0], last_in=10**30, left_over=-(10**30), size=5)
def test_any_deal_gets_located_problems_never_a_crash(won, last_in, left_over, size):
    problems = validate_deal(won, last_in, left_over, size)
    for problem in problems:
        assert_located(problem, size)
    if problems:
        with pytest.raises(DealError) as caught:
            make_deal(won, last_in, left_over, size)
        assert isinstance(caught.value, UserError)
        assert caught.value.problems == tuple(problems)


@PURE_PROPERTY
@given(deal=valid_deals(), seat=st.integers(0, 5), bad=any_value)
def test_one_wrong_value_in_a_valid_deal_is_caught(deal, seat, bad):
    won, last_in, left_over, size = deal
    won = list(won)
    seat %= size
    if bad == won[seat] and type(bad) is int:
        return
    won[seat] = bad
    problems = validate_deal(won, last_in, left_over, size)
    assert problems
    assert {p.seat for p in problems if p.field == "won"} <= {seat + 1}


# Checking whole sheets ----------------------------------------------------------------------

cell_text = st.one_of(st.sampled_from([str(n) for n in range(0, 54, 2)] + ["1", "5"]), hostile_text)
typed_rows = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "won": st.lists(cell_text, max_size=7),
            "last_in": cell_text,
            "left_over": cell_text,
            "extra": hostile_text,
        },
    ),
    max_size=8,
)


@pytest.fixture
def table(seated_round):
    return Table.objects.select_related("round__tournament").get(round=seated_round, number=1)


LOCATED_SHEET_PROBLEM = re.compile(
    r"^(deal \d+: .+|\d+ deals, but a table of \d at most \d+ in a round"
    r"|no deals filled in|deals \d+–\d+ are empty: .+"
    r"|the table is marked as stopped early, but all \d+ deals .+)$",
    re.S,
)


@settings(
    PURE_PROPERTY, max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=typed_rows, final=st.booleans(), stopped_early=st.booleans())
def test_checking_any_sheet_locates_every_problem_by_deal(table, rows, final, stopped_early):
    size = table.size
    cleaned = [clean_row(row, size) for row in rows]
    check = check_rows(cleaned, table, final=final, stopped_early=stopped_early)
    for problem in check.problems:
        assert re.match(
            r"^(deal \d+: |\d+ deals, |no deals|deals \d+–\d+ are empty|the table is marked as stopped early)",
            problem,
        )
    for number, row in enumerate(check.rows, start=1):
        assert all(p.startswith(f"deal {number}: ") for p in row.problems)
        for name in row.problem_cells:
            cell = parse_cell(name)
            assert cell is not None, name
            assert cell.deal == number, name
            assert cell.field != WON or 1 <= cell.seat <= size, name
            assert cell.field in (WON, LEFT_OVER, LAST_IN, CHECKSUM), name
        # Points only for a deal that obeys every rule.
        assert (row.points is None) or not row.problems
        if row.points is not None:
            assert sum(row.points) == 26


# The score sheet form -----------------------------------------------------------------------

SHEET_ROWS = [
    {"won": [10, 4, 10, 0], "last_in": 4, "left_over": 28},
    {"won": [12, 10, 10, 10], "last_in": 1, "left_over": 10},
    {"won": [8, 8, 8, 8], "last_in": 2, "left_over": 20},
    {"won": [20, 0, 4, 6], "last_in": 3, "left_over": 22},
]
CELLS = [
    cell_name(deal, field, seat)
    for deal in range(1, 6)
    for field, seat in [*((WON, seat) for seat in range(1, 6)), (LEFT_OVER, None), (LAST_IN, None)]
]
CURRENT = object()  # stands for the sheet's version at the time of the post


def sheet_url(name="sheet"):
    return reverse(f"scorer:{name}", args=["club-night", 1, 1])


sheet_posts = st.fixed_dictionaries(
    {
        "base": st.sampled_from([{}, sheet_cells(SHEET_ROWS)]),
        "cells": st.dictionaries(
            st.one_of(
                st.sampled_from(CELLS),
                st.sampled_from(["d999_s1", "d100_left_over", "d0_s1", "d1_s99", "d١_s1", "x"]),
                st.text(max_size=10),
            ),
            cell_text,
            max_size=12,
        ),
        "expected_version": st.one_of(st.just(CURRENT), hostile_text),
        "action": st.one_of(st.sampled_from(["final", "draft"]), hostile_text),
        "stopped_early": st.one_of(st.none(), hostile_text),
    }
)


def sheet_snapshot(table):
    sheet = Sheet.objects.filter(table=table).values("version", "status", "pending").first()
    return sheet, counts()


def post_data(post, version):
    data = {**post["base"], **post["cells"]}
    expected = post["expected_version"]
    data["expected_version"] = str(version) if expected is CURRENT else expected
    data["action"] = post["action"]
    if post["stopped_early"] is not None:
        data["stopped_early"] = post["stopped_early"]
    return data


@DB_PROPERTY
@given(post=sheet_posts)
@example(
    post={
        "base": {},
        "cells": {"d1_s1": "\x00", "d1_s2": PAYLOADS[0], "d1_left_over": "9" * 3000},
        "expected_version": CURRENT,
        "action": "draft",
        "stopped_early": None,
    }
)
@example(
    post={
        "base": sheet_cells(SHEET_ROWS),
        "cells": {"d2_s2": PAYLOADS[1]},
        "expected_version": CURRENT,
        "action": "final",
        "stopped_early": "on",
    }
)
def test_the_sheet_form_refuses_or_stores_any_post(scorer_client, table, post):
    with rolled_back():
        version = Sheet.objects.filter(table=table).values_list("version", flat=True).first() or 0
        before = sheet_snapshot(table)
        response = scorer_client.post(sheet_url(), post_data(post, version))
        assert response.status_code in (302, 400, 409, 422)
        page = response.content.decode()
        assert_escaped(page)
        if response.status_code == 400:
            assert "reload the page" in page
        if response.status_code != 302:
            assert sheet_snapshot(table) == before
            return
        sheet = Sheet.objects.get(table=table)
        if sheet.status != SheetStatus.DRAFT:
            # Only a sheet that obeys every rule is saved as complete.
            rows = current_rows(sheet)
            check = check_rows(rows, table, final=True, stopped_early=sheet.stopped_early)
            assert check.ok
        for name in ("sheet", "history"):
            shown = scorer_client.get(sheet_url(name))
            assert shown.status_code == 200
            assert_escaped(shown.content.decode())


@DB_PROPERTY
@given(post=sheet_posts)
def test_the_live_check_answers_any_post_and_writes_nothing(scorer_client, table, post):
    with rolled_back():
        before = sheet_snapshot(table)
        response = scorer_client.post(sheet_url("check"), post_data(post, 0))
        assert response.status_code == 200
        assert_escaped(response.content.decode())
        assert sheet_snapshot(table) == before


@pytest.fixture
def entered(table, scorer):
    save_sheet(table, scorer, SHEET_ROWS, expected_version=0, final=True)
    return table


@DB_PROPERTY
@given(
    cells=st.dictionaries(st.sampled_from(CELLS), cell_text, max_size=10),
    base=st.sampled_from([{}, sheet_cells(SHEET_ROWS)]),
    mode=st.one_of(st.sampled_from(["retype", "review"]), hostile_text),
    expected=st.one_of(st.just(CURRENT), hostile_text),
)
def test_confirming_refuses_or_confirms_any_post(
    second_scorer_client, entered, cells, base, mode, expected
):
    with rolled_back():
        version = Sheet.objects.get(table=entered).version
        before = sheet_snapshot(entered)
        data = {
            **base,
            **cells,
            "mode": mode,
            "expected_version": str(version) if expected is CURRENT else expected,
        }
        response = second_scorer_client.post(sheet_url("confirm"), data)
        assert response.status_code in (302, 400, 422)
        assert_escaped(response.content.decode())
        if Sheet.objects.get(table=entered).status == SheetStatus.CONFIRMED:
            assert Deal.objects.filter(table=entered).count() == len(SHEET_ROWS)
        else:
            assert sheet_snapshot(entered) == before


# CSV player lists ---------------------------------------------------------------------------

csv_lines = st.one_of(
    st.sampled_from(
        [
            "name,club",
            "\ufeffname,club",
            "",
            "   ",
            ",",
            ",Red Lion",
            "Ann Smith,Red Lion",
            "Ann Smith,Red Lion",
            "ann smith",
            "a,b,c",
            '"Quoted, name",Club',
            '"unterminated,quote',
            '"multi\nline",Club',
            "x" * 201,
            "Ann," + "y" * 201,
            "Nul\x00Name,Club",
            "Zoë Ångström,Café Müller",
            "李小龍,少林",
            "\u202eReversed,Club",
        ]
    ),
    st.sampled_from(PAYLOADS).map(lambda p: f'"{p.replace(chr(34), chr(34) * 2)}",{p[:5]}'),
    st.text(max_size=30),
)
csv_texts = st.one_of(st.lists(csv_lines, max_size=12).map("\n".join), st.text(max_size=200))
LOCATED_CSV_ERROR = re.compile(r"^line \d+: .+|^the list is empty: .+", re.S)


def physical_lines(text):
    return len(text.splitlines()) or 1


@settings(DB_PROPERTY, max_examples=60)
@given(text=csv_texts, skip_bad=st.booleans())
def test_a_csv_list_is_imported_whole_or_refused_whole(table, text, skip_bad):
    tournament = table.round.tournament
    with rolled_back():
        before = counts()
        try:
            check = player_lists.check_csv(tournament, text, link_people=True)
        except UserError:
            # Only a list that cannot be read at all: nothing to store.
            assert counts() == before
            return
        for error in check.errors:
            assert LOCATED_CSV_ERROR.match(error)
            number = re.match(r"line (\d+)", error)
            assert number is None or int(number[1]) <= physical_lines(text)
        for warning in check.warnings:
            assert re.match(r"^line \d+: ", warning)
        for line in check.good:
            assert line.name
            assert line.name == " ".join(line.name.split())
            assert len(line.name) <= player_service.NAME_MAX
            assert len(line.club) <= player_service.CLUB_MAX
            assert "\x00" not in line.name + line.club
        if check.errors and not skip_bad:
            with pytest.raises(UserError):
                player_lists.import_csv(tournament, text, link_people=True)
            assert counts() == before
            return
        added = player_lists.import_csv(tournament, text, skip_bad=skip_bad, link_people=True)
        assert [p.name for p in added] == [line.name for line in check.good]
        after = counts()
        assert after["Player"] == before["Player"] + len(check.good)
        stored = Player.objects.filter(pk__in=[p.pk for p in added]).values_list("name", "club")
        assert sorted(stored) == sorted((line.name, line.club) for line in check.good)


def players_url(name="players"):
    return reverse(f"organiser:{name}", args=["club-night"])


csv_uploads = st.one_of(
    csv_texts.map(lambda text: {"text": text}),
    csv_texts.map(lambda text: {"file": text.encode()}),
    csv_texts.map(lambda text: {"file": text.encode("utf-16")}),
    st.binary(max_size=300).map(lambda data: {"file": data}),
    st.sampled_from([{"file": b""}, {"file": b"\xef\xbb\xbf"}, {"text": "\x00"}]),
)


@settings(DB_PROPERTY, max_examples=40)
@given(upload=csv_uploads, skip_bad=st.booleans(), confirm=st.booleans())
def test_the_csv_upload_page_answers_any_upload(organiser_client, table, upload, skip_bad, confirm):
    with rolled_back():
        before = counts()
        data = dict(upload)
        if "file" in data:
            data["file"] = SimpleUploadedFile("players.csv", data["file"], content_type="text/csv")
        if skip_bad:
            data["skip_bad"] = "True"
        if confirm:
            data["confirm"] = "True"
        response = organiser_client.post(players_url("players_import"), data)
        assert response.status_code in (200, 302)
        page = response.content.decode()
        assert_escaped(page)
        if response.status_code == 200:
            # Refused, or previewed: the page says why or shows what would be imported,
            # and nothing was stored.
            assert counts() == before
            assert re.search(r'class="(errorlist[^"]*|problems|preview)"', page)
        else:
            assert counts()["Player"] >= before["Player"]
        shown = organiser_client.get(players_url())
        assert shown.status_code == 200
        assert_escaped(shown.content.decode())


# Tournament files ---------------------------------------------------------------------------


def valid_file(names=None):
    """A small valid file, fresh each time (its deals are mutated in place)."""
    names = names or [f"Player {i}" for i in range(1, 11)]
    data = {
        "format": "lld-tournament/1",
        "name": "Red Lion Winter Open",
        "slug": "red-lion",
        "date": "2026-12-05",
        "players": [
            {"id": f"p{i}", "name": name, "club": "Red Lion"}
            for i, name in enumerate(names, start=1)
        ],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {"number": 1, "seats": ["p1", "p2", "p3", "p4", "p5"], "deals": [WORKED] * 2},
                    {"number": 2, "seats": ["p6", "p7", "p8", "p9", "p10"], "deals": [WORKED]},
                ],
            }
        ],
    }
    return json.loads(json.dumps(data))


# A problem names where it is: a JSON path (players[5].name), or a round and table the
# way the score sheets do (round 2, table 3, deal 4), or the file as a whole.
LOCATED_FILE_PROBLEM = re.compile(
    r"^(the file|line \d+, column \d+"
    r"|[a-z_]+(\[\d+\]|\.[a-z_]+)*"
    r"|round \d+, table \d+(, (seat|deal) \d+)?): \S"
    # Text that cannot be stored may sit under any key, known to the format or not.
    r"|.*: (a key )?contains a character that cannot be stored \(U\+[0-9A-F]{4}\)$",
    re.S,
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    any_number,
    st.sampled_from([1.0, 2.0, 5.0, 10**4000]),
    hostile_text,
    st.text(st.characters(exclude_categories=()), max_size=5),  # lone surrogates too
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(
                st.sampled_from(["format", "name", "players", "rounds", "id", "number", "seats"]),
                st.text(max_size=6),
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


def assert_refused_cleanly(data, before):
    with pytest.raises(TournamentFileError) as caught:
        loading.import_tournament(data)
    problems = caught.value.problems
    assert problems
    for problem in problems:
        assert LOCATED_FILE_PROBLEM.match(problem), problem
        assert len(problem) < 500
        problem.encode("utf-8")  # printable, and storable in a message
    assert counts() == before
    return problems


@settings(DB_PROPERTY, max_examples=60)
@given(data=json_values)
@example(data={"format": "lld-tournament/1", "name": "x", "players": [], "rounds": [[[[[]]]]]})
def test_any_json_is_refused_with_located_problems(db, data):
    with rolled_back():
        before = counts()
        problems = checking.check(data)
        if problems:
            assert_refused_cleanly(data, before)
        else:
            loading.import_tournament(data)


def paths(value, path=()):
    """Every place in a parsed file: (path, value)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*path, index))


def mutate(data, path, how, value):
    """The file with one thing changed at ``path``: replaced, removed, given an extra key,
    or (for an item of a list) repeated."""
    *parent_path, last = path
    parent = data
    for part in parent_path:
        parent = parent[part]
    if how == "replace":
        parent[last] = value
    elif how == "remove":
        del parent[last]
    elif how == "repeat" and isinstance(parent, list):
        parent.insert(last, json.loads(json.dumps(parent[last])))
    elif how == "extra" and isinstance(parent[last], dict):
        parent[last]["extra_key"] = value
    else:
        parent[last] = value


PLACES = [path for path, _ in paths(valid_file()) if path]
# The wrong types a hand-edited or half-written file most often holds.
wrong_types = st.sampled_from(
    [None, True, 0, -2, 1.0, 10**30, "", "text", "5", [], [None], {}, {"number": 1}]
)
name_lists = st.one_of(
    st.none(),
    st.lists(
        st.sampled_from(PAYLOADS) | st.text(min_size=1, max_size=20), min_size=10, max_size=10
    ),
)


@settings(DB_PROPERTY, max_examples=60)
@given(
    names=name_lists,
    path=st.sampled_from(PLACES),
    how=st.sampled_from(["replace", "remove", "repeat", "extra"]),
    value=st.one_of(wrong_types, json_values),
)
@example(names=None, path=("rounds", 0, "number"), how="replace", value=1.0)
@example(names=None, path=("rounds", 0, "tables", 1, "deals", 0, "won"), how="replace", value=None)
@example(names=None, path=("rounds", 0, "tables", 1, "number"), how="replace", value=1.0)
@example(names=None, path=("players", 0, "name"), how="replace", value="\ud800")
@example(names=None, path=("players", 0, "name"), how="replace", value="Nul\x00")
@example(names=None, path=("players", 3), how="repeat", value=None)
@example(names=list(PAYLOADS) * 2, path=("name",), how="replace", value=PAYLOADS[0])
def test_a_file_with_one_thing_wrong_is_refused_whole_or_imported_whole(
    client, db, names, path, how, value
):
    data = valid_file(names)
    mutate(data, path, how, value)
    with rolled_back():
        before = counts()
        if checking.check(data):
            assert_refused_cleanly(data, before)
            return
        summary = loading.import_tournament(data)
        tournament = summary.tournament
        assert summary.players == Player.objects.filter(tournament=tournament).count()
        assert sorted(
            Player.objects.filter(tournament=tournament).values_list("ref", "name")
        ) == sorted((p["id"], p["name"]) for p in data["players"])
        tournament.published = True
        tournament.save()
        numbers = Round.objects.filter(tournament=tournament).values_list("number", flat=True)
        for url in (
            reverse("standings", args=[tournament.slug]),
            reverse("final", args=[tournament.slug]),
            *(reverse("public_round", args=[tournament.slug, n]) for n in numbers),
        ):
            shown = client.get(url)
            # A round not released goes to the nearest that is.
            assert shown.status_code in (200, 302, 404)
            assert_escaped(shown.content.decode())


# Big files ----------------------------------------------------------------------------------

TEN_MB = 10 * 1024 * 1024


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (bytes(range(256)) * (TEN_MB // 256), "the file is not UTF-8 text"),
        (b"x" * TEN_MB, "line 1, column 1: not valid JSON"),
        (b"[" * TEN_MB, "nested too deeply"),
        (b'{"format": ' + b"9" * 5000 + b"}", "line 1, column 12: a number of 5000 digits"),
        (
            json.dumps({**valid_file(), "name": "x" * TEN_MB}).encode(),
            "name: longer than 200 characters",
        ),
        (
            json.dumps({**valid_file(), "x" * TEN_MB: 1}).encode(),
            "the file: unknown key “xxxxxxxx",
        ),
        (json.dumps({**valid_file(), "format": "y" * TEN_MB}).encode(), 'format: "yyyyyy'),
        (
            json.dumps({**valid_file(), "date": "2026-02-30" + " " * TEN_MB}).encode(),
            "date: “2026-02-30",
        ),
        (
            json.dumps({**valid_file(), "name": "\ud800"}).encode(),
            "name: contains a character that cannot be stored",
        ),
        (b"\x00" * 3 + b"[]", "not valid JSON"),
        (b"x" * (file_format.MAX_BYTES + 1), "the file is larger than 20 MB"),
    ],
    ids=[
        "binary",
        "junk",
        "deep",
        "long-number",
        "giant-name",
        "giant-key",
        "giant-format",
        "giant-date",
        "surrogate",
        "nul",
        "too-big",
    ],
)
def test_big_and_broken_files_are_refused_by_the_command_with_a_short_message(
    db, tmp_path, content, message
):
    path = tmp_path / "tournament.json"
    path.write_bytes(content)
    before = counts()
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path))
    text = str(caught.value)
    assert "nothing was imported" in text
    assert message in text
    assert len(text) < 1000
    text.encode("utf-8")
    assert counts() == before


# Shown escaped everywhere -------------------------------------------------------------------


def test_html_names_from_a_file_are_shown_escaped_on_every_page(
    client, organiser_client, scorer_client, organiser, scorer
):
    names = [*PAYLOADS, "Zoë 李 😀", "إيفل", "A & B", "O'Brien", "x" * 200]
    data = valid_file(names)
    data["name"] = PAYLOADS[1]
    # A version-1 file restores its rounds unreleased: release round 1 to see it.
    data["format"] = "lld-tournament/2"
    data["rounds"][0]["released"] = True
    tournament = loading.import_tournament(data).tournament
    tournament.owner = organiser
    tournament.published = True
    tournament.save()
    tournament.scorers.add(scorer)
    player = Player.objects.get(tournament=tournament, ref="p1")
    pages = [
        (client, reverse("home")),
        (client, reverse("standings", args=[tournament.slug])),
        (client, reverse("projector", args=[tournament.slug])),
        (client, reverse("public_round", args=[tournament.slug, 1])),
        (client, reverse("player", args=[tournament.slug, player.pk])),
        (client, reverse("final", args=[tournament.slug])),
        (organiser_client, reverse("organiser:players", args=[tournament.slug])),
        (organiser_client, reverse("organiser:round", args=[tournament.slug, 1])),
        (organiser_client, reverse("organiser:dashboard", args=[tournament.slug])),
        (organiser_client, reverse("print:seating", args=[tournament.slug, 1])),
        (organiser_client, reverse("print:sheets", args=[tournament.slug, 1])),
        (scorer_client, reverse("scorer:sheet", args=[tournament.slug, 1, 1])),
        (scorer_client, reverse("scorer:desk", args=[tournament.slug, 1])),
    ]
    for user_client, url in pages:
        response = user_client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert_escaped(page)
        if "players" in url or "/rounds/" in url or "seating" in url:
            assert escape(PAYLOADS[0]) in page, url
    csv = client.get(reverse("standings_csv", args=[tournament.slug]))
    assert PAYLOADS[0] in csv.content.decode()
    exported = json.loads(client.get(reverse("tournament_json", args=[tournament.slug])).content)
    assert [p["name"] for p in exported["players"]] == names


# Regressions --------------------------------------------------------------------------------
# Each was a 500, a traceback, a value PostgreSQL refused, or a message that was missing,
# misplaced or megabytes long.


def test_a_csv_list_with_old_mac_line_ends_is_read(organiser_client, table):
    response = organiser_client.post(
        players_url("players_import"), {"text": "Ann One\rBob Two", "confirm": "True"}
    )
    assert response.status_code == 302
    assert Player.objects.filter(name__in=["Ann One", "Bob Two"]).count() == 2


def test_a_csv_quote_never_closed_is_named_not_a_crash(organiser_client, table):
    before = counts()
    text = 'Ann One,Crown\n"Bob Two,Red Lion\n' + "Carl Dee,Crown\n" * 10_000
    response = organiser_client.post(players_url("players_import"), {"text": text})
    assert response.status_code == 200
    assert "line 2: a quote (&quot;) is never closed, or the line is far too long" in (
        response.content.decode()
    )
    assert counts() == before


def test_a_csv_list_of_too_many_lines_is_refused_with_a_message(organiser_client, table):
    before = counts()
    text = "".join(f"Player {i}\n" for i in range(player_service.MAX_LINES + 1))
    response = organiser_client.post(players_url("players_import"), {"text": text})
    assert response.status_code == 200
    assert "the list has 2001 lines; import at most 2000 at a time" in response.content.decode()
    assert counts() == before


def test_a_nul_character_in_a_csv_file_is_named_by_line(organiser_client, table):
    before = counts()
    upload = SimpleUploadedFile("p.csv", b"Ann One,Crown\nB\x00b,Crown\n", content_type="text/csv")
    response = organiser_client.post(players_url("players_import"), {"file": upload})
    assert "line 2: contains a NUL character; is this a text file?" in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"file": b""}, "The submitted file is empty."),
        ({"text": "Ann\x00"}, "Null characters are not allowed."),
        ({"text": "Ann One,Crown\n" * 80_000}, "The list is larger than 1 MB"),
        ({"file": b"Ann One,Crown\n" * 800_000}, "The file is larger than 1 MB"),
    ],
    ids=["empty-file", "nul-text", "long-text", "ten-mb-file"],
)
def test_a_refused_csv_upload_says_why(organiser_client, table, data, message):
    before = counts()
    if "file" in data:
        data = {"file": SimpleUploadedFile("p.csv", data["file"], content_type="text/csv")}
    response = organiser_client.post(players_url("players_import"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert counts() == before


def test_csv_problems_name_their_line(table):
    text = 'name,club\n"Ann One",Crown\n,No name\n'
    check = player_lists.check_csv(table.round.tournament, text, link_people=True)
    assert check.errors == ("line 3: the name is empty",)
    assert [(line.line, line.name) for line in check.good] == [(2, "Ann One")]


def test_a_pasted_csv_header_after_a_byte_order_mark_is_a_header(table):
    check = player_lists.check_csv(
        table.round.tournament, "\ufeffname,club\nAnn One,Crown", link_people=True
    )
    assert [line.name for line in check.good] == ["Ann One"]


def test_a_nul_character_in_a_sheet_cell_is_dropped_not_stored(scorer_client, table):
    data = {"expected_version": "0", "action": "draft", "d1_s1": "4\x00", "d1_s2": "\x00"}
    response = scorer_client.post(sheet_url(), data)
    assert response.status_code == 302
    assert Sheet.objects.get(table=table).pending[0]["won"][:2] == [4, None]


def test_a_value_pasted_into_a_cell_is_quoted_short_in_the_message():
    (problem, *_) = validate_deal(["x" * 10_000, 4, 10, 0, 8], 5, 24, 5)
    assert str(problem) == f"seat 1: “{'x' * 39}…” is not a whole number"


def test_a_pasted_script_is_shown_escaped_with_its_problem(scorer_client, table):
    data = {
        "expected_version": "0",
        "action": "final",
        **sheet_cells(SHEET_ROWS),
        "d1_s2": PAYLOADS[0],
    }
    response = scorer_client.post(sheet_url(), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert "deal 1: seat 2: “&lt;script&gt;alert(1)&lt;/script&gt;” is not a whole number" in page
    assert 'value="&lt;script&gt;alert(1)&lt;/script&gt;"' in page
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda data: data["rounds"].append({"number": 2.0, "tables": []}),
            "rounds[1].number: expected a whole number, found 2.0",
        ),
        (
            lambda data: data["rounds"][0]["tables"][1].update(number=1.0),
            "rounds[0].tables[1].number: expected a whole number, found 1.0",
        ),
        (
            lambda data: data["rounds"][0]["tables"][1]["deals"][0].update(won=None),
            "round 1, table 2, deal 1: cards won: expected a list of counts, one per seat, "
            "found null",
        ),
        (
            lambda data: data["rounds"][0]["tables"][1]["deals"][0].update(won="6,4,10,0,8"),
            "round 1, table 2, deal 1: cards won: expected a list of counts, one per seat, "
            'found text "6,4,10,0,8"',
        ),
        (
            lambda data: data["players"][2].update(name="Ann\ud800"),
            "players[2].name: contains a character that cannot be stored (U+D800)",
        ),
        (
            lambda data: data["players"][2].update(club="Crown\x00"),
            "players[2].club: contains a character that cannot be stored (U+0000)",
        ),
        (
            lambda data: data["rounds"][0]["tables"][0]["seats"].__setitem__(0, "p" * 5000),
            f"round 1, table 1, seat 1: unknown player id “{'p' * 39}…”",
        ),
    ],
    ids=["float-round", "float-table", "won-null", "won-text", "surrogate", "nul", "long-id"],
)
def test_a_tournament_file_problem_that_used_to_crash_is_reported(db, change, problem):
    data = valid_file()
    change(data)
    before = counts()
    with pytest.raises(TournamentFileError) as caught:
        loading.import_tournament(data)
    assert problem in caught.value.problems
    assert counts() == before


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * 100_000, "the file is nested too deeply"),
        ('{"rounds": [\n  ' + "7" * 5000 + "]}", "line 2, column 3: a number of 5000 digits"),
    ],
)
def test_json_python_cannot_read_is_a_problem_not_a_crash(text, problem):
    with pytest.raises(TournamentFileError, match=re.escape(problem)):
        file_format.parse(text)


def test_a_form_larger_than_django_accepts_is_a_400_not_a_500(scorer_client, table):
    # Django refuses a form of more than 2.5 MB (DATA_UPLOAD_MAX_MEMORY_SIZE) before any
    # view runs; its plain 400 page is all a person sees (see the report on this file).
    before = counts()
    data = {"expected_version": "0", "action": "draft", "d1_s1": "x" * (3 * 1024 * 1024)}
    response = scorer_client.post(sheet_url(), data)
    assert response.status_code == 400
    assert counts() == before
