"""The unital design: more repeat-free rounds than the cyclic design for m tables of
k = q + 1 when m * k = q**3 + 1 (28 players at fours: nine rounds), and fitting the
rounds already played onto it."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence

from scoring.seating.galois import galois_field
from scoring.seating.problem import UNSEATED, SeatingProblem
from scoring.seating.tuning import FIT_STEPS, FIT_TRIES, UNITAL_MAX_Q, UNITAL_NODES


@functools.cache
def unital_design(k: int, m: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every round of a repeat-free design for m tables of k = q + 1 when m * k = q**3 + 1
    (28 players at fours for q = 3: nine rounds, where the cyclic design gives seven):
    the points of the Hermitian curve x^(q+1) + y^(q+1) + z^(q+1) = 0 in the plane over
    GF(q²), its chords (q + 1 points each, any two points on exactly one) as tables, and
    a search for a split of the chords into rounds. () when the shape is not that, or the
    search finds no split within its limit."""
    q = k - 1
    field = galois_field(q * q) if 3 <= q <= UNITAL_MAX_Q and m * k == q**3 + 1 else None
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
    classes = _parallel_classes(chords, len(points), UNITAL_NODES)
    return _resolution(chords, classes, UNITAL_NODES) or ()


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


def unital_seating(
    problem: SeatingProblem, rng: random.Random, seed: int
) -> list[list[list[int]]] | None:
    """The rounds to play from the unital design (``unital_design``), its points given
    to players so that each round already played is a round of the design; the rounds
    to play are the design's other rounds. None when the field is not that shape, has
    players kept apart or at fixed tables, or its history does not fit the design
    (within a search limit)."""
    split = problem.split
    k, m = max(split), len(split)
    if (
        problem.bye_count
        or min(split) != k
        or any(t != UNSEATED for t in problem.fixed)
        or problem.keep_apart.any()
    ):
        return None
    design = unital_design(k, m)
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
    rounds used; None when none turns up within ``FIT_TRIES`` searches of ``FIT_STEPS``
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
    pair_round: dict[tuple[int, int], int] = {}
    for r, tables in enumerate(design):
        for table in tables:
            for a in table:
                for b in table:
                    pair_round[a, b] = r

    def design_round_of(a: int, b: int) -> int:
        return pair_round.get((a, b), -1)

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
        if steps > FIT_STEPS:
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
    for _ in range(FIT_TRIES):
        steps = 0
        if search():
            return dict(point_of), set(round_map.values())
    return None
