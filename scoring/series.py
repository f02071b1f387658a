"""Series scoring: what a tournament is worth to a person in a series, and the series
ranking. Pure Python; exact ``Fraction`` values throughout, rounded only to show.

Terms:

- *placing*: a person's result in one tournament's public standings (``Placing``): their
  rank, how many players share it (1 when nobody else does), the field ``N`` (the rows
  of those standings) and their tournament points.
- *scheme*: how a placing becomes series points; one class per scheme with its ``key``
  and ``label``, chosen from the registry ``SCHEMES`` by key:

  - ``field-share``: 100 × (players ranked below + ½ × others sharing the rank) / (N − 1);
    a tournament of one player gives 0;
  - ``placing``: points by place from a list; players sharing places split those places'
    points equally; places beyond the list score 0;
  - ``tournament-points``: the tournament points total.

- *counted*: each person's best ``count_best`` results (None: all of them); at a tie on
  the cut the earlier tournament counts.
- *series ranking*: counted points, then more events, then the best single result; equal
  on all three share a rank (1, 2, 2, 4), listed by name key within it. People with fewer
  than ``min_events`` events come after the ranked ones, unranked (rank None).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from scoring.errors import UserError

DEFAULT_PLACING = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


@dataclass(frozen=True, slots=True)
class Placing:
    rank: int
    sharing: int
    field: int
    tournament_points: Fraction

    def __post_init__(self) -> None:
        last_place = self.rank + self.sharing - 1
        if self.rank < 1 or self.sharing < 1 or last_place > self.field:
            raise ValueError(f"impossible placing {self!r}")


class Scheme(ABC):
    key: ClassVar[str]
    label: ClassVar[str]

    @abstractmethod
    def points(self, placing: Placing, table: Sequence[int]) -> Fraction:
        """Series points of ``placing``; ``table`` is the placing list (only the
        ``placing`` scheme reads it)."""


SCHEMES: dict[str, Scheme] = {}


def register(cls: type[Scheme]) -> type[Scheme]:
    SCHEMES[cls.key] = cls()
    return cls


@register
class FieldShare(Scheme):
    key = "field-share"
    label = "Field share: the share of the field finishing below"

    def points(self, placing: Placing, table: Sequence[int]) -> Fraction:
        if placing.field == 1:
            return Fraction(0)
        below = placing.field - (placing.rank - 1) - placing.sharing
        return 100 * (below + Fraction(placing.sharing - 1, 2)) / (placing.field - 1)


@register
class PlacingPoints(Scheme):
    key = "placing"
    label = "Placing: points by place from a list"

    def points(self, placing: Placing, table: Sequence[int]) -> Fraction:
        covered = range(placing.rank, placing.rank + placing.sharing)
        total = sum((table[place - 1] for place in covered if place <= len(table)), 0)
        return Fraction(total, placing.sharing)


@register
class TournamentPoints(Scheme):
    key = "tournament-points"
    label = "Tournament points: the tournament's own total"

    def points(self, placing: Placing, table: Sequence[int]) -> Fraction:
        return placing.tournament_points


def scheme(key: str) -> Scheme:
    try:
        return SCHEMES[key]
    except KeyError:
        known = ", ".join(SCHEMES)
        raise UserError(f"unknown scheme “{key}” (known schemes: {known})") from None


# More places than any field has players would only be typing; points beyond any
# series' needs are a slip of the keyboard.
PLACING_MAX = 1000
POINTS_MAX = 100_000


def parse_placing(text: str) -> tuple[int, ...]:
    """A placing list as typed ("25, 18, 15", "25; 18; 15…"): whole numbers from 0 to
    ``POINTS_MAX``, from 1st place down (a later place never scores more); a trailing
    comma or "…" is allowed, since the places after the list score 0 anyway. Each
    problem is a ``UserError`` naming the place."""
    parts = [part.strip() for part in text.replace(";", ",").split(",")]
    if len(parts) > 1 and parts[-1] in {"", "…", "..."}:
        parts.pop()
    if parts == [""]:
        raise UserError("the placing list is empty: give the points of 1st place at least")
    if len(parts) > PLACING_MAX:
        raise UserError(f"at most {PLACING_MAX} places; the later ones score 0")
    values: list[int] = []
    for place, typed in enumerate(parts, start=1):
        part = typed.rstrip("….").strip() if place == len(parts) else typed
        if not part:
            raise UserError(f"place {place}: no points given")
        # ASCII digits only: "²".isdigit() is true, but it is no number of points.
        if not (part.isascii() and part.isdigit()) or int(part) > POINTS_MAX:
            raise UserError(
                f"place {place}: “{part}” is not a whole number of points from 0 to {POINTS_MAX}"
            )
        if values and int(part) > values[-1]:
            raise UserError(
                f"place {place}: {part} points is more than place {place - 1}'s {values[-1]}; "
                "list the points from 1st place down"
            )
        values.append(int(part))
    return tuple(values)


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The sum of ``values``, adding the numerators of each denominator first: series
    points share a handful of denominators, and adding fractions one by one spends its
    time on greatest common divisors."""
    by_denominator: dict[int, int] = {}
    for value in values:
        by_denominator[value.denominator] = (
            by_denominator.get(value.denominator, 0) + value.numerator
        )
    return sum(
        (Fraction(numerator, denominator) for denominator, numerator in by_denominator.items()),
        Fraction(0),
    )


def counted_flags(points: Sequence[Fraction], count_best: int | None) -> tuple[bool, ...]:
    """Which results count: the best ``count_best`` (all when None), the earlier
    tournament first at a tie on the cut. ``points`` are in tournament order."""
    if count_best is None or count_best >= len(points):
        return tuple(True for _ in points)
    best = sorted(range(len(points)), key=lambda index: (-points[index], index))[:count_best]
    chosen = set(best)
    return tuple(index in chosen for index in range(len(points)))


@dataclass(frozen=True, slots=True)
class SeriesEntry:
    """A person's results in a series, in tournament order."""

    key: Hashable
    name_key: str
    points: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class RankedEntry:
    key: Hashable
    rank: int | None
    shared: bool
    total: Fraction
    events: int
    best: Fraction
    counted: tuple[bool, ...]


def rank_series(
    entries: Sequence[SeriesEntry], count_best: int | None, min_events: int
) -> list[RankedEntry]:
    """The series ranking (see the module's docstring): ranked entries first, then the
    unranked, each in ranking order."""
    scored = []
    for entry in entries:
        flags = counted_flags(entry.points, count_best)
        total = exact_sum(p for p, c in zip(entry.points, flags, strict=True) if c)
        best = max(entry.points, default=Fraction(0))
        scored.append((entry, flags, total, len(entry.points), best))
    scored.sort(key=lambda item: (-item[2], -item[3], -item[4], item[0].name_key))
    ranked = [item for item in scored if item[3] >= min_events]
    unranked = [item for item in scored if item[3] < min_events]
    rows = []
    previous: tuple[Fraction, int, Fraction] | None = None
    rank = 0
    order = {id(item): position for position, item in enumerate(ranked, start=1)}
    counts: dict[tuple[Fraction, int, Fraction], int] = {}
    for item in ranked:
        merit = (item[2], item[3], item[4])
        counts[merit] = counts.get(merit, 0) + 1
    for item in ranked:
        merit = (item[2], item[3], item[4])
        if merit != previous:
            rank = order[id(item)]
            previous = merit
        entry, flags, total, events, best = item
        rows.append(RankedEntry(entry.key, rank, counts[merit] > 1, total, events, best, flags))
    for entry, flags, total, events, best in unranked:
        rows.append(RankedEntry(entry.key, None, False, total, events, best, flags))
    return rows
