"""What the podium chances start from, and what no deal can change of it.

Terms (``scoring.simulation.podium`` has the method's, ``scoring.simulation.pools`` the
pools'):

- *field*: the standings after the last released round, as figures: points, deals last
  in, table wins and each released round's total, and who still plays.
- *pending table*: a table of a released round with no result yet (its sheet not typed).
  Its players have no total for that round; the table is still to play (``PendingRound``:
  the round's column in ``Field.rounds`` and its tables). A player at a pending table
  plays it whether or not they play on: they were seated at it.
- *rounds left* (``RoundsLeft``, the *plan*): how many, the next round's tables when it
  is seated (player indexes, seat 1 first), the table sizes of a drawn round, what a bye
  scores, and the pending tables. ``rounds_left`` may be 0 while tables are pending (the
  last planned round released with a table missing).
- *final bounds* (``final_bounds``): a player's lowest and highest points at the end:
  their points now plus the round bounds of every round they still have (their pending
  tables, their table or bye in the seated next round, and in a drawn round the widest
  of the plan's sizes and the bye, for a player who plays on).
- *out of reach*: a place (first, or the top three) a player cannot take whatever the
  deals: as many others as there are places end, at their lowest, strictly above the
  player's highest (``out_of_reach``; at equal points a tiebreak could go either way).
  Only there is a chance proved to be 0; elsewhere a chance no finish reached is small,
  not nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scoring.simulation.pools import Ints, RoundPool

Bools = NDArray[np.bool_]


@dataclass(frozen=True)
class Field:
    """The standings after the last released round, one entry a player (the same order
    everywhere). ``rounds`` is (players, released rounds) of round totals, 0 for a round
    not played; ``played`` says which were played (for the best round)."""

    points: Ints
    last_in: Ints
    table_wins: Ints
    rounds: Ints
    played: NDArray[np.bool_]
    plays_on: NDArray[np.bool_]
    # The index of the leader (rank 1, the first listed when shared).
    leader: int
    # Each player's rating (openskill's mu) less the field's mean, from a series'
    # ratings before this tournament (0 for a player without one); None: equal skill.
    skill: NDArray[np.float64] | None = None


@dataclass(frozen=True)
class PendingRound:
    """The pending tables of one released round: ``column`` is the round's column in
    ``Field.rounds`` (where its players at these tables have no total yet, ``played``
    False), ``tables`` the tables still to play, player indexes, seat 1 first."""

    column: int
    tables: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class RoundsLeft:
    """The rounds left. ``seated``: the next round's tables (player indexes, seat 1
    first) and who sits it out, when it is seated; ``sizes``: the table sizes of a drawn
    round for the players who play on (fewer seats than players: the rest sit out);
    ``pending``: the pending tables of the released rounds, played before the rounds
    left, by their players whether or not they play on."""

    rounds_left: int
    sizes: tuple[int, ...]
    bye_points: int = 0
    seated: tuple[tuple[int, ...], ...] | None = None
    seated_byes: tuple[int, ...] = ()
    pending: tuple[PendingRound, ...] = ()


def final_bounds(
    field: Field, plan: RoundsLeft, pools: dict[int, RoundPool]
) -> tuple[Ints, Ints] | None:
    """Each player's lowest and highest points at the end, whatever the deals: their
    points now plus the round bounds of their pending tables, of their table (or bye) in
    the seated next round, and of each drawn round the widest of the plan's table sizes
    and the bye (where players who play on outnumber the seats), for a player who plays
    on. None when a pool the plan needs has no bounds."""
    sizes = {len(table) for pending in plan.pending for table in pending.tables}
    drawn = plan.rounds_left
    if plan.seated is not None and drawn > 0:
        sizes |= {len(table) for table in plan.seated}
        drawn -= 1
    if drawn > 0:
        sizes |= set(plan.sizes)
    of: dict[int, tuple[int, int]] = {}
    for size in sizes:
        bounds = pools[size].bounds
        if bounds is None:
            return None
        of[size] = bounds
    lowest = field.points.astype(np.int64)
    highest = lowest.copy()
    tables = [table for pending in plan.pending for table in pending.tables]
    if plan.seated is not None and plan.rounds_left > 0:
        tables += plan.seated
        lowest[list(plan.seated_byes)] += plan.bye_points
        highest[list(plan.seated_byes)] += plan.bye_points
    for table in tables:
        low, high = of[len(table)]
        np.add.at(lowest, list(table), low)
        np.add.at(highest, list(table), high)
    on = field.plays_on
    if drawn > 0:
        each = [of[size] for size in set(plan.sizes)]
        if int(on.sum()) > sum(plan.sizes):
            each.append((plan.bye_points, plan.bye_points))
        if each:
            lowest[on] += drawn * min(low for low, _ in each)
            highest[on] += drawn * max(high for _, high in each)
    return lowest, highest


def out_of_reach(lowest: Ints, highest: Ints, places: int) -> Bools:
    """Whether each player is proved out of the first ``places`` places: at least
    ``places`` others end strictly above the player's highest final points even at their
    lowest (at equal points a tiebreak could still go the player's way). ``lowest`` and
    ``highest`` are each player's final bounds (``final_bounds``)."""
    above = lowest.size - np.searchsorted(np.sort(lowest), highest, side="right")
    # A player's own lowest is never above their highest, so ``above`` counts others.
    return np.asarray(above >= places, dtype=np.bool_)
