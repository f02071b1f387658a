"""The tiebreaks: one small class per key, and the registry that offers them.

Terms:

- *tally*: what the standings counted for one player (``Tally``); every tiebreak reads
  its figure from there.
- *adjustment*: a penalty or award in a round (``Adjusted``), added to that round's
  total. Each tiebreak says whether it counts them (``counts_adjustments``): those that
  read points or round totals do, those that count cards (``cards only``) do not.
- *tiebreak*: one way of ordering players, larger is better. Each carries its ``key``
  (what a tournament's settings and files store), its ``label`` (the words of the order
  in words, the settings and the projector's header), its ``column_label`` (a standings
  column's header, and the CSV's ``decided_by``), ``value`` (the figure a row shows in
  one cell), ``comparable`` (how it compares) and ``columns`` (what a standings table
  shows of it).
- *registry*: ``TIEBREAKS``, the keys an organiser may choose, in the order the settings
  offer them. ``points`` always comes first and is not among them (``POINTS``).
- *column*: one number column of the standings tables: a tiebreak's figure, or a round
  total (countback is shown as the round totals, latest round first).

Adding a tiebreak is one class with ``@register`` (and its worked example in the
tests): the settings, the ranking, the tables, the files and the words follow.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, TypeVar


@dataclass(frozen=True, slots=True)
class Adjusted:
    """A penalty (negative points) or an award counted in a tally: in a round's total, so
    in ``points`` and every key that reads the round totals, but in no key that counts
    cards (deals last in, table wins)."""

    round_number: int
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's facts over the rounds counted (see ``scoring.tallies``)."""

    points: int
    deals: int
    last_in: int
    table_wins: int
    opponents: int
    # Each round's total in round order; None for a round the player did not play, or
    # whose result at the player's table is not in yet (``waiting``).
    rounds: tuple[int | None, ...]
    # The rounds whose table the player sat at has no result yet (no deal recorded).
    waiting: tuple[int, ...] = ()
    # The penalties and awards counted in ``points`` and ``rounds``, in round order.
    adjustments: tuple[Adjusted, ...] = ()

    @property
    def adjustment_total(self) -> int:
        return sum(adjusted.points for adjusted in self.adjustments)

    @property
    def best_round(self) -> int | None:
        played = [total for total in self.rounds if total is not None]
        return max(played) if played else None


class Placed(Protocol):
    """A row of the standings as the tiebreaks see it (``scoring.standings.StandingRow``)."""

    @property
    def tally(self) -> Tally: ...

    @property
    def decided_by(self) -> str | None: ...


@dataclass(frozen=True)
class Column:
    """A number column of the standings: ``name`` is the sort parameter and the record's
    field, ``label`` the header, ``title`` the header's tooltip. ``key`` is the
    tiebreak it shows, empty for a plain round total."""

    name: str
    label: str
    title: str
    key: str
    figure: Callable[[Tally], int | None]


class Tiebreak(ABC):
    """One key: by default a row shows ``value`` in one column named after the key,
    and no value ranks below any number."""

    key: ClassVar[str]
    label: ClassVar[str]
    # Countback is shown by the round totals, so the tables list them in its place.
    shows_rounds: ClassVar[bool] = False
    # Whether penalties and awards move its figure (docs/standings.md says which do).
    counts_adjustments: ClassVar[bool] = True

    @property
    def column_label(self) -> str:
        return self.label.capitalize()

    @abstractmethod
    def value(self, tally: Tally) -> int | None: ...

    def comparable(self, tally: Tally) -> tuple[int, ...]:
        value = self.value(tally)
        return (0,) if value is None else (1, value)

    def columns(self, round_numbers: Sequence[int]) -> list[Column]:
        return [Column(self.key, self.column_label, self.label, self.key, self.value)]

    def decided_column(self, row: Placed, above: Placed, round_numbers: Sequence[int]) -> str:
        """The name of the column whose value placed ``row`` below ``above``."""
        return self.key

    def decided_words(self, row: Placed, above: Placed, round_numbers: Sequence[int]) -> str:
        """What placed ``row`` below ``above``, as the column headers say it."""
        return self.column_label


TIEBREAKS: dict[str, Tiebreak] = {}
_Class = TypeVar("_Class", bound=type[Tiebreak])


def register(cls: _Class) -> _Class:
    """Offer the tiebreak ``cls`` (a class decorator); the settings list it last."""
    if cls.key in TIEBREAKS or cls.key == Points.key:
        raise ValueError(f"a tiebreak with the key {cls.key!r} is registered already")
    TIEBREAKS[cls.key] = cls()
    return cls


class Points(Tiebreak):
    key = "points"
    label = "points"

    def value(self, tally: Tally) -> int:
        return tally.points


POINTS = Points()


@register
class LastIn(Tiebreak):
    """Deals the player finished last in."""

    key = "last_in"
    label = "deals last in"
    counts_adjustments = False

    def value(self, tally: Tally) -> int:
        return tally.last_in


@register
class TableWins(Tiebreak):
    """Rounds in which the player's points at their table were the highest there (a
    shared top counts for everyone sharing it; a table with no deals has no winner).
    The cards decide: a penalty or award does not make or unmake a table winner."""

    key = "table_wins"
    label = "table wins"
    counts_adjustments = False

    def value(self, tally: Tally) -> int:
        return tally.table_wins


@register
class Countback(Tiebreak):
    """Round totals compared from the latest round backwards, the first difference
    decides; a round not played counts 0. One cell shows the latest round's total."""

    key = "countback"
    label = "countback (latest round first)"
    shows_rounds = True

    def value(self, tally: Tally) -> int | None:
        return tally.rounds[-1] if tally.rounds else None

    def comparable(self, tally: Tally) -> tuple[int, ...]:
        return tuple(total or 0 for total in reversed(tally.rounds))

    def columns(self, round_numbers: Sequence[int]) -> list[Column]:
        return [
            Column(f"round_{n}", f"R{n}", f"Countback: round {n} total", self.key, figure)
            for n, figure in round_figures(round_numbers)
        ]

    def decided_column(self, row: Placed, above: Placed, round_numbers: Sequence[int]) -> str:
        number = self.deciding_round(row, above, round_numbers)
        return f"round_{number}"

    def decided_words(self, row: Placed, above: Placed, round_numbers: Sequence[int]) -> str:
        number = self.deciding_round(row, above, round_numbers)
        return f"R{number} (countback)" if number is not None else "Countback"

    @staticmethod
    def deciding_round(row: Placed, above: Placed, round_numbers: Sequence[int]) -> int | None:
        """The latest round in which the two totals differ (a round not played counts 0)."""
        latest_first = zip(
            reversed(round_numbers),
            reversed(row.tally.rounds),
            reversed(above.tally.rounds),
            strict=True,
        )
        return next(
            (number for number, mine, theirs in latest_first if (mine or 0) != (theirs or 0)),
            None,
        )


@register
class BestRound(Tiebreak):
    """The highest single-round total, over rounds played."""

    key = "best_round"
    label = "best round"

    def value(self, tally: Tally) -> int | None:
        return tally.best_round


@register
class Opponents(Tiebreak):
    """Strength of field: the final total points of each opponent met, summed over
    every round."""

    key = "opponents"
    label = "opponents' points"

    def value(self, tally: Tally) -> int:
        return tally.opponents


DEFAULT_TIEBREAKS: tuple[str, ...] = (LastIn.key, TableWins.key, Countback.key)


def tiebreak(key: str) -> Tiebreak:
    """The tiebreak of ``key``, points included."""
    return POINTS if key == POINTS.key else TIEBREAKS[key]


def order_in_words(keys: Sequence[str], joiner: str = ", then ") -> str:
    """The ranking order in words, points first: "points, then deals last in, …"."""
    return joiner.join(tiebreak(key).label for key in (POINTS.key, *keys))


def round_figures(
    round_numbers: Sequence[int],
) -> list[tuple[int, Callable[[Tally], int | None]]]:
    """Each round number with the function reading that round's total from a tally."""

    def total_of(index: int) -> Callable[[Tally], int | None]:
        return lambda tally: tally.rounds[index]

    return [(number, total_of(index)) for index, number in enumerate(round_numbers)]


def standings_columns(keys: Sequence[str], round_numbers: Sequence[int]) -> list[Column]:
    """The number columns after points and deals: each tiebreak's in the tournament's
    order; without a tiebreak that shows the round totals, they come last in round
    order."""
    chosen = [TIEBREAKS[key] for key in keys]
    columns = [column for tb in chosen for column in tb.columns(round_numbers)]
    if not any(tb.shows_rounds for tb in chosen):
        columns += [
            Column(f"round_{n}", f"R{n}", f"Round {n} total", "", figure)
            for n, figure in round_figures(round_numbers)
        ]
    return columns


def decided_column(row: Placed, above: Placed | None, round_numbers: Sequence[int]) -> str | None:
    """The column to highlight in ``row``: the value that placed it below ``above``
    (none for a difference in points, which needs no pointing out)."""
    if above is None or row.decided_by is None or row.decided_by == POINTS.key:
        return None
    return TIEBREAKS[row.decided_by].decided_column(row, above, round_numbers)


def decided_words(row: Placed, above: Placed | None, round_numbers: Sequence[int]) -> str:
    """What placed ``row`` below ``above`` in the words of the column headers ("Deals
    last in", "R3 (countback)"); empty for the first row and a shared rank."""
    if above is None or row.decided_by is None:
        return ""
    return tiebreak(row.decided_by).decided_words(row, above, round_numbers)


def one_figure_tiebreaks() -> list[Tiebreak]:
    """The tiebreaks shown as one figure of their own (a file's column, a sortable column
    of the standings), in the registry's order. Countback is not among them: the round
    totals, always listed, show it."""
    return [tb for tb in TIEBREAKS.values() if not tb.shows_rounds]


def tiebreak_keys() -> tuple[str, ...]:
    """The keys an organiser may choose, in the order offered."""
    return tuple(TIEBREAKS)
