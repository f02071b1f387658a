"""The ways a deal is turned into points.

- *winner-advantage* (Parlett's tournament scoring, the default): the left-over cards go
  to the last-in player's pile, then every seat scores 1 point per pair it holds. A deal
  hands out exactly 26 points.
- *classic stakes* (Willughby): the left-over cards go to the dealer's pile (or the last
  in's, where the rule set says so); each seat pays its stake, the last-in seat collects
  the last-in prize, and every seat wins (or pays) 1 unit per pair above (or below) the
  break-even (``scoring.rulesets.units`` when it is odd). The rule set's numbers say
  whether the nets of a deal sum to zero (``scoring.rulesets.balance``).
- *Caidis* (the Compendium Caidis rules): each seat that lies down pays one stake to every
  seat still in, so the k-th of n to lie down nets ``2k - n - 1`` and the last in
  ``n - 1``; the left-over cards go to the dealer (whatever the rule set says of stakes
  scoring), and the seat with the most pairs then
  wins the stake the dealer put up. When two or more share the most pairs the stake stays
  with the dealer (the source names one winner; a shared stake would need halves).
  It needs the lying-down order (``DealFacts.laid_down``) and is zero-sum.

*points* below means the per-deal score in every system (units under stakes).

*deal bounds* (``deal_bounds``): the lowest and highest points one seat can score in one
deal at a table size, as the dealer and as another seat, over every deal a score sheet
accepts (cards won and left over in pairs, at least 2 left over, 52 in all, one last in,
a lying-down order). Every deal the play can give is among them, so the bounds are never
tighter than the game's, and each is reached by a deal a sheet accepts:

- winner-advantage: 0 (no pair, not last in) to 26 (last in with the whole pack);
- classic stakes: the stake paid, the prize when last in, and the units of the smallest
  or largest final pile: 0 cards, or 2 for the seat that takes the left over (at least 2),
  to 50 cards, or 52 for the seat that takes them;
- Caidis at a table of n: another seat from 1 − n (first to lie down) to n (last in, and
  the dealer's stake for the most pairs); the dealer from −n (first to lie down, paying
  its stake to another's most pairs) to n − 1 (last in: its own stake stays with it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.rules import CARDS_IN_PACK, DealFacts, Leave, dealers
from scoring.rulesets import STANDARD, LeftOverTo, RuleSet, rounding, units


class ScoringSystem(StrEnum):
    WINNER_ADVANTAGE = "winner-advantage"
    CLASSIC_STAKES = "classic-stakes"
    CAIDIS = "caidis"

    @property
    def label(self) -> str:
        return {
            ScoringSystem.WINNER_ADVANTAGE: "Winner-advantage (1 point per pair)",
            ScoringSystem.CLASSIC_STAKES: "Classic stakes (net units)",
            ScoringSystem.CAIDIS: "Compendium Caidis (stakes paid on lying down)",
        }[self]

    @property
    def needs_order(self) -> bool:
        """Whether each deal's sheet records the order the seats lay down."""
        return self is ScoringSystem.CAIDIS

    @property
    def sizes(self) -> tuple[int, ...] | None:
        """The table sizes the system itself allows (None: whatever the rule set has)."""
        return (3, 4, 5) if self is ScoringSystem.CAIDIS else None


def allowed_sizes(system: ScoringSystem, rule_set: RuleSet) -> tuple[int, ...]:
    """The table sizes a tournament under ``system`` and ``rule_set`` may seat."""
    own = system.sizes
    return tuple(size for size in rule_set.sizes if own is None or size in own)


def winner_advantage(deal: DealFacts) -> tuple[int, ...]:
    """A seat that had left the table scores nothing in the deal."""
    return tuple(
        ((won or 0) + (deal.left_over if seat == deal.last_in else 0)) // 2
        for seat, won in enumerate(deal.won, start=1)
    )


def final_piles(
    deal: DealFacts, dealer: int, rule_set: RuleSet, *, to_dealer: bool = False
) -> tuple[int | None, ...]:
    """Each seat's cards at the end under stakes scoring: the left over to the dealer (or
    the last in, where the rule set says so and ``to_dealer`` does not: Caidis's dealer
    always takes them); None for a seat that had left."""
    to_last_in = rule_set.left_over_to is LeftOverTo.LAST_IN and not to_dealer
    taker = deal.last_in if to_last_in else dealer
    return tuple(
        None if won is None else won + (deal.left_over if seat == taker else 0)
        for seat, won in enumerate(deal.won, start=1)
    )


def classic_stakes(deal: DealFacts, dealer: int, rule_set: RuleSet = STANDARD) -> tuple[int, ...]:
    """Staked at the size the deal was dealt at; a seat that had left pays and wins
    nothing."""
    params = rule_set.params(deal.players)
    nets = []
    for seat, final in enumerate(final_piles(deal, dealer, rule_set), start=1):
        if final is None:
            nets.append(0)
            continue
        prize = params.last_in_prize if seat == deal.last_in else 0
        nets.append(-params.stake(seat, dealer) + prize + units(final, params.break_even))
    return tuple(nets)


def caidis(deal: DealFacts, dealer: int, rule_set: RuleSet = STANDARD) -> tuple[int, ...]:
    """The lying-down payments and the dealer's stake; a seat that had left nets 0."""
    n = deal.players
    nets = [0] * deal.table_size
    for k, seat in enumerate(deal.laid_down, start=1):
        nets[seat - 1] += 2 * k - n - 1
    nets[deal.last_in - 1] += n - 1
    finals = final_piles(deal, dealer, rule_set, to_dealer=True)
    most = max(final for final in finals if final is not None)
    winners = [seat for seat, final in enumerate(finals, start=1) if final == most]
    if len(winners) == 1:
        nets[dealer - 1] -= 1
        nets[winners[0] - 1] += 1
    return tuple(nets)


def score_deal(
    deal: DealFacts, dealer: int, system: ScoringSystem, rule_set: RuleSet = STANDARD
) -> tuple[int, ...]:
    """Points for each seat of one deal, in seat order."""
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return winner_advantage(deal)
    if system is ScoringSystem.CAIDIS:
        return caidis(deal, dealer, rule_set)
    return classic_stakes(deal, dealer, rule_set)


# The fewest cards a deal leaves over: the last-in player always still holds a pair.
MIN_LEFT_OVER = 2


@dataclass(frozen=True)
class DealBounds:
    """The lowest and highest points one seat can score in one deal at a table size, as
    the dealer and as another seat (``(lowest, highest)`` each)."""

    dealer: tuple[int, int]
    other: tuple[int, int]


def deal_bounds(system: ScoringSystem, rule_set: RuleSet, size: int) -> DealBounds:
    """The deal bounds of a seat at a table of ``size`` under ``system`` and ``rule_set``
    (the module's docstring says what they are and why they are reached)."""
    if system is ScoringSystem.WINNER_ADVANTAGE:
        every = (0, CARDS_IN_PACK // 2)
        return DealBounds(every, every)
    if system is ScoringSystem.CAIDIS:
        return DealBounds((-size, size - 1), (1 - size, size))
    params = rule_set.params(size)
    return DealBounds(
        _stakes_bounds(
            params.dealer_stake, params.last_in_prize, params.break_even, rule_set, True
        ),
        _stakes_bounds(
            params.other_stake, params.last_in_prize, params.break_even, rule_set, False
        ),
    )


def _stakes_bounds(
    stake: int, prize: int, break_even: int, rule_set: RuleSet, dealer: bool
) -> tuple[int, int]:
    """A seat's lowest and highest net of a deal under classic stakes. Units grow with
    the final pile, so the extremes are at its smallest and largest, last in or not."""
    nets = []
    for last_in in (False, True):
        takes = last_in if rule_set.left_over_to is LeftOverTo.LAST_IN else dealer
        smallest, largest = (
            (MIN_LEFT_OVER, CARDS_IN_PACK) if takes else (0, CARDS_IN_PACK - MIN_LEFT_OVER)
        )
        won = prize if last_in else 0
        nets += [-stake + won + units(final, break_even) for final in (smallest, largest)]
    return min(nets), max(nets)


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
    rounding: int = 0
    payments: int = 0


def table_sums(
    deals: Sequence[DealFacts],
    table_size: int,
    leaves: Sequence[Leave] = (),
    rule_set: RuleSet = STANDARD,
) -> tuple[SeatSums, ...]:
    """Each seat's sums over a table's deals (deal 1 first), seat 1 first, under the
    numbers of ``rule_set``."""
    played = [0] * table_size
    won = [0] * table_size
    last_in = [0] * table_size
    last_in_left_over = [0] * table_size
    dealt = [0] * table_size
    dealt_left_over = [0] * table_size
    stakes = [0] * table_size
    prizes = [0] * table_size
    break_even = [0] * table_size
    odd = [0] * table_size
    payments = [0] * table_size
    rotations = len(deals) // max(1, table_size - len(leaves)) + 1
    order = dealers(table_size, rotations, leaves)
    for number, deal in enumerate(deals, start=1):
        params = rule_set.params(deal.players)
        dealer = order[number - 1]
        finals = final_piles(deal, dealer, rule_set)
        for index, cards in enumerate(deal.won):
            if cards is None:
                continue
            played[index] += 1
            won[index] += cards
            stakes[index] += params.stake(index + 1, dealer)
            break_even[index] += params.break_even
            odd[index] += rounding(finals[index] or 0, params.break_even)
        if deal.laid_down:
            # Caidis needs the order: a deal recorded without one is never scored by it
            # (sheets.rescoring refuses the change), so its sums pay nothing.
            for index, net in enumerate(caidis(deal, dealer, rule_set)):
                payments[index] += net
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
            odd,
            payments,
            strict=True,
        )
    )


def points_from_sums(sums: SeatSums, system: ScoringSystem, rule_set: RuleSet = STANDARD) -> int:
    """The seat's points over those deals, equal to summing ``score_deal`` deal by deal
    (the sums were made under the same ``rule_set``).

    Every per-deal formula is linear in the counts once an odd break-even's rounding and
    Caidis's payments are summed deal by deal, and each halved quantity is even (cards
    are won and left over in pairs; an odd break-even is evened by its rounding), so
    halving the sums loses nothing."""
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return (sums.won + sums.last_in_left_over) // 2
    if system is ScoringSystem.CAIDIS:
        return sums.payments
    taken = (
        sums.dealt_left_over
        if rule_set.left_over_to is LeftOverTo.DEALER
        else (sums.last_in_left_over)
    )
    final = sums.won + taken
    return -sums.stakes + sums.prizes + (final - sums.break_even + sums.rounding) // 2
