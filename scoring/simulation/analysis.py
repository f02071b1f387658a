"""What the game is like, measured on simulated deals (docs/game-analysis.md).

Terms:

- *table*: a rule set's numbers for one size under one scoring system. Tables whose
  figures are the same by construction (the same deal, the same play and, under classic
  stakes, the same stakes) are measured once, on the same deals, and named together: a
  *row*, listing its rule sets.
- *position*: a seat counted from the dealer, ``(seat - dealer) mod players``: 0 is the
  dealer, 1 the *eldest* (the dealer's left, first to play), 2 the eldest's left, and so
  on; the dealer plays last in each round of turns.
- *points*: a seat's score of one deal under the table's scoring (``score_deal``; units
  under stakes). The *table average* is the mean of a deal's points over its seats.
- *advantage* of a seat in a deal: its points less the table average; the dealer's and
  the last in's are averaged over the deals.
- *strategy difference*: at a table where seat 1 plays one strategy and the others
  another, seat 1's points less the others' average, a deal; averaged over the deals,
  which pass left from seat 1 so that it deals as often as any other seat when the deals
  are a whole number of rotations.
- *tied for most*: under Compendium Caidis, a deal in which two or more seats share the
  most cards at the end (the left over counted as the dealer's), so that the dealer's
  stake stays with the dealer (``scoring.systems.caidis``).
- *estimate*: a mean with its 95 % confidence interval by the normal approximation: the
  mean ± 1.96 standard errors, the standard error being the sample standard deviation
  over the square root of the number of deals (for a share, ``sqrt(p (1 - p) / n)``).
  Deals are independent (each is shuffled afresh), and at thousands of deals the
  average of any of these bounded figures is close to normal.
- *distribution*: a figure taken once per seat and deal (cards won, points), pooled over
  every seat: its mean, sample standard deviation, lowest and highest, and its quantiles
  (``QUANTILES``), each the smallest value at least that share of the figures reach
  (numpy's ``inverted_cdf``), so that each is a value that occurred.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from scoring.errors import UserError
from scoring.rulesets import RuleSet, sizes_text
from scoring.simulation.registry import SimulatedPlayer, player
from scoring.simulation.run import SimulatedDeal, simulate, table_params
from scoring.simulation.variants import play_rules
from scoring.systems import ScoringSystem, allowed_sizes, final_piles, score_deal

Ints = npt.NDArray[np.int64]

# Two-sided 95 %: 1.959963…
Z_95 = NormalDist().inv_cdf(0.975)
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


@dataclass(frozen=True)
class Estimate:
    """A mean (or a share) and the half width of its 95 % confidence interval."""

    mean: float
    half_width: float

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


@dataclass(frozen=True)
class Distribution:
    """A figure's spread over every seat and deal; ``quantiles`` match ``QUANTILES``."""

    mean: float
    sd: float
    lowest: int
    quantiles: tuple[int, ...]
    highest: int


@dataclass(frozen=True, eq=False)
class DealArrays:
    """A run's deals as arrays, a row a deal: cards won and points a seat, the final piles
    under Caidis (None under the other scorings), the dealer's and the last in's seat
    index (0 for seat 1)."""

    won: Ints
    points: Ints
    finals: Ints | None
    dealer: Ints
    last_in: Ints


@dataclass(frozen=True)
class TableAnalysis:
    """The figures of one row: ``last_in`` is the share of deals each position is last in,
    the dealer first; the strategy differences are seat 1's (``strategy difference``)."""

    system: ScoringSystem
    players: int
    rule_sets: tuple[str, ...]
    deals: int
    cards_won: Distribution
    points: Distribution
    last_in: tuple[Estimate, ...]
    dealer_advantage: Estimate
    last_in_advantage: Estimate
    willughby_among_naive: Estimate
    naive_among_willughby: Estimate
    tied_for_most: Estimate | None


def mean_estimate(values: npt.ArrayLike) -> Estimate:
    """The mean of ``values`` (one a deal) and its 95 % interval's half width."""
    array = np.asarray(values, dtype=np.float64)
    if array.size < 2:
        raise ValueError(f"a confidence interval needs at least 2 values, not {array.size}")
    sd = float(array.std(ddof=1))
    return Estimate(float(array.mean()), Z_95 * sd / float(np.sqrt(array.size)))


def share(count: int, total: int) -> Estimate:
    """The share ``count / total`` and its 95 % interval's half width."""
    if total < 1:
        raise ValueError("a share of no deals")
    p = count / total
    return Estimate(p, Z_95 * float(np.sqrt(p * (1 - p) / total)))


def distribution(values: npt.ArrayLike) -> Distribution:
    array = np.asarray(values, dtype=np.int64).ravel()
    if array.size < 2:
        raise ValueError(f"a distribution needs at least 2 values, not {array.size}")
    quantiles = np.quantile(array, QUANTILES, method="inverted_cdf")
    return Distribution(
        float(array.mean()),
        float(array.std(ddof=1)),
        int(array.min()),
        tuple(int(value) for value in quantiles),
        int(array.max()),
    )


def positions(seats: Ints, dealer: Ints, players: int) -> Ints:
    """Each seat index's position from the dealer's: 0 the dealer, 1 the eldest…"""
    return np.asarray((seats - dealer) % players, dtype=np.int64)


def last_in_shares(dealer: Ints, last_in: Ints, players: int) -> tuple[Estimate, ...]:
    """The share of deals each position is last in, the dealer's first."""
    counts = np.bincount(positions(last_in, dealer, players), minlength=players)
    return tuple(share(int(count), int(dealer.size)) for count in counts)


def advantage(points: Ints, seat: Ints) -> Estimate:
    """The average of ``seat``'s points (a seat index a deal) less the table average."""
    rows = np.arange(points.shape[0])
    return mean_estimate(points[rows, seat] - points.mean(axis=1))


def strategy_difference(points: Ints) -> Estimate:
    """Seat 1's points less the other seats' average, averaged over the deals."""
    return mean_estimate(points[:, 0] - points[:, 1:].mean(axis=1))


def tied_for_most(finals: Ints) -> Estimate:
    """The share of deals in which two or more seats share the most cards at the end."""
    most = finals.max(axis=1, keepdims=True)
    tied = (finals == most).sum(axis=1) >= 2
    return share(int(tied.sum()), int(finals.shape[0]))


def deal_arrays(
    deals: Sequence[SimulatedDeal], system: ScoringSystem, rule_set: RuleSet
) -> DealArrays:
    """The deals of a run (every seat playing every deal) scored under ``system``."""
    won = np.array([deal.facts.won for deal in deals], dtype=np.int64)
    points = np.array(
        [score_deal(deal.facts, deal.dealer, system, rule_set) for deal in deals], dtype=np.int64
    )
    finals = None
    if system is ScoringSystem.CAIDIS:
        finals = np.array(
            [final_piles(deal.facts, deal.dealer, rule_set, to_dealer=True) for deal in deals],
            dtype=np.int64,
        )
    dealer = np.array([deal.dealer - 1 for deal in deals], dtype=np.int64)
    last_in = np.array([deal.facts.last_in - 1 for deal in deals], dtype=np.int64)
    return DealArrays(won, points, finals, dealer, last_in)


@dataclass(frozen=True)
class _Table:
    rule_set: RuleSet
    system: ScoringSystem
    size: int

    @property
    def deal_key(self) -> tuple[object, ...]:
        """What the deals depend on: the play rules and how the cards are dealt."""
        params = self.rule_set.params(self.size)
        return (play_rules(self.system), self.size, params.cards_each, params.table_cards)

    @property
    def figures_key(self) -> tuple[object, ...]:
        """What the figures depend on: the deals, the scoring and, under classic stakes
        alone, the stakes and who takes the left over (``scoring.systems``)."""
        if self.system is not ScoringSystem.CLASSIC_STAKES:
            return (*self.deal_key, self.system)
        return (
            *self.deal_key,
            self.system,
            self.rule_set.params(self.size),
            self.rule_set.left_over_to,
        )


def tables(
    rule_sets: Sequence[RuleSet],
    systems: Sequence[ScoringSystem],
    sizes: Sequence[int] | None = None,
) -> list[tuple[RuleSet, ScoringSystem, int]]:
    """Every table of ``rule_sets`` under ``systems`` at ``sizes`` (every size each
    allows when None). A size given that a single rule set and scoring cannot seat is
    refused in words; with several, those that cannot are left out, and refused only
    when none is left."""
    found = []
    for system in systems:
        for rule_set in rule_sets:
            allowed = allowed_sizes(system, rule_set)
            for size in allowed if sizes is None else sizes:
                if size in allowed:
                    found.append((rule_set, system, size))
                elif len(rule_sets) == 1 and len(systems) == 1:
                    table_params(rule_set, system, size)
    if not found:
        asked = sizes_text(sizes or ())
        if len(rule_sets) == 1:
            raise UserError(
                f'the rule set "{rule_sets[0].key}" seats tables of '
                f"{sizes_text(rule_sets[0].sizes)} players, not {asked}"
            )
        raise UserError(f"no rule set seats tables of {asked} players under the scorings given")
    return found


def analyse(
    chosen: Iterable[tuple[RuleSet, ScoringSystem, int]], deals: int, seed: int
) -> tuple[TableAnalysis, ...]:
    """The figures of every row the chosen tables make, each from ``deals`` deals of
    seed ``seed`` at three tables: every seat following Willughby's advice, a Willughby
    player in seat 1 among naive players, and a naive one among Willughby players.
    Rows come by scoring, then size, in the order the tables were given."""
    if deals < 2:
        raise UserError(f"an analysis needs at least 2 deals, for its intervals, not {deals}")
    rows: dict[tuple[object, ...], list[_Table]] = {}
    for rule_set, system, size in chosen:
        table = _Table(rule_set, system, size)
        rows.setdefault(table.figures_key, []).append(table)
    by_deals: dict[tuple[object, ...], list[list[_Table]]] = {}
    for row in rows.values():
        by_deals.setdefault(row[0].deal_key, []).append(row)
    results: dict[tuple[object, ...], TableAnalysis] = {}
    for same_deals in by_deals.values():
        first = same_deals[0][0]
        runs = [
            list(simulate(first.rule_set, first.system, table, deals, seed))
            for table in _layouts(first.size)
        ]
        for row in same_deals:
            results[row[0].figures_key] = _analyse_row(row, runs)
    ordered = sorted(
        (results[key] for key in rows),
        key=lambda found: (list(ScoringSystem).index(found.system), found.players),
    )
    return tuple(ordered)


def _layouts(size: int) -> tuple[list[SimulatedPlayer], ...]:
    willughby, naive = player("willughby"), player("naive")
    return (
        [willughby] * size,
        [willughby] + [naive] * (size - 1),
        [naive] + [willughby] * (size - 1),
    )


def _analyse_row(row: list[_Table], runs: list[list[SimulatedDeal]]) -> TableAnalysis:
    first = row[0]
    even, willughby_first, naive_first = (
        deal_arrays(run, first.system, first.rule_set) for run in runs
    )
    players = first.size
    dealer_seat = even.dealer
    return TableAnalysis(
        system=first.system,
        players=players,
        rule_sets=tuple(dict.fromkeys(table.rule_set.key for table in row)),
        deals=int(even.dealer.size),
        cards_won=distribution(even.won),
        points=distribution(even.points),
        last_in=last_in_shares(dealer_seat, even.last_in, players),
        dealer_advantage=advantage(even.points, dealer_seat),
        last_in_advantage=advantage(even.points, even.last_in),
        willughby_among_naive=strategy_difference(willughby_first.points),
        naive_among_willughby=strategy_difference(naive_first.points),
        tied_for_most=None if even.finals is None else tied_for_most(even.finals),
    )
