"""Each player's tally: their facts over the rounds counted, table by table.

Terms (see ``scoring.standings`` for the rest):

- *round total*: a player's points over the deals of their table in one round. A player
  who was not seated in a round did not play it (``None``).
- *no result yet*: a table with no deal recorded yet. Its players have no total for that
  round (``None``, the round listed in their tally's ``waiting``); the table adds no
  deals, table win or opponents to anyone.
- *tally*: a player's facts over every round counted (``scoring.tiebreaks.Tally``):
  points, deals played, deals last in, table wins, opponents' points, round totals.
- *adjustment*: a penalty or an award (``scoring.plays.PointsAdjustment``), added to
  that round's total, so to ``points``, countback and best round, and to the player's
  points as their opponents' points count them; not to deals last in or table wins,
  which count cards. One for a round whose table has no result yet for the player waits
  with it: counted once the result is in. One for a round the player did not play is
  that round's total.

The standings (``tally_players``) and the ranks after each round
(``scoring.standings.ranks_after_each_round``) both count with ``Counts``, adding
tables, byes and adjustments to it, then make the tallies (``tallies_of``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from scoring.plays import Entrant, PointsAdjustment, TablePlay, TableSums, table_sums
from scoring.systems import ScoringSystem
from scoring.tiebreaks import Adjusted, Tally


def is_waiting(tally: Tally, scored: set[int]) -> bool:
    """Whether the player waits for a result in a round others already have one for."""
    return any(number in scored for number in tally.waiting)


@dataclass
class Counts:
    """One player's running counts, as tables, byes and adjustments are added."""

    points: int = 0
    deals: int = 0
    last_in: int = 0
    table_wins: int = 0
    by_round: dict[int, int] = field(default_factory=dict)
    # Where the player sat: an index into the tables' seats, once per seat taken.
    tables: list[int] = field(default_factory=list)
    # The rounds whose table has no result yet.
    waiting: list[int] = field(default_factory=list)
    adjusted: list[Adjusted] = field(default_factory=list)


def tally_players(
    entrants: Sequence[Entrant],
    plays: Iterable[TablePlay | TableSums],
    system: ScoringSystem,
    round_numbers: Iterable[int] = (),
    byes: Iterable[tuple[int, Hashable]] = (),
    bye_points: int = 0,
    adjustments: Iterable[PointsAdjustment] = (),
) -> tuple[tuple[int, ...], dict[Hashable, Tally]]:
    """The rounds counted, in order, and each entrant's tally over them (the arguments
    are ``compute_standings``'s)."""
    counts = {entrant.key: Counts() for entrant in entrants}
    rounds = set(round_numbers)
    tables: list[tuple[Hashable, ...]] = []

    for play in plays:
        table = play if isinstance(play, TableSums) else table_sums(play, system)
        rounds.add(table.round_number)
        add_table(counts, tables, table)

    for round_number, key in byes:
        rounds.add(round_number)
        add_bye(counts, round_number, key, bye_points)

    for adjustment in adjustments:
        rounds.add(adjustment.round_number)
        add_adjustment(counts, adjustment)

    ordered_rounds = tuple(sorted(rounds))
    return ordered_rounds, tallies_of(counts, tables, ordered_rounds)


def add_table(
    counts: dict[Hashable, Counts], tables: list[tuple[Hashable, ...]], table: TableSums
) -> None:
    if not table.deals:
        # No result yet: the seats wait for it, and nobody counts the table meanwhile.
        for key in table.seats:
            counts[key].waiting.append(table.round_number)
        return
    top = max(table.points)
    where = len(tables)
    tables.append(table.seats)
    for index, key in enumerate(table.seats):
        count = counts[key]
        total = table.points[index]
        count.points += total
        count.deals += table.deals_of(index)
        count.last_in += table.last_in[index]
        count.by_round[table.round_number] = count.by_round.get(table.round_number, 0) + total
        count.tables.append(where)
        if total == top:
            count.table_wins += 1


def add_bye(counts: dict[Hashable, Counts], round_number: int, key: Hashable, points: int) -> None:
    count = counts[key]
    count.points += points
    count.by_round[round_number] = count.by_round.get(round_number, 0) + points


def add_adjustment(counts: dict[Hashable, Counts], adjustment: PointsAdjustment) -> None:
    count = counts[adjustment.key]
    number = adjustment.round_number
    if number in count.waiting:
        return  # it waits with the table's result
    count.points += adjustment.points
    count.by_round[number] = count.by_round.get(number, 0) + adjustment.points
    count.adjusted.append(Adjusted(number, adjustment.points, adjustment.reason))


def tallies_of(
    counts: dict[Hashable, Counts],
    tables: Sequence[tuple[Hashable, ...]],
    ordered_rounds: tuple[int, ...],
) -> dict[Hashable, Tally]:
    # A player's opponents' points at a table: everyone's points there but their own.
    table_points = [sum(counts[key].points for key in seats) for seats in tables]
    return {
        key: Tally(
            points=count.points,
            deals=count.deals,
            last_in=count.last_in,
            table_wins=count.table_wins,
            opponents=sum(table_points[where] for where in count.tables)
            - count.points * len(count.tables),
            rounds=tuple(count.by_round.get(number) for number in ordered_rounds),
            waiting=tuple(sorted(count.waiting)),
            adjustments=tuple(sorted(count.adjusted, key=lambda each: each.round_number)),
        )
        for key, count in counts.items()
    }
