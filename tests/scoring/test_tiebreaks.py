"""The tiebreak registry: every key's words, columns and a worked comparison, the three
steps of the standings, and that adding a tiebreak is one class.

A new tiebreak needs a row in ``COMPARISONS`` (its worked example) and one in
``WORDS``; ``test_every_registered_tiebreak_has_a_worked_example`` fails until it has.
"""

import csv
import io

import pytest
from django.urls import reverse

from scoring.ranking import decided_by, rank_players
from scoring.standings import compute_standings
from scoring.systems import ScoringSystem
from scoring.tallies import tally_players
from scoring.tiebreaks import (
    POINTS,
    TIEBREAKS,
    Tally,
    Tiebreak,
    decided_column,
    decided_words,
    order_in_words,
    register,
    standings_columns,
    tiebreak,
)
from tests.plays import entrants, play, wa_deal
from tournament.tournament_file import structure


def tally(points=10, deals=5, last_in=1, table_wins=0, opponents=100, rounds=(10,)):
    return Tally(points, deals, last_in, table_wins, opponents, tuple(rounds))


# key, the tally ranked higher, the tally ranked lower, what a row shows of each.
COMPARISONS = [
    ("points", tally(points=31), tally(points=30), (31, 30)),
    ("last_in", tally(last_in=3), tally(last_in=2), (3, 2)),
    ("table_wins", tally(table_wins=2), tally(table_wins=1), (2, 1)),
    # Round 3 is level; round 2 decides, whatever round 1 says.
    ("countback", tally(rounds=(0, 12, 10)), tally(rounds=(30, 9, 10)), (10, 10)),
    # A round not played counts 0, so a played 0 is level with it.
    ("countback", tally(rounds=(1, None)), tally(rounds=(None, 0)), (None, 0)),
    ("best_round", tally(rounds=(5, 20)), tally(rounds=(15, 15)), (20, 15)),
    # Having played no round ranks below any total, even a negative one (classic stakes).
    ("best_round", tally(rounds=(-4, None)), tally(rounds=(None, None)), (-4, None)),
    ("opponents", tally(opponents=300), tally(opponents=250), (300, 250)),
]

# key, label (the order in words, the settings), column header, columns over rounds 1–3.
WORDS = {
    "points": ("points", "Points", ["points"]),
    "last_in": ("deals last in", "Deals last in", ["last_in"]),
    "table_wins": ("table wins", "Table wins", ["table_wins"]),
    "countback": (
        "countback (latest round first)",
        "Countback (latest round first)",
        ["round_1", "round_2", "round_3"],
    ),
    "best_round": ("best round", "Best round", ["best_round"]),
    "opponents": ("opponents' points", "Opponents' points", ["opponents"]),
}


@pytest.mark.parametrize(("key", "higher", "lower", "shown"), COMPARISONS)
def test_each_tiebreak_compares_its_worked_example(key, higher, lower, shown):
    chosen = tiebreak(key)
    assert chosen.comparable(higher) > chosen.comparable(lower)
    assert (chosen.value(higher), chosen.value(lower)) == shown


@pytest.mark.parametrize(("key", "words"), WORDS.items())
def test_each_tiebreak_has_its_words_and_columns(key, words):
    label, header, columns = words
    chosen = tiebreak(key)
    assert (chosen.key, chosen.label, chosen.column_label) == (key, label, header)
    assert [column.name for column in chosen.columns([1, 2, 3])] == columns


def test_every_registered_tiebreak_has_a_worked_example():
    assert {key for key, *_ in COMPARISONS} == {POINTS.key, *TIEBREAKS}
    assert set(WORDS) == {POINTS.key, *TIEBREAKS}


def test_the_registry_offers_the_keys_in_the_settings_order():
    assert list(TIEBREAKS) == ["last_in", "table_wins", "countback", "best_round", "opponents"]


def test_the_order_in_words_starts_with_points():
    assert order_in_words(["countback", "opponents"]) == (
        "points, then countback (latest round first), then opponents' points"
    )
    assert order_in_words([]) == "points"
    assert order_in_words(["last_in"], joiner=", ") == "points, deals last in"


def test_the_columns_follow_the_order_and_countback_shows_the_rounds_in_play_order():
    # Countback compares the latest round first, but people read R1, R2, … left to right.
    columns = standings_columns(["opponents", "countback", "last_in"], [1, 2])
    assert [(c.name, c.label, c.title) for c in columns] == [
        ("opponents", "Opponents' points", "opponents' points"),
        ("round_1", "R1", "Countback: round 1 total"),
        ("round_2", "R2", "Countback: round 2 total"),
        ("last_in", "Deals last in", "deals last in"),
    ]
    row = tally(last_in=4, opponents=90, rounds=(7, None))
    assert [c.figure(row) for c in columns] == [90, 7, None, 4]


def test_without_countback_the_round_totals_come_last_in_round_order():
    columns = standings_columns(["table_wins"], [1, 2])
    assert [(c.name, c.title) for c in columns] == [
        ("table_wins", "table wins"),
        ("round_1", "Round 1 total"),
        ("round_2", "Round 2 total"),
    ]


def test_what_decided_is_named_as_the_columns_say_it():
    plays = [
        play(1, "ABC", wa_deal((10, 11, 5), last_in=3)),
        play(2, "ABC", wa_deal((9, 8, 9), last_in=3)),
    ]
    standings = compute_standings(entrants("ABC"), plays, tiebreaks=["countback", "last_in"])
    first, second, third = standings.rows
    assert [(row.name, row.points) for row in standings.rows] == [("A", 19), ("B", 19), ("C", 14)]
    rounds = standings.round_numbers
    assert (second.decided_by, third.decided_by) == ("countback", "points")
    assert decided_words(second, first, rounds) == "R2 (countback)"
    assert decided_column(second, first, rounds) == "round_2"
    # A difference in points needs no highlight; the CSV still names it.
    assert decided_words(third, second, rounds) == "Points"
    assert decided_column(third, second, rounds) is None
    assert decided_words(first, None, rounds) == ""


# The three steps of the standings ---------------------------------------------------


def test_the_tally_counts_each_players_facts_over_the_rounds():
    plays = [
        play(1, "ABC", wa_deal((10, 6, 10), last_in=3)),
        play(3, "ABD", wa_deal((10, 12, 4), last_in=1)),
    ]
    rounds, tallies = tally_players(
        entrants("ABCD"), plays, ScoringSystem.WINNER_ADVANTAGE, [2], byes=[(3, "C")], bye_points=4
    )
    assert rounds == (1, 2, 3)
    # Final points: A 20, B 18, C 14 (a bye of 4 in round 3), D 4.
    assert tallies["A"] == Tally(20, 2, 1, 1, (18 + 14) + (18 + 4), (10, None, 10))
    assert tallies["B"] == Tally(18, 2, 0, 1, (20 + 14) + (20 + 4), (6, None, 12))
    assert tallies["C"] == Tally(14, 1, 1, 1, 20 + 18, (10, None, 4))
    assert tallies["D"] == Tally(4, 1, 0, 0, 20 + 18, (None, None, 4))


def test_ranking_shares_a_rank_among_players_equal_on_every_key():
    tallies = {
        "A": tally(points=10, last_in=1),
        "B": tally(points=10, last_in=2),
        "c": tally(points=10, last_in=1),
        "D": tally(points=12, last_in=0),
    }
    ranked = rank_players(entrants("ABcD"), tallies, ["points", "last_in"])
    assert [(p.rank, p.shared, p.entrant.name) for p in ranked] == [
        (1, False, "D"),
        (2, False, "B"),
        (3, True, "A"),
        (3, True, "c"),
    ]
    chain = ["points", "last_in"]
    assert [
        decided_by(chain, above, p) for p, above in zip(ranked, [None, *ranked], strict=False)
    ] == [
        None,
        "points",
        "last_in",
        None,
    ]


# Adding a tiebreak: one class ---------------------------------------------------------


@pytest.fixture
def worst_round():
    """A tiebreak registered for one test only, as a module would register it: the
    highest lowest round total, over rounds played."""

    class WorstRound(Tiebreak):
        key = "worst_round"
        label = "worst round"

        def value(self, tally):
            played = [total for total in tally.rounds if total is not None]
            return min(played) if played else None

    register(WorstRound)
    # Tournament files are checked against a schema made once, listing the keys.
    structure.schema.cache_clear()
    yield TIEBREAKS["worst_round"]
    del TIEBREAKS["worst_round"]
    structure.schema.cache_clear()


def test_a_key_is_registered_once(worst_round):
    with pytest.raises(ValueError, match="worst_round"):
        register(type(worst_round))


def test_a_registered_tiebreak_ranks_the_standings(worst_round):
    plays = [
        play(1, "ABC", wa_deal((10, 6, 10), last_in=3)),
        play(2, "ABC", wa_deal((7, 11, 8), last_in=3)),
    ]
    standings = compute_standings(entrants("ABC"), plays, tiebreaks=["worst_round"])
    assert [(row.rank, row.name, row.points, row.decided_by) for row in standings.rows] == [
        (1, "C", 18, None),
        (2, "A", 17, "points"),
        (3, "B", 17, "worst_round"),
    ]


def test_a_registered_tiebreak_is_offered_in_the_settings(
    worst_round, organiser_client, seated_round
):
    slug = seated_round.tournament.slug
    page = organiser_client.get(reverse("organiser:edit", args=[slug])).content.decode()
    assert '<option value="worst_round">worst round</option>' in page
    organiser_client.post(reverse("organiser:tiebreak_add", args=[slug]), {"key": "worst_round"})
    seated_round.tournament.refresh_from_db()
    assert seated_round.tournament.tiebreaks[-1] == "worst_round"
    dashboard = organiser_client.get(reverse("organiser:dashboard", args=[slug]))
    assert "then countback (latest round first), then worst round" in dashboard.content.decode()
    create = organiser_client.get(reverse("organiser:create")).content.decode()
    assert 'name="tiebreak_6"' in create
    assert '<option value="worst_round">worst round</option>' in create


def test_a_registered_tiebreak_is_shown_as_a_column(worst_round, client, make_played):
    tournament = make_played(players=12, rounds=2)
    tournament.tiebreaks = ["worst_round", "last_in"]
    tournament.save(update_fields=["tiebreaks"])
    response = client.get(reverse("standings", args=[tournament.slug]), {"sort": "worst_round"})
    html = response.content.decode()
    assert "Ranked by points, then worst round, then deals last in." in html
    columns = [column.name for column in response.context["table"].columns]
    assert columns.index("worst_round") < columns.index("last_in")
    assert [row.record["worst_round"] for row in response.context["table"].rows] == sorted(
        row.record["worst_round"] for row in response.context["table"].rows
    )
    final = client.get(reverse("final", args=[tournament.slug])).content.decode()
    assert 'title="worst round">Worst round</th>' in final
    projector = client.get(reverse("projector", args=[tournament.slug])).content.decode()
    assert ">Worst round</th>" in projector
    text = client.get(reverse("standings_csv", args=[tournament.slug])).content.decode("utf-8-sig")
    header, *rows = csv.reader(io.StringIO(text))
    worst = header.index("worst_round")
    rounds = [header.index("round_1"), header.index("round_2")]
    assert rows
    for row in rows:
        assert int(row[worst]) == min(int(row[i]) for i in rounds)
