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

from scoring.rules import DealFacts, Leave, dealers, table_params


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
    """A seat that had left the table scores nothing in the deal."""
    return tuple(
        ((won or 0) + (deal.left_over if seat == deal.last_in else 0)) // 2
        for seat, won in enumerate(deal.won, start=1)
    )


def classic_stakes(deal: DealFacts, dealer: int) -> tuple[int, ...]:
    """Staked at the size the deal was dealt at; a seat that had left pays and wins
    nothing."""
    params = table_params(deal.players)
    nets = []
    for seat, won in enumerate(deal.won, start=1):
        if won is None:
            nets.append(0)
            continue
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

    ``deals``: the deals the seat took part in (fewer than the table's when it left);
    ``won``: cards won; ``last_in`` / ``last_in_left_over``: deals the seat was last in
    and the left-over cards of those deals; ``dealt`` / ``dealt_left_over``: deals the
    seat dealt and the left-over cards of those; ``stakes``, ``prizes``, ``break_even``:
    the classic stakes it paid, the last-in prizes it collected and its break-evens, each
    at the size its deal was dealt at (a table a player left deals at two sizes)."""

    deals: int
    won: int
    last_in: int
    last_in_left_over: int
    dealt: int
    dealt_left_over: int
    stakes: int = 0
    prizes: int = 0
    break_even: int = 0


def table_sums(
    deals: Sequence[DealFacts], table_size: int, leaves: Sequence[Leave] = ()
) -> tuple[SeatSums, ...]:
    """Each seat's sums over a table's deals (deal 1 first), seat 1 first."""
    played = [0] * table_size
    won = [0] * table_size
    last_in = [0] * table_size
    last_in_left_over = [0] * table_size
    dealt = [0] * table_size
    dealt_left_over = [0] * table_size
    stakes = [0] * table_size
    prizes = [0] * table_size
    break_even = [0] * table_size
    rotations = len(deals) // max(1, table_size - len(leaves)) + 1
    order = dealers(table_size, rotations, leaves)
    for number, deal in enumerate(deals, start=1):
        params = table_params(deal.players)
        dealer = order[number - 1]
        for index, cards in enumerate(deal.won):
            if cards is None:
                continue
            played[index] += 1
            won[index] += cards
            stakes[index] += params.stake(index + 1, dealer)
            break_even[index] += params.break_even
        last_in[deal.last_in - 1] += 1
        last_in_left_over[deal.last_in - 1] += deal.left_over
        prizes[deal.last_in - 1] += params.last_in_prize
        dealt[dealer - 1] += 1
        dealt_left_over[dealer - 1] += deal.left_over
    return tuple(
        SeatSums(*figures)
        for figures in zip(
            played,
            won,
            last_in,
            last_in_left_over,
            dealt,
            dealt_left_over,
            stakes,
            prizes,
            break_even,
            strict=True,
        )
    )


def points_from_sums(sums: SeatSums, system: ScoringSystem) -> int:
    """The seat's points over those deals, equal to summing ``score_deal`` deal by deal.

    Every per-deal formula is linear in the counts, and each halved quantity is even
    (cards are won and left over in pairs; every break-even is even), so halving the sums
    loses nothing."""
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return (sums.won + sums.last_in_left_over) // 2
    final = sums.won + sums.dealt_left_over
    return -sums.stakes + sums.prizes + (final - sums.break_even) // 2
