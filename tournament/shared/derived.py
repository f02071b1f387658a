"""A tournament's derived state as every surface reads it: one truth, worked out once.

Terms (``models.derived`` has the stored side):

- *view*: the standings of one audience, as ``derived.build`` worked them out after the
  last change and stored them: ``public`` (released rounds, what anonymous visitors
  see) or ``organiser`` (every started round). A surface (a page, the card, a file, a
  command, the series) reads a view, ``DerivedState``, and never works out a player's
  rank, points or chances itself.
- *no result yet*: a table of a counted round without a confirmed deal. Its players'
  rows list the round in ``waiting`` and the table in ``waits``; they have no total for
  it (and no rank while others of that round have theirs, ``scoring.standings``).
- *round results*: a counted round's tables (seats, points, cards, deals last in, who
  left) and who sat it out, stored apart from the rows: a round's page reads only its own.
- *chances*: the podium chances stored for the public view's chances key
  (``PodiumChances``); while the key has none stored they are *being worked out*.

Reading is one query for the view (two with its chances), then the cache: the public
view is kept under the tournament's page generation, which storing a view moves.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from scoring.standings import StandingRow, Standings
from scoring.systems import ScoringSystem
from scoring.tiebreaks import Adjusted, Tally
from tournament.kernel.numbers import shown
from tournament.models import DerivedView, PodiumChances, Tournament
from tournament.shared.chances import (
    ChancesView,
    PlayerChances,
    StoredChances,
    chances_from_figures,
    need_words,
    percent,
)
from tournament.shared.results import (
    NO_RESULT_YET,
    ByeInfo,
    IncompleteTable,
    PlayerInfo,
    PublicSeat,
    RoundRank,
    RoundResults,
    RoundTable,
    SeatResult,
    TournamentStandings,
    and_list,
    missing_in_words,
    rank_label,
    waiting_words,
)

# The pieces the surfaces read are defined beside (``shared.results``,
# ``shared.chances``) and named here too: a surface imports what it reads from here.
__all__ = [
    "FORMAT",
    "NO_RESULT_YET",
    "ORGANISER",
    "PUBLIC",
    "ByeInfo",
    "ChancesView",
    "DerivedState",
    "IncompleteTable",
    "PlayerChances",
    "PlayerInfo",
    "PlayerStanding",
    "PublicSeat",
    "RoundRank",
    "RoundResults",
    "RoundTable",
    "SeatResult",
    "StoredChances",
    "TournamentStandings",
    "and_list",
    "ask_for_views",
    "chances_from_figures",
    "decode_round",
    "decode_state",
    "encode_row",
    "forget_kept",
    "load_view",
    "missing_in_words",
    "need_words",
    "on_view_missing",
    "organiser_view",
    "percent",
    "public_view",
    "rank_label",
    "round_results",
    "rounds_results",
    "view_of",
    "waiting_words",
]

# What a stored view's JSON looks like; a view of another format is worked out again.
FORMAT = 1

PUBLIC = DerivedView.Kind.PUBLIC
ORGANISER = DerivedView.Kind.ORGANISER


# The view ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStanding:
    """One player's line of a view, in the words every surface uses."""

    row: StandingRow
    # The (round, table) of each counted round whose table has no result yet.
    waits: tuple[tuple[int, int], ...]
    field_size: int

    @property
    def rank(self) -> int | None:
        return self.row.rank

    @property
    def rank_label(self) -> str:
        return rank_label(self.row)

    @property
    def points(self) -> int:
        return self.row.points

    @property
    def waiting(self) -> bool:
        return bool(self.waits)

    @property
    def waiting_words(self) -> str:
        """ "No result yet for round 3 (table 2)", one clause a round; empty when none."""
        return waiting_words(self.waits)

    @property
    def points_words(self) -> str:
        """ "14 points", or "14 points from rounds with a result" while one waits; "" before
        any result (no points rather than a 0 nobody scored)."""
        points = self.row.points
        noun = "point" if abs(points) == 1 else "points"
        if self.waits:
            if not self.row.has_result:
                return ""
            return f"{shown(points)} {noun} from rounds with a result"
        if not self.row.has_result:
            return ""
        return f"{shown(points)} {noun}"


@dataclass(frozen=True)
class DerivedState:
    """A stored view as the surfaces read it: the standings, each player's rank after
    each counted round (public view), the rounds each player sat out, the tables without
    a result each player waits for, and the chances (public view)."""

    kind: str
    made_for: int
    fingerprint: str
    round_numbers: tuple[int, ...]
    players: dict[int, PlayerInfo]
    standings: Standings
    incomplete_tables: tuple[IncompleteTable, ...]
    # Each player's (rank, shared, points) after each counted round, in round order
    # (public view; empty for the organiser's).
    ranks: dict[int, tuple[tuple[int | None, bool, int], ...]]
    byes: dict[int, frozenset[int]]
    waits: dict[int, tuple[tuple[int, int], ...]]
    # The chances key the view was made with: empty where no chances apply.
    chances_key: str = ""
    chances: StoredChances | None = None

    @property
    def field_size(self) -> int:
        return len(self.players)

    @property
    def rows(self) -> dict[int, StandingRow]:
        return {row.key: row for row in self.standings.rows}  # type: ignore[misc]

    def standing_of(self, player_id: int) -> PlayerStanding:
        return PlayerStanding(self.rows[player_id], self.waits.get(player_id, ()), self.field_size)

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
    def missing_tables(self) -> tuple[IncompleteTable, ...]:
        return tuple(table for table in self.incomplete_tables if table.deals == 0)

    @property
    def missing_words(self) -> list[str]:
        """ "2 tables of round 3 have no result yet (tables 2 and 4)", one per round."""
        return missing_in_words(self.incomplete_tables)

    @property
    def chances_view(self) -> ChancesView:
        if not self.chances_key:
            return ChancesView(False, None)
        return ChancesView(self.chances is None, self.chances)

    def tournament_standings(self, tournament: Tournament) -> TournamentStandings:
        return TournamentStandings(
            tournament, self.standings, self.players, self.incomplete_tables, self.waits
        )


# Stored as JSON ----------------------------------------------------------------------


def encode_row(row: StandingRow) -> list[Any]:
    tally = row.tally
    return [
        row.key,
        row.rank,
        row.shared,
        row.decided_by,
        tally.points,
        tally.deals,
        tally.last_in,
        tally.table_wins,
        tally.opponents,
        list(tally.rounds),
        list(tally.waiting),
        [[each.round_number, each.points, each.reason] for each in tally.adjustments],
    ]


def _decode_row(values: list[Any], names: dict[int, PlayerInfo]) -> StandingRow:
    key, rank, shared, decided, points, deals, last_in, wins, opponents, rounds, waiting, adj = (
        values
    )
    tally = Tally(
        points=points,
        deals=deals,
        last_in=last_in,
        table_wins=wins,
        opponents=opponents,
        rounds=tuple(rounds),
        waiting=tuple(waiting),
        adjustments=tuple(Adjusted(number, value, reason) for number, value, reason in adj),
    )
    return StandingRow(rank, shared, key, names[key].name, tally, decided)


def decode_state(view: dict[str, Any], chances: StoredChances | None) -> DerivedState:
    data = view["standings"]
    players = {int(pk): PlayerInfo(*info) for pk, info in data["players"].items()}
    rows = tuple(_decode_row(values, players) for values in data["rows"])
    standings = Standings(
        ScoringSystem(data["system"]),
        tuple(data["tiebreaks"]),
        tuple(data["round_numbers"]),
        rows,
    )
    return DerivedState(
        kind=view["kind"],
        made_for=view["made_for"],
        fingerprint=view["fingerprint"],
        round_numbers=tuple(data["round_numbers"]),
        players=players,
        standings=standings,
        incomplete_tables=tuple(IncompleteTable(*each) for each in data["incomplete"]),
        ranks={
            int(pk): tuple((rank, shared, points) for rank, shared, points in history)
            for pk, history in data["ranks"].items()
        },
        byes={int(pk): frozenset(numbers) for pk, numbers in data["byes"].items()},
        waits={
            int(pk): tuple((number, table) for number, table in pairs)
            for pk, pairs in data["waits"].items()
        },
        chances_key=view["chances_key"],
        chances=chances,
    )


def decode_round(stored: dict[str, Any] | None) -> RoundResults | None:
    if stored is None:
        return None
    return RoundResults(
        tuple(tuple(row) for row in stored["tables"]),
        tuple(ByeInfo(*bye) for bye in stored["byes"]),
    )


# Reading -----------------------------------------------------------------------------

# Who works out a view a page found missing (``derived.refresh`` registers the task when
# the app starts): the pages ask through it, never working a view out themselves.
_askers: list[Callable[[int], None]] = []


def on_view_missing(asker: Callable[[int], None]) -> None:
    if asker not in _askers:
        _askers.append(asker)


def ask_for_views(tournament_id: int) -> None:
    """A page found the tournament's view missing: have it worked out (by the worker)."""
    for asker in _askers:
        asker(tournament_id)


# The views outlive no change (their keys hold the page generation); the timeout only
# frees the memory of tournaments nobody looks at any more.
VIEW_TIMEOUT = 60 * 60


def _view_key(tournament: Tournament) -> str:
    return f"lld:view:{tournament.pk}:{tournament.public_changed.timestamp()}"


# Each worker keeps the public views it last read for a few tournaments, so that a page
# does not read the whole field back from the cache (15 ms at 1,000 players × 20 rounds).
# A kept copy serves only while the cache holds the token written with it: a change (a
# new key), an eviction or a cleared cache all send the worker back to the cache.
_KEPT: dict[str, tuple[str, DerivedState]] = {}
_KEPT_TOURNAMENTS = 4
_KEEPING = threading.Lock()


def _keep(key: str, token: str, state: DerivedState) -> None:
    with _KEEPING:
        _KEPT.pop(key, None)
        _KEPT[key] = (token, state)
        while len(_KEPT) > _KEPT_TOURNAMENTS:
            del _KEPT[next(iter(_KEPT))]


def forget_kept() -> None:
    """Read every view afresh (tests: the database under them was rolled back)."""
    with _KEEPING:
        _KEPT.clear()


def load_view(tournament: Tournament, kind: str) -> DerivedState | None:
    """The stored view read from the database (two queries), None when there is none."""
    found = (
        DerivedView.objects.filter(tournament=tournament, kind=kind)
        .values("kind", "made_for", "fingerprint", "chances_key", "standings")
        .first()
    )
    if found is None or found["standings"].get("format") != FORMAT:
        return None
    chances = None
    if found["chances_key"]:
        figures = (
            PodiumChances.objects.filter(tournament=tournament, fingerprint=found["chances_key"])
            .values_list("figures", flat=True)
            .first()
        )
        chances = chances_from_figures(figures or {})
    return decode_state(dict(found), chances)


def _cached(key: str) -> DerivedState | None:
    token = cache.get(f"{key}:token")
    kept = _KEPT.get(key)
    if token is not None and kept is not None and kept[0] == token:
        return kept[1]
    state = cache.get(key) if token is not None else None
    if state is not None:
        _keep(key, token, state)
    return state


def public_view(tournament: Tournament) -> DerivedState | None:
    """The public view of ``tournament``: from this worker's memory or the cache while
    the page generation holds, else two queries. A view missing, or behind the
    tournament's standings version, is asked for (``ask_for_views``: the worker works it
    out) and read again; None while there is none at all (being worked out)."""
    key = _view_key(tournament)
    state = _cached(key)
    if state is not None and state.made_for >= tournament.standings_version:
        return state
    state = load_view(tournament, PUBLIC)
    if state is None or state.made_for < tournament.standings_version:
        ask_for_views(tournament.pk)
        state = load_view(tournament, PUBLIC)
    if state is None:
        return None
    token = uuid.uuid4().hex
    cache.set_many({key: state, f"{key}:token": token}, VIEW_TIMEOUT)
    _keep(key, token, state)
    return state


def organiser_view(tournament: Tournament) -> DerivedState | None:
    """The organiser's view (every started round's confirmed sheets): two queries, for
    a few pages; asked for when missing or behind, as ``public_view``."""
    state = load_view(tournament, ORGANISER)
    if state is None or state.made_for < tournament.standings_version:
        ask_for_views(tournament.pk)
        state = load_view(tournament, ORGANISER)
    return state


def view_of(tournament: Tournament, kind: str) -> DerivedState | None:
    return public_view(tournament) if kind == PUBLIC else organiser_view(tournament)


def round_results(tournament: Tournament, number: int, kind: str = PUBLIC) -> RoundResults | None:
    """A counted round's tables and byes (None for a round the view does not count, or
    while the view is being worked out): one query, then the cache for the public view."""
    return rounds_results(tournament, [number], kind).get(number)


def rounds_results(
    tournament: Tournament, numbers: list[int], kind: str = PUBLIC
) -> dict[int, RoundResults]:
    """The tables and byes of each of the counted rounds ``numbers``: those of the public
    view from the cache, the others in one query (a round the view does not count is
    left out)."""
    base = _view_key(tournament)
    found: dict[int, RoundResults] = {}
    missing = list(numbers)
    if kind == PUBLIC:
        cached = cache.get_many([f"{base}:round:{number}" for number in numbers])
        missing = []
        for number in numbers:
            hit = cached.get(f"{base}:round:{number}")
            if hit is None:
                missing.append(number)
            elif isinstance(hit, RoundResults):
                found[number] = hit
    if not missing:
        return found
    stored = (
        DerivedView.objects.filter(tournament=tournament, kind=kind)
        .values_list("tables", flat=True)
        .first()
    ) or {}
    fresh = {number: decode_round(stored.get(f"r{number}")) for number in missing}
    if kind == PUBLIC:
        # A round the view does not count is remembered as such (False).
        cache.set_many(
            {
                f"{base}:round:{number}": results if results is not None else False
                for number, results in fresh.items()
            },
            VIEW_TIMEOUT,
        )
    found.update({number: results for number, results in fresh.items() if results is not None})
    return found
