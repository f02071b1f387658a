"""What the engine is asked and what it answers: the request, one seated round, the
quality figures and a plan; ``SeatingError`` for a request that cannot be seated.

Terms as in ``scoring.seating``. Inside the engine players are renamed 0..n-1 (*index
form*): a seating is then ``Rounds``, a list of rounds, each a list of tables, each a list
of players; ``Objective`` is (keep-apart clashes, most meetings, repeat meetings, spread),
compared as a tuple, smallest best.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from scoring.errors import UserError
from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE

PlayerId: TypeAlias = int | str
Table: TypeAlias = tuple[PlayerId, ...]
# Index form: players 0..n-1; a seating is rounds of tables of players.
Rounds: TypeAlias = list[list[list[int]]]
Objective: TypeAlias = tuple[int, int, int, int]

NORMAL_TABLE = 5
DEFAULT_SIZES: tuple[int, ...] = (4, 5, 6)
# Every table size some rule set seats: the rule sizes of a request that names none.
EVERY_SIZE: tuple[int, ...] = tuple(range(MIN_TABLE_SIZE, MAX_TABLE_SIZE + 1))


def sort_key(player: PlayerId) -> tuple[str, PlayerId]:
    """Players sort by type, then id, so ints and strings may be mixed."""
    return (type(player).__name__, player)


class SeatingError(UserError):
    """The players cannot be seated as asked; the message says why in organiser terms."""


@dataclass(frozen=True)
class SeatingRequest:
    """``sizes``: the table sizes the organiser allows; ``rule_sizes``: those the rules
    allow (``scoring.systems.allowed_sizes``), which ``sizes``, a chosen ``split`` and the
    table of three of last resort keep within."""

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
    rule_sizes: tuple[int, ...] = EVERY_SIZE


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
