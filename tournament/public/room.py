"""What the room sees while a tournament is played, besides the released results: the
current round's seating, and how far the standings have got.

Terms:

- *current round*: the highest-numbered started round. Its seating is public as soon
  as it starts, unless the tournament keeps seating private (``seating_public``); a
  released round's seating is public either way, with its results.
- *progress*: the released rounds against the planned ones. The standings are
  *provisional* until the last planned round is released or the organiser marks the
  tournament finished; only then is there a winner.

Every loader runs a fixed number of queries whatever the size of the field.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from scoring.rules import dealer_of
from scoring.standings import StandingRow, Standings
from scoring.tiebreaks import POINTS, decided_column, standings_columns
from tournament.models import Bye, Round, Seat, Tournament


def single_spaced(text: str) -> str:
    """``text`` with surrounding spaces dropped and inner runs of spaces made one."""
    return " ".join(text.split())


def name_holds(name: str, text: str) -> bool:
    """Whether ``name`` holds the typed ``text``, case and spacing ignored: how Find my
    seat and the door look a player up."""
    return single_spaced(text).casefold() in single_spaced(name).casefold()


@dataclass(frozen=True)
class SeatedPlayer:
    position: int
    player_id: int
    name: str
    club: str


@dataclass(frozen=True)
class SeatedTable:
    number: int
    # Seat 1 first: seat 1 deals the first deal, the deal passes to seat 2, and so on.
    seats: tuple[SeatedPlayer, ...]

    @property
    def first_dealer(self) -> SeatedPlayer:
        return self.seats[dealer_of(1, len(self.seats)) - 1]

    def opponents(self, player_id: int) -> tuple[SeatedPlayer, ...]:
        return tuple(seat for seat in self.seats if seat.player_id != player_id)


@dataclass(frozen=True)
class Placement:
    """Where one player sits in a seated round."""

    player: SeatedPlayer
    table: SeatedTable

    @property
    def deals_in_turn(self) -> int:
        """1 when the player deals first, 2 when second, …"""
        return self.player.position

    @property
    def deals(self) -> str:
        """ "deals first", "deals second", …"""
        return deals_in_words(self.player.position)

    @property
    def opponents(self) -> tuple[SeatedPlayer, ...]:
        return self.table.opponents(self.player.player_id)


@dataclass(frozen=True)
class SeatedRound:
    round: Round
    tables: tuple[SeatedTable, ...]
    # The names of the players sitting the round out, alphabetically.
    byes: tuple[SeatedPlayer, ...]

    @property
    def number(self) -> int:
        return self.round.number

    def placements(self) -> list[Placement]:
        """Every seated player with their table, alphabetically by name (then table), as
        the projector and the seating list show them."""
        found = [Placement(seat, table) for table in self.tables for seat in table.seats]
        return sorted(found, key=lambda p: (p.player.name.casefold(), p.table.number))

    def placement_of(self, player_id: int) -> Placement | None:
        for table in self.tables:
            for seat in table.seats:
                if seat.player_id == player_id:
                    return Placement(seat, table)
        return None

    def find(self, text: str) -> list[Placement]:
        """The placements whose player's name holds ``text`` (case and surrounding spaces
        ignored), alphabetically; none for empty text."""
        if not single_spaced(text):
            return []
        return [p for p in self.placements() if name_holds(p.player.name, text)]


def current_round(tournament: Tournament) -> Round | None:
    """The highest-numbered started round, or None before any round starts: one query."""
    return Round.objects.filter(tournament=tournament, started=True).order_by("-number").first()


def seating_is_public(tournament: Tournament, round_: Round) -> bool:
    return round_.released or (round_.started and tournament.seating_public)


def seated_round(tournament: Tournament, round_: Round) -> SeatedRound:
    """The round's tables with their seats in order, and its byes: two queries. Whether
    the visitor may see it is the caller's to check (``seating_is_public``)."""
    tables: dict[int, list[SeatedPlayer]] = {}
    for table_no, position, player_id, name, club in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "player_id", "player__name", "player__club")
    ):
        tables.setdefault(table_no, []).append(SeatedPlayer(position, player_id, name, club))
    byes = tuple(
        SeatedPlayer(0, player_id, name, club)
        for player_id, name, club in Bye.objects.filter(round=round_)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name", "player__club")
    )
    return SeatedRound(
        round=round_,
        tables=tuple(SeatedTable(number, tuple(seats)) for number, seats in tables.items()),
        byes=byes,
    )


def public_seating(tournament: Tournament) -> SeatedRound | None:
    """The current round's seating when the public may see it, else None: at most three
    queries."""
    round_ = current_round(tournament)
    if round_ is None or not seating_is_public(tournament, round_):
        return None
    return seated_round(tournament, round_)


@dataclass(frozen=True)
class Progress:
    """How far the public standings have got."""

    # The highest released round, or 0 before any is released.
    after_round: int
    planned_rounds: int
    final: bool

    @property
    def started(self) -> bool:
        return self.after_round > 0

    @property
    def label(self) -> str:
        """ "after round 2 of 4 — provisional", "final standings", or "no results yet"."""
        if self.final and self.started:
            return "final standings"
        if not self.started:
            return "no results yet"
        return f"after round {self.after_round} of {self.planned_rounds} — provisional"


def progress(tournament: Tournament, released_numbers: list[int] | tuple[int, ...]) -> Progress:
    """The standings' progress from the released round numbers the page already has: no
    query."""
    after = max(released_numbers, default=0)
    planned = max(tournament.planned_rounds, after)
    final = after > 0 and (tournament.finished or after >= tournament.planned_rounds)
    return Progress(after_round=after, planned_rounds=planned, final=final)


# What a seated player needs to know: their table, their seat, when they deal, and
# whom they play. --------------------------------------------------------------------

_TURNS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def turn_in_words(position: int) -> str:
    """ "first", "second", … for the player in seat ``position``: seat 1 deals the
    round's first deal, and the deal passes round the table in seat order."""
    return _TURNS[position - 1] if 1 <= position <= len(_TURNS) else f"{position}th"


def deals_in_words(position: int) -> str:
    """ "deals first", "deals second", … (``turn_in_words``)."""
    return f"deals {turn_in_words(position)}"


def seated_round_number(tournament: Tournament) -> int | None:
    """The number of the current round when its seating is public but its results are
    not released yet, for the public pages' navigation (a released round is listed
    with the released ones): one query."""
    round_ = current_round(tournament)
    if round_ is None or round_.released or not seating_is_public(tournament, round_):
        return None
    return round_.number


@dataclass(frozen=True)
class NowPlaying:
    """The round being played publicly (started, seating public, results not released)
    as one player sees it: at ``placement``, sitting it out (``bye``), or neither (a
    player the round does not include)."""

    round_number: int
    placement: Placement | None
    bye: bool

    @property
    def involved(self) -> bool:
        return self.bye or self.placement is not None


def now_playing(tournament: Tournament, player_id: int) -> NowPlaying | None:
    """Where ``player_id`` is in the round being played publicly, None when no round is:
    at most two queries (the round, with whether the player sits it out; the player's
    table)."""
    round_ = (
        Round.objects.filter(tournament=tournament, started=True)
        .annotate(bye=Exists(Bye.objects.filter(round=OuterRef("pk"), player_id=player_id)))
        .order_by("-number")
        .first()
    )
    if round_ is None or round_.released or not seating_is_public(tournament, round_):
        return None
    if round_.bye:
        return NowPlaying(round_.number, None, bye=True)
    rows = list(
        Seat.objects.filter(round=round_, table__seats__player_id=player_id)
        .order_by("position")
        .values_list("table__number", "position", "player_id", "player__name", "player__club")
    )
    if not rows:
        return NowPlaying(round_.number, None, bye=False)
    table = SeatedTable(rows[0][0], tuple(SeatedPlayer(*row[1:]) for row in rows))
    placement = next(Placement(seat, table) for seat in table.seats if seat.player_id == player_id)
    return NowPlaying(round_.number, placement, bye=False)


@dataclass(frozen=True)
class Lead:
    """The top of the standings for a headline: the players sharing rank 1, and why the
    first of them is above the next player, in words."""

    leaders: tuple[StandingRow, ...]
    # "3 points ahead of Joan Penhallow", "ahead of Joan Penhallow on deals last in, 10
    # to 9"; empty when the top is shared or nobody else is ranked.
    margin: str


def lead(standings: Standings) -> Lead | None:
    """The leader(s) and their margin over the next player: no query. None before any
    round counts (everyone would share rank 1), or while nobody is ranked (every player
    waits for a result); the players with no rank yet are nobody's next player."""
    rows = tuple(row for row in standings.rows if row.ranked)
    if not rows or not standings.round_numbers:
        return None
    leaders = tuple(row for row in rows if row.rank == 1)
    if len(leaders) > 1 or len(rows) < 2:
        return Lead(leaders, "")
    first, second = rows[0], rows[1]
    if second.decided_by == POINTS.key:
        gap = first.points - second.points
        return Lead(leaders, f"{gap} point{'s' if gap != 1 else ''} ahead of {second.name}")
    name = decided_column(second, first, standings.round_numbers)
    column = next(
        c for c in standings_columns(standings.tiebreaks, standings.round_numbers) if c.name == name
    )
    words = column.title[0].lower() + column.title[1:]
    mine, theirs = column.figure(first.tally), column.figure(second.tally)
    return Lead(
        leaders,
        f"ahead of {second.name} on {words}, {_figure(mine)} to {_figure(theirs)}",
    )


def _figure(value: int | None) -> str:
    return "none" if value is None else str(value)
