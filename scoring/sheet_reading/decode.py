"""Decoding a sheet: the most probable reading of each deal that obeys the rules.

Terms:

- *box probabilities*: what the digit model says of one box, ``CLASSES`` numbers (the
  digits 0–9, then blank); of a tick box, the probability it is ticked.
- *cell*: one value of the sheet form (a seat's cards won, the left over, last in, a seat's
  place in the lying-down order), written in one or more boxes. A number's boxes hold its
  digits left to right; a blank box at either end is allowed (``_8``, ``8_`` and ``08`` all
  read 8) and a number with every box blank is no value.
- *consistent*: a reading of a deal that ``scoring.rules.validate_deal`` accepts: the
  counts even, the left over at least 2, counts and left over summing to 52, one last in
  among the seats still playing, seats that had left blank, and where the rules score it,
  the lying-down order numbering every other playing seat 1..k once.
- *posterior*: a cell's probability after decoding: the share, among every consistent
  reading of the deal (weighted by the product of its boxes' probabilities) and the deal
  left unplayed, of those in which the cell has the value decoded. It is exact: the sum
  over counts is a dynamic programme over partial sums, last in is enumerated, and the
  lying-down order over all permutations of the other seats (at most 7! = 5,040).
- *doubtful*: a cell whose posterior is under ``DOUBTFUL_BELOW``.

A deal whose every box is blank is not played (a table that stopped early): every value
None, nothing doubtful. A deal that no consistent reading explains (the weight of all
consistent readings together under ``CONSISTENT_AT_LEAST`` of the best reading of each
box on its own: a sum a scorer got wrong, or a box the model is sure of and wrong) keeps
its raw best guess in every cell, each doubtful: the decoder never forces a sheet into
shape behind the scorer's back.

The two thresholds and the probability floor were chosen on the benchmark (bench/photo.py,
docs/performance.md "Reading a photo"), never on the tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from scoring.rules import CARDS_IN_PACK

BLANK = 10
CLASSES = 11
# A cell is doubtful under this posterior. On bench/photo.py (docs/performance.md,
# "Reading a photo"), 0.8 doubled the silent errors for half the doubtful cells, 0.95 left
# a tenth of the cells doubtful for a few less: 0.9 keeps silent errors near 0.2 % with
# about 6 % of cells doubtful.
DOUBTFUL_BELOW = 0.9
# Under this share of the weight of the best reading of each box on its own (rules or not),
# no consistent reading explains the deal's boxes: left as read, all doubtful. A reading
# that overrules one box the model is sure of weighs about FLOOR / 11 / (1 - FLOOR) =
# 0.005 of it, one that overrules two 0.00002: so a deal one figure can mend is mended
# (and what it changed left doubtful by its posterior), a deal that needs two is the
# scorer's to look at. On the benchmark 0.001 to 0.003 read the most cells right with the
# fewest doubtful; 0.03 and over left a good share of the sheets as read.
CONSISTENT_AT_LEAST = 0.003
# Each box's probabilities are mixed with this much of "anything": the model is sometimes
# sure and wrong, and a reading must still be able to change such a box when the rest of
# the deal demands it. 0.05 read a little more right than 0.02 and 0.005 on the benchmark.
FLOOR = 0.05

Probs = NDArray[np.float64]
NONE = -1  # a cell's value "blank" in the value tables below
HALF = CARDS_IN_PACK // 2


@dataclass(frozen=True)
class SheetCell:
    """One value of the sheet form: ``field`` one of layout.FIELDS; ``seat`` None for
    ``left_over`` and ``last_in``."""

    deal: int
    field: str
    seat: int | None


@dataclass(frozen=True)
class SheetRules:
    """What the decoder must respect, from the app's facts of the table."""

    seats: int
    deals: int
    order_needed: bool
    absent: tuple[frozenset[int], ...]  # per deal (index deal - 1): seats that had left


@dataclass(frozen=True)
class DealReading:
    """One deal as read. ``laid_down`` is the order seats lay down, first out first (None
    where it is not read); a deal not played has every value None."""

    won: tuple[int | None, ...]
    last_in: int | None
    left_over: int | None
    laid_down: tuple[int, ...] | None

    @property
    def played(self) -> bool:
        return any(v is not None for v in self.won) or self.left_over is not None


@dataclass(frozen=True)
class DealBoxes:
    """The box probabilities of one deal. ``won``: per seat (index seat - 1) the digit
    boxes left to right; ``last_in``: per seat the probability its tick box is ticked, or
    (``last_in_ticks`` False) the digit boxes of the seat number; ``laid_down``: per seat
    its one place box, or None when the order is not read."""

    won: tuple[tuple[Probs, ...], ...]
    left_over: tuple[Probs, ...]
    last_in_ticks: tuple[float, ...] | None
    last_in_digits: tuple[Probs, ...] | None
    laid_down: tuple[tuple[Probs, ...], ...] | None


@dataclass(frozen=True)
class DealDecoding:
    deal: DealReading
    raw: DealReading  # each cell's best guess on its own, before decoding
    probability: dict[SheetCell, float]
    doubtful: tuple[SheetCell, ...]


@cache
def _spellings(boxes: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every way of filling ``boxes`` boxes that reads as a number or as nothing: the
    classes of each box (one row a spelling) and the value each row reads (NONE: blank)."""
    rows, values = [], []
    for row in itertools.product(range(CLASSES), repeat=boxes):
        written = [i for i, c in enumerate(row) if c != BLANK]
        if not written:
            rows.append(row)
            values.append(NONE)
        elif written == list(range(written[0], written[-1] + 1)):
            rows.append(row)
            values.append(int("".join(str(row[i]) for i in written)))
    return np.array(rows, dtype=np.int64), np.array(values, dtype=np.int64)


def floored(probs: Probs) -> Probs:
    return (1 - FLOOR) * probs + FLOOR / len(probs)


def value_probabilities(boxes: Sequence[Probs]) -> dict[int, float]:
    """The probability of each value the boxes can read (NONE: blank), summed over its
    spellings."""
    if not boxes:
        return {NONE: 1.0}
    rows, values = _spellings(len(boxes))
    stacked = np.stack([floored(np.asarray(b, dtype=np.float64)) for b in boxes])
    weights = np.prod(stacked[np.arange(len(boxes)), rows], axis=1)
    table: dict[int, float] = {}
    for value, weight in zip(values.tolist(), weights.tolist(), strict=True):
        table[value] = table.get(value, 0.0) + weight
    return table


def _best(table: dict[int, float]) -> int | None:
    value = max(table, key=lambda v: table[v])
    return None if value == NONE else value


def _halves(table: dict[int, float], least: int) -> Probs:
    """The weight of each even count 0..52 (index: count / 2), counts under ``least`` 0."""
    out = np.zeros(HALF + 1)
    for half in range(HALF + 1):
        if 2 * half >= least:
            out[half] = table.get(2 * half, 0.0)
    return out


def _counts(
    weights: list[Probs],
) -> tuple[float, list[int], list[Probs]]:
    """Over the cells' even counts summing to 52: the total weight, the best counts, and
    each cell's marginal weights (unnormalised), by forward and backward partial sums."""
    n = len(weights)
    # forward[i]: the weight of cells before i summing to each half total; behind[i]: of
    # cells i.. summing to each; best[i]: the best single reading of the cells before i.
    forward = [np.eye(1, HALF + 1)[0]]
    best = [np.eye(1, HALF + 1)[0]]
    choices = []
    totals = np.arange(HALF + 1)
    back = totals[:, None] - totals[None, :]  # back[t, j]: the rest when the cell takes j
    valid = back >= 0
    for w in weights:
        forward.append(np.convolve(forward[-1], w)[: HALF + 1])
        scored = np.where(valid, best[-1][np.clip(back, 0, HALF)] * w[None, :], 0.0)
        choices.append(scored.argmax(axis=1))
        best.append(scored.max(axis=1))
    behind = [np.eye(1, HALF + 1)[0]]
    for w in reversed(weights):
        behind.insert(0, np.convolve(w, behind[0])[: HALF + 1])
    marginals = []
    for i, w in enumerate(weights):
        around = np.convolve(forward[i], behind[i + 1])[: HALF + 1]
        marginals.append(w * around[::-1])
    halves = []
    total = HALF
    for i in range(n - 1, -1, -1):
        halves.append(int(choices[i][total]))
        total -= halves[-1]
    halves.reverse()
    return float(forward[n][HALF]), halves, marginals


@cache
def _permutations(k: int) -> NDArray[np.int64]:
    return np.array(list(itertools.permutations(range(k))), dtype=np.int64).reshape(-1, k)


def decode_deal(number: int, boxes: DealBoxes, rules: SheetRules) -> DealDecoding:
    """The decoded reading of deal ``number`` and each cell's posterior."""
    absent = rules.absent[number - 1] if number <= len(rules.absent) else frozenset()
    seats = rules.seats
    playing = [s for s in range(1, seats + 1) if s not in absent]
    won_tables = [value_probabilities(b) for b in boxes.won]
    left_table = value_probabilities(boxes.left_over)
    order = boxes.laid_down is not None and rules.order_needed
    place_tables = (
        [value_probabilities(b) for b in boxes.laid_down]
        if order and boxes.laid_down is not None
        else []
    )
    ticks = None if boxes.last_in_ticks is None else [_tick(p) for p in boxes.last_in_ticks]
    last_table = (
        value_probabilities(boxes.last_in_digits) if boxes.last_in_digits is not None else None
    )

    raw = _raw(won_tables, left_table, ticks, last_table, place_tables)
    cells = [SheetCell(number, "won", s) for s in playing] + [
        SheetCell(number, "left_over", None),
        SheetCell(number, "last_in", None),
    ]
    if order:
        cells += [SheetCell(number, "laid_down", s) for s in playing]

    # Every box blank: the deal not played.
    blank = float(np.prod([won_tables[s - 1].get(NONE, 0.0) for s in range(1, seats + 1)]))
    blank *= left_table.get(NONE, 0.0)
    if ticks is not None:
        blank *= float(np.prod([1 - p for p in ticks]))
    if last_table is not None:
        blank *= last_table.get(NONE, 0.0)
    for table in place_tables:
        blank *= table.get(NONE, 0.0)

    # The counts: absent seats blank, the others even, the left over >= 2, all to 52.
    fixed = float(np.prod([won_tables[s - 1].get(NONE, 0.0) for s in absent if s <= seats]))
    weights = [_halves(won_tables[s - 1], 0) for s in playing] + [_halves(left_table, 2)]
    count_mass, halves, marginals = _counts(weights)
    count_mass *= fixed

    # Last in and the lying-down order, over each seat that may be last in.
    last_mass, last_in, places, last_marginal, place_marginal = _last_and_order(
        seats, playing, absent, ticks, last_table, place_tables
    )

    valid = count_mass * last_mass
    # The weight of the best reading of each box on its own, rules or not: what the
    # consistent readings are measured against.
    unruled = float(np.prod([max(t.values()) for t in won_tables])) * max(left_table.values())
    if ticks is not None:
        unruled *= float(np.prod([max(p, 1 - p) for p in ticks]))
    if last_table is not None:
        unruled *= max(last_table.values())
    for table in place_tables:
        unruled *= max(table.values())
    if max(valid, blank) < CONSISTENT_AT_LEAST * unruled:
        return DealDecoding(
            raw, raw, dict.fromkeys(cells, 0.0), tuple(cells)
        )  # left as read, all doubtful
    if blank >= valid:
        share = blank / (blank + valid)
        nothing = DealReading(tuple(None for _ in range(seats)), None, None, None)
        probability = dict.fromkeys(cells, share)
        doubtful = tuple(c for c in cells if share < DOUBTFUL_BELOW)
        return DealDecoding(nothing, raw, probability, doubtful)

    played_share = valid / (blank + valid)
    won: list[int | None] = [None] * seats
    probability = {}
    for i, s in enumerate(playing):
        won[s - 1] = 2 * halves[i]
        probability[SheetCell(number, "won", s)] = (
            played_share * marginals[i][halves[i]] / max(count_mass / fixed, 1e-300)
        )
    probability[SheetCell(number, "left_over", None)] = (
        played_share * marginals[-1][halves[-1]] / max(count_mass / fixed, 1e-300)
    )
    probability[SheetCell(number, "last_in", None)] = played_share * last_marginal
    laid_down: tuple[int, ...] | None = None
    if order:
        laid_down = tuple(sorted((s for s in playing if places[s]), key=lambda s: places[s] or 0))
        for s in playing:
            probability[SheetCell(number, "laid_down", s)] = played_share * place_marginal[s]
    reading = DealReading(tuple(won), last_in, 2 * halves[-1], laid_down)
    doubtful = tuple(c for c in cells if probability[c] < DOUBTFUL_BELOW)
    return DealDecoding(reading, raw, probability, doubtful)


def _tick(p: float) -> float:
    return (1 - FLOOR) * p + FLOOR / 2


def _last_weights(
    seats: int, playing: list[int], ticks: list[float] | None, last_table: dict[int, float] | None
) -> dict[int, float]:
    """The weight of each playing seat being last in, from its tick boxes or digits."""
    if ticks is not None:
        none_ticked = float(np.prod([1 - p for p in ticks]))
        return {s: none_ticked / (1 - ticks[s - 1]) * ticks[s - 1] for s in playing}
    if last_table is not None:
        return {s: last_table.get(s, 0.0) for s in playing}
    return dict.fromkeys(playing, 1.0)


def _last_and_order(
    seats: int,
    playing: list[int],
    absent: frozenset[int],
    ticks: list[float] | None,
    last_table: dict[int, float] | None,
    place_tables: list[dict[int, float]],
) -> tuple[float, int, dict[int, int | None], float, dict[int, float]]:
    """Over every consistent last in and order: the total weight, the best last in, the
    best places (seat -> place, None for the last in), the best last in's posterior and
    each seat's decoded place's posterior."""
    last = _last_weights(seats, playing, ticks, last_table)
    if not place_tables:
        total = sum(last.values())
        best = max(playing, key=lambda s: last[s])
        return total, best, {}, last[best] / max(total, 1e-300), {}
    k = len(playing) - 1
    perms = _permutations(k)
    blanks_absent = float(np.prod([place_tables[s - 1].get(NONE, 0.0) for s in absent]))
    # mass[L]: weight of last in L with every order; joint[L][s][place]: marginals.
    mass: dict[int, float] = {}
    best_order: dict[int, tuple[float, NDArray[np.int64]]] = {}
    joint: dict[int, dict[int, NDArray[np.float64]]] = {}
    for candidate in playing:
        others = [s for s in playing if s != candidate]
        table = np.array(
            [[place_tables[s - 1].get(p, 0.0) for p in range(1, k + 1)] for s in others]
        )
        products = np.prod(table[np.arange(k), perms], axis=1) if k else np.ones(1)
        base = last[candidate] * place_tables[candidate - 1].get(NONE, 0.0) * blanks_absent
        mass[candidate] = base * float(products.sum())
        j = int(np.argmax(products))
        best_order[candidate] = (base * float(products[j]), perms[j] if k else perms[0])
        per_seat = {}
        for row, s in enumerate(others):
            m = np.zeros(k + 1)
            if k:
                np.add.at(m, perms[:, row] + 1, products * base)
            per_seat[s] = m
        per_seat[candidate] = np.zeros(k + 1)
        per_seat[candidate][0] = mass[candidate]
        joint[candidate] = per_seat
    total = sum(mass.values())
    best = max(playing, key=lambda s: best_order[s][0])
    others = [s for s in playing if s != best]
    places: dict[int, int | None] = {best: None}
    for row, s in enumerate(others):
        places[s] = int(best_order[best][1][row]) + 1
    marginal = {}
    for s in playing:
        index = places[s] or 0
        marginal[s] = sum(joint[c][s][index] for c in playing) / max(total, 1e-300)
    return total, best, places, mass[best] / max(total, 1e-300), marginal


def _raw(
    won_tables: list[dict[int, float]],
    left_table: dict[int, float],
    ticks: list[float] | None,
    last_table: dict[int, float] | None,
    place_tables: list[dict[int, float]],
) -> DealReading:
    """Each cell's best guess on its own."""
    if ticks is not None:
        ticked = [s for s, p in enumerate(ticks, start=1) if p >= 0.5]
        last_in = ticked[0] if len(ticked) == 1 else None
    else:
        last_in = _best(last_table) if last_table is not None else None
    laid_down = None
    if place_tables:
        places = {s: _best(t) for s, t in enumerate(place_tables, start=1)}
        laid_down = tuple(
            sorted((s for s, p in places.items() if p is not None), key=lambda s: places[s] or 0)
        )
    return DealReading(tuple(_best(t) for t in won_tables), last_in, _best(left_table), laid_down)
