"""Round pools: rounds at each table size, made from deals the simulator played, for the
podium chances and the format advisor to draw from; and the bounds no round can pass.

Terms:

- *deal pool*: simulated deals at one table size under a tournament's rule set and
  scoring system, each scored per seat (``scoring.systems.score_deal``) and turned so
  that seat 1 of a row is the dealer. Every seat has the default skill (equal skill).
- *round pool*: rounds at one table size made from the deal pool: a round deals each
  seat in turn ``rotations`` times, so each round draws ``size × rotations`` deals from
  the pool, dealer passing left; for each seat its points, its deals last in and
  whether it topped the table (a table win, shared tops count for each).
- *round bounds* (``round_bounds``, carried by a pool as ``RoundPool.bounds``): the
  lowest and highest points one seat can score over a round at a table size, whatever
  the deals (each deal at ``scoring.systems.deal_bounds``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from scoring.rulesets import RuleSet
from scoring.simulation.run import simulate, table_params
from scoring.systems import ScoringSystem, allowed_sizes, deal_bounds, score_deal

# Deals simulated a table size: enough that a round's draw repeats no shape often;
# 2,000 deals take about 0.1 s.
POOL_DEALS = 2000
# Rounds made from them a table size (numpy draws, no play).
POOL_ROUNDS = 4096

Ints = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class RoundPool:
    """Rounds at one table size: ``points``, ``last_in`` and ``table_win`` are (rounds,
    size) arrays, seat 1 first. ``bounds``: the round bounds at this size under the
    pool's rules (None: not known, so no place is proved out of reach); no round of the
    pool may fall outside them."""

    size: int
    points: Ints
    last_in: Ints
    table_win: Ints
    bounds: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.bounds is not None and self.points.size:
            low, high = self.bounds
            if self.points.min() < low or self.points.max() > high:
                raise ValueError(
                    f"a round of the pool at {self.size} scores {self.points.min()} to "
                    f"{self.points.max()}, outside the round bounds {low} to {high}"
                )


def deal_pool(
    rule_set: RuleSet, system: ScoringSystem, size: int, deals: int = POOL_DEALS, seed: int = 0
) -> tuple[Ints, Ints]:
    """Points and last-in (0/1) of simulated deals, one row a deal, the dealer first."""
    points = np.zeros((deals, size), dtype=np.int64)
    last_in = np.zeros((deals, size), dtype=np.int64)
    for row, played in enumerate(simulate(rule_set, system, size, deals, seed)):
        turn = played.dealer - 1
        scored = score_deal(played.facts, played.dealer, system, rule_set)
        points[row] = np.roll(np.asarray(scored, dtype=np.int64), -turn)
        last_in[row, (played.facts.last_in - 1 - turn) % size] = 1
    return points, last_in


def round_pool(
    points: Ints, last_in: Ints, rotations: int, rounds: int = POOL_ROUNDS, seed: int = 0
) -> RoundPool:
    """``rounds`` rounds drawn from a deal pool (rows dealer first): deal ``j`` of a
    round is dealt by seat ``j mod size``."""
    size = points.shape[1]
    per_round = size * rotations
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, points.shape[0], size=(rounds, per_round))
    # Seat s of deal j is the deal pool's column (s - j) mod size: the dealer's is 0.
    column = (np.arange(size)[None, :] - np.arange(per_round)[:, None]) % size
    totals = points[drawn[:, :, None], column[None, :, :]].sum(axis=1)
    lasts = last_in[drawn[:, :, None], column[None, :, :]].sum(axis=1)
    wins = (totals == totals.max(axis=1, keepdims=True)).astype(np.int64)
    return RoundPool(size, totals, lasts, wins)


@lru_cache(maxsize=32)
def pool_for(rule_set: RuleSet, system: ScoringSystem, size: int, rotations: int) -> RoundPool:
    """The round pool of a table size under a rule set and scoring, with its round
    bounds, made once a process."""
    points, last_in = deal_pool(rule_set, system, size, seed=size)
    return dataclasses.replace(
        round_pool(points, last_in, rotations, seed=size),
        bounds=round_bounds(rule_set, system, size, rotations),
    )


def round_bounds(
    rule_set: RuleSet, system: ScoringSystem, size: int, rotations: int
) -> tuple[int, int]:
    """The lowest and highest points one seat can score over a round at a table of
    ``size``: ``rotations`` deals as the dealer and ``(size - 1) × rotations`` as another
    seat, each at its deal bounds. They also hold for a round stopped early, or one a
    player leaves: a seat never deals more often, nor plays more deals, than in a full
    round, so each deal's bounds are widened to 0 (a deal not played, or played after
    the seat left) and to those of the smaller sizes the table can go down to (deals
    after a leave).

    Deals are independent, so a full round of extreme deals reaches a bound unless that
    widening moved it: never under winner-advantage (0 to 26 a deal at any size) nor
    Caidis (wider at larger tables). Under classic stakes a smaller table can go
    further in a deal: always at its worst, so the lowest is below any full round's (−50
    at a table of five of one rotation, where a full round goes down to −30), and at its
    best where its stakes are higher (du Coeur's seven beside his low-stakes eight)."""
    table_params(rule_set, system, size)  # refused in words for a size not seated
    down_to = [at for at in allowed_sizes(system, rule_set) if at <= size]
    each = [deal_bounds(system, rule_set, at) for at in down_to]
    dealer_low = min(0, *(bounds.dealer[0] for bounds in each))
    dealer_high = max(0, *(bounds.dealer[1] for bounds in each))
    other_low = min(0, *(bounds.other[0] for bounds in each))
    other_high = max(0, *(bounds.other[1] for bounds in each))
    others = (size - 1) * rotations
    return (
        rotations * dealer_low + others * other_low,
        rotations * dealer_high + others * other_high,
    )
