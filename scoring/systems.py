"""The two ways a deal is turned into points.

- *winner-advantage* (Parlett's tournament scoring, the default): the left-over cards go
  to the last-in player's pile, then every seat scores 1 point per pair it holds. A deal
  hands out exactly 26 points.
- *classic stakes* (Willughby): the left-over cards go to the dealer's pile; each seat
  pays its stake, the last-in seat collects the last-in prize, and every seat wins (or
  pays) 1 unit per pair above (or below) the break-even. The nets of a deal sum to zero.

*points* below means the per-deal score in either system (units under classic stakes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.rules import DealFacts, dealer_of, table_params


class ScoringSystem(StrEnum):
    WINNER_ADVANTAGE = "winner-advantage"
    CLASSIC_STAKES = "classic-stakes"

    @property
    def label(self) -> str:
        return {
            ScoringSystem.WINNER_ADVANTAGE: "Winner-advantage (1 point per pair)",
            ScoringSystem.CLASSIC_STAKES: "Classic stakes (net units)",
        }[self]


def winner_advantage(deal: DealFacts) -> tuple[int, ...]:
    return tuple(
        (won + (deal.left_over if seat == deal.last_in else 0)) // 2
        for seat, won in enumerate(deal.won, start=1)
    )


def classic_stakes(deal: DealFacts, dealer: int) -> tuple[int, ...]:
    params = table_params(deal.table_size)
    nets = []
    for seat, won in enumerate(deal.won, start=1):
        final = won + (deal.left_over if seat == dealer else 0)
        prize = params.last_in_prize if seat == deal.last_in else 0
        nets.append(-params.stake(seat, dealer) + prize + (final - params.break_even) // 2)
    return tuple(nets)


def score_deal(deal: DealFacts, dealer: int, system: ScoringSystem) -> tuple[int, ...]:
    """Points for each seat of one deal, in seat order."""
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return winner_advantage(deal)
    return classic_stakes(deal, dealer)


@dataclass(frozen=True)
class SeatSums:
    """One seat's sums over the deals of one table, as a database adds them up:

    ``won``: cards won; ``last_in`` / ``last_in_left_over``: deals the seat was last in
    and the left-over cards of those deals; ``dealt`` / ``dealt_left_over``: deals the
    seat dealt and the left-over cards of those."""

    deals: int
    won: int
    last_in: int
    last_in_left_over: int
    dealt: int
    dealt_left_over: int


def table_sums(deals: Sequence[DealFacts], table_size: int) -> tuple[SeatSums, ...]:
    """Each seat's sums over a table's deals (deal 1 first), seat 1 first."""
    won = [0] * table_size
    last_in = [0] * table_size
    last_in_left_over = [0] * table_size
    dealt = [0] * table_size
    dealt_left_over = [0] * table_size
    for number, deal in enumerate(deals, start=1):
        for index, cards in enumerate(deal.won):
            won[index] += cards
        last_in[deal.last_in - 1] += 1
        last_in_left_over[deal.last_in - 1] += deal.left_over
        dealer = dealer_of(number, table_size) - 1
        dealt[dealer] += 1
        dealt_left_over[dealer] += deal.left_over
    return tuple(
        SeatSums(len(deals), *figures)
        for figures in zip(won, last_in, last_in_left_over, dealt, dealt_left_over, strict=True)
    )


def points_from_sums(sums: SeatSums, table_size: int, system: ScoringSystem) -> int:
    """The seat's points over those deals, equal to summing ``score_deal`` deal by deal.

    Every per-deal formula is linear in the counts, and each halved quantity is even
    (cards are won and left over in pairs; every break-even is even), so halving the sums
    loses nothing."""
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return (sums.won + sums.last_in_left_over) // 2
    params = table_params(table_size)
    stakes = sums.dealt * params.dealer_stake + (sums.deals - sums.dealt) * params.other_stake
    final = sums.won + sums.dealt_left_over
    return (
        -stakes
        + sums.last_in * params.last_in_prize
        + (final - sums.deals * params.break_even) // 2
    )
