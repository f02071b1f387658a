"""The round desk's table progress, loaded by ``services.desk`` without a request."""

from tests.factories import PlayerFactory, TableFactory, seat_table
from tests.test_views_scorer import ROWS
from tournament.models import Sheet, SheetStatus, Table
from tournament.services import sheets
from tournament.services.desk import table_progress


def test_each_table_says_where_its_sheet_stands(seated_round, scorer):
    tournament = seated_round.tournament
    first, second = Table.objects.filter(round=seated_round).order_by("number")[:2]
    sheets.save_sheet(first, scorer, ROWS, expected_version=0, final=True)
    sheets.save_sheet(second, scorer, ROWS[:1], expected_version=0, final=False)
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
        "Awaiting confirmation",
        "Entering",
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
