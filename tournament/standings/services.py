"""Standings of a stored tournament: a fixed handful of queries, then ``scoring``.

Each seat keeps its sums over its table's confirmed deals (written with the deals, see
``Seat``), so Python reads one row per player and round, not one per deal;
``scoring.systems.points_from_sums`` turns the sums into points under the tournament's
scoring system. The queries do not depend on the number of players, rounds or deals:
one each for the players, the rounds, the byes, the penalties and awards, and the seats
(and one for sheets awaiting confirmation when those are included).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.plays import Entrant, PointsAdjustment, TablePlay, TableSums
from scoring.rules import DealFacts, Leave, deals_in_round, leaves_of
from scoring.rulesets import balance
from scoring.standings import compute_standings as compute
from scoring.systems import ScoringSystem, SeatSums, points_from_sums
from tournament.models import (
    PERSON_ID_PREFIX,
    Adjustment,
    Bye,
    ByeScore,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    Tournament,
)
from tournament.shared.derived import (
    NO_RESULT_YET,
    IncompleteTable,
    PlayerInfo,
    TournamentStandings,
    and_list,
    missing_in_words,
    rank_label,
)
from tournament.sheets.rows import Row, deal_facts

# Defined with the views every surface reads (``shared.derived``), and named here too.
__all__ = [
    "NO_RESULT_YET",
    "IncompleteTable",
    "PlayerInfo",
    "TournamentStandings",
    "and_list",
    "missing_in_words",
    "rank_label",
]

POINTS_PER_DEAL = 26


def _pending_deals(
    tournament: Tournament,
) -> dict[int, tuple[list[tuple[int, DealFacts]], tuple[Leave, ...]]]:
    """The rows and leaves of sheets awaiting confirmation, for those who may see them."""
    pending = {}
    rows: list[Row]
    for table_id, rows, left in Sheet.objects.filter(
        table__round__tournament=tournament, status=SheetStatus.ENTERED
    ).values_list("table_id", "pending", "pending_left"):
        numbered = [(number, deal_facts(row)) for number, row in enumerate(rows, start=1)]
        pending[table_id] = (numbered, leaves_of(left))
    return pending


def bye_points(tournament: Tournament) -> int:
    """What a bye scores: 0, or the average of a round at a table of five, where byes are
    sat out (26 points a deal × rotations under winner-advantage scoring; under classic
    stakes a player's share of what a deal's nets sum to, 0 where the rule set is
    zero-sum, as every preset is at five; 0 under Caidis, which is)."""
    if tournament.bye_score != ByeScore.AVERAGE:
        return 0
    system = tournament.scoring_system
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return POINTS_PER_DEAL * tournament.rotations_per_round
    if system is ScoringSystem.CLASSIC_STAKES and 5 in tournament.rules.sizes:
        found = balance(tournament.rules.params(5))
        if found.lowest == found.highest:
            # Five deals a rotation share the nets' sum among five players.
            return found.lowest * tournament.rotations_per_round
    return 0


@dataclass(frozen=True)
class SummedTable:
    """A table as its seats' rows give it: the players in seat order and their sums."""

    round_number: int
    number: int
    players: tuple[int, ...]
    sums: tuple[SeatSums, ...]
    leaves: tuple[Leave, ...] = ()

    @property
    def deals(self) -> int:
        """The deals recorded at the table (a seat that left played fewer)."""
        return max(seat.deals for seat in self.sums)


def _table_plays(
    tournament: Tournament, rounds: dict[str, object], include_unconfirmed: bool
) -> tuple[list[TablePlay | TableSums], list[IncompleteTable], list[SummedTable]]:
    seats: dict[int, tuple[int, int, list[int], list[SeatSums], tuple[Leave, ...]]] = {}
    for table_id, round_number, table_number, left, player_id, *sums in (
        Seat.objects.filter(round__tournament=tournament, **_on("round__", rounds))
        .order_by("table_id", "position")
        .values_list(
            "table_id",
            "round__number",
            "table__number",
            "table__left",
            "player_id",
            *Seat.SUM_FIELDS,
        )
    ):
        table = seats.setdefault(table_id, (round_number, table_number, [], [], leaves_of(left)))
        table[2].append(player_id)
        table[3].append(SeatSums(*sums))

    pending = _pending_deals(tournament) if include_unconfirmed else {}
    system, rules = tournament.scoring_system, tournament.rules
    plays: list[TablePlay | TableSums] = []
    incomplete = []
    for table_id, (round_number, table_number, players, table_sums, leaves) in seats.items():
        size = len(players)
        if table_id in pending:
            numbered, leaves = pending[table_id]
            play = TablePlay(
                round_number, tuple(players), tuple(numbered), leaves, tournament.rules
            )
            plays.append(play)
            played = len(play.deals)
        else:
            played = max(seat.deals for seat in table_sums)
            plays.append(
                TableSums(
                    round_number,
                    tuple(players),
                    tuple(points_from_sums(seat, system, rules) for seat in table_sums),
                    tuple(seat.last_in for seat in table_sums),
                    played,
                    tuple(seat.deals for seat in table_sums) if leaves else (),
                )
            )
        expected = deals_in_round(size, tournament.rotations_per_round, leaves)
        if played < expected:
            incomplete.append(IncompleteTable(round_number, table_number, played, expected))
    incomplete.sort(key=lambda table: (table.round, table.table))
    seated = [
        SummedTable(round_number, number, tuple(players), tuple(sums), leaves)
        for round_number, number, players, sums, leaves in seats.values()
    ]
    return plays, incomplete, seated


def _on(path: str, rounds: dict[str, object]) -> dict[str, object]:
    """The round conditions ``rounds`` for a model that reaches its round through ``path``."""
    return {f"{path}{key}": value for key, value in rounds.items()}


@dataclass(frozen=True)
class StandingsFacts:
    """What a tournament's standings are made of, as loaded: the players, the tables with
    their sums (or their sheets awaiting confirmation), the rounds counted and the byes."""

    players: dict[int, PlayerInfo]
    plays: list[TablePlay | TableSums]
    incomplete_tables: tuple[IncompleteTable, ...]
    round_numbers: list[int]
    byes: list[tuple[int, int]]
    # The same tables as their seats' rows give them, in the order of ``plays``.
    tables: tuple[SummedTable, ...] = ()
    # The penalties and awards of the rounds counted (those not removed).
    adjustments: tuple[PointsAdjustment, ...] = ()

    @property
    def entrants(self) -> list[Entrant]:
        return [Entrant(pk, info.name) for pk, info in self.players.items()]


def person_identifier(person_id: int | None, member: str | None) -> str:
    """``Person.identifier`` from the person's id and member number, without the row."""
    if person_id is None:
        return ""
    return member or f"{PERSON_ID_PREFIX}{person_id}"


def standings_facts(
    tournament: Tournament, *, include_unconfirmed: bool = False, released_only: bool = False
) -> StandingsFacts:
    """The facts ``tournament_standings`` counts (its arguments are the same): five queries,
    six with the sheets awaiting confirmation."""
    rounds: dict[str, object] = {"released": True} if released_only else {"started": True}
    players = {
        pk: PlayerInfo(ref, name, club, person_identifier(person_id, member))
        for pk, ref, name, club, person_id, member in Player.objects.filter(
            tournament=tournament
        ).values_list("pk", "ref", "name", "club", "person_id", "person__member")
    }
    plays, incomplete, tables = _table_plays(tournament, rounds, include_unconfirmed)
    return StandingsFacts(
        players=players,
        plays=plays,
        incomplete_tables=tuple(incomplete),
        tables=tuple(tables),
        round_numbers=list(
            Round.objects.filter(tournament=tournament, **rounds).values_list("number", flat=True)
        ),
        byes=list(
            Bye.objects.filter(round__tournament=tournament, **_on("round__", rounds)).values_list(
                "round__number", "player_id"
            )
        ),
        adjustments=counted_adjustments(
            Adjustment.objects.filter(tournament=tournament, **_on("round__", rounds))
        ),
    )


def counted_adjustments(adjustments: QuerySet[Adjustment]) -> tuple[PointsAdjustment, ...]:
    """Of ``adjustments``, those not removed, as the standings count them: one query."""
    return tuple(
        PointsAdjustment(number, player_id, points, reason)
        for number, player_id, points, reason in adjustments.filter(
            removed_at__isnull=True
        ).values_list("round__number", "player_id", "points", "reason")
    )


def standings_from(tournament: Tournament, facts: StandingsFacts) -> TournamentStandings:
    standings = compute(
        facts.entrants,
        facts.plays,
        tournament.scoring_system,
        tournament.tiebreaks,
        facts.round_numbers,
        facts.byes,
        bye_points(tournament),
        facts.adjustments,
    )
    return TournamentStandings(tournament, standings, facts.players, facts.incomplete_tables)


def tournament_standings(
    tournament: Tournament, *, include_unconfirmed: bool = False, released_only: bool = False
) -> TournamentStandings:
    """Standings from confirmed sheets; ``include_unconfirmed`` also counts sheets that
    await confirmation (for organisers and scorers, never the public); ``released_only``
    counts only the rounds the organiser has released (the public view). A round that is
    seated but not started counts nowhere: nobody has played it yet."""
    facts = standings_facts(
        tournament, include_unconfirmed=include_unconfirmed, released_only=released_only
    )
    return standings_from(tournament, facts)
