"""What the public pages show of a tournament: released rounds and confirmed facts only.

Terms:

- *released round*: a round the organiser has released (``Round.released``). Nothing of
  an unreleased round (seating, results, byes) is loaded here.
- *confirmed deal*: a ``Deal`` row with its ``DealResult`` rows. Sheets awaiting
  confirmation live in ``Sheet.pending`` and are never read here.
- *table result*: one table of a released round: its seating (seat 1 deals first), its
  confirmed deals, and what each seat made of them.
- *rank history*: a player's rank after each released round k, i.e. in the standings
  computed over the released rounds up to and including k.
- *public results*: the released standings, every player's rank history and each
  released round's table results, made at once for the whole field from the seats' sums
  (``public_results``): one computation per public change, kept in the cache under a key
  holding ``public_version`` and shared by every public page. A player's page then reads
  only that player's own tables (``public_player``): a crawler walking every player's
  page does not redo the field's work on each.

Every loader runs a fixed number of queries whatever the number of players, rounds or
deals; everything else is computed in Python with ``scoring``.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from scoring.rules import deals_in_round
from scoring.standings import StandingRow, Standings, ranks_after_each_round
from scoring.systems import points_from_sums
from tournament.models import Round, Tournament
from tournament.public.chances import StoredChances, stored_chances
from tournament.shared.public_changes import public_version
from tournament.standings.services import (
    NO_RESULT_YET,
    IncompleteTable,
    PlayerInfo,
    StandingsFacts,
    TournamentStandings,
    bye_points,
    missing_in_words,
    rank_label,
    standings_facts,
    standings_from,
)

# The public results outlive no public change (their key holds ``public_version``); the
# timeout only frees the memory of tournaments nobody looks at any more.
RESULTS_TIMEOUT = 60 * 60


@dataclass(frozen=True)
class PublicSeat:
    position: int
    player_id: int
    name: str


@dataclass(frozen=True)
class SeatResult:
    """One seat's part in a table's round."""

    seat: PublicSeat
    points: int
    cards_won: int
    last_in: int
    winner: bool
    # The deal after which the player left the table, None for a player who stayed.
    left_after: int | None = None


@dataclass(frozen=True)
class ByeInfo:
    round_number: int
    player_id: int
    name: str


def released_round_numbers(tournament: Tournament) -> list[int]:
    return list(
        Round.objects.filter(tournament=tournament, released=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


@dataclass(frozen=True)
class RoundRank:
    round_number: int
    # None while the player waited for a result that others of a round up to it had.
    rank: int | None
    shared: bool
    points: int

    @property
    def label(self) -> str:
        if self.rank is None:
            return NO_RESULT_YET
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass(frozen=True)
class RoundTable:
    """A released round's table as the round's page shows it, summed from its seats."""

    number: int
    seats: tuple[PublicSeat, ...]
    results: tuple[SeatResult, ...]
    deals_played: int
    expected_deals: int

    @property
    def stopped_early(self) -> bool:
        return 0 < self.deals_played < self.expected_deals

    @property
    def no_result(self) -> bool:
        """No result yet: the round was released before the table's sheet was confirmed."""
        return self.deals_played == 0

    @property
    def winners(self) -> list[PublicSeat]:
        return [result.seat for result in self.results if result.winner]


# A table of a released round: its number, deals played and deals a round has, and each
# seat's (player id, name, points, cards won, deals last in) in seat order.
# (table number, deals played, deals expected, each seat's (player, name, points, cards
# won, last in), then the leaves as (seat, after deal) pairs: absent from a row cached
# before leaves were kept).
TableRow = tuple[Any, ...]


@dataclass(frozen=True)
class RoundResults:
    """A released round's tables in table order, and who sat it out, by name.

    Every round's are made at each change and one round's page reads only its own, so
    they are kept as plain tuples (``TableRow``), made into ``RoundTable`` on reading.
    """

    rows: tuple[TableRow, ...]
    byes: tuple[ByeInfo, ...]

    @property
    def tables(self) -> list[RoundTable]:
        tables = []
        for number, played, expected, seated, *left in self.rows:
            after = dict(left[0]) if left else {}
            top = max(points for _, _, points, _, _ in seated) if played else None
            seats = tuple(
                PublicSeat(position, pk, name)
                for position, (pk, name, _, _, _) in enumerate(seated, start=1)
            )
            results = tuple(
                SeatResult(seat, points, won, last_in, points == top, after.get(seat.position))
                for seat, (_, _, points, won, last_in) in zip(seats, seated, strict=True)
            )
            tables.append(RoundTable(number, seats, results, played, expected))
        return tables


@dataclass(frozen=True)
class PublicResults:
    """What the public pages show of the released rounds, for the whole field at once:
    the standings, each player's rank after each released round, and the released
    rounds each player sat out.

    Made once per public change (``public_results``) and shared by the standings,
    projector, final, player and round pages and the standings' search, so that none of
    them computes the standings again, and a player's page costs only that player's own
    tables.
    """

    round_numbers: tuple[int, ...]
    players: dict[int, PlayerInfo]
    standings: Standings
    incomplete_tables: tuple[IncompleteTable, ...]
    # Each player's (rank, shared, points) after each released round, in round order:
    # plain tuples, which the cache reads back several times faster than objects.
    ranks: dict[int, tuple[tuple[int | None, bool, int], ...]]
    byes: dict[int, frozenset[int]]
    # The podium chances stored for this generation (``public.chances``), None when none
    # are (none apply, or they are being worked out).
    chances: StoredChances | None = None

    @property
    def field_size(self) -> int:
        return len(self.players)

    @property
    def rows(self) -> dict[int, StandingRow]:
        return {row.key: row for row in self.standings.rows}  # type: ignore[misc]

    def history_of(self, player_id: int) -> tuple[RoundRank, ...]:
        return tuple(
            RoundRank(number, rank, shared, points)
            for number, (rank, shared, points) in zip(
                self.round_numbers, self.ranks.get(player_id, ()), strict=False
            )
        )

    @property
    def history(self) -> dict[int, tuple[RoundRank, ...]]:
        return {pk: self.history_of(pk) for pk in self.ranks}

    @property
    def missing_words(self) -> list[str]:
        """ "2 tables of round 3 have no result yet (tables 2 and 4)", one per round."""
        return missing_in_words(self.incomplete_tables)

    def tournament_standings(self, tournament: Tournament) -> TournamentStandings:
        """The released standings as ``tournament_standings`` gives them."""
        return TournamentStandings(tournament, self.standings, self.players, self.incomplete_tables)


def _round_results(tournament: Tournament, facts: StandingsFacts) -> dict[int, RoundResults]:
    system, rules = tournament.scoring_system, tournament.rules
    tables: dict[int, list[TableRow]] = {}
    for table in facts.tables:
        size = len(table.players)
        seats = tuple(
            (
                pk,
                facts.players[pk].name,
                points_from_sums(sums, system, rules),
                sums.won,
                sums.last_in,
            )
            for pk, sums in zip(table.players, table.sums, strict=True)
        )
        expected = deals_in_round(size, tournament.rotations_per_round, table.leaves)
        left = tuple((leave.seat, leave.after_deal) for leave in table.leaves)
        tables.setdefault(table.round_number, []).append(
            (table.number, table.deals, expected, seats, left)
        )
    byes: dict[int, list[ByeInfo]] = {}
    for number, pk in facts.byes:
        byes.setdefault(number, []).append(ByeInfo(number, pk, facts.players[pk].name))
    return {
        number: RoundResults(
            tuple(sorted(tables.get(number, ()))),
            tuple(sorted(byes.get(number, ()), key=lambda bye: (bye.name, bye.player_id))),
        )
        for number in facts.round_numbers
    }


def compute_public_results(tournament: Tournament) -> tuple[PublicResults, dict[int, RoundResults]]:
    """The public results of ``tournament`` and each released round's tables: five
    queries (players, the released rounds' seats with their sums, the rounds, the byes,
    the penalties and awards) and one for the stored podium chances,
    then one standings computation and one pass over the rounds for the ranks after
    each (``scoring.standings.ranks_after_each_round``)."""
    facts = standings_facts(tournament, released_only=True)
    standings = standings_from(tournament, facts).standings
    ranks = ranks_after_each_round(
        facts.entrants,
        facts.plays,
        tournament.scoring_system,
        tournament.tiebreaks,
        facts.round_numbers,
        facts.byes,
        bye_points(tournament),
        facts.adjustments,
    )
    sat_out: dict[int, set[int]] = {}
    for number, pk in facts.byes:
        sat_out.setdefault(pk, set()).add(number)
    results = PublicResults(
        round_numbers=standings.round_numbers,
        players=facts.players,
        standings=standings,
        incomplete_tables=facts.incomplete_tables,
        ranks={
            pk: tuple((rank.rank, rank.shared, rank.points) for rank in ranks[pk])
            for pk in facts.players
        },
        byes={pk: frozenset(numbers) for pk, numbers in sat_out.items()},
        chances=stored_chances(tournament),
    )
    return results, _round_results(tournament, facts)


def _results_key(tournament: Tournament) -> str:
    return f"lld:results:{tournament.pk}:{public_version(tournament)}"


# Each worker keeps the results it last read for a few tournaments, so that a page does
# not read the whole field back from the cache (15 ms at 1,000 players × 20 rounds). A
# kept copy serves only while the cache holds the token written with it: a change (a new
# key), an eviction or a cleared cache all send the worker back to the cache.
_KEPT: dict[str, tuple[str, PublicResults]] = {}
_KEPT_TOURNAMENTS = 4
# For threaded workers: the oldest copy is dropped while another thread may be keeping one.
_KEEPING = threading.Lock()


def _keep(key: str, token: str, results: PublicResults) -> None:
    with _KEEPING:
        _KEPT.pop(key, None)
        _KEPT[key] = (token, results)
        while len(_KEPT) > _KEPT_TOURNAMENTS:
            del _KEPT[next(iter(_KEPT))]


def _compute_and_keep(tournament: Tournament) -> tuple[PublicResults, dict[int, RoundResults]]:
    # One entry for the field and one for each round (a round's page reads only its own);
    # a round's entry lost on its own is made again with all the rest.
    results, rounds = compute_public_results(tournament)
    key = _results_key(tournament)
    token = uuid.uuid4().hex
    cache.set_many(
        {
            key: results,
            f"{key}:token": token,
            **{f"{key}:round:{number}": tables for number, tables in rounds.items()},
        },
        RESULTS_TIMEOUT,
    )
    _keep(key, token, results)
    return results, rounds


def public_results(tournament: Tournament) -> PublicResults:
    """``PublicResults`` of ``tournament``, from the cache while nothing public has
    changed (the key holds ``public_version``, as the public pages' keys do)."""
    key = _results_key(tournament)
    token = cache.get(f"{key}:token")
    kept = _KEPT.get(key)
    if token is not None and kept is not None and kept[0] == token:
        return kept[1]
    results = cache.get(key) if token is not None else None
    if results is None:
        results, _ = _compute_and_keep(tournament)
    else:
        _keep(key, token, results)
    return results


def public_round_results(tournament: Tournament, number: int) -> RoundResults | None:
    """A released round's tables and byes (None for a round not released), from the
    cache as ``public_results``."""
    found = cache.get(f"{_results_key(tournament)}:round:{number}")
    if found is None:
        _, rounds = _compute_and_keep(tournament)
        found = rounds.get(number)
    return found


def podium(rows: Iterable[StandingRow]) -> list[tuple[str, StandingRow]]:
    """The winner and runners-up (ranks 1 to 3) with their rank labels ("=2")."""
    return [(rank_label(row), row) for row in rows if row.rank is not None and row.rank <= 3]
