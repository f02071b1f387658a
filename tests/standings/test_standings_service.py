import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import PlayerFactory, RoundFactory, TableFactory, record_deal, seat_table
from tournament.standings.services import tournament_standings


def run_standings(slug, fmt):
    out = io.StringIO()
    call_command("standings", slug, "--format", fmt, stdout=out)
    return out.getvalue()


@pytest.fixture
def worked_example(db):
    """The worked example of docs/rules.md as round 1, table 1, plus a sixth player who sat out."""
    table = TableFactory(number=1, round=RoundFactory(number=1, started=True))
    tournament = table.round.tournament
    players = [PlayerFactory(tournament=tournament, name=name) for name in "ABCDE"]
    PlayerFactory(tournament=tournament, name="F")
    seat_table(table, players)
    record_deal(table, 1, [6, 4, 10, 0, 8], last_in=5, left_over=24)
    return tournament


def test_the_worked_example_from_the_database(worked_example):
    rows = json.loads(run_standings(worked_example.slug, "json"))["rows"]
    assert [(r["name"], r["points"], r["rank"]) for r in rows] == [
        ("E", 16, 1),
        ("C", 5, 2),
        ("A", 3, 3),
        ("B", 2, 4),
        # D played and scored nothing, F sat out: equal on every key, so they share 5th.
        ("D", 0, 5),
        ("F", 0, 5),
    ]
    worked_example.scoring = "classic-stakes"
    worked_example.save()
    rows = json.loads(run_standings(worked_example.slug, "json"))["rows"]
    assert {r["name"]: r["points"] for r in rows} == {
        "A": 8,
        "B": -4,
        "C": -1,
        "D": -6,
        "E": 3,
        "F": 0,
    }


def test_json_rows_have_the_documented_keys(worked_example):
    data = json.loads(run_standings(worked_example.slug, "json"))
    assert data["tournament"] == worked_example.slug
    assert data["scoring"] == "winner-advantage"
    assert data["tiebreaks"] == ["last_in", "table_wins", "countback"]
    first = data["rows"][0]
    assert first == {
        "rank": 1,
        "shared": False,
        "player_id": first["player_id"],
        "name": "E",
        "club": "",
        "points": 16,
        "deals": 1,
        "last_in": 1,
        "table_wins": 1,
        "best_round": 16,
        "opponents": 10,
        "rounds": [16],
        "decided_by": None,
        "no_result_yet": [],
        "adjustments": [],
    }
    assert data["rows"][-1]["rounds"] == [None]
    assert data["rows"][-1]["best_round"] is None


def test_csv_and_text_show_every_tiebreak_value(worked_example):
    rows = list(csv.DictReader(io.StringIO(run_standings(worked_example.slug, "csv"))))
    assert rows[0]["name"] == "E"
    assert rows[0]["round_1"] == "16"
    assert rows[-1]["round_1"] == ""
    assert set(rows[0]) >= {"rank", "points", "deals", "last_in", "table_wins", "opponents"}
    text = run_standings(worked_example.slug, "text")
    assert "Ranked by points, deals last in, table wins, countback" in text
    assert text.splitlines()[4].split()[:3] == ["1", "E", "16"]


def test_shared_ranks_are_marked(db, make_played):
    tournament = make_played(players=3, rounds=0)
    rows = json.loads(run_standings(tournament.slug, "json"))["rows"]
    assert [(r["rank"], r["shared"]) for r in rows] == [(1, True)] * 3
    assert run_standings(tournament.slug, "csv").splitlines()[1].startswith('"1=",')


def test_unknown_slug(db):
    with pytest.raises(CommandError, match="no tournament with the slug “nope”"):
        run_standings("nope", "json")


def test_incomplete_tables_are_reported(make_played):
    tournament = make_played(players=10, rounds=2, rotations=2, stopped_early={2: (1, 7)})
    result = tournament_standings(tournament)
    assert [(t.round, t.table, t.deals, t.expected) for t in result.incomplete_tables] == [
        (2, 1, 7, 10)
    ]


def test_incomplete_tables_are_named_by_the_command(make_played):
    tournament = make_played(players=10, rounds=2, rotations=2, stopped_early={2: (1, 7)})
    data = json.loads(run_standings(tournament.slug, "json"))
    assert data["incomplete_tables"] == [{"round": 2, "table": 1, "deals": 7, "expected": 10}]
    assert "round 2, table 1: 7 of 10 deals" in run_standings(tournament.slug, "text")


def test_a_seated_round_not_yet_started_counts_nowhere(make_played):
    from tournament.rounds import seating

    # Classic stakes: a round played counts 0 for best_round only if it is counted at all.
    tournament = make_played(players=10, rounds=2, rotations=1)
    tournament.scoring = "classic-stakes"
    tournament.planned_rounds = 3
    tournament.save()
    before = json.loads(run_standings(tournament.slug, "json"))
    seating.seat_next_round(tournament)  # round 3 seated as a draft, not started
    after = json.loads(run_standings(tournament.slug, "json"))
    assert after == before
    assert all(len(row["rounds"]) == 2 for row in after["rows"])
    assert after["incomplete_tables"] == []


def _queries(function):
    with CaptureQueriesContext(connection) as captured:
        function()
    return len(captured)


@pytest.mark.parametrize("fmt", ["json", "text", "csv"])
def test_the_standings_command_query_count_does_not_grow(make_played, fmt):
    small = make_played(players=6, rounds=1, rotations=1, slug="small")
    large = make_played(players=40, rounds=5, rotations=2, slug="large")
    small_count = _queries(lambda: run_standings(small.slug, fmt))
    assert small_count == _queries(lambda: run_standings(large.slug, fmt))
    assert small_count <= 6  # the tournament, players, rounds, byes, adjustments, seats


@pytest.mark.parametrize(
    ("bye_score", "scoring", "expected"),
    [
        ("zero", "winner-advantage", 0),
        ("average", "winner-advantage", 52),
        ("average", "classic-stakes", 0),
    ],
)
def test_bye_points_follow_the_setting(make_played, bye_score, scoring, expected):
    from tournament.models import Bye, Player, Round
    from tournament.standings.services import bye_points

    tournament = make_played(players=10, rounds=1, rotations=2)
    tournament.bye_score = bye_score
    tournament.scoring = scoring
    tournament.save()
    assert bye_points(tournament) == expected
    extra = Player.objects.create(tournament=tournament, ref="late", name="Zed")
    Bye.objects.create(round=Round.objects.get(tournament=tournament), player=extra)
    rows = tournament_standings(tournament).standings.rows
    assert next(r for r in rows if r.name == "Zed").rounds == (expected,)


@pytest.mark.parametrize("system", ["winner-advantage", "classic-stakes"])
def test_database_sums_score_like_the_deals_one_by_one(db, system):
    """The standings the database adds up equal scoring every deal in Python, for every
    table size, dealer and last-in seat, including a table that stopped early and one
    with no deals yet."""
    import random

    from scoring.plays import Entrant, TablePlay
    from scoring.rules import DealFacts
    from scoring.simulation import player
    from scoring.standings import compute_standings
    from scoring.systems import ScoringSystem
    from tournament.demo import simulated_deals

    rng = random.Random(7)
    tournament = RoundFactory(number=1, started=True).tournament
    tournament.scoring = system
    tournament.rotations_per_round = 2
    tournament.save()
    players = [PlayerFactory(tournament=tournament) for _ in range(18 + 18)]
    plays = []
    for number in (1, 2):
        round_ = (
            RoundFactory(tournament=tournament, number=number, started=True)
            if number == 2
            else None
        )
        round_ = round_ or tournament.rounds.get(number=1)
        pool = players[(number - 1) * 18 : number * 18]
        rng.shuffle(pool)
        for table_number, size in enumerate((3, 4, 5, 6), start=1):
            seated, pool = pool[:size], pool[size:]
            table = TableFactory(round=round_, number=table_number)
            seat_table(table, seated)
            played = {1: 2 * size, 2: size + 1, 3: 2 * size, 4: 0}[table_number]
            deals = []
            simulated = simulated_deals([player()] * size, played, rng.randrange(10**6))
            for deal_number, deal in enumerate(simulated, start=1):
                record_deal(table, deal_number, deal["won"], deal["last_in"], deal["left_over"])
                facts = DealFacts(tuple(deal["won"]), deal["last_in"], deal["left_over"])
                deals.append((deal_number, facts))
            plays.append(TablePlay(number, tuple(p.pk for p in seated), tuple(deals)))

    expected = compute_standings(
        [Entrant(p.pk, p.name) for p in players],
        plays,
        ScoringSystem(system),
        tournament.tiebreaks,
        (1, 2),
    )
    assert tournament_standings(tournament).standings == expected
    assert any(row.points != 0 for row in expected.rows)
