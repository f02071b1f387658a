"""Podium chances: each player's chance of winning and of the top three, by playing the
rounds left many times over (Monte Carlo) from deals the simulator played.

Terms (``scoring.simulation.pools`` defines the pools and their round bounds,
``scoring.simulation.field`` the field, the pending tables, the plan and what is out of
reach):

- *finish*: one playing of the pending tables, then of the rounds left. A pending table,
  like a table of the seated next round, draws one round from its size's pool; its
  points count in the player's gains, deals last in and table wins, and as their total
  of that released round (for best round and countback). A drawn round seats the
  players who still play by a random split into the plan's table sizes (every split as
  likely: not the seating engine, which also keeps players apart and mixes tables; with
  equal skill the order of seats does not change the chances); a player beyond the
  tables sits out and scores the bye. Each table draws one round from its size's pool.
- *ranking a finish*: points, then the tournament's tiebreaks in its order as far as
  the simulated figures go: deals last in, table wins, best round and countback
  (round totals, latest first) are simulated; opponents' points is not, so the ranking
  stops before it. Players still tied are put in a random order. The figures are packed
  into one 62-bit key a player; a tiebreak that no longer fits is left out (noted in
  ``Chances.tiebreaks_used``).
- *reachable*: a place not proved out of reach (``Chances.win_reachable``,
  ``top3_reachable``).
- *what a player needs*: for a player who wins in at least ``NEED_MIN_WINS`` finishes,
  the median of (their points in the rounds left − the leader's) over those finishes,
  rounded: "about 6 points more than the leader". Points at pending tables count in it.

The pools, the field and the plan are imported from here too (``__all__``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from scoring.simulation.field import (
    Bools,
    Field,
    PendingRound,
    RoundsLeft,
    final_bounds,
    out_of_reach,
)
from scoring.simulation.pools import (
    POOL_DEALS,
    POOL_ROUNDS,
    Ints,
    RoundPool,
    deal_pool,
    pool_for,
    round_bounds,
    round_pool,
)

__all__ = [
    "NEED_MIN_WINS",
    "POOL_DEALS",
    "POOL_ROUNDS",
    "RATING_BETA",
    "SIMULATED_TIEBREAKS",
    "Chances",
    "Field",
    "PendingRound",
    "RoundPool",
    "RoundsLeft",
    "deal_pool",
    "final_bounds",
    "out_of_reach",
    "podium_chances",
    "pool_for",
    "round_bounds",
    "round_pool",
]

# A player's "what you need" is shown from this many winning finishes up.
NEED_MIN_WINS = 20
# Samples a block, so that a block's arrays stay near 16 MB whatever the field.
_BLOCK_CELLS = 2_000_000
_KEY_BITS = 62


class Stopped(Exception):
    """Working out the chances was stopped between blocks of finishes."""


@dataclass(frozen=True)
class Chances:
    """Each player's chance of winning and of the top three (fractions), and the points
    more than the leader they need in the rounds left (None: too few winning finishes).
    ``win_reachable`` and ``top3_reachable`` are False only where the place is proved
    out of reach (``out_of_reach``), so that a chance there is 0 whatever the deals."""

    win: NDArray[np.float64]
    top3: NDArray[np.float64]
    need: tuple[int | None, ...]
    finishes: int
    tiebreaks_used: tuple[str, ...]
    win_reachable: Bools
    top3_reachable: Bools


# The tiebreaks a finish can rank by; the ranking stops at any other (opponents' points).
SIMULATED_TIEBREAKS = ("last_in", "table_wins", "best_round", "countback")


def podium_chances(
    field: Field,
    plan: RoundsLeft,
    pools: dict[int, RoundPool],
    tiebreaks: Sequence[str],
    finishes: int = 10_000,
    seed: int = 0,
    keep_going: Callable[[], bool] | None = None,
) -> Chances:
    """The chances of ``field`` over ``plan`` in ``finishes`` finishes from ``seed``.
    ``keep_going`` is asked between blocks of finishes; when it says stop (what they are
    worked out for has moved on), ``Stopped`` is raised."""
    players = field.points.shape[0]
    rng = np.random.default_rng(seed)
    block = max(1, min(finishes, _BLOCK_CELLS // max(players, 1)))
    wins = np.zeros(players, dtype=np.int64)
    tops = np.zeros(players, dtype=np.int64)
    winners: list[Ints] = []
    margins: list[Ints] = []
    used: tuple[str, ...] = ()
    done = 0
    while done < finishes:
        if done and keep_going is not None and not keep_going():
            raise Stopped(f"stopped after {done} of {finishes} finishes")
        count = min(block, finishes - done)
        gains, key, used = _finishes(field, plan, pools, tiebreaks, count, rng)
        top = _top_three(key)
        wins += np.bincount(top[:, 0], minlength=players)
        for place in range(top.shape[1]):
            tops += np.bincount(top[:, place], minlength=players)
        rows = np.arange(count)
        winners.append(top[:, 0])
        margins.append(gains[rows, top[:, 0]] - gains[:, field.leader])
        done += count
    bounds = final_bounds(field, plan, pools)
    if bounds is None:
        win_reachable = top3_reachable = np.ones(players, dtype=np.bool_)
    else:
        win_reachable = ~out_of_reach(*bounds, places=1)
        top3_reachable = ~out_of_reach(*bounds, places=3)
    return Chances(
        win=wins / finishes,
        top3=tops / finishes,
        need=_needs(np.concatenate(winners), np.concatenate(margins), players),
        finishes=finishes,
        tiebreaks_used=used,
        win_reachable=win_reachable,
        top3_reachable=top3_reachable,
    )


def _finishes(
    field: Field,
    plan: RoundsLeft,
    pools: dict[int, RoundPool],
    tiebreaks: Sequence[str],
    count: int,
    rng: np.random.Generator,
) -> tuple[Ints, Ints, tuple[str, ...]]:
    """``count`` finishes: each player's points gained over them and ranking key."""
    players = field.points.shape[0]
    gains = np.zeros((count, players), dtype=np.int64)
    last_in = np.broadcast_to(field.last_in, (count, players)).copy()
    table_wins = np.broadcast_to(field.table_wins, (count, players)).copy()
    totals: list[Ints] = []
    # The released rounds' totals that pending tables complete: column -> (totals made
    # by them, who played them).
    completed: dict[int, tuple[Ints, Bools]] = {}
    for pending in plan.pending:
        points = _score(
            _seated_round(field, pools, pending.tables, (), count, rng),
            plan.bye_points,
            gains,
            last_in,
            table_wins,
        )
        at_table = np.zeros(players, dtype=np.bool_)
        at_table[[index for table in pending.tables for index in table]] = True
        before, played = completed.get(pending.column, (0, np.zeros(players, dtype=np.bool_)))
        completed[pending.column] = (before + points, played | at_table)
    on = np.flatnonzero(field.plays_on)
    for number in range(plan.rounds_left):
        if number == 0 and plan.seated is not None:
            packed = _seated_round(field, pools, plan.seated, plan.seated_byes, count, rng)
        else:
            # Each player who plays on takes a random slot's result: shuffling the
            # results of a row is the same as seating its players at random.
            results = _round(pools, plan.sizes, on.size, count, rng, field.skill is not None)
            results = results[:, : on.size]
            if field.skill is None:
                shuffled = rng.permuted(results, axis=1)
            else:
                # With skill, who sits at which table matters: seat them at random,
                # then hand each table's results out by form.
                who = rng.permuted(np.broadcast_to(on, (count, on.size)), axis=1)
                _by_form(results, who, plan.sizes, field.skill, rng)
                # Each result to the player in its slot (a scatter, no sort); a player
                # who does not play on keeps nothing.
                shuffled = np.full((count, players), _SHIFT, dtype=np.int64)
                shuffled[np.arange(count)[:, None], who] = results
            if on.size == players or field.skill is not None:
                packed = shuffled
            else:
                packed = np.full((count, players), _SHIFT, dtype=np.int64)
                packed[:, on] = shuffled
        totals.append(_score(packed, plan.bye_points, gains, last_in, table_wins))
    key, used = _ranking_key(field, gains, last_in, table_wins, totals, completed, tiebreaks, rng)
    return gains, key, used


def _seated_round(
    field: Field,
    pools: dict[int, RoundPool],
    tables: tuple[tuple[int, ...], ...],
    byes: tuple[int, ...],
    count: int,
    rng: np.random.Generator,
) -> Ints:
    """``count`` playings of tables seated as given (player indexes, seat 1 first) and
    byes: (count, players) packed seats, nothing for a player neither seated nor out."""
    players = field.points.shape[0]
    sizes = tuple(len(table) for table in tables)
    # Slot k of the round is seat k of the tables in order; a player not seated takes an
    # empty slot (a bye, or nothing for one who does not play on).
    slot = np.full(players, -1, dtype=np.int64)
    seated_players = [index for table in tables for index in table]
    slot[seated_players] = np.arange(sum(sizes))
    slot[list(byes)] = sum(sizes)
    results = _round(pools, sizes, players, count, rng, field.skill is not None)
    if field.skill is not None:
        who = np.broadcast_to(np.asarray(seated_players, dtype=np.int64), (count, sum(sizes)))
        _by_form(results, who, sizes, field.skill, rng)
    return results[:, slot]


def _score(packed: Ints, bye_points: int, gains: Ints, last_in: Ints, table_wins: Ints) -> Ints:
    """Add a round's packed seats (count, players) to the gains, deals last in and table
    wins, in place; each player's total of the round."""
    points = (packed & ((1 << _LAST_IN_BITS) - 1)) - _SHIFT
    points += ((packed >> _BYE_BIT) & 1) * bye_points
    gains += points
    last_in += (packed >> _LAST_IN_BITS) & ((1 << (_WIN_BIT - _LAST_IN_BITS)) - 1)
    table_wins += (packed >> _WIN_BIT) & 1
    return points


# openskill's default beta, the spread of one player's performance in rating points:
# at a table of n the ratings' model ranks by mu / (beta * sqrt(n)) plus noise.
RATING_BETA = 25 / 6


def _by_form(
    results: Ints,
    who: Ints,
    sizes: tuple[int, ...],
    skill: NDArray[np.float64],
    rng: np.random.Generator,
) -> None:
    """Hand each table's results out again by the players' form, in place: ``results``
    and ``who`` are (finishes, slots), the slots of the tables of ``sizes`` in order,
    each table's results most points first (``_round(..., best_first=True)``). A
    player's form at a table of n is their ``skill`` / (beta √n) plus Gumbel noise (the
    Plackett-Luce model the ratings come from): the table's most points go to the best
    form, and so on down, each result keeping its deals last in and table win."""
    start = 0
    # Runs of tables of one size, done at once: (finishes, tables, size).
    for size, run in itertools.groupby(sizes):
        tables = len(list(run))
        end = start + size * tables
        shape = (results.shape[0], tables, size)
        best_first = results[:, start:end].reshape(shape)
        # Plackett-Luce by an exponential race: the first to finish a race of rate
        # e^(skill / (beta √n)) has the best form (the same order as skill plus Gumbel
        # noise, without a logarithm a draw).
        slowness = np.exp(-skill / (RATING_BETA * np.sqrt(size)))
        race = rng.standard_exponential(size=shape) * slowness[who[:, start:end]].reshape(shape)
        out = np.empty_like(best_first)
        np.put_along_axis(out, np.argsort(race, axis=2), best_first, axis=2)
        results[:, start:end] = out.reshape(results.shape[0], size * tables)
        start = end


# A seat's round is packed into one integer, so that a round costs one gather: points +
# _SHIFT in the low bits, then the deals last in, the table win and the bye.
_SHIFT = 1 << 20
_LAST_IN_BITS = 21
_WIN_BIT = 31
_BYE_BIT = 32


@lru_cache(maxsize=8)
def _packed(pools: tuple[RoundPool, ...], best_first: bool = False) -> tuple[Ints, dict[int, int]]:
    """Every pool's rounds in one flat array, then a bye and an empty seat (nothing),
    and where each size's rounds begin."""
    flat: list[Ints] = []
    offsets: dict[int, int] = {}
    at = 0
    for pool in pools:
        packed = (
            (pool.points + _SHIFT) | (pool.last_in << _LAST_IN_BITS) | (pool.table_win << _WIN_BIT)
        )
        if best_first:
            # Each round's seats by points, most first (for ``_by_form``, which hands
            # them out by form: which seat a result came from no longer matters).
            packed = np.take_along_axis(packed, np.argsort(-pool.points, axis=1), axis=1)
        offsets[pool.size] = at
        flat.append(packed.ravel())
        at += packed.size
    flat.append(np.asarray([_SHIFT | (1 << _BYE_BIT), _SHIFT], dtype=np.int64))
    return np.concatenate(flat), offsets


def _round(
    pools: dict[int, RoundPool],
    sizes: tuple[int, ...],
    slots: int,
    count: int,
    rng: np.random.Generator,
    best_first: bool = False,
) -> Ints:
    """``count`` playings of a round whose tables have ``sizes``, each table drawing one
    round of its pool: (count, max(slots, seats) + 2) packed seats, the seats of the
    tables in order, then byes up to ``slots``, then one bye, and last an empty slot."""
    flat, offsets = _packed(tuple(pools[size] for size in sorted(set(sizes))), best_first)
    seats = sum(sizes)
    size_at = np.asarray(sizes, dtype=np.int64)
    start_at = np.asarray([offsets[size] for size in sizes], dtype=np.int64)
    rows_at = np.asarray([pools[size].points.shape[0] for size in sizes], dtype=np.int64)
    drawn = (rng.random((count, len(sizes))) * rows_at[None, :]).astype(np.int64)
    table_at = np.repeat(np.arange(len(sizes)), sizes)
    seat_at = np.concatenate([np.arange(size) for size in sizes]) if sizes else table_at
    base = start_at[None, :] + drawn * size_at[None, :]
    at = np.empty((count, max(slots, seats) + 2), dtype=np.int64)
    at[:, :seats] = base[:, table_at] + seat_at[None, :]
    at[:, seats:-1] = flat.size - 2
    at[:, -1] = flat.size - 1
    return flat[at]


def _ranking_key(
    field: Field,
    gains: Ints,
    last_in: Ints,
    table_wins: Ints,
    totals: list[Ints],
    completed: dict[int, tuple[Ints, Bools]],
    tiebreaks: Sequence[str],
    rng: np.random.Generator,
) -> tuple[Ints, tuple[str, ...]]:
    """One integer a player and finish, larger ranks higher: points, the simulated
    tiebreaks in order while they fit in 62 bits, then a random order. ``totals`` are
    the rounds left's totals, ``completed`` the released rounds' totals that pending
    tables made and who played them, by column."""
    count, players = gains.shape
    parts: list[Ints] = [field.points[None, :] + gains]
    used: list[str] = []
    lowest = np.iinfo(np.int32).min
    for key in tiebreaks:
        if key == "last_in":
            figures = [last_in]
        elif key == "table_wins":
            figures = [table_wins]
        elif key == "best_round":
            released = np.where(field.played, field.rounds, lowest)
            best = released.max(axis=1, initial=lowest)[None, :]
            for column, (made, played) in completed.items():
                best = np.maximum(best, np.where(played, field.rounds[:, column] + made, lowest))
            for total in totals:
                best = np.maximum(best, total)
            figures = [best]
        elif key == "countback":
            figures = [*reversed(totals)]
            figures += [
                field.rounds[None, :, k] + completed[k][0]
                if k in completed
                else field.rounds[None, :, k]
                for k in reversed(range(field.rounds.shape[1]))
            ]
        else:  # not among SIMULATED_TIEBREAKS: the ranking stops here
            break
        parts_before = len(parts)
        parts.extend(np.broadcast_to(figure, (count, players)) for figure in figures)
        if _bits(parts) > _KEY_BITS:
            del parts[parts_before:]
            break
        used.append(key)
    packed: Ints = np.zeros((count, players), dtype=np.int64)
    room = _KEY_BITS
    for part in parts:
        low = part.min()
        width = max(int(part.max() - low), 1).bit_length()
        packed = (packed << width) | (part - low)
        room -= width
    # What is still tied is ordered at random: random low bits, as many as are left.
    noise = min(room, 20)
    if noise > 0:
        packed = (packed << noise) | rng.integers(0, 1 << noise, size=(count, players))
    return packed, tuple(used)


def _bits(parts: list[Ints]) -> int:
    return sum(max(int(part.max() - part.min()), 1).bit_length() for part in parts)


def _top_three(key: Ints) -> Ints:
    """Each finish's first three players, best first."""
    places = min(3, key.shape[1])
    if key.shape[1] > places:
        top = np.argpartition(-key, places - 1, axis=1)[:, :places]
    else:
        top = np.broadcast_to(np.arange(places), (key.shape[0], places)).copy()
    order = np.argsort(-np.take_along_axis(key, top, axis=1), axis=1)
    return np.take_along_axis(top, order, axis=1)


def _needs(winners: Ints, margins: Ints, players: int) -> tuple[int | None, ...]:
    order = np.argsort(winners, kind="stable")
    sorted_winners, sorted_margins = winners[order], margins[order]
    starts = np.searchsorted(sorted_winners, np.arange(players + 1))
    needs: list[int | None] = []
    for index in range(players):
        mine = sorted_margins[starts[index] : starts[index + 1]]
        needs.append(int(np.round(np.median(mine))) if mine.size >= NEED_MIN_WINS else None)
    return tuple(needs)
