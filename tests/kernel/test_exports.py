"""Exports that are safe to open: the standings CSV (download and command) and the
tournament file. Names are the organiser's, or a file's: a name that looks like a
formula must stay text in a spreadsheet."""

from __future__ import annotations

import csv
import io
from html import unescape

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import PlayerFactory, RoundFactory, TableFactory, record_deal, seat_table
from tournament.kernel.csv_export import FORMULA_STARTS, csv_text

HOSTILE = [
    '=HYPERLINK("http://x")',
    "+1",
    "-2+3",
    "@SUM(1)",
    "\tTab",
]


@pytest.fixture
def hostile(db):
    """The worked example of docs/rules.md, played by players whose names look like formulas,
    published and released; a sixth player sat out. Scored by classic stakes, so some
    points are negative."""
    table = TableFactory(number=1, round=RoundFactory(number=1, started=True, released=True))
    tournament = table.round.tournament
    tournament.published = True
    tournament.scoring = "classic-stakes"
    tournament.save()
    clubs = ["=1+1", "Line\nbreak", "Zoë Ó Ceallaigh", "", "-Club"]
    players = [
        PlayerFactory(tournament=tournament, name=name, club=club)
        for name, club in zip(HOSTILE, clubs, strict=True)
    ]
    PlayerFactory(tournament=tournament, name="\rCR", club="Café Müller")
    seat_table(table, players)
    record_deal(table, 1, [6, 4, 10, 0, 8], last_in=5, left_over=24)
    return tournament


def download(client, tournament):
    return client.get(reverse("standings_csv", args=[tournament.slug]))


def typed_rows(text):
    """The rows as a spreadsheet types them: quoted cells are text, bare cells numbers."""
    return list(csv.reader(io.StringIO(text, newline=""), quoting=csv.QUOTE_NONNUMERIC))


def assert_safe(text, originals):
    header, *rows = typed_rows(text)
    by_column = [dict(zip(header, row, strict=True)) for row in rows]
    assert len(by_column) == 6
    for row in by_column:
        for column, value in row.items():
            if isinstance(value, str):
                assert not value.startswith(FORMULA_STARTS), (column, value)
    names = {row["name"] for row in by_column}
    assert names == {f"'{name}" for name in originals}
    clubs = {row["club"] for row in by_column}
    # Line breaks stay inside their cell; accented letters are kept.
    assert clubs == {"'=1+1", "Line\nbreak", "Zoë Ó Ceallaigh", "", "'-Club", "Café Müller"}
    # Numbers stay numbers, negative ones too: a spreadsheet can add them up.
    points = {row["name"]: row["points"] for row in by_column}
    assert points == {
        '\'=HYPERLINK("http://x")': 8.0,
        "'+1": -4.0,
        "'-2+3": -1.0,
        "'@SUM(1)": -6.0,
        "'\tTab": 3.0,
        "'\rCR": 0.0,
    }
    return by_column


@pytest.mark.unrestorable(
    "names with a tab, a line break or a carriage return, stored directly: neither the web "
    "nor a file lets such a name in any more, but an older database may hold one"
)
def test_the_standings_download_keeps_formulas_as_text(client, hostile):
    response = download(client, hostile)
    assert response.status_code == 200
    # A byte order mark, so that Excel reads the file as UTF-8 ("Zoë", not "ZoÃ«").
    assert response.content.startswith(b"\xef\xbb\xbf")
    text = response.content.decode("utf-8-sig")
    rows = assert_safe(text, [*HOSTILE, "\rCR"])
    assert "Zoë Ó Ceallaigh" in response.content.decode("utf-8")
    # Nobody shares a rank here: every rank is a plain number.
    assert sorted(row["rank"] for row in rows) == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_the_standings_command_writes_the_same_safe_csv(hostile):
    out = io.StringIO()
    call_command("standings", hostile.slug, "--format", "csv", stdout=out)
    # Printed for a pipe or a program: no byte order mark.
    assert not out.getvalue().startswith("\ufeff")
    assert_safe(out.getvalue(), [*HOSTILE, "\rCR"])


def test_a_shared_rank_is_not_a_formula(client, make_played):
    # Before any round, all three share first place.
    tournament = make_played(players=3, rounds=0)
    text = download(client, tournament).content.decode("utf-8-sig")
    _, *rows = typed_rows(text)
    assert [row[0] for row in rows] == ["1="] * 3
    assert "=1" not in text


def visible_headers(client, tournament):
    from tests.pages import header_labels

    html = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    return [unescape(label) for label in header_labels(html)]


@pytest.mark.parametrize(
    "tiebreaks",
    [["last_in", "table_wins", "countback"], ["table_wins", "best_round", "opponents"]],
)
def test_decided_by_names_the_column_people_see(client, make_played, tiebreaks):
    tournament = make_played(players=30, rounds=3)
    tournament.tiebreaks = tiebreaks
    tournament.save()
    text = download(client, tournament).content.decode("utf-8-sig")
    decided = [row["decided_by"] for row in csv.DictReader(io.StringIO(text))]
    labels = set(visible_headers(client, tournament))
    by_tiebreak = set()
    for value in decided:
        if value.endswith(" (countback)"):
            value = value.removesuffix(" (countback)")
            assert value in {"R1", "R2", "R3"}
        if value:
            assert value in labels, value
            by_tiebreak.add(value)
    # Some places were decided by a tiebreak, not only by points.
    assert by_tiebreak - {"Points"}


@pytest.mark.parametrize("name", ["standings_csv", "tournament_json"])
def test_every_export_answers_head(client, make_played, name):
    tournament = make_played(players=6, rounds=1)
    url = reverse(name, args=[tournament.slug])
    got = client.get(url)
    head = client.head(url)
    assert head.status_code == 200
    assert head.content == b""
    for header in ("Content-Type", "Content-Disposition"):
        assert head[header] == got[header]


def test_only_text_cells_are_neutralised():
    text = csv_text(["rank", "name", "points"], [["3=", "-Ann", -3], [4, "Bob", None]])
    assert text == '"rank","name","points"\n"3=","\'-Ann",-3\n4,"Bob",""\n'


@pytest.mark.parametrize(
    "name",
    [" =1+1", '\u200b=HYPERLINK("http://x")', "\u00a0@SUM(1)", "＝1+1", "＋1", "－2", "＠A1"],
)
def test_a_formula_behind_spaces_invisible_characters_or_full_width_signs_stays_text(name):
    [_, row] = csv.reader(io.StringIO(csv_text(["name"], [[name]])))
    assert row == ["'" + name]


def test_an_ordinary_name_after_a_space_is_left_alone():
    assert csv_text(["name"], [[" Ann"]]).splitlines()[1] == '" Ann"'
