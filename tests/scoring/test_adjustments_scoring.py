"""Penalties and awards in the standings (``scoring.standings``): added to the round's
total, counted by the tiebreaks that read points or round totals and by none that count
cards, waiting with a table's result; and docs/standings.md's worked example, which
must be what the code computes."""

import re
from pathlib import Path

import pytest

from scoring.plays import Entrant, PointsAdjustment, TableSums
from scoring.standings import compute_standings, ranks_after_each_round
from scoring.tiebreaks import POINTS, TIEBREAKS, tiebreak

DOC = (Path(__file__).resolve().parents[2] / "docs" / "standings.md").read_text()


def sums(round_number, seats, points, last_in=None, deals=4):
    return TableSums(
        round_number,
        tuple(seats),
        tuple(points),
        tuple(last_in or [1] * len(seats)),
        deals,
    )


def field(names):
    return [Entrant(name, name) for name in names]


def by_name(standings):
    return {row.name: row for row in standings.rows}


# Two rounds at one table of four: Ann and Bob level on points and deals last in, Ann
# the round 1 table winner.
PLAYS = [
    sums(1, "ABCD", (30, 28, 26, 20)),
    sums(2, "ABCD", (24, 26, 30, 24)),
]


def test_a_penalty_is_taken_from_the_round_total_and_the_points():
    penalty = PointsAdjustment(2, "A", -2, "misdeal")
    rows = by_name(compute_standings(field("ABCD"), PLAYS, adjustments=[penalty]))
    assert rows["A"].points == 52
    assert rows["A"].rounds == (30, 22)
    assert [(a.round_number, a.points, a.reason) for a in rows["A"].tally.adjustments] == [
        (2, -2, "misdeal")
    ]
    assert rows["A"].tally.adjustment_total == -2
    assert rows["B"].points == 54
    assert rows["B"].tally.adjustments == ()


def test_an_award_adds_and_several_in_a_round_add_up():
    given = [
        PointsAdjustment(1, "D", 3, "dispute settled"),
        PointsAdjustment(1, "D", -1, "slow play"),
    ]
    rows = by_name(compute_standings(field("ABCD"), PLAYS, adjustments=given))
    assert rows["D"].rounds == (22, 24)
    assert rows["D"].points == 46
    assert rows["D"].tally.adjustment_total == 2


@pytest.mark.parametrize(
    ("key", "without", "with_penalty"),
    [
        # Cards only: the penalty changes nothing.
        ("last_in", 2, 2),
        ("table_wins", 1, 1),
        # Round totals: the penalty counts.
        ("best_round", 30, 27),
        ("countback", 24, 21),
        # Ann's opponents' points: Bob, Cat and Dan's totals at each of her two tables;
        # Bob's penalty is part of his.
        ("opponents", 2 * (54 + 56 + 44), 2 * (54 + 56 + 44 - 3)),
    ],
)
def test_each_tiebreak_counts_adjustments_or_cards_only(key, without, with_penalty):
    player = "B" if key == "opponents" else "A"
    given = [PointsAdjustment(2 if key == "countback" else 1, player, -3, "slow play")]
    before = by_name(compute_standings(field("ABCD"), PLAYS, tiebreaks=[key]))
    after = by_name(compute_standings(field("ABCD"), PLAYS, tiebreaks=[key], adjustments=given))
    assert TIEBREAKS[key].value(before["A"].tally) == without
    assert TIEBREAKS[key].value(after["A"].tally) == with_penalty
    assert TIEBREAKS[key].counts_adjustments is (without != with_penalty)


def test_a_penalty_drops_a_table_winner_below_another_without_unmaking_the_win():
    # Ann tops round 1 by 2 points; a -3 there makes Bob's total the higher, yet the
    # table win is Ann's: the cards decide it.
    given = [PointsAdjustment(1, "A", -3, "misdeal")]
    rows = by_name(compute_standings(field("ABCD"), PLAYS, adjustments=given))
    assert rows["A"].rounds[0] < rows["B"].rounds[0]
    assert (rows["A"].table_wins, rows["B"].table_wins) == (1, 0)


def test_an_adjustment_waits_with_a_table_that_has_no_result_yet():
    plays = [sums(1, "ABCD", (30, 28, 26, 20)), sums(2, "ABCD", (0, 0, 0, 0), deals=0)]
    given = [PointsAdjustment(2, "A", -2, "misdeal")]
    rows = by_name(compute_standings(field("ABCD"), plays, adjustments=given))
    assert rows["A"].points == 30
    assert rows["A"].rounds == (30, None)
    assert rows["A"].waiting == (2,)
    assert rows["A"].tally.adjustments == ()
    # Once the result is in, it counts.
    rows = by_name(compute_standings(field("ABCD"), PLAYS, adjustments=given))
    assert rows["A"].rounds == (30, 22)


def test_an_adjustment_in_a_round_not_played_is_that_rounds_total():
    plays = [sums(1, "ABC", (30, 28, 26))]
    given = [PointsAdjustment(1, "D", -5, "no-show")]
    rows = by_name(compute_standings(field("ABCD"), plays, adjustments=given))
    assert rows["D"].rounds == (-5,)
    assert rows["D"].points == -5
    assert rows["D"].deals == 0


def test_ranks_after_each_round_count_a_penalty_from_its_round_on():
    given = [PointsAdjustment(2, "A", -2, "misdeal")]
    history = ranks_after_each_round(field("ABCD"), PLAYS, adjustments=given)
    assert [(r.rank, r.points) for r in history["A"]] == [(1, 30), (3, 52)]
    assert [(r.rank, r.points) for r in history["B"]] == [(2, 28), (2, 54)]


# docs/standings.md -------------------------------------------------------------------


def _section() -> str:
    start = DOC.index("## Penalties and awards")
    return DOC[start : DOC.index("\n## ", start + 1)]


def _table_after(text: str, marker: str) -> list[list[str]]:
    start = text.index(marker)
    lines = text[start:].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[first + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _number(text: str) -> int:
    return int(text.replace("−", "-"))


def _standings_words(standings):
    return [
        [
            str(row.rank),
            row.name,
            str(row.points),
            "" if row.decided_by is None else tiebreak(row.decided_by).label,
        ]
        for row in standings.rows
    ]


def test_the_worked_example_is_what_the_code_computes():
    section = _section()
    totals = _table_after(section, "Round totals, from the cards")
    names = [row[0] for row in totals]
    plays = [
        TableSums(
            number,
            tuple(names),
            tuple(_number(row[number]) for row in totals),
            # Each player's deals last in, all in the first round.
            tuple(_number(row[3]) if number == 1 else 0 for row in totals),
            4,
        )
        for number in (1, 2)
    ]
    given = re.search(
        r"records \*\*([−+-]?\d+)\*\* for (\w+) in round (\d+), reason\s+“([^”]+)”", section
    )
    assert given is not None
    penalty = PointsAdjustment(int(given[3]), given[2], _number(given[1]), given[4])
    before = compute_standings(field(names), plays)
    after = compute_standings(field(names), plays, adjustments=[penalty])
    assert _standings_words(before) == _table_after(section, "before any\npenalty")
    assert _standings_words(after) == _table_after(section, "(the cards decide that)")
    assert by_name(after)[given[2]].table_wins == by_name(before)[given[2]].table_wins == 1


def test_the_tiebreak_table_says_which_keys_count_adjustments():
    rows = re.findall(r"^\| `(\w+)` \|.*\| (counts adjustments|cards only) \|$", DOC, re.M)
    assert dict(rows) == {
        key: "counts adjustments" if tb.counts_adjustments else "cards only"
        for key, tb in TIEBREAKS.items()
    }
    assert POINTS.counts_adjustments
