"""How good a round's seating is: the meetings it adds to the rounds before it, shown to
the organiser with the pairs who meet again and the best the table sizes allow."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from itertools import combinations

from scoring.seating import PlayerId, Quality, RoundSeating, quality
from scoring.seating.table_bound import round_forced_repeats
from tournament.models import Bye, Player, Round, Seat, Tournament
from tournament.rounds.seating_request import not_checked_in, seating_history


@dataclass(frozen=True)
class RoundQuality:
    """The figures shown to the organiser for a round: the meetings this round adds to
    the rounds before it."""

    quality: Quality
    # Pairs who meet at this round's tables and have met before: (name, name, times).
    repeats: tuple[tuple[str, str, int], ...]
    # Active players a new round would leave out because check-in has begun without them.
    not_checked_in: int = 0


def round_quality(round_: Round) -> RoundQuality:
    """Meeting figures of the tournament up to and including this round."""
    tournament = round_.tournament
    history = seating_history(tournament, before=round_.number)
    current = RoundSeating(
        tuple(tuple(players) for players in _tables_of(round_).values()),
        tuple(Bye.objects.filter(round=round_).values_list("player_id", flat=True)),
    )
    players = Player.objects.filter(tournament=tournament, active=True).values_list("pk", flat=True)
    figures = quality([current], history, players)
    met: dict[tuple[PlayerId, PlayerId], int] = defaultdict(int)
    for table in history:
        for pair in combinations(sorted(table), 2):
            met[pair] += 1
    names: dict[PlayerId, str] = dict(
        Player.objects.filter(tournament=tournament).values_list("pk", "name")
    )
    repeats = sorted(
        (names[a], names[b], met[(a, b)] + 1)
        for table in current.tables
        for a, b in combinations(sorted(table), 2)
        if met.get((a, b))
    )
    # What the table sizes force, given who sat together in each earlier round.
    forced = round_forced_repeats(
        [len(table) for table in current.tables],
        len(current.byes),
        [p for table in current.tables for p in table] + list(current.byes),
        history_by_round(tournament, before=round_.number),
    )
    history_repeats = sum(times - 1 for times in met.values())
    figures = replace(figures, lower_bound=max(figures.lower_bound, history_repeats + forced))
    return RoundQuality(figures, tuple(repeats), not_checked_in(tournament))


def history_by_round(tournament: Tournament, before: int) -> list[list[list[int]]]:
    """The tables of each round before ``before``, as lists of player ids."""
    rounds: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for number, table_id, player_id in (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table_id", "player_id")
    ):
        rounds[number][table_id].append(player_id)
    return [list(tables.values()) for tables in rounds.values()]


def _tables_of(round_: Round) -> dict[int, list[int]]:
    tables: dict[int, list[int]] = defaultdict(list)
    for number, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables[number].append(player_id)
    return dict(tables)
