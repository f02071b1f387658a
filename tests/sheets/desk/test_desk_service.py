"""The round desk's table progress, loaded by ``sheets.desk`` without a request."""

import datetime

import pytest

from tests.factories import PlayerFactory, TableFactory, seat_table
from tests.pages import ROWS
from tournament.models import Sheet, SheetStatus, Table
from tournament.sheets.authors import AtTable
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.desk.tables import ago, table_progress
from tournament.sheets.saving import save_sheet
from tournament.sheets.status import DeskStatus


def test_each_table_says_where_its_sheet_stands(seated_round, scorer):
    tournament = seated_round.tournament
    first, second = Table.objects.filter(round=seated_round).order_by("number")[:2]
    save_sheet(first, scorer, ROWS, expected_version=0, final=True)
    save_sheet(second, scorer, ROWS[:1], expected_version=0, final=False)
    # Seating creates a round's sheets before anyone types one in.
    Sheet.objects.get_or_create(table=Table.objects.get(round=seated_round, number=3))

    progress = table_progress(tournament, seated_round)

    assert [p.number for p in progress] == [1, 2, 3]
    assert [p.status for p in progress] == [
        SheetStatus.ENTERED,
        SheetStatus.DRAFT,
        SheetStatus.NOT_STARTED,
    ]
    assert [p.status_label for p in progress] == [
        "Entered by a scorer",
        "Being entered by a scorer",
        "Not started",
    ]
    assert [(p.entered_by, p.deals, p.most) for p in progress] == [
        ("simon", 4, 4),
        ("simon", 1, 4),
        ("", 0, 4),
    ]
    assert progress[0].updated is not None
    assert progress[2].updated is None
    assert progress[0].players.count(", ") == 3


def test_two_queries_whatever_the_number_of_tables(seated_round, django_assert_num_queries):
    tournament = seated_round.tournament
    with django_assert_num_queries(2):
        assert len(table_progress(tournament, seated_round)) == 3
    for number in (4, 5):
        table = TableFactory(round=seated_round, number=number)
        seat_table(
            table, [PlayerFactory(tournament=tournament, ref=f"t{number}s{i}") for i in range(5)]
        )
    with django_assert_num_queries(2):
        assert [p.most for p in table_progress(tournament, seated_round)][-1] == 5


def test_the_desk_says_who_is_typing_a_table_or_a_scorer(seated_round, scorer):
    tournament = seated_round.tournament
    tournament.table_confirm = True
    tournament.save()
    first, second, third = Table.objects.filter(round=seated_round).order_by("number")
    save_sheet(first, AtTable("phone-a"), ROWS[:2], expected_version=0, final=False)
    save_sheet(second, AtTable("phone-b"), ROWS, expected_version=0, final=True)
    save_sheet(third, AtTable("phone-c"), ROWS, expected_version=0, final=True)
    confirm_sheet(third, AtTable("phone-d"), expected_version=1, retyped=ROWS)

    progress = table_progress(tournament, seated_round)

    assert [p.desk_status for p in progress] == [
        DeskStatus.AT_TABLE,
        DeskStatus.SUBMITTED,
        DeskStatus.CONFIRMED,
    ]
    assert [p.status_label for p in progress] == [
        "Being entered at the table",
        "Submitted by the table",
        "Confirmed",
    ]
    assert [(p.entered_by, p.confirmed_by) for p in progress] == [
        ("table 1, phone 1", ""),
        ("table 2, phone 1", ""),
        ("table 3, phone 1", "table 3, phone 2"),
    ]


def test_a_table_confirmed_by_a_scorer_after_a_phone_entered_it(seated_round, scorer):
    table = Table.objects.get(round=seated_round, number=1)
    save_sheet(table, AtTable("phone-a"), ROWS, expected_version=0, final=True)
    confirm_sheet(table, scorer, expected_version=1)
    (first, *_) = table_progress(seated_round.tournament, seated_round)
    assert (first.desk_status, first.entered_by, first.confirmed_by) == (
        DeskStatus.CONFIRMED,
        "table 1, phone 1",
        scorer.get_username(),
    )


NOW = datetime.datetime(2026, 11, 20, 20, 0, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("before", "said"),
    [
        (datetime.timedelta(0), "just now"),
        (datetime.timedelta(seconds=59), "just now"),
        (datetime.timedelta(minutes=1), "1\xa0minute ago"),
        (datetime.timedelta(minutes=4, seconds=30), "4\xa0minutes ago"),
        (datetime.timedelta(hours=2, minutes=10), "2\xa0hours ago"),
    ],
)
def test_how_long_ago_a_sheet_changed(before, said):
    assert ago(NOW - before, NOW) == said
