"""Seating: which players sit together, at which table and in which seat, round by round.

Terms
-----
- *player*: a hashable, sortable id (an int or a string).
- *table*: a tuple of players in seat order; seat 1 (index 0) deals the first deal.
  Table numbers are 1-based: table ``t`` is ``RoundSeating.tables[t - 1]``.
- *split*: the table sizes of one round in table-number order, e.g. ``(5, 5, 5, 4, 4)``.
- *mixed tables* (the default policy): everyone plays; tables of five, with tables of the
  other allowed sizes (4 and 6 by default) taking up the remainder, and a table of 3 only
  when no other split exists. ``table_splits`` lists the splits, best first.
- *byes*: every table has five players and ``n mod 5`` players sit the round out. Byes
  rotate: nobody sits out a second time before every active player has sat out once
  (the request carries one ``past_byes`` entry per bye already sat out).
- *meetings* of two players: how many times they have sat at the same table, counting the
  history and the rounds being planned.
- *repeat meetings*: sum over pairs of ``max(0, meetings - 1)``.
- *most meetings*: the largest number of meetings of any pair.
- *spread*: sum over pairs of ``C(meetings, 2)``; among seatings with the same repeat
  meetings it prefers two pairs meeting twice to one pair meeting three times.
- *counting lower bound*: a player who has sat across from ``S`` seats among ``P - 1``
  other players has met somebody again at least ``S - (P - 1)`` times; half the sum over
  players bounds repeat meetings from below, and ``ceil(S / (P - 1))`` bounds most meetings.
- *keep-apart* pairs: ``keep_apart`` never share a table in any planned round (family; a
  seating that cannot honour them raises ``SeatingError``); ``keep_apart_early`` are kept
  apart as far as possible in the first ``early_rounds`` planned rounds (same club: often
  not every club can be spread, and the round must still be seated). A
  caller with a rule "clubs apart until round K" passes ``early_rounds = K - rounds played``.
- *fixed table*: the player sits at that table number in every round they play.
- *seat rotation*: each table takes the best of its seat orders, a seat costing
  ``4 ** c`` to a player who has had it ``c`` times (``64 ** c`` for seat 1, which deals
  first), counting the seat order of the history tables.
- *search effort*: scales the number of search steps (1.0 by default; 0 skips the search).

The engine minimises, in this order: keep-apart clashes, most meetings, repeat meetings,
spread. Players, keep-apart pairs and fixed tables naming someone who is not active are
ignored, so a roster change needs no clean-up; history may name anyone.

Public API
----------
- ``table_splits(n_players, sizes=(4, 5, 6), limit=10) -> list[tuple[int, ...]]``
- ``plan(request) -> Plan``: seat ``request.rounds`` rounds jointly.
- ``seat_by_standings(ranked_players, request) -> RoundSeating``: one round, top ranks together.
- ``seat_randomly(request) -> RoundSeating``: one round, shuffled then split.
- ``quality(rounds, history=(), players=()) -> Quality``: figures for any seating,
  including one an organiser edited by hand.
- ``SeatingError``: a request that cannot be seated, worded for the organiser.

Method (docs/seating.md has the long version): with no byes and tables of sizes ``k`` and
``k - 1`` only, the first rounds come from a design (players ``(i, x)``, group ``i < k``,
``x`` in GF(m) or the integers mod ``m`` for ``m`` tables; round ``s`` seats
``{(i, t + i*s)}`` at table ``t``; two slopes never seat a pair together twice when
``d * (s - s') != 0`` for every group difference ``d``; the groups themselves make one
more round when their sizes fit, or when cut into tables of ``k``; dropping group-0
players turns tables into ``k - 1``). With a history or keep-apart pairs, the last two
rounds played become the design's classes 0 and 1 when they fit (prime ``m``), else the
last round becomes class 0 and a search over slot swaps moves past opponents and
keep-apart pairs into one group or into classes left unused; the cheapest classes are
seated. Other rounds are built greedily, most-constrained players first. Simulated
annealing over swaps of two players at different tables of one round then repairs
clashes and repeats, scoring each swap from the meeting counts. While the result is still
above the counting bound (or the history's own repeats), ``scoring.seating_search``
takes over within a budget: for a fresh field at tables of one size, rounds that each
turn one base round; then a tabu search over the same swaps (conflict-directed, after
Dotú and Van Hentenryck), first over seatings that keep the design's groups one per
table, then over all swaps. Everything random flows from ``random.Random(seed)`` and
step budgets, never the clock, so a seed always gives the same seating.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import Any, TypeAlias, TypeVar

from scoring.errors import UserError
from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.seating_search import TabuSearch, pair_counts, rotating_rounds

PlayerId: TypeAlias = int | str
_T = TypeVar("_T")
Table: TypeAlias = tuple[PlayerId, ...]

NORMAL_TABLE = 5
DEFAULT_SIZES: tuple[int, ...] = (4, 5, 6)

_SEAT_SLOTS = MAX_TABLE_SIZE
_SEAT_BASE = 4
_FIRST_SEAT_BASE = 64
_SEAT_SWEEPS = 1
# Annealing schedule, tuned on 16-45 players x 5-8 rounds: about half a second at 30 x 6,
# and four times the steps bought little. The cap keeps any plan to about two seconds.
# Steps, not seconds, so a seed always gives the same plan.
_STEPS_PER_SEAT = 500
_MAX_STEPS = 400_000
_HOT = 0.6
_COLD = 0.05
# Energy of a pair meeting c >= 2 times is 4**(c - 2) * (c - 1): one pair meeting three
# times costs as much as eight pairs meeting twice, standing in for "most meetings first".
_ENERGY_BASE = 4
_CLASH_ENERGY = 20
# Slot search: a keep-apart pair in one design class outweighs any number of past meetings.
_APART_WEIGHT = 1000
_SLOT_STEPS_PER_PLAYER = 300
_MAX_SLOT_STEPS = 20_000
# Tabu search budget in units of work (moves weighed, see scoring.seating_search); about
# a second and a half at 30 x 6 on the development machine. A share goes to fresh seatings
# that keep the design's groups, each tried for a short while.
_TABU_WORK = 6_000_000
_TABU_WORK_PER_SEAT = 40_000
_TRANSVERSAL_SHARE = 0.5
_TRANSVERSAL_WORK_PER_SEAT = 7_000
# Rotating rounds take a share of the budget; a pair weighed by their search costs about
# three times as much as a move weighed by the tabu search. The search restarts every 200
# steps.
_ROTATION_SHARE = 0.75
_ROTATION_COST = 3
_ROTATION_NODES = 200
_ROTATION_PLACINGS = 100
# Search steps for the unital design's rounds, and for fitting a history onto them.
_UNITAL_NODES = 20_000
# Larger unitals (126 players at sixes and up) cost seconds to build.
_UNITAL_MAX_Q = 4
_FIT_TRIES = 6
_FIT_STEPS = 300


class SeatingError(UserError):
    """The players cannot be seated as asked; the message says why in organiser terms."""


@dataclass(frozen=True)
class SeatingRequest:
    players: tuple[PlayerId, ...]
    rounds: int = 1
    sizes: tuple[int, ...] = DEFAULT_SIZES
    split: tuple[int, ...] | None = None
    byes: bool = False
    history: tuple[Table, ...] = ()
    past_byes: tuple[PlayerId, ...] = ()
    keep_apart: tuple[tuple[PlayerId, PlayerId], ...] = ()
    keep_apart_early: tuple[tuple[PlayerId, PlayerId], ...] = ()
    early_rounds: int = 0
    fixed_tables: tuple[tuple[PlayerId, int], ...] = ()
    seed: int = 0
    search_effort: float = 1.0


@dataclass(frozen=True)
class RoundSeating:
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class Quality:
    repeat_meetings: int
    max_meetings: int
    lower_bound: int
    max_meetings_lower_bound: int
    spread: int


@dataclass(frozen=True)
class Plan:
    rounds: tuple[RoundSeating, ...]
    quality: Quality


# --- table sizes -------------------------------------------------------------------------


def table_splits(
    n_players: int, sizes: Sequence[int] = DEFAULT_SIZES, limit: int = 10
) -> list[tuple[int, ...]]:
    """Up to ``limit`` ways to seat ``n_players`` at tables of ``sizes``, best first.

    Order: fewest tables of 3, then most tables of 5, then fewest tables of other sizes,
    then least total distance from 5, then larger tables first. Tables of 3 are used only
    if ``sizes`` lists 3 or no split without them exists. Each split is sorted largest first;
    the first is the default, and ``SeatingRequest.split`` takes any other.
    """
    allowed = sorted(set(sizes))
    bad = [s for s in allowed if not MIN_TABLE_SIZE <= s <= MAX_TABLE_SIZE]
    if not allowed or bad:
        raise SeatingError(
            f"Tables seat {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players; "
            f"the allowed sizes {tuple(sizes)} are not possible."
        )
    if n_players < MIN_TABLE_SIZE:
        raise SeatingError(
            f"At least {MIN_TABLE_SIZE} players are needed for a table; there are {n_players}."
        )
    splits = _splits_using(n_players, allowed, limit)
    if not splits and MIN_TABLE_SIZE not in allowed:
        splits = _splits_using(n_players, [MIN_TABLE_SIZE, *allowed], limit)
    if not splits:
        listed = ", ".join(str(s) for s in allowed)
        raise SeatingError(f"{n_players} players cannot be split into tables of {listed}.")
    return splits


def _splits_using(n: int, allowed: list[int], limit: int) -> list[tuple[int, ...]]:
    # Walks the order of table_splits level by level, so a big n never lists every split.
    three = MIN_TABLE_SIZE
    others = [s for s in allowed if s not in (three, NORMAL_TABLE)]
    found: list[tuple[int, ...]] = []
    for threes in range(n // three + 1) if three in allowed else [0]:
        rest = n - three * threes
        fives_options = range(rest // NORMAL_TABLE, -1, -1) if NORMAL_TABLE in allowed else [0]
        for fives in fives_options:
            level = list(_multisets(rest - NORMAL_TABLE * fives, others))
            level.sort(key=_split_order)
            for combo in level:
                split = (*combo, *[NORMAL_TABLE] * fives, *[three] * threes)
                found.append(tuple(sorted(split, reverse=True)))
                if len(found) >= limit:
                    return found
    return found


def _split_order(tables: tuple[int, ...]) -> tuple[int, int, list[int]]:
    return (len(tables), sum(abs(s - NORMAL_TABLE) for s in tables), [-s for s in tables])


def _multisets(total: int, sizes: list[int]) -> Iterable[tuple[int, ...]]:
    if total == 0:
        yield ()
        return
    if not sizes:
        return
    size, rest = sizes[-1], sizes[:-1]
    for count in range(total // size + 1):
        for combo in _multisets(total - size * count, rest):
            yield (size,) * count + combo


# --- quality -----------------------------------------------------------------------------


def quality(
    rounds: Iterable[RoundSeating],
    history: Iterable[Sequence[PlayerId]] = (),
    players: Iterable[PlayerId] = (),
) -> Quality:
    """Meeting figures for ``history`` plus ``rounds``; ``players`` adds anyone not seated."""
    rounds = list(rounds)
    tables = [tuple(t) for t in history] + [t for r in rounds for t in r.tables]
    everyone = set(players)
    for table in tables:
        everyone.update(table)
    for r in rounds:
        everyone.update(r.byes)
    index = {p: i for i, p in enumerate(sorted(everyone, key=_sort_key))}
    meetings: dict[tuple[int, int], int] = {}
    seats_met = [0] * len(index)
    for table in tables:
        seated = sorted(index[p] for p in table)
        for i in seated:
            seats_met[i] += len(seated) - 1
        for pair in combinations(seated, 2):
            meetings[pair] = meetings.get(pair, 0) + 1
    others = max(1, len(index) - 1)
    forced = sum(max(0, s - others) for s in seats_met)
    return Quality(
        repeat_meetings=sum(c - 1 for c in meetings.values()),
        max_meetings=max(meetings.values(), default=0),
        lower_bound=(forced + 1) // 2,
        max_meetings_lower_bound=max((-(-s // others) for s in seats_met), default=0),
        spread=sum(c * (c - 1) // 2 for c in meetings.values()),
    )


# --- public seating functions ------------------------------------------------------------


def _without_early_pairs_if_they_block(
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


def plan(request: SeatingRequest) -> Plan:
    """Seat ``request.rounds`` rounds jointly; ``Plan.quality`` includes the history."""
    if request.rounds < 1:
        raise SeatingError("Choose at least one round to seat.")
    return _without_early_pairs_if_they_block(_plan, request)


def _plan(request: SeatingRequest) -> Plan:
    problem = _Problem(request, request.rounds)
    rng = random.Random(request.seed)
    state = _State(problem, _choose_byes(problem, rng))
    design: list[list[list[int]]] = []
    # Where the cyclic design has too few rounds for the whole tournament, the unital
    # design may have enough.
    total = problem.rounds + len(problem.played)
    short = len(_cyclic_design(problem.split, total)) < total
    unital = _unital_seating(problem, rng, request.seed) if short else None
    if unital is not None:
        for r, tables in enumerate(unital):
            for t, table in enumerate(tables):
                for p in table:
                    state.place(r, p, t)
        return _finish(problem, state, request, rng)
    if not problem.bye_count:
        # With a history or pairs to keep apart, every class the design offers is a
        # candidate: the slot assignment then picks the classes that avoid them.
        wanted = request.rounds + (problem.n if problem.has_pair_weights() else 0)
        design = _cyclic_design(problem.split, wanted)
    designed, groups, pattern = 0, None, None
    designed_seating: list[list[list[int]]] | None = None
    if design:
        designed, groups = _seat_design(state, design, rng, request.search_effort)
        pattern = _transversal_round(state, groups)
        if pattern is not None and designed == problem.rounds:
            designed_seating = state.snapshot()
    for r in range(designed, problem.rounds):
        _seat_greedily(state, r, rng)
    _enforce_fixed(state, rng)
    _improve(state, rng, request.search_effort)
    _search_conflicts(state, rng, request.search_effort, groups, pattern, designed_seating)
    _raise_on_clash(state)
    return _finish(problem, state, request, rng)


def seat_by_standings(ranked_players: Sequence[PlayerId], request: SeatingRequest) -> RoundSeating:
    """Seat one round by rank: the top players at table 1, the next at table 2, and so on.

    Fixed-table players sit at their table and the others flow around them in rank order.
    Then, from the top table down, two neighbouring tables may trade one pair of players
    when that lowers (keep-apart clashes, most meetings, repeat meetings, spread), choosing
    the trade with the closest ranks among the best; further trades between the same two
    tables are made only to resolve keep-apart clashes. A player moves at most once, so
    nobody sits more than one table away from their rank. Byes rotate as in ``plan``.
    ``ranked_players`` must be ``request.players`` in rank order, best first.
    """
    if sorted(ranked_players, key=_sort_key) != sorted(request.players, key=_sort_key):
        raise ValueError("ranked_players must be the request's players in rank order")
    return _without_early_pairs_if_they_block(
        lambda r: _seat_by_standings(ranked_players, r), request
    )


def _seat_by_standings(ranked_players: Sequence[PlayerId], request: SeatingRequest) -> RoundSeating:
    problem = _Problem(replace(request, rounds=1), 1)
    rng = random.Random(request.seed)
    state = _State(problem, _choose_byes(problem, rng))
    index = problem.index
    playing = [index[p] for p in ranked_players if state.where[0][index[p]] != _BYE]
    tables = _fill_in_order(problem, playing)
    _trade_at_boundaries(problem, tables, {p: rank for rank, p in enumerate(playing)})
    for t, table in enumerate(tables):
        for p in table:
            state.place(0, p, t)
    _raise_on_clash(state)
    return _finish(problem, state, request, rng).rounds[0]


def seat_randomly(request: SeatingRequest) -> RoundSeating:
    """Seat one round by shuffling the players and cutting the line into tables.

    Fixed tables and keep-apart pairs are honoured by reshuffling (up to 200 times).
    """
    return _without_early_pairs_if_they_block(_seat_randomly, request)


def _seat_randomly(request: SeatingRequest) -> RoundSeating:
    problem = _Problem(replace(request, rounds=1), 1)
    rng = random.Random(request.seed)
    state = _State(problem, _choose_byes(problem, rng))
    playing = [p for p in range(problem.n) if state.where[0][p] != _BYE]
    for _ in range(200):
        rng.shuffle(playing)
        tables = _fill_in_order(problem, playing)
        if not any(_clashes(problem, 0, table) for table in tables):
            break
    for t, table in enumerate(tables):
        for p in table:
            state.place(0, p, t)
    _raise_on_clash(state)
    return _finish(problem, state, request, rng).rounds[0]


# --- the problem in index form -----------------------------------------------------------

_BYE = -1
_UNSEATED = -2


def _sort_key(player: PlayerId) -> tuple[str, PlayerId]:
    return (type(player).__name__, player)


class _Problem:
    """A validated request with players renamed 0..n-1 in sorted-id order."""

    def __init__(self, request: SeatingRequest, rounds: int) -> None:
        ids = sorted(set(request.players), key=_sort_key)
        if len(ids) != len(request.players):
            raise SeatingError("A player is listed twice among the players to seat.")
        if len(ids) < MIN_TABLE_SIZE:
            raise SeatingError(
                f"At least {MIN_TABLE_SIZE} players are needed to seat a round; "
                f"there are {len(ids)}."
            )
        self.ids = ids
        self.n = n = len(ids)
        self.rounds = rounds
        self.index = index = {p: i for i, p in enumerate(ids)}
        self.split = _round_split(request, n)
        self.bye_count = n - sum(self.split)
        self.meetings = [[0] * n for _ in range(n)]
        self.seat_counts = [[0] * _SEAT_SLOTS for _ in range(n)]
        for table in request.history:
            seated = [index.get(p) for p in table]
            for seat, i in enumerate(seated):
                if i is not None:
                    self.seat_counts[i][min(seat, _SEAT_SLOTS - 1)] += 1
            for a, b in combinations([i for i in seated if i is not None], 2):
                self.meetings[a][b] += 1
                self.meetings[b][a] += 1
        # Every round played, in order; the last two, latest first.
        self.played = _last_rounds(request.history, index, len(request.history))[::-1]
        self.last_rounds = self.played[:-3:-1]
        self.past_byes = [0] * n
        for p in request.past_byes:
            if p in index:
                self.past_byes[index[p]] += 1
        self.fixed = self._fixed_tables(request)
        self.partners = self._keep_apart(request)

    def name(self, i: int) -> str:
        return str(self.ids[i])

    def has_pair_weights(self) -> bool:
        return (
            bool(self.last_rounds)
            or any(self.hard)
            or any(partners is not None and any(partners) for partners in self.partners)
        )

    def pair_weights(self) -> list[dict[int, int]]:
        """For each player, the players they should not meet in a design class: past
        opponents (weighted by meetings), same-club players and, heaviest, keep-apart pairs."""
        weights: list[dict[int, int]] = [{} for _ in range(self.n)]
        early = self.partners[0] or [frozenset[int]()] * self.n
        for p in range(self.n):
            row, mine = self.meetings[p], weights[p]
            for q, count in enumerate(row):
                if count:
                    mine[q] = count
            for q in early[p]:
                mine[q] = mine.get(q, 0) + 1
            for q in self.hard[p]:
                mine[q] = mine.get(q, 0) + _APART_WEIGHT
        return weights

    def _fixed_tables(self, request: SeatingRequest) -> list[int]:
        fixed = [_UNSEATED] * self.n
        for player, number in request.fixed_tables:
            i = self.index.get(player)
            if i is None:
                continue
            if not 1 <= number <= len(self.split):
                raise SeatingError(
                    f"{player} is fixed to table {number}, but there are only "
                    f"{len(self.split)} tables."
                )
            if fixed[i] not in (_UNSEATED, number - 1):
                raise SeatingError(f"{player} is fixed to two different tables.")
            fixed[i] = number - 1
        for t, size in enumerate(self.split):
            at_table = fixed.count(t)
            if at_table > size:
                raise SeatingError(
                    f"{at_table} players are fixed to table {t + 1}, which seats {size}."
                )
        return fixed

    def _keep_apart(self, request: SeatingRequest) -> list[list[frozenset[int]] | None]:
        def partner_sets(
            pairs: Iterable[tuple[PlayerId, PlayerId]], hard: bool = True
        ) -> list[set[int]]:
            partners: list[set[int]] = [set() for _ in range(self.n)]
            for x, y in pairs:
                a, b = self.index.get(x), self.index.get(y)
                if a is None or b is None or a == b:
                    continue
                if self.fixed[a] == self.fixed[b] != _UNSEATED:
                    if not hard:
                        continue
                    raise SeatingError(
                        f"{x} and {y} must be kept apart but are both fixed to "
                        f"table {self.fixed[a] + 1}."
                    )
                partners[a].add(b)
                partners[b].add(a)
            return partners

        always = partner_sets(request.keep_apart)
        self.hard = [frozenset(s) for s in always]
        early = partner_sets(
            request.keep_apart_early if request.early_rounds > 0 else (), hard=False
        )
        late_sets = [frozenset(s) for s in always] if any(always) else None
        early_sets = [frozenset(s | e) for s, e in zip(always, early, strict=True)]
        early_sets_or_none = early_sets if any(early_sets) else None
        return [
            early_sets_or_none if r < request.early_rounds else late_sets
            for r in range(self.rounds)
        ]


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
        if n < NORMAL_TABLE:
            raise SeatingError(
                f"With byes every table seats five, so at least five players are needed; "
                f"there are {n}."
            )
        return (NORMAL_TABLE,) * (n // NORMAL_TABLE)
    if request.split is None:
        return table_splits(n, request.sizes, limit=1)[0]
    split = tuple(request.split)
    for size in split:
        if not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE:
            raise SeatingError(
                f"Tables seat {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players; "
                f"the chosen split has a table of {size}."
            )
    if sum(split) != n:
        shown = " + ".join(str(s) for s in split)
        raise SeatingError(f"The chosen tables ({shown}) seat {sum(split)}, but {n} are playing.")
    return split


def _choose_byes(problem: _Problem, rng: random.Random) -> list[list[int]]:
    byes_so_far = list(problem.past_byes)
    chosen = []
    for _ in range(problem.rounds):
        tiebreak = [rng.random() for _ in range(problem.n)]
        order = sorted(range(problem.n), key=lambda i: (byes_so_far[i], tiebreak[i]))
        out = order[: problem.bye_count]
        for i in out:
            byes_so_far[i] += 1
        chosen.append(out)
    return chosen


# --- the seating being built -------------------------------------------------------------


class _State:
    """Tables per round plus meeting counts (history + all planned rounds) kept in step."""

    def __init__(self, problem: _Problem, byes: list[list[int]]) -> None:
        self.problem = problem
        self.n = problem.n
        self.meetings = [row[:] for row in problem.meetings]
        self.met = [{q for q, c in enumerate(row) if c} for row in self.meetings]
        self.tables: list[list[list[int]]] = [[[] for _ in problem.split] for _ in byes]
        self.where = [[_UNSEATED] * self.n for _ in byes]
        for r, out in enumerate(byes):
            for p in out:
                self.where[r][p] = _BYE

    def playing(self, r: int) -> list[int]:
        return [p for p in range(self.n) if self.where[r][p] != _BYE]

    def place(self, r: int, p: int, t: int) -> None:
        """Seat ``p``; ``met`` is kept up to date here only, for the greedy seating."""
        table = self.tables[r][t]
        for q in table:
            self.meet(p, q, 1)
            self.met[p].add(q)
            self.met[q].add(p)
        table.append(p)
        self.where[r][p] = t

    def meet(self, a: int, b: int, change: int) -> int:
        count = self.meetings[a][b] + change
        self.meetings[a][b] = self.meetings[b][a] = count
        return count

    def snapshot(self) -> list[list[list[int]]]:
        return [[table[:] for table in tables] for tables in self.tables]

    def restore(self, snapshot: list[list[list[int]]]) -> None:
        self.tables = snapshot
        self.meetings = [row[:] for row in self.problem.meetings]
        for r, tables in enumerate(snapshot):
            for t, table in enumerate(tables):
                for p in table:
                    self.where[r][p] = t
                for a, b in combinations(table, 2):
                    self.meet(a, b, 1)


def _clashes(problem: _Problem, r: int, table: Sequence[int]) -> list[tuple[int, int]]:
    partners = problem.partners[r]
    if partners is None:
        return []
    return [(a, b) for a, b in combinations(table, 2) if b in partners[a]]


def _raise_on_clash(state: _State) -> None:
    problem = state.problem
    for r, tables in enumerate(state.tables):
        for t, table in enumerate(tables):
            for a, b in sorted(tuple(sorted(pair)) for pair in _clashes(problem, r, table)):
                # Early (same-club) pairs are kept apart as far as possible; only the
                # always-apart pairs (family) are a hard rule.
                if b not in problem.hard[a]:
                    continue
                when = f"round {r + 1} of the plan" if problem.rounds > 1 else "this round"
                raise SeatingError(
                    f"Could not keep {problem.name(a)} and {problem.name(b)} apart in {when} "
                    f"(both at table {t + 1}); remove a constraint or add players."
                )


def _cyclic_design(split: tuple[int, ...], rounds: int) -> list[list[list[int]]]:
    """Up to ``rounds`` repeat-free rounds of slots ``i * m + x``; table t is list index t.

    Coordinates ``x`` live in GF(m) when m is a prime power of at least k (every slope
    works), else in the integers mod m (slopes whose differences times 1..k-1 are nonzero).
    Tables ``t < f`` lack their group-0 slot ``t`` (always at table t), which makes the
    ``f`` tables of size ``k - 1``. The groups make one more round when they fit the split,
    or when all tables seat k and k divides m (each group cut into tables).
    """
    k, m = max(split), len(split)
    f = split.count(k - 1)
    if f + split.count(k) != m:
        return []
    field = _galois_field(m) if k <= m else None
    if field:
        add, mul = field
        slopes = list(range(min(m, rounds)))
    else:
        add = [[(x + y) % m for y in range(m)] for x in range(m)]
        mul = [[x * y % m for y in range(m)] for x in range(min(k, m))]
        slopes = []
        for s in range(m):
            if len(slopes) == rounds:
                break
            if all(d * (s - u) % m for u in slopes for d in range(1, k)):
                slopes.append(s)
    design = [
        [[i * m + add[t][mul[i % m][s]] for i in range(k) if i or t >= f] for t in range(m)]
        for s in slopes
    ]
    groups = [[i * m + x for x in range(m) if i or x >= f] for i in range(k)]
    groups = [g for g in groups if g]
    if len(design) < rounds and sorted(map(len, groups)) == sorted(split):
        design.append(groups)
    elif len(design) < rounds and not f and m % k == 0:
        # Groups never meet in the rounds above, so cutting each into tables adds a round.
        design.append([g[j : j + k] for g in groups for j in range(0, m, k)])
    return design


def _galois_field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), or None when q is not a prime power.

    Elements are the numbers whose base-p digits are polynomial coefficients; the
    multiplication comes from the powers of x modulo the first primitive polynomial.
    """
    p = next(d for d in range(2, q + 1) if q % d == 0) if q > 1 else 0
    degree, rest = 0, q
    while p and rest % p == 0:
        rest, degree = rest // p, degree + 1
    if not p or rest != 1:
        return None

    def digits(x: int) -> list[int]:
        return [x // p**i % p for i in range(degree)]

    def number(ds: Iterable[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    add = [
        [number((u + v) % p for u, v in zip(digits(x), digits(y), strict=True)) for y in range(q)]
        for x in range(q)
    ]
    for low in range(1, q):
        tail = digits(low)  # x**degree == -(tail polynomial)
        powers = [1]
        for _ in range(q - 1):
            ds = digits(powers[-1])
            shifted = [0, *ds[:-1]]
            powers.append(number((s - ds[-1] * c) % p for s, c in zip(shifted, tail, strict=True)))
        if powers[-1] == 1 and len(set(powers[:-1])) == q - 1:
            break
    log = {v: i for i, v in enumerate(powers[:-1])}
    mul = [
        [powers[(log[x] + log[y]) % (q - 1)] if x and y else 0 for y in range(q)] for x in range(q)
    ]
    return add, mul


@functools.cache
def _unital_design(k: int, m: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every round of a repeat-free design for m tables of k = q + 1 when m * k = q**3 + 1
    (28 players at fours for q = 3: nine rounds, where the cyclic design gives seven):
    the points of the Hermitian curve x^(q+1) + y^(q+1) + z^(q+1) = 0 in the plane over
    GF(q²), its chords (q + 1 points each, any two points on exactly one) as tables, and
    a search for a split of the chords into rounds. () when the shape is not that, or the
    search finds no split within its limit."""
    q = k - 1
    field = _galois_field(q * q) if 3 <= q <= _UNITAL_MAX_Q and m * k == q**3 + 1 else None
    if field is None:
        return ()
    add, mul = field
    size = q * q

    def power(x: int, e: int) -> int:
        result = 1
        for _ in range(e):
            result = mul[result][x]
        return result

    def normalised() -> Iterable[tuple[int, int, int]]:
        """Each point of the projective plane once: its first non-zero coordinate is 1."""
        for x in range(size):
            for y in range(size):
                for z in range(size):
                    if (x, y, z) != (0, 0, 0) and next(c for c in (x, y, z) if c) == 1:
                        yield x, y, z

    norm = [power(x, q + 1) for x in range(size)]
    points = [v for v in normalised() if add[add[norm[v[0]]][norm[v[1]]]][norm[v[2]]] == 0]
    chords = []
    for a, b, c in normalised():
        on = tuple(
            i
            for i, (x, y, z) in enumerate(points)
            if add[add[mul[a][x]][mul[b][y]]][mul[c][z]] == 0
        )
        if len(on) == k:
            chords.append(on)
    classes = _parallel_classes(chords, len(points), _UNITAL_NODES)
    return _resolution(chords, classes, _UNITAL_NODES) or ()


def _parallel_classes(blocks: list[tuple[int, ...]], n: int, limit: int) -> list[tuple[int, ...]]:
    """Sets of disjoint blocks covering the n points (as block numbers), by a search of at
    most ``limit`` steps."""
    through = [[b for b, block in enumerate(blocks) if p in block] for p in range(n)]
    found: list[tuple[int, ...]] = []
    steps = 0

    def extend(covered: set[int], chosen: list[int]) -> None:
        nonlocal steps
        steps += 1
        if steps > limit:
            return
        if len(covered) == n:
            found.append(tuple(chosen))
            return
        p = min(set(range(n)) - covered)
        for b in through[p]:
            if covered.isdisjoint(blocks[b]):
                extend(covered | set(blocks[b]), [*chosen, b])

    extend(set(), [])
    return found


def _resolution(
    blocks: list[tuple[int, ...]], classes: list[tuple[int, ...]], limit: int
) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """Classes that use every block exactly once, as rounds of tables, or None."""
    holding = [[c for c, chosen in enumerate(classes) if b in chosen] for b in range(len(blocks))]
    steps = 0

    def cover(used: set[int], chosen: list[int]) -> list[int] | None:
        nonlocal steps
        steps += 1
        if steps > limit:
            return None
        if len(used) == len(blocks):
            return chosen
        options = {
            b: [c for c in holding[b] if used.isdisjoint(classes[c])]
            for b in range(len(blocks))
            if b not in used
        }
        b = min(options, key=lambda b: len(options[b]))
        for c in options[b]:
            done = cover(used | set(classes[c]), [*chosen, c])
            if done is not None:
                return done
        return None

    chosen = cover(set(), [])
    if chosen is None:
        return None
    return tuple(tuple(blocks[b] for b in classes[c]) for c in chosen)


def _unital_seating(
    problem: _Problem, rng: random.Random, seed: int
) -> list[list[list[int]]] | None:
    """The rounds to play from the unital design (``_unital_design``), its points given
    to players so that each round already played is a round of the design; the rounds
    to play are the design's other rounds. None when the field is not that shape, has
    players kept apart or at fixed tables, or its history does not fit the design
    (within a search limit)."""
    split = problem.split
    k, m = max(split), len(split)
    if (
        problem.bye_count
        or min(split) != k
        or any(t != _UNSEATED for t in problem.fixed)
        or any(problem.hard)
        or any(partners is not None and any(partners) for partners in problem.partners)
    ):
        return None
    design = _unital_design(k, m)
    played = problem.played
    if len(design) < problem.rounds + len(played):
        return None
    # The points a plan with this seed and no history gives: when the rounds played are
    # that plan's, the rest of it follows (round by round equals all at once).
    # (Its own generator: the plan's draws depend on how many rounds are left.)
    fresh = list(range(problem.n))
    random.Random(seed).shuffle(fresh)
    used_fresh = _rounds_used(fresh, design, played)
    if used_fresh is not None:
        point_of, used = dict(enumerate(fresh)), used_fresh
    else:
        found = _fit_history(problem.n, design, played, rng)
        if found is None:
            return None
        point_of, used = found
    free = sorted(set(range(problem.n)) - set(point_of.values()))
    rng.shuffle(free)
    unplaced = [p for p in range(problem.n) if p not in point_of]
    point_of.update(zip(unplaced, free, strict=True))
    player_at = {x: p for p, x in point_of.items()}
    to_play = [r for r in range(len(design)) if r not in used][: problem.rounds]
    return [[[player_at[x] for x in table] for table in design[r]] for r in to_play]


def _rounds_used(
    point_of: Sequence[int],
    design: Sequence[Sequence[Sequence[int]]],
    played: list[list[list[int]]],
) -> set[int] | None:
    """The design rounds that the rounds played are with these points, or None when some
    round played is not a round of the design."""
    round_of = {frozenset(table): r for r, tables in enumerate(design) for table in tables}
    used: set[int] = set()
    for tables in played:
        found = {round_of.get(frozenset(point_of[p] for p in table)) for table in tables}
        (r,) = found if len(found) == 1 else (None,)
        if r is None or r in used:
            return None
        used.add(r)
    return used


def _fit_history(
    n: int,
    design: Sequence[Sequence[Sequence[int]]],
    played: list[list[list[int]]],
    rng: random.Random,
) -> tuple[dict[int, int], set[int]] | None:
    """Points of the design for the players of ``played`` such that every round played is
    a different round of the design (each table inside one of its tables), and the design
    rounds used; None when none turns up within ``_FIT_TRIES`` searches of ``_FIT_STEPS``
    steps.

    The search places next the player with the fewest points left to take: once a round
    played has its design round, a table with one player placed leaves the rest k - 1
    points."""
    block_in = [[-1] * n for _ in design]  # design round, point -> its table there
    for r, tables in enumerate(design):
        for b, table in enumerate(tables):
            for x in table:
                block_in[r][x] = b
    seats = [(h, table) for h, tables in enumerate(played) for table in tables if len(table) > 1]
    seats_of: dict[int, list[int]] = {}
    for t, (_, table) in enumerate(seats):
        for p in table:
            seats_of.setdefault(p, []).append(t)
    point_of: dict[int, int] = {}
    player_at: dict[int, int] = {}
    round_map: dict[int, int] = {}  # round played -> design round
    steps = 0

    # The design round in which two points share a table (there is exactly one).
    pair_round = [[-1] * n for _ in range(n)]
    for r, tables in enumerate(design):
        for table in tables:
            for a in table:
                for b in table:
                    pair_round[a][b] = r

    def design_round_of(a: int, b: int) -> int:
        return pair_round[a][b]

    def options(p: int) -> list[int]:
        found = [x for x in range(n) if x not in player_at]
        for t in seats_of[p]:
            h, table = seats[t]
            placed = [point_of[q] for q in table if q in point_of]
            r = round_map.get(h)
            if r is None:
                # At most one placed (two would have given the round its design round):
                # the table they make must be in a design round no other round has.
                if placed:
                    taken = set(round_map.values())
                    found = [x for x in found if design_round_of(placed[0], x) not in taken]
            elif placed:
                block = block_in[r][placed[0]]
                found = [x for x in found if block_in[r][x] == block]
            else:
                # The design table there must not hold anyone from another table.
                found = [
                    x
                    for x in found
                    if all(
                        player_at.get(y) is None or player_at[y] in table
                        for y in design[r][block_in[r][x]]
                    )
                ]
        return found

    def placed_with(p: int) -> int:
        return sum(q in point_of for t in seats_of[p] for q in seats[t][1])

    def search() -> bool:
        nonlocal steps
        steps += 1
        if steps > _FIT_STEPS:
            return False
        waiting = [p for p in seats_of if p not in point_of]
        if not waiting:
            return True
        choices = {p: options(p) for p in waiting}
        # Fewest points left first; among equals, one whose tables have players placed.
        p = min(waiting, key=lambda p: (len(choices[p]), -placed_with(p), p))
        order = choices[p]
        rng.shuffle(order)
        for x in order:
            point_of[p], player_at[x] = x, p
            mapped = []
            for t in seats_of[p]:
                h, table = seats[t]
                placed = [point_of[q] for q in table if q in point_of]
                if h not in round_map and len(placed) > 1:
                    round_map[h] = design_round_of(placed[0], placed[1])
                    mapped.append(h)
            if search():
                return True
            for h in mapped:
                del round_map[h]
            del point_of[p], player_at[x]
        return False

    # A wrong early choice can cost a long search to undo: a few short searches, each
    # in its own random order, find a fit sooner than one long one.
    for _ in range(_FIT_TRIES):
        steps = 0
        if search():
            return dict(point_of), set(round_map.values())
    return None


def _seat_design(
    state: _State, design: list[list[list[int]]], rng: random.Random, effort: float
) -> tuple[int, list[int]]:
    """Seat the first rounds from the design's classes; returns how many rounds it seated
    and each player's design group.

    Without history or pairs to keep apart players take slots at random. Otherwise the
    last round played becomes the tables of the first class (so the other classes seat
    none of its pairs again), a search over swaps of slots moves past opponents and
    keep-apart pairs into classes it can drop or into one group (a group never shares a
    table), and the classes with the fewest such meetings are seated, fewest first.
    """
    problem = state.problem
    split = problem.split
    k, m = max(split), len(split)
    f = split.count(k - 1)
    # Design table t is the t-th table of its size: small tables come first in the design.
    number_of = [t for t, s in enumerate(split) if s == k - 1] + [
        t for t, s in enumerate(split) if s == k
    ]
    # Group-0 slot t sits at design table t in every cyclic round: ideal for fixed players.
    slot_of: dict[int, int] = {}
    for p in range(problem.n):
        t = problem.fixed[p]
        if t >= 0 and split[t] == k and number_of.index(t) not in slot_of.values():
            slot_of[p] = number_of.index(t)
    pinned = set(slot_of)
    taken = set(slot_of.values())
    free_slots = [s for s in range(f, k * m) if s not in taken]
    rng.shuffle(free_slots)
    rest = [p for p in range(problem.n) if p not in slot_of]
    if problem.has_pair_weights():
        embedded = None if pinned else _embed_last_two_rounds(problem, design)
        slot_of.update(embedded or _slots_from_latest_round(problem, design, free_slots, rest, rng))
        search = _SlotSearch(problem, design, slot_of, pinned, rng)
        search.run(int(effort * min(_MAX_SLOT_STEPS, _SLOT_STEPS_PER_PLAYER * problem.n)))
        slot_of = dict(enumerate(search.slot))
        design = search.best_classes()
    else:
        slot_of.update(zip(rest, free_slots, strict=True))
    player_at = {slot: p for p, slot in slot_of.items()}
    for r, tables in enumerate(design):
        numbers: dict[int, int] = {}
        for d, slots in enumerate(tables):
            wanted = {problem.fixed[player_at[slot]] for slot in slots} - {_UNSEATED}
            for t in sorted(wanted):
                if t not in numbers.values() and split[t] == len(slots):
                    numbers[d] = t
                    break
        for d, slots in enumerate(tables):
            if d not in numbers:
                numbers[d] = next(
                    t for t in number_of if t not in numbers.values() and split[t] == len(slots)
                )
            for slot in slots:
                state.place(r, player_at[slot], numbers[d])
    return len(design), [slot_of[p] // m for p in range(problem.n)]


def _embed_last_two_rounds(
    problem: _Problem, design: list[list[list[int]]]
) -> dict[int, int] | None:
    """Slots that make the last two rounds played the design's classes 0 and 1, or None.

    Only for a prime number m of tables, all of size k: the coordinates are then the
    integers mod m, class 0 seats slot ``(i, x)`` at table x and class 1 at table
    ``x + i``. So the last round's tables need coordinates (``sigma``) such that each
    table u of the round before meets the tables at a run of k coordinates
    ``a_u, ..., a_u + k - 1``; a player at last-round table t and earlier table u then
    takes slot ``(a_u + k - 1 - sigma(t), sigma(t))``. Two rounds the design itself
    seated always fit (up to relabelling), as do many others.
    """
    m = len(design[0])
    k = len(design[0][0])
    if (
        len(problem.last_rounds) < 2
        or any(m % d == 0 for d in range(2, m))
        or len(design) < 3
        or any(len(table) != k for table in design[0])
    ):
        return None
    latest, before = problem.last_rounds[0], problem.last_rounds[1]
    for tables in (latest, before):
        if len(tables) != m or any(len(table) != k for table in tables):
            return None
        if sorted(p for table in tables for p in table) != list(range(problem.n)):
            return None
    latest_of = {p: t for t, table in enumerate(latest) for p in table}
    neighbours = [frozenset(latest_of[p] for p in table) for table in before]
    if any(len(found) != k for found in neighbours):
        return None  # the two rounds seat a pair together twice
    order = _runs_in_order(neighbours, m, k)
    if order is None:
        return None
    # Table order[a] meets the run starting at a; the run starting at a + 1 drops sigma^-1(a).
    sigma = [-1] * m
    for a, u in enumerate(order):
        dropped = neighbours[u] - neighbours[order[(a + 1) % m]]
        if len(dropped) != 1:
            return None
        sigma[next(iter(dropped))] = a
    if sorted(sigma) != list(range(m)):
        return None
    slot_of = {}
    for a, u in enumerate(order):
        if {sigma[t] for t in neighbours[u]} != {(a + j) % m for j in range(k)}:
            return None
        for p in before[u]:
            x = sigma[latest_of[p]]
            slot_of[p] = (a + k - 1 - x) % m * m + x
    return slot_of


def _runs_in_order(neighbours: list[frozenset[int]], m: int, k: int) -> list[int] | None:
    """The tables of the earlier round in the order of their runs: neighbouring runs share
    k - 1 tables, and (for k < m - 1) no other two do, so the order is a walk round a cycle.
    """
    if k >= m - 1:
        return None  # runs this long overlap too much to be told apart
    partners = [
        [v for v in range(m) if v != u and len(neighbours[u] & neighbours[v]) == k - 1]
        for u in range(m)
    ]
    if any(len(found) != 2 for found in partners):
        return None
    order = [0, partners[0][0]]
    while len(order) < m:
        previous, current = order[-2], order[-1]
        following = next(v for v in partners[current] if v != previous)
        if following in order:
            return None
        order.append(following)
    return order if order[0] in partners[order[-1]] else None


def _slots_from_latest_round(
    problem: _Problem,
    design: list[list[list[int]]],
    free_slots: list[int],
    players: list[int],
    rng: random.Random,
) -> dict[int, int]:
    """Slots for ``players`` that put each table of the last round played at one table
    of the design's first class (as far as the sizes allow) and everyone else at random.

    When the design's last class is its groups and the round before had one table per
    group, its tables become the groups: then both rounds are classes of the design.
    """
    free = set(free_slots)
    open_tables = [[s for s in table if s in free] for table in design[0]]
    unplaced = set(players)
    group_of: dict[int, int] = {}
    m = len(design[0])
    # The groups class has one table per group (cut groups have several).
    group_sets = [{s // m for s in table} for table in design[-1]]
    groups_class = all(len(g) == 1 for g in group_sets) and len(set().union(*group_sets)) == len(
        group_sets
    )
    if (
        groups_class
        and len(problem.last_rounds) > 1
        and len(problem.last_rounds[1]) == len(design[-1])
    ):
        group_of = {p: g for g, table in enumerate(problem.last_rounds[1]) for p in table}
    slot_of: dict[int, int] = {}
    for table in sorted(problem.last_rounds[:1] and problem.last_rounds[0], key=len, reverse=True):
        here = [p for p in table if p in unplaced]
        rng.shuffle(here)
        d = max(range(len(open_tables)), key=lambda d: len(open_tables[d]))
        slots = open_tables[d]
        wished = {p: s for p in here for s in slots if s // m == group_of.get(p, -1)}
        chosen: dict[int, int] = {}
        for p in here:
            if p in wished and wished[p] not in chosen.values():
                chosen[p] = wished[p]
        spare = [s for s in slots if s not in chosen.values()]
        for p in here:
            if p not in chosen and spare:
                chosen[p] = spare.pop(0)
        slot_of.update(chosen)
        unplaced.difference_update(chosen)
        open_tables[d] = [s for s in slots if s not in chosen.values()]
    left = [s for table in open_tables for s in table]
    rng.shuffle(left)
    slot_of.update(zip([p for p in players if p in unplaced], left, strict=True))
    return slot_of


class _SlotSearch:
    """Local search over swaps of two players' design slots.

    The cost of a class is the weight of the pairs it seats together (``pair_weights``);
    only the ``rounds`` cheapest classes are used, so the objective is their total.
    """

    def __init__(
        self,
        problem: _Problem,
        design: list[list[list[int]]],
        slot_of: dict[int, int],
        pinned: set[int],
        rng: random.Random,
    ) -> None:
        self.design = design
        self.rng = rng
        self.slot = [slot_of[p] for p in range(problem.n)]
        size = max(s for tables in design for table in tables for s in table) + 1
        self.table_of = []
        for tables in design:
            table_of = [-1] * size
            for d, table in enumerate(tables):
                for s in table:
                    table_of[s] = d
            self.table_of.append(table_of)
        self.weights = [list(w.items()) for w in problem.pair_weights()]
        self.movable = [p for p in range(problem.n) if p not in pinned]
        self.keep = min(problem.rounds, len(design))
        self.cost = [0] * len(design)
        for p, partners in enumerate(self.weights):
            for q, w in partners:
                if q > p:
                    for c, table_of in enumerate(self.table_of):
                        if table_of[self.slot[p]] == table_of[self.slot[q]]:
                            self.cost[c] += w

    def objective(self, cost: list[int]) -> int:
        return sum(sorted(cost)[: self.keep])

    def best_classes(self) -> list[list[list[int]]]:
        order = sorted(range(len(self.design)), key=lambda c: (self.cost[c], c))
        return [self.design[c] for c in order[: self.keep]]

    def _change(self, p: int, q: int) -> list[int]:
        slot, weights = self.slot, self.weights
        change = [0] * len(self.design)
        for a, here, there in ((p, slot[p], slot[q]), (q, slot[q], slot[p])):
            for x, w in weights[a]:
                if x in (p, q):
                    continue
                sx = slot[x]
                for c, table_of in enumerate(self.table_of):
                    t = table_of[sx]
                    if table_of[here] == t:
                        change[c] -= w
                    if table_of[there] == t:
                        change[c] += w
        return change

    def run(self, steps: int) -> None:
        movable, rng, cost, slot = self.movable, self.rng, self.cost, self.slot
        weighted = [p for p in movable if self.weights[p]]
        if len(movable) < 2 or not weighted:
            return
        current = self.objective(cost)
        kept = self._kept()
        for _ in range(steps):
            if current == 0:
                return
            p = weighted[int(rng.random() * len(weighted))]
            # Only a player who meets a weighted partner in a class in use is worth moving.
            if not any(
                table_of[slot[p]] == table_of[slot[x]]
                for x, _ in self.weights[p]
                for table_of in kept
            ):
                continue
            q = movable[int(rng.random() * len(movable))]
            if p == q:
                continue
            change = self._change(p, q)
            after = [c + d for c, d in zip(cost, change, strict=True)]
            value = self.objective(after)
            if value <= current:
                slot[p], slot[q] = slot[q], slot[p]
                cost[:] = after
                current = value
                kept = self._kept()

    def _kept(self) -> list[list[int]]:
        order = sorted(range(len(self.design)), key=lambda c: (self.cost[c], c))
        return [self.table_of[c] for c in order[: self.keep]]


def _seat_greedily(state: _State, r: int, rng: random.Random) -> None:
    """Seat round ``r`` one player at a time, most constrained first, into the best table."""
    problem = state.problem
    where, meetings = state.where[r], state.meetings
    room = list(problem.split)
    partners = problem.partners[r]
    playing = state.playing(r)
    for p in playing:
        if problem.fixed[p] >= 0:
            state.place(r, p, problem.fixed[p])
            room[problem.fixed[p]] -= 1
    tiebreak = {p: rng.random() for p in playing}

    def constraint(p: int) -> tuple[int, float]:
        apart = len(partners[p]) if partners else 0
        return (-(len(state.met[p]) + 8 * apart), tiebreak[p])

    open_tables = [t for t, free in enumerate(room) if free]
    for p in sorted((p for p in playing if problem.fixed[p] < 0), key=constraint):
        costs: dict[int, list[int]] = {}
        row = meetings[p]
        for q in state.met[p]:
            t = where[q]
            if t >= 0 and room[t]:
                c = row[q]
                cost = costs.setdefault(t, [0, 0, 0, 0])
                cost[1] = max(cost[1], c)
                cost[2] += 1
                cost[3] += c
        if partners:
            for q in partners[p]:
                t = where[q]
                if t >= 0 and room[t]:
                    costs.setdefault(t, [0, 0, 0, 0])[0] += 1
        choice = -1
        if len(costs) < len(open_tables):
            for _ in range(8):
                t = open_tables[rng.randrange(len(open_tables))]
                if t not in costs:
                    choice = t
                    break
        if choice < 0:
            start = rng.randrange(len(open_tables))
            ordered = open_tables[start:] + open_tables[:start]
            choice = min(ordered, key=lambda t: costs.get(t, [0, 0, 0, 0]))
        state.place(r, p, choice)
        room[choice] -= 1
        if not room[choice]:
            open_tables.remove(choice)


def _enforce_fixed(state: _State, rng: random.Random) -> None:
    problem = state.problem
    for r, tables in enumerate(state.tables):
        where = state.where[r]
        for p in range(problem.n):
            t = problem.fixed[p]
            if t < 0 or where[p] in (t, _BYE):
                continue
            movable = [q for q in tables[t] if problem.fixed[q] != t]
            _swap(state, r, p, rng.choice(movable))


def _swap(state: _State, r: int, p: int, q: int) -> list[tuple[int, int, int, int]]:
    """Swap two players at different tables; returns the changed pairs (a, b, before, after)."""
    where = state.where[r]
    tp, tq = where[p], where[q]
    a_table, b_table = state.tables[r][tp], state.tables[r][tq]
    a_table[a_table.index(p)] = q
    b_table[b_table.index(q)] = p
    where[p], where[q] = tq, tp
    changed = []
    for leaver, joiner, table in ((p, q, a_table), (q, p, b_table)):
        for x in table:
            if x != joiner:
                count = state.meet(leaver, x, -1)
                changed.append((leaver, x, count + 1, count))
                count = state.meet(joiner, x, 1)
                changed.append((joiner, x, count - 1, count))
    return changed


# --- local search ------------------------------------------------------------------------


class _Bag:
    """A set with O(1) add and discard whose items list allows O(1) random choice."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.position: dict[Any, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item: object) -> None:
        if item not in self.position:
            self.position[item] = len(self.items)
            self.items.append(item)

    def discard(self, item: object) -> None:
        i = self.position.pop(item, None)
        if i is None:
            return
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.position[last] = i


class _Search:
    """Simulated annealing over swaps of two players at different tables of one round.

    Moves start from a random *trouble*: a keep-apart pair sharing a table, or a pair that
    meets again, in a round where it shares a table. Each move is scored from the meeting
    counts of the at most 20 pairs it touches, never by a recount. Acceptance uses a convex
    pair energy that punishes a third meeting far more than a second; the seating kept is the
    best under the exact objective (clashes, most meetings, repeats, spread), which is
    maintained incrementally through a histogram of meeting counts.
    """

    def __init__(self, state: _State, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.problem = problem = state.problem
        self.repeats = _Bag()  # (round, a, b): a < b share a table in round and meet again
        self.clashes = _Bag()  # (round, a, b): a < b must be kept apart in round, yet are not
        fixed, meetings = problem.fixed, state.meetings
        for r, tables in enumerate(state.tables):
            for table in tables:
                for a, b in combinations(sorted(table), 2):
                    # Two players fixed to one table meet every round whatever we do.
                    if meetings[a][b] >= 2 and (fixed[a] < 0 or fixed[b] < 0):
                        self.repeats.add((r, a, b))
                for a, b in _clashes(problem, r, table):
                    self.clashes.add((r, min(a, b), max(a, b)))
        # A pair meets at most once per planned round, which bounds every count below.
        size = max(max(row) for row in problem.meetings) + problem.rounds + 2
        self.energy = [0, 0, *(_ENERGY_BASE ** (c - 2) * (c - 1) for c in range(2, size))]
        self.histogram = [0] * size
        self.repeat_total = self.spread_total = 0
        if self.repeats or self.clashes:
            self.histogram, self.repeat_total, self.spread_total = pair_counts(meetings, size)
        self.most = max((c for c, pairs in enumerate(self.histogram) if pairs), default=0)
        self.bound = _counting_bound(state)

    def objective(self) -> tuple[int, int, int, int]:
        return (len(self.clashes), self.most, self.repeat_total, self.spread_total)

    def anneal(self, steps: int) -> list[list[list[int]]]:
        """Returns the best seating seen in ``steps`` moves (or fewer, once it is optimal)."""
        state, fixed = self.state, self.problem.fixed
        uniform = self.rng.random
        clashes, repeats = self.clashes.items, self.repeats.items
        best, best_tables = self.objective(), state.snapshot()
        temperature = _HOT
        cooling = (_COLD / _HOT) ** (1 / max(1, steps))
        for _ in range(steps):
            temperature *= cooling
            if clashes and (not repeats or uniform() < 0.5):
                r, a, b = clashes[int(uniform() * len(clashes))]
            elif repeats:
                r, a, b = repeats[int(uniform() * len(repeats))]
            else:
                break
            if fixed[a] >= 0 or (fixed[b] < 0 and uniform() < 0.5):
                a, b = b, a
            p = a
            tables = state.tables[r]
            home = state.where[r][p]
            t = int(uniform() * (len(tables) - 1))
            t += t >= home
            there = tables[t]
            q = there[int(uniform() * len(there))]
            if fixed[p] >= 0 or fixed[q] >= 0:
                continue
            change = self._energy_change(tables[home], there, p, q)
            if self.problem.partners[r]:
                change += _CLASH_ENERGY * self._clash_change(r, p, q)
            if change > 0 and uniform() >= math.exp(-change / temperature):
                continue
            self._apply(r, p, q)
            current = self.objective()
            if current < best:
                best, best_tables = current, state.snapshot()
                if current[0] == 0 and current[1] <= self.bound[1] and current[2] <= self.bound[0]:
                    break
        return best_tables

    def repair_clashes(self) -> None:
        """Swap greedily while one swap lowers the clashes; the annealing may stop short."""
        state, fixed = self.state, self.problem.fixed
        while self.clashes:
            r, a, b = self.clashes.items[0]
            tables, where = state.tables[r], state.where[r]
            best: tuple[tuple[int, int], int, int] | None = None
            for p in (a, b):
                for t, there in enumerate(tables):
                    if fixed[p] >= 0 or t == where[p]:
                        continue
                    for q in there:
                        if fixed[q] < 0:
                            clashes = self._clash_change(r, p, q)
                            key = (clashes, self._energy_change(tables[where[p]], there, p, q))
                            if clashes < 0 and (best is None or key < best[0]):
                                best = (key, p, q)
            if best is None:
                return
            self._apply(r, best[1], best[2])

    def _energy_change(self, here: list[int], there: list[int], p: int, q: int) -> int:
        energy, row_p, row_q = self.energy, self.state.meetings[p], self.state.meetings[q]
        change = 0
        for x in here:
            if x != p:
                c = row_p[x]
                change += energy[c - 1] - energy[c]
                c = row_q[x]
                change += energy[c + 1] - energy[c]
        for y in there:
            if y != q:
                c = row_q[y]
                change += energy[c - 1] - energy[c]
                c = row_p[y]
                change += energy[c + 1] - energy[c]
        return change

    def _clash_change(self, r: int, p: int, q: int) -> int:
        partners, where = self.problem.partners[r], self.state.where[r]
        assert partners is not None
        home, t = where[p], where[q]
        change = -(q in partners[p])
        change -= sum(where[z] == home for z in partners[p])
        change += sum(where[z] == t for z in partners[p])
        change += sum(where[z] == home and z != p for z in partners[q])
        change -= sum(where[z] == t for z in partners[q])
        return change

    def _apply(self, r: int, p: int, q: int) -> None:
        state, histogram = self.state, self.histogram
        partners = self.problem.partners[r]
        for a, b, before, count in _swap(state, r, p, q):
            a, b = min(a, b), max(a, b)
            if before:
                histogram[before] -= 1
            if count:
                histogram[count] += 1
            if count > before:
                self.repeat_total += count >= 2
                self.spread_total += before
                if count >= 2:
                    self.repeats.add((r, a, b))
                if count == 2:
                    self._mark_other_rounds(r, a, b, self.repeats.add)
                if partners and b in partners[a]:
                    self.clashes.add((r, a, b))
            else:
                self.repeat_total -= before >= 2
                self.spread_total -= count
                self.repeats.discard((r, a, b))
                if count == 1:
                    self._mark_other_rounds(r, a, b, self.repeats.discard)
                if partners:
                    self.clashes.discard((r, a, b))
        if histogram[self.most + 1]:
            self.most += 1
        elif not histogram[self.most]:
            self.most -= 1

    def _mark_other_rounds(self, r: int, a: int, b: int, mark: Callable[[object], None]) -> None:
        for other, where in enumerate(self.state.where):
            if other != r and where[a] >= 0 and where[a] == where[b]:
                mark((other, a, b))


def _counting_bound(state: _State) -> tuple[int, int]:
    """The counting lower bounds (repeats, most meetings) over active players."""
    n = state.n
    seats = [sum(row) for row in state.problem.meetings]
    for tables in state.tables:
        for table in tables:
            for p in table:
                seats[p] += len(table) - 1
    forced = sum(max(0, s - (n - 1)) for s in seats)
    return ((forced + 1) // 2, max(-(-s // (n - 1)) for s in seats))


def _improve(state: _State, rng: random.Random, effort: float) -> None:
    problem = state.problem
    if len(problem.split) < 2:
        return
    search = _Search(state, rng)
    if not (search.repeats or search.clashes):
        return
    steps = min(_MAX_STEPS, int(effort * _STEPS_PER_SEAT * problem.n * problem.rounds))
    state.restore(search.anneal(steps))
    if search.clashes:
        search = _Search(state, rng)
        search.repair_clashes()


def _repeat_target(state: _State, search: _Search) -> tuple[int, int, int, int]:
    """The best (clashes, most meetings, repeats, spread) the seating could reach, as far
    as counting shows: the counting bounds, or the history's own repeats if higher."""
    history = state.problem.meetings
    history_repeats = sum(c - 1 for row in history for c in row if c > 1) // 2
    history_most = max(max(row) for row in history)
    repeats, most = search.bound
    return (0, max(most, history_most), max(repeats, history_repeats), 0)


def _search_conflicts(
    state: _State,
    rng: random.Random,
    effort: float,
    groups: list[int] | None,
    pattern: list[list[int]] | None,
    designed_seating: list[list[list[int]]] | None,
) -> None:
    """Tabu search (scoring.seating_search) while the seating is above its target.

    With design groups it first tries seatings in which every table holds one player of
    each group (as the design's rounds do), restarting from fresh ones; then it searches
    from the best seating so far with every swap allowed.
    """
    problem = state.problem
    seats = sum(problem.split) * problem.rounds
    budget = int(effort * min(_TABU_WORK, _TABU_WORK_PER_SEAT * seats))
    # Setting up the search counts every pair in every round; big fields do not need it.
    if len(problem.split) < 2 or problem.n * problem.n * problem.rounds * 8 > budget:
        return
    search = _Search(state, rng)
    target = search.objective()
    goal = _repeat_target(state, search)
    if target[:3] <= goal[:3]:
        return
    spent = 0
    if _can_rotate(problem):
        spent = int(_ROTATION_SHARE * budget)
        rotation = _rotating_seating(problem, rng, spent // _ROTATION_COST)
        if rotation is not None:
            state.restore(rotation)
            return
    best, best_tables = target, state.snapshot()
    attempt = _TRANSVERSAL_WORK_PER_SEAT * seats
    if pattern is not None and groups is not None and problem.rounds < len(pattern):
        limit = spent + _TRANSVERSAL_SHARE * (budget - spent)
        tried_design = False
        while spent < limit and best[:3] > goal[:3]:
            if not tried_design and designed_seating is not None:
                seating, tried_design = designed_seating, True
            elif any(map(any, problem.meetings)):
                break  # fresh seatings would ignore who has met: only the design's is tried
            else:
                seating = [
                    _shuffle_within_groups(problem, pattern, groups, rng)
                    for _ in range(problem.rounds)
                ]
            tabu = TabuSearch(
                seating,
                _meetings_of(problem, seating),
                problem.fixed,
                problem.partners,
                search.energy,
                rng,
                groups,
                problem.hard,
            )
            found = tabu.run(attempt, goal)
            # A seating with nothing to repair ends at once; count it as a whole attempt.
            spent += max(tabu.work, attempt)
            tabu.restore(found)
            if tabu.objective() < best and not _seats_hard_pair(problem, found):
                best, best_tables = tabu.objective(), found
    if best[:3] > goal[:3]:
        tabu = TabuSearch(
            best_tables,
            _meetings_of(problem, best_tables),
            problem.fixed,
            problem.partners,
            search.energy,
            rng,
            hard=problem.hard,
        )
        found = tabu.run(budget - spent, goal)
        tabu.restore(found)
        if tabu.objective() < best:
            best_tables = found
    state.restore(best_tables)


def _can_rotate(problem: _Problem) -> bool:
    """Whether rotating rounds apply: a fresh field at tables of one size k, no more than
    the tables (else every table of a second round meets a first-round table twice), no
    byes and no fixed tables."""
    k = problem.split[0]
    return not (
        problem.bye_count
        or problem.last_rounds
        or any(map(any, problem.meetings))
        or any(t >= 0 for t in problem.fixed)
        or any(size != k for size in problem.split)
        or k > len(problem.split)
    )


def _rotating_seating(
    problem: _Problem, rng: random.Random, budget: int
) -> list[list[list[int]]] | None:
    """Rounds that turn one base round (``seating_search.rotating_rounds``) within
    ``budget``; None if none was found or if no way of giving players the base round's
    places kept the keep-apart pairs apart."""
    split, n = problem.split, problem.n
    m, k = len(split), split[0]
    found = rotating_rounds(m, k, problem.rounds, rng, budget, _ROTATION_NODES)
    if found is None:
        return None
    table_of = [[0] * n for _ in found]
    for r, tables in enumerate(found):
        for t, table in enumerate(tables):
            for p in table:
                table_of[r][p] = t
    apart = [
        (r, a, b)
        for r, partners in enumerate(problem.partners)
        if partners is not None
        for a in range(n)
        for b in partners[a]
        if a < b
    ]
    place_of = list(range(n))
    rng.shuffle(place_of)

    def clashes() -> list[int]:
        return [
            p
            for r, a, b in apart
            if table_of[r][place_of[a]] == table_of[r][place_of[b]]
            for p in (a, b)
        ]

    for _ in range(_ROTATION_PLACINGS):
        clashing = clashes()
        if not clashing:
            player_at = [0] * n
            for p, place in enumerate(place_of):
                player_at[place] = p
            return [[[player_at[p] for p in table] for table in tables] for tables in found]
        # Min-conflicts: a clashing player trades places with whoever leaves fewest clashes.
        mover = clashing[rng.randrange(len(clashing))]
        best: list[int] = []
        fewest = len(clashing)
        for other in range(n):
            place_of[mover], place_of[other] = place_of[other], place_of[mover]
            count = len(clashes())
            place_of[mover], place_of[other] = place_of[other], place_of[mover]
            if count < fewest:
                best, fewest = [other], count
            elif count == fewest:
                best.append(other)
        other = best[rng.randrange(len(best))]
        place_of[mover], place_of[other] = place_of[other], place_of[mover]
    return None


def _seats_hard_pair(problem: _Problem, seating: list[list[list[int]]]) -> bool:
    hard = problem.hard
    return any(hard[a] & set(table) for tables in seating for table in tables for a in table)


def _meetings_of(problem: _Problem, seating: list[list[list[int]]]) -> list[list[int]]:
    meetings = [row[:] for row in problem.meetings]
    for tables in seating:
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[a][b] += 1
                meetings[b][a] += 1
    return meetings


def _transversal_round(state: _State, groups: list[int]) -> list[list[int]] | None:
    """A planned round in which every table holds at most one player of each group and
    every group but group 0 has a player at every table, with every fixed player at their
    table; None if there is none."""
    problem = state.problem
    count = max(groups) + 1
    for tables in state.tables:
        if any(not table for table in tables):
            continue
        seen = [[groups[p] for p in table] for table in tables]
        if all(len(set(g)) == len(g) and set(range(1, count)) <= set(g) for g in seen) and all(
            problem.fixed[p] < 0 or problem.fixed[p] == t
            for t, table in enumerate(tables)
            for p in table
        ):
            return [table[:] for table in tables]
    return None


def _shuffle_within_groups(
    problem: _Problem, pattern: list[list[int]], groups: list[int], rng: random.Random
) -> list[list[int]]:
    """``pattern`` with the movable players of each group dealt to its tables at random."""
    tables = [table[:] for table in pattern]
    seats: dict[int, list[tuple[int, int]]] = {}
    for t, table in enumerate(tables):
        for i, p in enumerate(table):
            if problem.fixed[p] < 0:
                seats.setdefault(groups[p], []).append((t, i))
    for group in sorted(seats):
        places = seats[group]
        members = [tables[t][i] for t, i in places]
        rng.shuffle(members)
        for (t, i), p in zip(places, members, strict=True):
            tables[t][i] = p
    return tables


# --- by standings ------------------------------------------------------------------------


def _fill_in_order(problem: _Problem, line: Sequence[int]) -> list[list[int]]:
    tables: list[list[int]] = [[] for _ in problem.split]
    for p in line:
        if problem.fixed[p] >= 0:
            tables[problem.fixed[p]].append(p)
    queue = iter(p for p in line if problem.fixed[p] < 0)
    for t, size in enumerate(problem.split):
        while len(tables[t]) < size:
            tables[t].append(next(queue))
    return tables


def _table_figures(problem: _Problem, table: Sequence[int]) -> tuple[int, int, int, int]:
    meetings = problem.meetings
    clashes = len(_clashes(problem, 0, table))
    most = repeats = spread = 0
    for a, b in combinations(table, 2):
        c = meetings[a][b] + 1
        most = max(most, c)
        repeats += c - 1
        spread += c * (c - 1) // 2
    return (clashes, most, repeats, spread)


def _combine(*figures: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (
        sum(f[0] for f in figures),
        max(f[1] for f in figures),
        sum(f[2] for f in figures),
        sum(f[3] for f in figures),
    )


def _trade_at_boundaries(problem: _Problem, tables: list[list[int]], rank: dict[int, int]) -> None:
    figures = [_table_figures(problem, t) for t in tables]
    history_figures = (0, max(max(row) for row in problem.meetings), 0, 0)
    moved = {p for p in rank if problem.fixed[p] >= 0}
    for t in range(len(tables) - 1):
        trades = 0
        while True:
            rest = _combine(history_figures, *figures[:t], *figures[t + 2 :])
            current = best = _combine(rest, figures[t], figures[t + 1])
            best_trade = None
            candidates = [
                (rank[q] - rank[p], p, q)
                for p in tables[t]
                for q in tables[t + 1]
                if p not in moved and q not in moved
            ]
            for _, p, q in sorted(candidates):
                upper = [q if x == p else x for x in tables[t]]
                lower = [p if x == q else x for x in tables[t + 1]]
                upper_figures = _table_figures(problem, upper)
                after = _combine(rest, upper_figures, _table_figures(problem, lower))
                if after < best and (not trades or after[0] < current[0]):
                    best, best_trade = after, (p, q, upper, lower)
            if best_trade is None:
                break
            p, q, tables[t], tables[t + 1] = best_trade
            figures[t] = _table_figures(problem, tables[t])
            figures[t + 1] = _table_figures(problem, tables[t + 1])
            moved.update((p, q))
            trades += 1


# --- output ------------------------------------------------------------------------------


def _finish(problem: _Problem, state: _State, request: SeatingRequest, rng: random.Random) -> Plan:
    orders = _seat_orders(problem, state.tables, rng)
    rounds = []
    for r, tables in enumerate(orders):
        seated = tuple(tuple(problem.ids[p] for p in table) for table in tables)
        byes = tuple(problem.ids[p] for p in range(problem.n) if state.where[r][p] == _BYE)
        rounds.append(RoundSeating(tables=seated, byes=byes))
    everyone = [*request.players, *(p for table in request.history for p in table)]
    return Plan(tuple(rounds), quality(rounds, request.history, everyone))


def _seat_orders(
    problem: _Problem, rounds: list[list[list[int]]], rng: random.Random
) -> list[list[list[int]]]:
    """Seat orders for every table: round by round, then once more with every other
    round known, as a table seated early cannot see who will deal first later."""
    seat_counts = [row[:] for row in problem.seat_counts]
    orders = [[_seat_order(table, seat_counts, rng) for table in tables] for tables in rounds]
    for _ in range(_SEAT_SWEEPS):
        for tables in orders:
            for t, table in enumerate(tables):
                for s, p in enumerate(table):
                    seat_counts[p][s] -= 1
                tables[t] = _seat_order(table, seat_counts, rng)
    return orders


def _seat_order(
    table: Sequence[int], seat_counts: list[list[int]], rng: random.Random
) -> list[int]:
    """The seat order of one table, the best of all orders (at most 720).

    A seat costs ``4 ** c`` for a player who has sat there ``c`` times, seat 1 (who deals
    first) ``64 ** c``: a third turn in seat 1 outweighs anything, then a third turn in any
    seat. Ties go to the first best order after a seeded shuffle.
    """
    players = list(table)
    rng.shuffle(players)
    cost = [
        [
            (_FIRST_SEAT_BASE if s == 0 else _SEAT_BASE) ** seat_counts[p][s]
            for s in range(len(players))
        ]
        for p in players
    ]
    seats = range(len(players))
    best = min(
        permutations(seats),
        key=lambda order: sum(cost[i][s] for i, s in zip(seats, order, strict=True)),
    )
    ordered: list[int] = [0] * len(players)
    for i, s in enumerate(best):
        ordered[s] = players[i]
        seat_counts[players[i]][s] += 1
    return ordered
