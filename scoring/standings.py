"""Cumulative standings: tally, rank, and what decided each place.

Terms:

- *entrant*: a player of the tournament, known by a ``key`` (any hashable id).
- *table play*: one table in one round: who sat where and the deals recorded there.
- *round total*: a player's points over the deals of their table in one round. A player
  who was not seated in a round did not play it (``None``).
- *no result yet*: a table with no deal recorded yet. Its players have no total for that
  round (``None``, the round listed in their tally's ``waiting``); the table adds no
  deals, table win or opponents to anyone.
- *ranked*: a player with a result in every round that has at least one result. A player
  waiting for a result in a round others already have is listed after the ranked players,
  by name, with no rank (``rank`` None): their points lack a whole round, so any rank
  among the others would place them as if they had lost it. A round no table has a
  result for yet ranks nobody lower: it is not counted for anyone.
- *tally*: a player's facts over every round counted (``scoring.tiebreaks.Tally``):
  points, deals played, deals last in, table wins, opponents' points, round totals.
- *tiebreak keys*: ``points`` then the tournament's keys in order; each key is a class in
  ``scoring.tiebreaks`` (what it compares, larger is better, and what a row shows).
- *rank*: players equal on every key share a rank and the next rank skips (1, 2, 2, 4);
  within a shared rank players are listed by name. Only ranked players have one.
- *decided by*: the first key on which a player differs from the player listed just above
  (None for the first row and for a shared rank): why A is above B.

``compute_standings`` is the three steps in turn: ``tally_players``, ``rank_players`` and
``decided_by``.

The module is over 400 lines because the standings and the ranks after each round share
their private counting (``_Counts``, ``_add_table``, ``_tallies``, ``_places``, who waits
for a result): split, those would have to become public.

- *adjustment*: a penalty (negative points) or an award the organiser gives a player in
  a round (``PointsAdjustment``), in the tournament's scoring system: added to that
  round's total, so to ``points``, countback and best round, and to the player's points
  as their opponents' points count them; not to deals last in or table wins, which
  count cards. One for a round whose table has no result yet for the player waits with
  it: counted once the result is in. One for a round the player did not play is that
  round's total.
- *rank after a round*: a player's rank, shared or not, and points in the standings over
  the rounds up to it; ``ranks_after_each_round`` makes every round's in one pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter

from scoring.errors import UserError
from scoring.rules import DealFacts, Leave, dealer_at
from scoring.systems import ScoringSystem, score_deal
from scoring.tiebreaks import DEFAULT_TIEBREAKS, POINTS, TIEBREAKS, Adjusted, Tally, tiebreak

POINTS_KEY = POINTS.key


def check_tiebreaks(keys: Sequence[object]) -> list[str]:
    """Problems with a tiebreak order (the keys after ``points``), as messages."""
    problems = []
    seen: set[object] = set()
    for position, key in enumerate(keys, start=1):
        if key == POINTS_KEY:
            problems.append(
                f"tiebreak {position}: points always comes first; list only the keys after it"
            )
        elif key not in TIEBREAKS:
            known = ", ".join(TIEBREAKS)
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
    deals: tuple[tuple[int, DealFacts], ...] = ()
    # The seats that left the table part-way (their turns to deal are skipped).
    leaves: tuple[Leave, ...] = ()


@dataclass(frozen=True)
class PointsAdjustment:
    """A penalty (``points`` below 0) or an award for the entrant ``key`` in a round."""

    round_number: int
    key: Hashable
    points: int
    reason: str


@dataclass(frozen=True)
class TableSums:
    """One table in one round, summed: each seat's points and deals last in, in seat
    order, over the ``deals`` recorded there."""

    round_number: int
    seats: tuple[Hashable, ...]
    points: tuple[int, ...]
    last_in: tuple[int, ...]
    deals: int
    # Each seat's deals, when a seat left the table part-way; else every seat played
    # ``deals``.
    seat_deals: tuple[int, ...] = ()

    def deals_of(self, index: int) -> int:
        return self.seat_deals[index] if self.seat_deals else self.deals


def table_sums(play: TablePlay, system: ScoringSystem) -> TableSums:
    """Score every deal of a table play and sum it per seat."""
    size = len(play.seats)
    points = [0] * size
    last_in = [0] * size
    played = [0] * size
    for number, deal in play.deals:
        dealer = dealer_at(number, size, play.leaves)
        for index, value in enumerate(score_deal(deal, dealer, system)):
            points[index] += value
            played[index] += deal.won[index] is not None
        last_in[deal.last_in - 1] += 1
    return TableSums(
        play.round_number,
        play.seats,
        tuple(points),
        tuple(last_in),
        len(play.deals),
        tuple(played) if play.leaves else (),
    )


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
    waiting = [e for e in entrants if _is_waiting(tallies[e.key], scored)]
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


def scored_rounds(plays: Iterable[TablePlay | TableSums]) -> set[int]:
    """The rounds in which at least one table has a result (a deal recorded)."""
    return {play.round_number for play in plays if play.deals}


def _is_waiting(tally: Tally, scored: set[int]) -> bool:
    """Whether the player waits for a result in a round others already have one for."""
    return any(number in scored for number in tally.waiting)


Place = tuple[int, bool]  # a rank, and whether it is shared


@dataclass(frozen=True)
class RankAfter:
    """A player's place in the standings over the rounds up to ``round_number``."""

    round_number: int
    # None while the player waits for a result others of a round up to it have.
    rank: int | None
    shared: bool
    points: int


@dataclass
class _Counts:
    points: int = 0
    deals: int = 0
    last_in: int = 0
    table_wins: int = 0
    by_round: dict[int, int] = field(default_factory=dict)
    # Where the player sat: an index into the tables' seats, once per seat taken.
    tables: list[int] = field(default_factory=list)
    # The rounds whose table has no result yet.
    waiting: list[int] = field(default_factory=list)
    adjusted: list[Adjusted] = field(default_factory=list)


def tally_players(
    entrants: Sequence[Entrant],
    plays: Iterable[TablePlay | TableSums],
    system: ScoringSystem,
    round_numbers: Iterable[int] = (),
    byes: Iterable[tuple[int, Hashable]] = (),
    bye_points: int = 0,
    adjustments: Iterable[PointsAdjustment] = (),
) -> tuple[tuple[int, ...], dict[Hashable, Tally]]:
    """The rounds counted, in order, and each entrant's tally over them (the arguments
    are ``compute_standings``'s)."""
    counts = {entrant.key: _Counts() for entrant in entrants}
    rounds = set(round_numbers)
    tables: list[tuple[Hashable, ...]] = []

    for play in plays:
        table = play if isinstance(play, TableSums) else table_sums(play, system)
        rounds.add(table.round_number)
        _add_table(counts, tables, table)

    for round_number, key in byes:
        rounds.add(round_number)
        _add_bye(counts, round_number, key, bye_points)

    for adjustment in adjustments:
        rounds.add(adjustment.round_number)
        _add_adjustment(counts, adjustment)

    ordered_rounds = tuple(sorted(rounds))
    return ordered_rounds, _tallies(counts, tables, ordered_rounds)


def _add_table(
    counts: dict[Hashable, _Counts], tables: list[tuple[Hashable, ...]], table: TableSums
) -> None:
    if not table.deals:
        # No result yet: the seats wait for it, and nobody counts the table meanwhile.
        for key in table.seats:
            counts[key].waiting.append(table.round_number)
        return
    top = max(table.points)
    where = len(tables)
    tables.append(table.seats)
    for index, key in enumerate(table.seats):
        count = counts[key]
        total = table.points[index]
        count.points += total
        count.deals += table.deals_of(index)
        count.last_in += table.last_in[index]
        count.by_round[table.round_number] = count.by_round.get(table.round_number, 0) + total
        count.tables.append(where)
        if total == top:
            count.table_wins += 1


def _add_bye(
    counts: dict[Hashable, _Counts], round_number: int, key: Hashable, points: int
) -> None:
    count = counts[key]
    count.points += points
    count.by_round[round_number] = count.by_round.get(round_number, 0) + points


def _add_adjustment(counts: dict[Hashable, _Counts], adjustment: PointsAdjustment) -> None:
    count = counts[adjustment.key]
    number = adjustment.round_number
    if number in count.waiting:
        return  # it waits with the table's result
    count.points += adjustment.points
    count.by_round[number] = count.by_round.get(number, 0) + adjustment.points
    count.adjusted.append(Adjusted(number, adjustment.points, adjustment.reason))


def _tallies(
    counts: dict[Hashable, _Counts],
    tables: Sequence[tuple[Hashable, ...]],
    ordered_rounds: tuple[int, ...],
) -> dict[Hashable, Tally]:
    # A player's opponents' points at a table: everyone's points there but their own.
    table_points = [sum(counts[key].points for key in seats) for seats in tables]
    return {
        key: Tally(
            points=count.points,
            deals=count.deals,
            last_in=count.last_in,
            table_wins=count.table_wins,
            opponents=sum(table_points[where] for where in count.tables)
            - count.points * len(count.tables),
            rounds=tuple(count.by_round.get(number) for number in ordered_rounds),
            waiting=tuple(sorted(count.waiting)),
            adjustments=tuple(sorted(count.adjusted, key=lambda each: each.round_number)),
        )
        for key, count in counts.items()
    }


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

    counts = {entrant.key: _Counts() for entrant in entrants}
    tables: list[tuple[Hashable, ...]] = []
    history: dict[Hashable, list[RankAfter]] = {entrant.key: [] for entrant in entrants}
    for upto, round_number in enumerate(ordered_rounds, start=1):
        for table in tables_of.get(round_number, ()):
            _add_table(counts, tables, table)
            if table.deals:
                scored.add(round_number)
        for key in byes_of.get(round_number, ()):
            _add_bye(counts, round_number, key, bye_points)
        for adjustment in adjustments_of.get(round_number, ()):
            _add_adjustment(counts, adjustment)
        tallies = _tallies(counts, tables, ordered_rounds[:upto])
        places = _places(
            {key: tally for key, tally in tallies.items() if not _is_waiting(tally, scored)},
            chain,
        )
        for key, tally in tallies.items():
            rank, shared = places.get(key, (None, False))
            history[key].append(RankAfter(round_number, rank, shared, tally.points))
    return {key: tuple(ranks) for key, ranks in history.items()}


def _places(tallies: dict[Hashable, Tally], chain: Sequence[str]) -> dict[Hashable, Place]:
    """Each entrant's rank and whether it is shared, as ``rank_players`` makes them (without
    the order by name within a shared rank). Larger is better on every key, and no key's
    comparable value is a proper prefix of another's (tested for every key), so sorting the
    values in descending order matches ``rank_players``'s ascending sort of them negated."""
    tiebreaks = [tiebreak(key) for key in chain]
    compared = sorted(
        ((tuple(tb.comparable(tally) for tb in tiebreaks), key) for key, tally in tallies.items()),
        key=itemgetter(0),
        reverse=True,
    )
    places: dict[Hashable, Place] = {}
    position = 1
    for _, group in groupby(compared, key=itemgetter(0)):
        keys = [key for _, key in group]
        for key in keys:
            places[key] = (position, len(keys) > 1)
        position += len(keys)
    return places


@dataclass(frozen=True)
class Ranked:
    """An entrant in their place: the rank, whether it is shared, and the values
    compared, one for each key of the chain."""

    rank: int
    shared: bool
    entrant: Entrant
    tally: Tally
    values: tuple[tuple[int, ...], ...]


def rank_players(
    entrants: Iterable[Entrant], tallies: dict[Hashable, Tally], chain: Sequence[str]
) -> list[Ranked]:
    """The entrants best first on the keys of ``chain`` in turn; those equal on every key
    share a rank (the next rank skips) and are listed by name, the same way every time."""
    tiebreaks = [tiebreak(key) for key in chain]
    compared = []
    for entrant in entrants:
        tally = tallies[entrant.key]
        values = tuple(tb.comparable(tally) for tb in tiebreaks)
        order = (
            tuple(tuple(-v for v in value) for value in values),
            entrant.name.casefold(),
            entrant.name,
            str(entrant.key),
        )
        compared.append((order, values, entrant, tally))
    compared.sort(key=lambda entry: entry[0])

    ranks = []
    rank = 0
    above: tuple[tuple[int, ...], ...] | None = None
    for position, (_, values, _, _) in enumerate(compared, start=1):
        if values != above:
            rank = position
        ranks.append(rank)
        above = values
    sizes = Counter(ranks)
    return [
        Ranked(rank, sizes[rank] > 1, entrant, tally, values)
        for rank, (_, values, entrant, tally) in zip(ranks, compared, strict=True)
    ]


def decided_by(chain: Sequence[str], above: Ranked | None, place: Ranked) -> str | None:
    """The first key of ``chain`` on which ``place`` differs from the entrant ranked just
    above it: what placed it lower (None for the first and for a shared rank)."""
    if above is None:
        return None
    return next(
        (key for key, a, b in zip(chain, above.values, place.values, strict=True) if a != b),
        None,
    )
