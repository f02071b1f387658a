"""The problem: a validated request in index form (players 0..n-1 in sorted-id order),
with its table split, byes to give, history, fixed tables and keep-apart pairs.

Every method builds a ``SeatingProblem`` first; a request that cannot be seated raises
``SeatingError`` here, worded for the organiser.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import TypeVar

from scoring.rulesets import sizes_text
from scoring.seating.keep_apart import ApartPairs
from scoring.seating.quality import MeetingRows, meeting_rows
from scoring.seating.request import (
    NORMAL_TABLE,
    PlayerId,
    SeatingError,
    SeatingRequest,
    Table,
    sort_key,
)
from scoring.seating.splits import check_sizes, table_splits
from scoring.seating.tuning import APART_WEIGHT, SEAT_SLOTS

_T = TypeVar("_T")


def without_early_pairs_if_they_block(
    seat: Callable[[SeatingRequest], _T], request: SeatingRequest
) -> _T:
    """Seat with the same-club pairs; if the always-apart pairs then clash, seat again
    without them: a family kept apart matters more than clubs spread."""
    try:
        return seat(request)
    except SeatingError:
        if not (request.keep_apart_early and request.early_rounds):
            raise
        return seat(replace(request, keep_apart_early=(), early_rounds=0))


BYE = -1
UNSEATED = -2


class SeatingProblem:
    """A validated request with players renamed 0..n-1 in sorted-id order."""

    def __init__(self, request: SeatingRequest, rounds: int) -> None:
        ids = sorted(set(request.players), key=sort_key)
        if len(ids) != len(request.players):
            raise SeatingError("A player is listed twice among the players to seat.")
        smallest = min(request.rule_sizes, default=0)
        if len(ids) < smallest:
            raise SeatingError(
                f"At least {smallest} players are needed to seat a round; there are {len(ids)}."
            )
        self.ids = ids
        self.n = n = len(ids)
        self.rounds = rounds
        self.index = index = {p: i for i, p in enumerate(ids)}
        self.split = _round_split(request, n)
        self.bye_count = n - sum(self.split)
        self.seat_counts = [[0] * SEAT_SLOTS for _ in range(n)]
        met: dict[tuple[int, int], int] = {}
        for table in request.history:
            seated = [index.get(p) for p in table]
            for seat, i in enumerate(seated):
                if i is not None:
                    self.seat_counts[i][min(seat, SEAT_SLOTS - 1)] += 1
            for a, b in combinations([i for i in seated if i is not None], 2):
                pair = (a, b) if a < b else (b, a)
                met[pair] = met.get(pair, 0) + 1
        self._count_history(met)
        # Every round played, in order; the last two, latest first.
        self.played = _last_rounds(request.history, index, len(request.history))[::-1]
        self.last_rounds = self.played[:-3:-1]
        self.past_byes = [0] * n
        for p in request.past_byes:
            if p in index:
                self.past_byes[index[p]] += 1
        self.fixed = self._fixed_tables(request)
        self.keep_apart = ApartPairs.from_request(request, index, self.fixed, rounds, UNSEATED)

    def _count_history(self, met: dict[tuple[int, int], int]) -> None:
        """The history's meetings: ``met`` (pair, smaller first -> meetings) kept as it is
        (``history_pairs``), a few pairs a player rather than a row of every player; each
        player's past opponents, how many seats each has sat across from, and the most
        meetings."""
        self.history_pairs = met
        self.opponents: list[set[int]] = [set() for _ in range(self.n)]
        self.seats_met = [0] * self.n
        for (a, b), count in met.items():
            self.opponents[a].add(b)
            self.opponents[b].add(a)
            self.seats_met[a] += count
            self.seats_met[b] += count
        self.history_most = max((self.met_before(a, b) for a, b in met), default=0)

    def met_before(self, a: int, b: int) -> int:
        """How often a and b met in the history (a player listed twice at a history
        table meets themself at both seats, as the pair counts have always seen it)."""
        if a == b:
            return 2 * self.history_pairs.get((a, a), 0)
        return self.history_pairs.get((a, b) if a < b else (b, a), 0)

    def meeting_counts(self) -> MeetingRows:
        """Fresh meeting rows holding the history, with room for the rounds to plan (a
        pair meets at most once a round)."""
        rows = meeting_rows(self.n, self.history_most + self.rounds)
        for (a, b), count in self.history_pairs.items():
            rows[a][b] += count
            rows[b][a] += count
        return rows

    def name(self, i: int) -> str:
        return str(self.ids[i])

    def has_pair_weights(self) -> bool:
        return bool(self.last_rounds) or self.keep_apart.any()

    def pair_weights(self) -> list[dict[int, int]]:
        """For each player, the players they should not meet in a design class: past
        opponents (weighted by meetings), same-club players and, heaviest, keep-apart pairs."""
        weights: list[dict[int, int]] = [{} for _ in range(self.n)]
        early = self.keep_apart.partners(0) or [frozenset[int]()] * self.n
        for p in range(self.n):
            mine = weights[p]
            for q in sorted(self.opponents[p]):
                mine[q] = self.met_before(p, q)
            for q in early[p]:
                mine[q] = mine.get(q, 0) + 1
            for q in self.keep_apart.always[p]:
                mine[q] = mine.get(q, 0) + APART_WEIGHT
        return weights

    def _fixed_tables(self, request: SeatingRequest) -> list[int]:
        fixed = [UNSEATED] * self.n
        for player, number in request.fixed_tables:
            i = self.index.get(player)
            if i is None:
                continue
            if not 1 <= number <= len(self.split):
                raise SeatingError(
                    f"{player} is fixed to table {number}, but there are only "
                    f"{len(self.split)} tables."
                )
            if fixed[i] not in (UNSEATED, number - 1):
                raise SeatingError(f"{player} is fixed to two different tables.")
            fixed[i] = number - 1
        for t, size in enumerate(self.split):
            at_table = fixed.count(t)
            if at_table > size:
                raise SeatingError(
                    f"{at_table} players are fixed to table {t + 1}, which seats {size}."
                )
        return fixed


def _last_rounds(
    history: Sequence[Table], index: dict[PlayerId, int], count: int
) -> list[list[list[int]]]:
    """The active players of the last ``count`` rounds in ``history``, latest first. A round
    is a longest run of tables in which nobody sits twice (history lists rounds in order).
    """
    rounds: list[list[list[int]]] = []
    seen: set[PlayerId] = set()
    tables: list[list[int]] = []
    for table in reversed(history):
        if seen.intersection(table):
            rounds.append(tables[::-1])
            if len(rounds) == count:
                break
            seen, tables = set(), []
        seen.update(table)
        tables.append([index[p] for p in table if p in index])
    else:
        if tables:
            rounds.append(tables[::-1])
    return [[t for t in r if t] for r in rounds]


def _round_split(request: SeatingRequest, n: int) -> tuple[int, ...]:
    if request.byes:
        if request.split is not None:
            raise SeatingError("With byes every table seats five; a table split cannot be chosen.")
        if NORMAL_TABLE not in request.rule_sizes:
            raise SeatingError(
                f"With byes every table seats five, but tables seat "
                f"{sizes_text(request.rule_sizes)} players under these rules."
            )
        if n < NORMAL_TABLE:
            raise SeatingError(
                f"With byes every table seats five, so at least five players are needed; "
                f"there are {n}."
            )
        return (NORMAL_TABLE,) * (n // NORMAL_TABLE)
    if request.split is None:
        return table_splits(n, request.sizes, 1, request.rule_sizes)[0]
    split = tuple(request.split)
    check_sizes(split, request.rule_sizes)
    if sum(split) != n:
        shown = " + ".join(str(s) for s in split)
        raise SeatingError(f"The chosen tables ({shown}) seat {sum(split)}, but {n} are playing.")
    return split
