"""The format advisor: which numbers of rounds and rotations fit an evening, and how
fairly each one picks out the strongest player, from simulated tournaments.

Terms:

- *format*: ``rounds`` rounds of ``rotations`` rotations each at tables of ``split`` (a
  table plays rotations × its size deals a round).
- *minutes of a format*: a round lasts as long as its largest table: rotations × the
  largest table size × ``minutes_per_deal``; between two rounds ``BREAK_MINUTES`` go on
  seating and sheets. A format *fits* when its minutes are at most the time available.
- *split*: the table sizes of every round. The advisor tries the *usual split*,
  ``scoring.seating.splits.table_splits``'s first for the sizes the organiser allows among
  those the rules seat (4 to 6 by default), and, where the rules (and the organiser) seat
  tables of 7 or 8 (du Coeur's rule sets), for each of those a *large split*: the players
  at tables of it and the large sizes below it, as evenly as may be (15 players: 8 + 7;
  20: 7 + 7 + 6, smaller tables only where the large ones cannot seat everyone). A
  format is a split, rounds and rotations; a larger table plays more deals a rotation, so
  its round is longer and tells skill more.
- *skill model*: each player has a *strength*, drawn anew for each simulated tournament
  from a normal distribution of standard deviation ``SKILL_SPREAD``. A table's round is a
  number of rotations, each one rotation of the equal-skill round pool
  (``scoring.simulation.pools.round_pool``: deals the simulator played, every seat the
  default player); a rotation's seat results are handed out best first in the order of the
  players' *form* in that rotation, strength plus Gumbel noise (the Plackett-Luce model),
  so skill shows once a rotation and a format's deals, not only its rounds, count. Of
  two players one spread apart the stronger takes the better of two results 73 % of the
  time (1 / (1 + e⁻¹)); with no spread every seat is as likely,
  which is equal skill. Why this and not oversight rates: the deals stay the simulator's
  own (the points of each round are real), one pool serves every player, and the cost is
  a sort a table, so 1,000 players take a second; an oversight rate a player would need a
  pool for every mix of players at a table.
- *draw of a round*: every round seats the players by a random split into the tables
  (not the seating engine: with no memory of who met, a random draw is what the engine's
  mixing aims at).
- *the strongest*: the player of greatest strength in a simulated tournament.
- *ranking*: by points alone; players equal on points are put in a random order, which
  is what the tiebreaks do as far as skill goes (they are figures of the same deals).
  ``strongest_wins`` is the chance that the strongest is first, ``strongest_top3`` in the
  first three, ``ties_at_top`` the expected number of players sharing the most points
  (1 when the winner is alone).
- *recommended*: the format with the best ``strongest_wins`` within the time; among those
  within ``CLOSE_ENOUGH`` of it (about the Monte Carlo error), the one of fewest minutes,
  then fewest rounds: more rounds that do not change the chance are not worth the time.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scoring.errors import UserError
from scoring.rulesets import RuleSet
from scoring.seating.request import DEFAULT_SIZES
from scoring.seating.splits import table_splits
from scoring.systems import ScoringSystem, allowed_sizes

if TYPE_CHECKING:
    # numpy and the simulator load only when a question is worked out: a page that
    # shows the advisor's form, or sizes a question, does not pay for them.
    import numpy as np
    from numpy.typing import NDArray

# A deal of Laugh and Lie Down takes about three minutes at a pub table: the deal (8 cards
# each at five), play of a dozen turns and writing the sheet.
MINUTES_PER_DEAL = 3.0
# Between rounds: releasing the round, seating the next and moving to the tables.
BREAK_MINUTES = 5
# Rotations a round the advisor tries (more is a round of over an hour at five).
MAX_ROTATIONS = 3
# Rounds at most, as a tournament's settings allow (tournament.kernel.limits).
MAX_ROUNDS = 50
# The largest question the advisor answers, so that an answer stays within a few seconds
# (its work grows with players × rounds): a field of 1,000 over an eight-hour day.
MAX_PLAYERS = 1000
MAX_MINUTES = 480
# The standard deviation of strength, in units of the form's noise (see "skill model").
SKILL_SPREAD = 1.0
# Simulated tournaments a format: a chance's standard error is at most 2.2 points.
TOURNAMENTS = 500
# Formats this close to the best chance count as as good (the Monte Carlo error).
CLOSE_ENOUGH = 0.03
# Rounds a pool holds (numpy draws from the deal pool, no play).
_POOL_ROUNDS = 2048
_EULER_GAMMA = 0.5772156649


# How much a question asks, as players × deals: the deals each player plays over every
# format the advisor tries (each rotation of each format, at the largest table, for each
# split tried), times the players. The work grows with it, at about 8 microseconds a unit
# on a 2-core laptop (bench/advisor.py measures it): up to ``REQUEST_WORK`` (half a
# second) it is answered in the request; up to ``TASK_WORK`` (about twelve seconds) by the
# task worker, with a page that follows it; above that it is refused (du Coeur's largest:
# three splits and tables of eight ask three times the standard rules' work).
REQUEST_WORK = 60_000
TASK_WORK = 1_500_000


def question_work(
    players: int,
    minutes: int,
    system: ScoringSystem,
    rule_set: RuleSet,
    minutes_per_deal: float = MINUTES_PER_DEAL,
    sizes: tuple[int, ...] | None = None,
) -> tuple[int, int]:
    """(players, deals): the size of a question as ``advise`` would work it out (the
    same checks refuse it first, in the same words)."""
    _check(players, minutes, minutes_per_deal, 0.0, 0)
    deals = 0
    for split in _splits(players, system, rule_set, sizes):
        for rotations in range(1, MAX_ROTATIONS + 1):
            most = _most_rounds(rotations, split, minutes, minutes_per_deal)
            deals += most * rotations * split[0]
    return players, deals


def _most_rounds(
    rotations: int, split: tuple[int, ...], minutes: int, minutes_per_deal: float
) -> int:
    most = 0
    while most < MAX_ROUNDS and (
        format_minutes(most + 1, rotations, split[0], minutes_per_deal) <= minutes
    ):
        most += 1
    return most


class AdvisorError(UserError):
    """The question cannot be answered as asked; the message says which input and why."""


@dataclass(frozen=True)
class Format:
    """One candidate format and its figures (chances as fractions)."""

    rounds: int
    rotations: int
    minutes: int
    strongest_wins: float
    strongest_top3: float
    ties_at_top: float
    # The table sizes of every round, largest first.
    split: tuple[int, ...] = ()

    @property
    def sizes(self) -> tuple[int, ...]:
        """The table sizes the split seats, smallest first."""
        return tuple(sorted(set(self.split)))

    def as_data(self) -> dict[str, object]:
        data = asdict(self)
        data["split"] = list(self.split)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], split: tuple[int, ...] = ()) -> Format:
        """A format kept as ``as_data`` wrote it; one kept before formats had their own
        split takes ``split``, the answer's only one."""
        return cls(**{**data, "split": tuple(data.get("split") or split)})


@dataclass(frozen=True)
class Advice:
    """The candidates that fit, in order of minutes, and the recommended one (None when
    no format fits the time); ``split`` is the usual split, ``splits`` every split tried."""

    players: int
    split: tuple[int, ...]
    minutes_available: int
    minutes_per_deal: float
    formats: tuple[Format, ...]
    recommended: Format | None
    splits: tuple[tuple[int, ...], ...] = ()

    def as_data(self) -> dict[str, object]:
        return {
            "players": self.players,
            "split": list(self.split),
            "splits": [list(split) for split in self.splits],
            "minutes_available": self.minutes_available,
            "minutes_per_deal": self.minutes_per_deal,
            "recommended": None if self.recommended is None else self.recommended.as_data(),
            "formats": [candidate.as_data() for candidate in self.formats],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Advice:
        """An answer kept as ``as_data`` wrote it (the recommended format is one of the
        formats, as when it was made)."""
        split = tuple(data["split"])
        formats = tuple(Format.from_data(each, split) for each in data["formats"])
        recommended = data["recommended"]
        return cls(
            players=data["players"],
            split=split,
            minutes_available=data["minutes_available"],
            minutes_per_deal=data["minutes_per_deal"],
            formats=formats,
            recommended=None if recommended is None else Format.from_data(recommended, split),
            splits=tuple(tuple(each) for each in data.get("splits") or [split]),
        )


def format_minutes(rounds: int, rotations: int, largest: int, minutes_per_deal: float) -> int:
    """The minutes of a format whose largest table seats ``largest``, rounded up."""
    playing = rounds * rotations * largest * minutes_per_deal
    return math.ceil(playing + (rounds - 1) * BREAK_MINUTES - 1e-9)


def advise(
    players: int,
    minutes: int,
    system: ScoringSystem,
    rule_set: RuleSet,
    minutes_per_deal: float = MINUTES_PER_DEAL,
    seed: int = 0,
    spread: float = SKILL_SPREAD,
    tournaments: int = TOURNAMENTS,
    sizes: tuple[int, ...] | None = None,
) -> Advice:
    """The formats that fit ``minutes`` for ``players`` players, with their figures;
    ``sizes``: the table sizes the organiser allows (default: 4 to 6 where the rules seat
    them)."""
    import numpy as np

    _check(players, minutes, minutes_per_deal, spread, seed)
    splits = _splits(players, system, rule_set, sizes)
    formats: list[Format] = []
    pools = {size: _pool(rule_set, system, size) for split in splits for size in set(split)}
    for index, split in enumerate(splits):
        for rotations in range(1, MAX_ROTATIONS + 1):
            most = _most_rounds(rotations, split, minutes, minutes_per_deal)
            if most == 0:
                continue
            # The usual split draws as it always has: a seed's answer stays the same.
            rng = np.random.default_rng([seed, rotations] + ([index] if index else []))
            for rounds, figures in enumerate(
                _tournaments(players, split, pools, (most, rotations), tournaments, spread, rng),
                start=1,
            ):
                wins, top3, ties = figures
                formats.append(
                    Format(
                        rounds,
                        rotations,
                        format_minutes(rounds, rotations, split[0], minutes_per_deal),
                        round(wins, 4),
                        round(top3, 4),
                        round(ties, 3),
                        split,
                    )
                )
    formats.sort(key=lambda f: (f.minutes, f.rounds, f.split[0]))
    return Advice(
        players, splits[0], minutes, minutes_per_deal, tuple(formats), recommend(formats), splits
    )


def _check(players: int, minutes: int, minutes_per_deal: float, spread: float, seed: int) -> None:
    if minutes < 1:
        raise AdvisorError(f"Minutes available: {minutes} is too few; give at least 1.")
    if minutes > MAX_MINUTES:
        raise AdvisorError(
            f"Minutes available: {minutes} is more than the advisor looks at ({MAX_MINUTES}, "
            "an eight-hour day)."
        )
    if not minutes_per_deal > 0:
        raise AdvisorError(f"Minutes per deal: {minutes_per_deal} must be more than 0.")
    if spread < 0:
        raise AdvisorError(f"Skill spread: {spread} must be 0 or more.")
    if players < 2:
        raise AdvisorError(f"Players: {players} is too few for a tournament.")
    if players > MAX_PLAYERS:
        raise AdvisorError(f"Players: {players} is more than the advisor plays ({MAX_PLAYERS:,}).")
    if seed < 0:
        raise AdvisorError(f"Seed: {seed} must be 0 or more.")


def recommend(formats: list[Format]) -> Format | None:
    """The best chance of the strongest winning, or the quickest within ``CLOSE_ENOUGH``."""
    if not formats:
        return None
    best = max(f.strongest_wins for f in formats)
    close = [f for f in formats if f.strongest_wins >= best - CLOSE_ENOUGH]
    return min(close, key=lambda f: (f.minutes, f.rounds, -f.strongest_wins, f.split[:1]))


# Tables larger than the usual ones, tried in splits of their own where the rules seat them.
LARGE_TABLES = (7, 8)


def _splits(
    players: int, system: ScoringSystem, rule_set: RuleSet, allowed: tuple[int, ...] | None
) -> tuple[tuple[int, ...], ...]:
    """The usual split, then a large split for each of 7 and 8 the rules (and ``allowed``,
    when given) seat (``large_split``)."""
    rule_sizes = allowed_sizes(system, rule_set)
    wanted = DEFAULT_SIZES if allowed is None else allowed
    sizes = tuple(size for size in wanted if size in rule_sizes) or rule_sizes
    try:
        usual = table_splits(players, sizes, limit=1, rule_sizes=rule_sizes)[0]
    except UserError as error:
        raise AdvisorError(f"Players: {error}") from None
    splits = [usual]
    reach = rule_sizes if allowed is None else tuple(s for s in allowed if s in rule_sizes)
    for large in LARGE_TABLES:
        if large in reach:
            split = large_split(players, large, reach)
            if split is not None and split not in splits:
                splits.append(split)
    return tuple(splits)


def large_split(players: int, large: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The players at tables of ``large`` and the large sizes below it among ``sizes``
    (7 and 8: 15 players at 8 + 7), as evenly as may be and in the fewest tables; smaller
    tables (6, then 5, then 4) only when the large ones cannot seat everyone. None when
    no such split has a table of 7 or more."""
    usable = sorted(size for size in sizes if DEFAULT_SIZES[0] <= size <= large)
    for smallest in sorted((size for size in usable if size <= LARGE_TABLES[0]), reverse=True):
        allowed = {size for size in usable if size >= smallest}
        for tables in range(-(-players // large), players // smallest + 1):
            each, extra = divmod(players, tables)
            if each in allowed and (extra == 0 or each + 1 in allowed):
                split = (each + 1,) * extra + (each,) * (tables - extra)
                return split if split[0] >= LARGE_TABLES[0] else None
    return None


@lru_cache(maxsize=32)
def _pool(rule_set: RuleSet, system: ScoringSystem, size: int) -> NDArray[np.int64]:
    """A size's pool of one-rotation rounds, each one's seat results sorted best first."""
    import numpy as np

    from scoring.simulation.pools import RoundPool, deal_pool, round_pool

    points, last_in = deal_pool(rule_set, system, size, seed=size)
    pool: RoundPool = round_pool(points, last_in, 1, rounds=_POOL_ROUNDS, seed=size)
    return -np.sort(-pool.points, axis=1)


def _tournaments(
    players: int,
    split: tuple[int, ...],
    pools: dict[int, NDArray[np.int64]],
    shape: tuple[int, int],
    count: int,
    spread: float,
    rng: np.random.Generator,
) -> list[tuple[float, float, float]]:
    """The figures after each round of ``count`` simulated tournaments of ``shape``
    (rounds, rotations a round)."""
    import numpy as np

    rounds, rotations = shape
    strength = rng.normal(0.0, spread, size=(count, players)) if spread > 0 else None
    strongest = (
        np.argmax(strength, axis=1) if strength is not None else np.zeros(count, dtype=np.int64)
    )
    rows = np.arange(count)
    totals = np.zeros((count, players), dtype=np.int64)
    figures: list[tuple[float, float, float]] = []
    groups = _groups(split)
    for _ in range(rounds):
        seating = rng.permuted(np.broadcast_to(np.arange(players), (count, players)), axis=1)
        seated_strength = (
            np.take_along_axis(strength, seating, axis=1) if strength is not None else 0.0
        )
        for _ in range(rotations):
            form = rng.gumbel(-_EULER_GAMMA, 1.0, size=(count, players)) + seated_strength
            for start, size, tables in groups:
                end = start + size * tables
                who = seating[:, start:end].reshape(count, tables, size)
                order = np.argsort(-form[:, start:end].reshape(count, tables, size), axis=2)
                pool = pools[size]
                drawn = pool[rng.integers(0, pool.shape[0], size=(count, tables))]
                # The table's best result goes to its player in best form, and so on down.
                ranked = np.take_along_axis(who, order, axis=2)
                totals[rows[:, None, None], ranked] += drawn
        figures.append(_figures(totals, strongest, rows))
    return figures


def _groups(split: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """The split's runs of one size: (first slot, size, tables)."""
    groups: list[tuple[int, int, int]] = []
    start = 0
    for size in sorted(set(split), reverse=True):
        tables = split.count(size)
        groups.append((start, size, tables))
        start += size * tables
    return groups


def _figures(
    totals: NDArray[np.int64], strongest: NDArray[np.int64], rows: NDArray[np.int64]
) -> tuple[float, float, float]:
    """The strongest's chance of first and of the first three (ties in a random order),
    and the mean number sharing the top."""
    import numpy as np

    mine = totals[rows, strongest][:, None]
    above = (totals > mine).sum(axis=1)
    level = (totals == mine).sum(axis=1)  # the strongest among them
    wins = np.where(above == 0, 1.0 / level, 0.0)
    top3 = np.clip(3 - above, 0, level) / level
    ties = (totals == totals.max(axis=1, keepdims=True)).sum(axis=1)
    return float(wins.mean()), float(top3.mean()), float(ties.mean())
