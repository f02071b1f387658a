"""What standings are computed from: the entrants, each table's play, and its sums.

Terms:

- *entrant*: a player of the tournament, known by a ``key`` (any hashable id).
- *table play*: one table in one round: who sat where and the deals recorded there.
- *table sums*: a table play summed: each seat's points and deals last in, made here
  from the deals (``table_sums``) or already made by the database.
- *no result yet*: a table with no deal recorded yet (no ``deals``).
- *adjustment*: a penalty (negative points) or an award the organiser gives a player in
  a round (``PointsAdjustment``), in the tournament's scoring system; how it counts is
  said in ``scoring.tallies``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from scoring.rules import DealFacts, Leave, dealer_at
from scoring.rulesets import STANDARD, RuleSet
from scoring.systems import ScoringSystem, score_deal


@dataclass(frozen=True)
class Entrant:
    key: Hashable
    name: str


@dataclass(frozen=True)
class TablePlay:
    round_number: int
    seats: tuple[Hashable, ...]
    # (deal number, deal) pairs; the number decides the dealer.
    deals: tuple[tuple[int, DealFacts], ...] = ()
    # The seats that left the table part-way (their turns to deal are skipped).
    leaves: tuple[Leave, ...] = ()
    # The numbers the deals are staked by (scoring.rulesets).
    rule_set: RuleSet = STANDARD


@dataclass(frozen=True)
class PointsAdjustment:
    """A penalty (``points`` below 0) or an award for the entrant ``key`` in a round."""

    round_number: int
    key: Hashable
    points: int
    reason: str


@dataclass(frozen=True)
class TableSums:
    """One table in one round, summed: each seat's points and deals last in, in seat
    order, over the ``deals`` recorded there."""

    round_number: int
    seats: tuple[Hashable, ...]
    points: tuple[int, ...]
    last_in: tuple[int, ...]
    deals: int
    # Each seat's deals, when a seat left the table part-way; else every seat played
    # ``deals``.
    seat_deals: tuple[int, ...] = ()

    def deals_of(self, index: int) -> int:
        return self.seat_deals[index] if self.seat_deals else self.deals


def table_sums(play: TablePlay, system: ScoringSystem) -> TableSums:
    """Score every deal of a table play and sum it per seat."""
    size = len(play.seats)
    points = [0] * size
    last_in = [0] * size
    played = [0] * size
    for number, deal in play.deals:
        dealer = dealer_at(number, size, play.leaves)
        for index, value in enumerate(score_deal(deal, dealer, system, play.rule_set)):
            points[index] += value
            played[index] += deal.won[index] is not None
        last_in[deal.last_in - 1] += 1
    return TableSums(
        play.round_number,
        play.seats,
        tuple(points),
        tuple(last_in),
        len(play.deals),
        tuple(played) if play.leaves else (),
    )


def scored_rounds(plays: Iterable[TablePlay | TableSums]) -> set[int]:
    """The rounds in which at least one table has a result (a deal recorded)."""
    return {play.round_number for play in plays if play.deals}
