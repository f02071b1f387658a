"""Cumulative standings: tally, rank, and what decided each place.

Terms:

- *ranked*: a player with a result in every round that has at least one result. A player
  waiting for a result in a round others already have is listed after the ranked players,
  by name, with no rank (``rank`` None): their points lack a whole round, so any rank
  among the others would place them as if they had lost it. A round no table has a
  result for yet ranks nobody lower: it is not counted for anyone.
- *rank*, *tiebreak keys*, *decided by*: see ``scoring.ranking``; *tally*, *round total*
  and *adjustment*: see ``scoring.tallies``; *entrant*, *table play*: ``scoring.plays``.
- *rank after a round*: a player's rank, shared or not, and points in the standings over
  the rounds up to it; ``ranks_after_each_round`` makes every round's in one pass.

``compute_standings`` is the three steps in turn: ``scoring.tallies.tally_players``,
``scoring.ranking.rank_players`` and ``scoring.ranking.decided_by``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from scoring.plays import Entrant, PointsAdjustment, TablePlay, TableSums, scored_rounds, table_sums
from scoring.ranking import POINTS_KEY, decided_by, places_of, rank_players, validated_tiebreaks
from scoring.systems import ScoringSystem
from scoring.tallies import (
    Counts,
    add_adjustment,
    add_bye,
    add_table,
    is_waiting,
    tallies_of,
    tally_players,
)
from scoring.tiebreaks import DEFAULT_TIEBREAKS, Tally


@dataclass(frozen=True)
class StandingRow:
    # None for a player waiting for a result that others of the same round have.
    rank: int | None
    shared: bool
    key: Hashable
    name: str
    tally: Tally
    decided_by: str | None

    @property
    def points(self) -> int:
        return self.tally.points

    @property
    def deals(self) -> int:
        return self.tally.deals

    @property
    def last_in(self) -> int:
        return self.tally.last_in

    @property
    def table_wins(self) -> int:
        return self.tally.table_wins

    @property
    def best_round(self) -> int | None:
        return self.tally.best_round

    @property
    def opponents(self) -> int:
        return self.tally.opponents

    @property
    def rounds(self) -> tuple[int | None, ...]:
        return self.tally.rounds

    @property
    def waiting(self) -> tuple[int, ...]:
        """The rounds whose result at the player's table is not in yet."""
        return self.tally.waiting

    @property
    def ranked(self) -> bool:
        return self.rank is not None

    @property
    def has_result(self) -> bool:
        """Whether any round counted has a total for the player (a table's result or a
        bye): without one, the pages show no points rather than 0."""
        return any(total is not None for total in self.tally.rounds)


@dataclass(frozen=True)
class Standings:
    system: ScoringSystem
    tiebreaks: tuple[str, ...]
    round_numbers: tuple[int, ...]
    rows: tuple[StandingRow, ...]


def compute_standings(
    entrants: Iterable[Entrant],
    plays: Iterable[TablePlay | TableSums],
    system: ScoringSystem = ScoringSystem.WINNER_ADVANTAGE,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    round_numbers: Iterable[int] = (),
    byes: Iterable[tuple[int, Hashable]] = (),
    bye_points: int = 0,
    adjustments: Iterable[PointsAdjustment] = (),
) -> Standings:
    """Standings over every recorded deal, ranked by points then ``tiebreaks``.

    ``plays`` gives each table's deals (``TablePlay``, scored here under ``system``) or
    its sums already made (``TableSums``, e.g. by the database). ``round_numbers``
    lists rounds that exist even if nobody played them yet; rounds of ``plays`` are
    always included. ``byes`` lists ``(round number, player key)`` for players who sat
    out a round under the byes policy; each scores ``bye_points`` as that round's total
    (no deals, no table win, no opponents). ``adjustments`` are the penalties and awards
    of the rounds counted, each added to its round's total (see *adjustment* above).
    """
    tiebreaks = validated_tiebreaks(tiebreaks)
    entrants = list(entrants)
    ordered_rounds, tallies = tally_players(
        entrants, plays, system, round_numbers, byes, bye_points, adjustments
    )
    chain = (POINTS_KEY, *tiebreaks)
    scored = scored_rounds(plays)
    waiting = [e for e in entrants if is_waiting(tallies[e.key], scored)]
    apart = {e.key for e in waiting}
    ranked = rank_players([e for e in entrants if e.key not in apart], tallies, chain)
    rows = tuple(
        StandingRow(
            rank=place.rank,
            shared=place.shared,
            key=place.entrant.key,
            name=place.entrant.name,
            tally=place.tally,
            decided_by=decided_by(chain, above, place),
        )
        for place, above in zip(ranked, (None, *ranked), strict=False)
    ) + tuple(
        StandingRow(None, False, entrant.key, entrant.name, tallies[entrant.key], None)
        for entrant in sorted(waiting, key=_by_name)
    )
    return Standings(system, tiebreaks, ordered_rounds, rows)


def _by_name(entrant: Entrant) -> tuple[str, str, str]:
    return (entrant.name.casefold(), entrant.name, str(entrant.key))


@dataclass(frozen=True)
class RankAfter:
    """A player's place in the standings over the rounds up to ``round_number``."""

    round_number: int
    # None while the player waits for a result others of a round up to it have.
    rank: int | None
    shared: bool
    points: int


def ranks_after_each_round(
    entrants: Iterable[Entrant],
    plays: Iterable[TablePlay | TableSums],
    system: ScoringSystem = ScoringSystem.WINNER_ADVANTAGE,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    round_numbers: Iterable[int] = (),
    byes: Iterable[tuple[int, Hashable]] = (),
    bye_points: int = 0,
    adjustments: Iterable[PointsAdjustment] = (),
) -> dict[Hashable, tuple[RankAfter, ...]]:
    """Each entrant's rank after each round (the arguments are ``compute_standings``'s):
    the rounds are added one at a time to running tallies, and the field is ranked after
    each, so the work grows with the rounds, not with their square."""
    chain = (POINTS_KEY, *validated_tiebreaks(tiebreaks))
    entrants = list(entrants)
    tables_of: dict[int, list[TableSums]] = {}
    for play in plays:
        table = play if isinstance(play, TableSums) else table_sums(play, system)
        tables_of.setdefault(table.round_number, []).append(table)
    byes_of: dict[int, list[Hashable]] = {}
    for round_number, key in byes:
        byes_of.setdefault(round_number, []).append(key)
    adjustments_of: dict[int, list[PointsAdjustment]] = {}
    for adjustment in adjustments:
        adjustments_of.setdefault(adjustment.round_number, []).append(adjustment)
    ordered_rounds = tuple(
        sorted(set(round_numbers) | set(tables_of) | set(byes_of) | set(adjustments_of))
    )
    scored: set[int] = set()

    counts = {entrant.key: Counts() for entrant in entrants}
    tables: list[tuple[Hashable, ...]] = []
    history: dict[Hashable, list[RankAfter]] = {entrant.key: [] for entrant in entrants}
    for upto, round_number in enumerate(ordered_rounds, start=1):
        for table in tables_of.get(round_number, ()):
            add_table(counts, tables, table)
            if table.deals:
                scored.add(round_number)
        for key in byes_of.get(round_number, ()):
            add_bye(counts, round_number, key, bye_points)
        for adjustment in adjustments_of.get(round_number, ()):
            add_adjustment(counts, adjustment)
        tallies = tallies_of(counts, tables, ordered_rounds[:upto])
        places = places_of(
            {key: tally for key, tally in tallies.items() if not is_waiting(tally, scored)},
            chain,
        )
        for key, tally in tallies.items():
            rank, shared = places.get(key, (None, False))
            history[key].append(RankAfter(round_number, rank, shared, tally.points))
    return {key: tuple(ranks) for key, ranks in history.items()}
