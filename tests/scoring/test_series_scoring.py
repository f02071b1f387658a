"""Series scoring (``scoring.series``): each scheme's worked examples, the placing list
as typed, best-N and the series ranking. A new scheme needs a row in ``WORKED``;
``test_every_scheme_has_a_worked_example`` fails until it has."""

from fractions import Fraction as F

import pytest

from scoring.errors import UserError
from scoring.series import (
    DEFAULT_PLACING,
    SCHEMES,
    Placing,
    SeriesEntry,
    counted_flags,
    parse_placing,
    rank_series,
    scheme,
)

# scheme, (rank, players sharing it, field N, tournament points), series points.
WORKED = [
    # field-share: 100 × (below + ½ × others sharing) / (N − 1)
    ("field-share", (1, 1, 5, 40), F(100)),
    ("field-share", (5, 1, 5, -3), F(0)),
    ("field-share", (2, 2, 5, 20), F(125, 2)),  # (2 + ½) / 4 = 62.5
    ("field-share", (3, 1, 5, 20), F(50)),
    ("field-share", (1, 4, 4, 7), F(50)),  # everybody level: half of the field each
    ("field-share", (1, 1, 1, 30), F(0)),  # a tournament of one
    ("field-share", (2, 3, 7, 0), F(100 * 4, 6)),  # (3 + 1) / 6
    # placing: shared places split their points
    ("placing", (1, 1, 12, 40), F(25)),
    ("placing", (2, 2, 12, 30), F(33, 2)),  # (18 + 15) / 2
    ("placing", (10, 2, 12, 1), F(1, 2)),  # (1 + 0) / 2: 11th is beyond the list
    ("placing", (11, 1, 12, 0), F(0)),
    ("placing", (1, 1, 1, 30), F(25)),
    ("placing", (1, 3, 3, 30), F(58, 3)),  # (25 + 18 + 15) / 3
    # tournament-points: the total as it is
    ("tournament-points", (3, 1, 8, 44), F(44)),
    ("tournament-points", (8, 1, 8, -12), F(-12)),
    ("tournament-points", (1, 1, 1, 7), F(7)),
]


@pytest.mark.parametrize(("key", "placing", "expected"), WORKED)
def test_worked_example(key, placing, expected):
    rank, sharing, field, points = placing
    result = scheme(key).points(Placing(rank, sharing, field, F(points)), DEFAULT_PLACING)
    assert result == expected
    assert isinstance(result, F)


def test_every_scheme_has_a_worked_example():
    assert {key for key, _, _ in WORKED} == set(SCHEMES)


def test_a_custom_placing_list():
    table = parse_placing("10, 5, 1")
    assert scheme("placing").points(Placing(2, 3, 6, F(0)), table) == F(6, 3)


def test_an_unknown_scheme_is_named():
    with pytest.raises(UserError, match="unknown scheme “league”"):
        scheme("league")


def test_an_impossible_placing_is_a_bug():
    with pytest.raises(ValueError, match="impossible"):
        Placing(4, 2, 4, F(0))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25,18,15", (25, 18, 15)),
        (" 5 , 3 ", (5, 3)),
        ("0", (0,)),
        ("3,3,1", (3, 3, 1)),
        ("5;3;1", (5, 3, 1)),
        ("3, 2, 1,", (3, 2, 1)),
        ("25, 18, 15…", (25, 18, 15)),
        ("25, 18, 15, ...", (25, 18, 15)),
    ],
)
def test_parse_placing(text, expected):
    assert parse_placing(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("25,x,15", "place 2: “x” is not a whole number"),
        ("25,18,-1", "place 3: “-1” is not a whole number of points from 0 to 100000"),
        ("25,,15", "place 2: no points given"),
        ("", "the placing list is empty"),
        (",", "the placing list is empty"),
        ("2.5", "place 1: “2.5” is not a whole number"),
        ("25, ²", "place 2: “²” is not a whole number"),
        ("100001", "place 1: “100001” is not a whole number of points from 0 to 100000"),
        ("1,2,3", "place 2: 2 points is more than place 1's 1; list the points from 1st"),
        (",".join(["1"] * 1001), "at most 1000 places"),
    ],
)
def test_parse_placing_names_the_place(text, message):
    with pytest.raises(UserError, match=message):
        parse_placing(text)


@pytest.mark.parametrize(
    ("points", "count_best", "expected"),
    [
        ((10, 30, 20), None, (True, True, True)),
        ((10, 30, 20), 2, (False, True, True)),
        ((10, 30, 20), 5, (True, True, True)),
        # A tie on the cut: the earlier tournament counts.
        ((20, 30, 20), 2, (True, True, False)),
        ((5, 5, 5), 1, (True, False, False)),
        ((), 3, ()),
    ],
)
def test_best_n(points, count_best, expected):
    assert counted_flags(tuple(F(p) for p in points), count_best) == expected


def entry(key, *points, name=None):
    return SeriesEntry(key, name or key, tuple(F(p) for p in points))


def ranking(entries, count_best=None, min_events=1):
    return [
        (row.key, row.rank, row.shared, row.total, row.events, row.best)
        for row in rank_series(entries, count_best, min_events)
    ]


def test_ranking_by_points_then_events_then_best_then_name():
    rows = ranking(
        [
            entry("dora", 50, 50),  # 100 over 2
            entry("alan", 100),  # 100 over 1: fewer events
            entry("cleo", 60, 20, 20),  # 100 over 3: more events
            entry("bea", 40, 30, 30),  # 100 over 3, best 40
            entry("eve", 70, 30),  # 100 over 2, best 70 beats dora's 50
        ]
    )
    assert rows == [
        ("cleo", 1, False, F(100), 3, F(60)),
        ("bea", 2, False, F(100), 3, F(40)),
        ("eve", 3, False, F(100), 2, F(70)),
        ("dora", 4, False, F(100), 2, F(50)),
        ("alan", 5, False, F(100), 1, F(100)),
    ]


def test_shared_ranks_are_listed_by_name_and_skip():
    rows = ranking(
        [
            entry("zoe", 30, 10, name="zoe"),
            entry("émile", 30, 10, name="emile"),
            entry("anna", 50),
            entry("bob", 35, 0),
            entry("carl", 10),
        ]
    )
    assert [(key, rank, shared) for key, rank, shared, *_ in rows] == [
        ("anna", 1, False),
        ("émile", 2, True),
        ("zoe", 2, True),
        ("bob", 4, False),
        ("carl", 5, False),
    ]


def test_best_n_and_min_events():
    rows = ranking(
        [
            entry("ann", 100, 0, 80, 90),  # best 3: 270
            entry("ben", 95, 95),  # 190, 2 events
            entry("cat", 100),  # 1 event: under min_events, unranked
            entry("dan", 60, 60, 60),  # 180
        ],
        count_best=3,
        min_events=2,
    )
    assert rows == [
        ("ann", 1, False, F(270), 4, F(100)),
        ("ben", 2, False, F(190), 2, F(95)),
        ("dan", 3, False, F(180), 3, F(60)),
        ("cat", None, False, F(100), 1, F(100)),
    ]
    counted = {row.key: row.counted for row in rank_series([entry("ann", 100, 0, 80, 90)], 3, 1)}
    assert counted == {"ann": (True, False, True, True)}


def test_a_tournament_of_one_still_counts_as_an_event():
    only = scheme("field-share").points(Placing(1, 1, 1, F(12)), DEFAULT_PLACING)
    rows = ranking([entry("solo", only), entry("pair", 0, 0)], min_events=2)
    assert rows == [
        ("pair", 1, False, F(0), 2, F(0)),
        ("solo", None, False, F(0), 1, F(0)),
    ]


def test_fractions_stay_exact():
    thirds = [F(100, 3)] * 3
    rows = rank_series([SeriesEntry("x", "x", tuple(thirds))], None, 1)
    assert rows[0].total == F(100)
