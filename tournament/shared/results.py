"""The pieces of a tournament's results as the views hold them and every page shows them:
who the players are, the tables without a result (and how the pages say so), the
standings as a page or a file reads them, and each counted round's tables. Made by
``derived.build``, read through ``shared.derived``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.standings import StandingRow, Standings
from tournament.models import Tournament

NO_RESULT_YET = "no result yet"


def waiting_words(waits: tuple[tuple[int, int], ...]) -> str:
    """ "No result yet for round 3 (table 2)", one clause a round; empty when none."""
    if not waits:
        return ""
    return "No result yet for " + _and_words(
        [f"round {number} (table {table})" for number, table in waits]
    )


def _and_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class PlayerInfo:
    ref: str
    name: str
    club: str
    # The identifier of the person the player is linked to (``Person.identifier``), which
    # names their career page; empty when the player is linked to nobody.
    person: str = ""


@dataclass(frozen=True)
class IncompleteTable:
    """A table that played fewer deals than a round has (it stopped early, or its sheet
    is not all in yet)."""

    round: int
    table: int
    deals: int
    expected: int


def and_list(numbers: list[int]) -> str:
    """ "3", "2 and 3", "1, 2 and 3"."""
    words = [str(number) for number in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def missing_in_words(incomplete: tuple[IncompleteTable, ...]) -> list[str]:
    """One sentence per round with tables that have no result yet: "2 tables of round 3
    have no result yet (tables 2 and 4)"."""
    by_round: dict[int, list[int]] = {}
    for table in incomplete:
        if table.deals == 0:
            by_round.setdefault(table.round, []).append(table.table)
    sentences = []
    for number, tables in sorted(by_round.items()):
        if len(tables) == 1:
            sentences.append(f"Table {tables[0]} of round {number} has no result yet")
        else:
            sentences.append(
                f"{len(tables)} tables of round {number} have no result yet "
                f"(tables {and_list(tables)})"
            )
    return sentences


# The words of the first three places, once the standings are final.
PLACES = {1: "Winner", 2: "Runner-up", 3: "Third"}


def rank_label(row: StandingRow) -> str:
    """ "3", "=3" for a shared 3rd, or "–" for a player with no rank while a result is
    not in yet."""
    if row.rank is None:
        return "–"
    return f"={row.rank}" if row.shared else str(row.rank)


@dataclass(frozen=True)
class TournamentStandings:
    tournament: Tournament
    standings: Standings
    players: dict[int, PlayerInfo]
    incomplete_tables: tuple[IncompleteTable, ...] = ()
    # Each waiting player's (round, table) pairs without a result (``DerivedState.waits``).
    waits: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def info(self, row: StandingRow) -> PlayerInfo:
        return self.players[row.key]  # type: ignore[index]

    def waiting_words(self, row: StandingRow) -> str:
        """ "No result yet for round 3 (table 2)", or "" (the same words on every surface)."""
        return waiting_words(self.waits.get(row.key, ()))  # type: ignore[call-overload]

    @property
    def missing_tables(self) -> tuple[IncompleteTable, ...]:
        """The tables with no result yet: not one deal recorded (a confirmed sheet always
        holds at least one)."""
        return tuple(table for table in self.incomplete_tables if table.deals == 0)

    @property
    def missing_words(self) -> list[str]:
        return missing_in_words(self.incomplete_tables)

    @property
    def unranked(self) -> int:
        """How many players wait for a result others of the same round have."""
        return sum(1 for row in self.standings.rows if row.rank is None)

    @property
    def partial_tables(self) -> tuple[IncompleteTable, ...]:
        """The incomplete tables that have a result, if a short one."""
        return tuple(table for table in self.incomplete_tables if table.deals)


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
    """A counted round's table as the round's page shows it, summed from its seats."""

    number: int
    seats: tuple[PublicSeat, ...]
    results: tuple[SeatResult, ...]
    deals_played: int
    expected_deals: int

    @property
    def stopped_early(self) -> bool:
        return 0 < self.deals_played < self.expected_deals

    @property
    def without_result(self) -> bool:
        """No result yet: the round counts, and the table's sheet is not confirmed."""
        return self.deals_played == 0

    @property
    def winners(self) -> list[PublicSeat]:
        return [result.seat for result in self.results if result.winner]

    def result_of(self, player_id: int) -> SeatResult | None:
        return next((r for r in self.results if r.seat.player_id == player_id), None)


# A table of a counted round as stored: (table number, deals played, deals expected,
# each seat's [player, name, points, cards won, deals last in] in seat order, the leaves
# as [seat, after deal] pairs).
TableRow = list[Any]


@dataclass(frozen=True)
class RoundResults:
    """A counted round's tables in table order, and who sat it out, by name."""

    rows: tuple[tuple[Any, ...], ...]
    byes: tuple[ByeInfo, ...]

    @property
    def tables(self) -> list[RoundTable]:
        tables = []
        for number, played, expected, seated, left in self.rows:
            after = dict(left)
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

    def table_of(self, player_id: int) -> RoundTable | None:
        return next(
            (t for t in self.tables if any(s.player_id == player_id for s in t.seats)), None
        )
