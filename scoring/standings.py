"""Cumulative standings and the tiebreak chain.

Terms:

- *entrant*: a player of the tournament, known by a ``key`` (any hashable id).
- *table play*: one table in one round: who sat where and the deals recorded there.
- *round total*: a player's points over the deals of their table in one round. A player
  who was not seated in a round did not play it (``None``); one seated at a table with no
  deals recorded yet has 0.
- *tiebreak keys* (larger is better for every key):
  ``points``       total points (always first; net units under classic stakes);
  ``last_in``      deals the player finished last in;
  ``table_wins``   rounds in which the player's round total was the highest at their
                   table (a shared top counts for everyone sharing it; a table with no
                   deals recorded has no winner);
  ``countback``    round totals compared from the latest round backwards, the first
                   difference decides (a round not played counts 0);
  ``best_round``   the highest single-round total (over rounds played);
  ``opponents``    strength of field: over every round, the sum of the final total
                   points of each opponent at the player's table.
- *rank*: players equal on every key share a rank and the next rank skips (1, 2, 2, 4);
  within a shared rank players are listed by name.
- *decided by*: the first key on which a player differs from the player listed just above
  (None for the first row and for a shared rank): why A is above B.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from scoring.errors import UserError
from scoring.rules import Deal, dealer_of
from scoring.systems import ScoringSystem, score_deal

POINTS = "points"
TIEBREAK_KEYS: tuple[str, ...] = ("last_in", "table_wins", "countback", "best_round", "opponents")
DEFAULT_TIEBREAKS: tuple[str, ...] = ("last_in", "table_wins", "countback")
TIEBREAK_LABELS: dict[str, str] = {
    "points": "points",
    "last_in": "deals last in",
    "table_wins": "table wins",
    "countback": "countback (latest round first)",
    "best_round": "best round",
    "opponents": "opponents' points",
}


def check_tiebreaks(keys: Sequence[object]) -> list[str]:
    """Problems with a tiebreak order (the keys after ``points``), as messages."""
    problems = []
    seen: set[object] = set()
    for position, key in enumerate(keys, start=1):
        if key == POINTS:
            problems.append(
                f"tiebreak {position}: points always comes first; list only the keys after it"
            )
        elif key not in TIEBREAK_KEYS:
            known = ", ".join(TIEBREAK_KEYS)
            problems.append(f"tiebreak {position}: unknown key {key!r} (known keys: {known})")
        elif key in seen:
            problems.append(f"tiebreak {position}: {key!r} is listed twice")
        seen.add(key)
    return problems


def validated_tiebreaks(keys: Sequence[object]) -> tuple[str, ...]:
    problems = check_tiebreaks(keys)
    if problems:
        raise UserError("; ".join(problems))
    return tuple(str(k) for k in keys)


@dataclass(frozen=True)
class Entrant:
    key: Hashable
    name: str


@dataclass(frozen=True)
class TablePlay:
    round_number: int
    seats: tuple[Hashable, ...]
    # (deal number, deal) pairs; the number decides the dealer.
    deals: tuple[tuple[int, Deal], ...] = ()


@dataclass(frozen=True)
class TableResult:
    """One table in one round, summed: each seat's points and deals last in, in seat
    order, over the ``deals`` recorded there."""

    round_number: int
    seats: tuple[Hashable, ...]
    points: tuple[int, ...]
    last_in: tuple[int, ...]
    deals: int


def table_result(play: TablePlay, system: ScoringSystem) -> TableResult:
    """Score every deal of a table play and sum it per seat."""
    size = len(play.seats)
    points = [0] * size
    last_in = [0] * size
    for number, deal in play.deals:
        for index, value in enumerate(score_deal(deal, dealer_of(number, size), system)):
            points[index] += value
        last_in[deal.last_in - 1] += 1
    return TableResult(
        play.round_number, play.seats, tuple(points), tuple(last_in), len(play.deals)
    )


@dataclass(frozen=True)
class StandingRow:
    rank: int
    shared: bool
    key: Hashable
    name: str
    points: int
    deals: int
    last_in: int
    table_wins: int
    best_round: int | None
    opponents: int
    rounds: tuple[int | None, ...]
    decided_by: str | None

    def value(self, key: str) -> object:
        """The value this row shows for a tiebreak key (countback shows the round totals)."""
        return self.rounds if key == "countback" else getattr(self, key)


@dataclass(frozen=True)
class Standings:
    system: ScoringSystem
    tiebreaks: tuple[str, ...]
    round_numbers: tuple[int, ...]
    rows: tuple[StandingRow, ...]


@dataclass
class _Tally:
    points: int = 0
    deals: int = 0
    last_in: int = 0
    table_wins: int = 0
    by_round: dict[int, int] = field(default_factory=dict)
    # Where the player sat: an index into the tables' seats, once per seat taken.
    tables: list[int] = field(default_factory=list)


def compute_standings(
    entrants: Iterable[Entrant],
    plays: Iterable[TablePlay | TableResult],
    system: ScoringSystem = ScoringSystem.WINNER_ADVANTAGE,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    round_numbers: Iterable[int] = (),
    byes: Iterable[tuple[int, Hashable]] = (),
    bye_points: int = 0,
) -> Standings:
    """Standings over every recorded deal, ranked by points then ``tiebreaks``.

    ``plays`` gives each table's deals (``TablePlay``, scored here under ``system``) or
    its sums already made (``TableResult``, e.g. by the database). ``round_numbers``
    lists rounds that exist even if nobody played them yet; rounds of ``plays`` are
    always included. ``byes`` lists ``(round number, player key)`` for players who sat
    out a round under the byes policy; each scores ``bye_points`` as that round's total
    (no deals, no table win, no opponents).
    """
    tiebreaks = validated_tiebreaks(tiebreaks)
    entrants = list(entrants)
    tallies = {entrant.key: _Tally() for entrant in entrants}
    rounds = set(round_numbers)
    tables: list[tuple[Hashable, ...]] = []

    for play in plays:
        table = play if isinstance(play, TableResult) else table_result(play, system)
        rounds.add(table.round_number)
        top = max(table.points) if table.deals else None
        where = len(tables)
        tables.append(table.seats)
        for index, key in enumerate(table.seats):
            tally = tallies[key]
            total = table.points[index]
            tally.points += total
            tally.deals += table.deals
            tally.last_in += table.last_in[index]
            tally.by_round[table.round_number] = tally.by_round.get(table.round_number, 0) + total
            tally.tables.append(where)
            if total == top:
                tally.table_wins += 1

    for round_number, key in byes:
        rounds.add(round_number)
        tally = tallies[key]
        tally.points += bye_points
        tally.by_round[round_number] = tally.by_round.get(round_number, 0) + bye_points

    # A player's opponents' points at a table: everyone's final points there but their own.
    table_points = [sum(tallies[key].points for key in seats) for seats in tables]
    ordered_rounds = tuple(sorted(rounds))
    chain = (POINTS, *tiebreaks)
    ranked = []
    for entrant in entrants:
        tally = tallies[entrant.key]
        per_round = tuple(tally.by_round.get(number) for number in ordered_rounds)
        played = [total for total in per_round if total is not None]
        figures = _Figures(
            points=tally.points,
            last_in=tally.last_in,
            table_wins=tally.table_wins,
            best_round=max(played) if played else None,
            opponents=sum(table_points[where] for where in tally.tables)
            - tally.points * len(tally.tables),
            rounds=per_round,
        )
        values = tuple(_comparable(key, figures) for key in chain)
        # Best first; then by name, the same way every time.
        order = (
            tuple(tuple(-v for v in value) for value in values),
            entrant.name.casefold(),
            entrant.name,
            str(entrant.key),
        )
        ranked.append((order, values, entrant, tally, figures))
    ranked.sort(key=lambda entry: entry[0])

    rows = []
    above: tuple[tuple[int, ...], ...] | None = None
    rank = 0
    for position, (_, values, entrant, tally, figures) in enumerate(ranked, start=1):
        by = (
            None
            if above is None
            else next((k for k, a, b in zip(chain, above, values, strict=True) if a != b), None)
        )
        if above is None or by is not None:
            rank = position
        above = values
        rows.append((rank, by, entrant, tally, figures))
    sizes = Counter(rank for rank, *_ in rows)
    return Standings(
        system,
        tiebreaks,
        ordered_rounds,
        tuple(
            StandingRow(
                rank=rank,
                shared=sizes[rank] > 1,
                key=entrant.key,
                name=entrant.name,
                points=figures.points,
                deals=tally.deals,
                last_in=figures.last_in,
                table_wins=figures.table_wins,
                best_round=figures.best_round,
                opponents=figures.opponents,
                rounds=figures.rounds,
                decided_by=by,
            )
            for rank, by, entrant, tally, figures in rows
        ),
    )


@dataclass(frozen=True, slots=True)
class _Figures:
    """What the tiebreak keys compare of one player."""

    points: int
    last_in: int
    table_wins: int
    best_round: int | None
    opponents: int
    rounds: tuple[int | None, ...]


def _comparable(key: str, figures: _Figures) -> tuple[int, ...]:
    """A key's value as a tuple where larger is better: countback is the round totals
    from the latest round back, a round not played counting 0; no best round ranks below
    any number."""
    if key == "countback":
        return tuple(total or 0 for total in reversed(figures.rounds))
    if key == "best_round":
        return (0,) if figures.best_round is None else (1, figures.best_round)
    value = getattr(figures, key)
    assert isinstance(value, int)
    return (value,)


def countback_round(
    row: StandingRow, above: StandingRow | None, round_numbers: Sequence[int]
) -> int | None:
    """The round whose total placed ``row`` below ``above`` by countback: the latest
    round in which their totals differ (a round not played counts 0)."""
    if above is None or row.decided_by != "countback":
        return None
    latest_first = zip(
        reversed(round_numbers), reversed(row.rounds), reversed(above.rounds), strict=True
    )
    return next(
        (number for number, mine, theirs in latest_first if (mine or 0) != (theirs or 0)), None
    )
