"""Podium chances: worked out in the task worker from the public view, stored, read.

Terms (``scoring.simulation.podium`` has the method's, ``shared.derived`` the pages'):

- *chances apply* while a round is released, the tournament is not finished and play
  is left: a planned round, or a table of a released round still without a result
  (``chances_apply``); never once the standings are final.
- *chances key* (``chances_key``): a digest of everything the figures are made from:
  the public view's fingerprint, the next round's seating once it has started, who plays
  on, the rules, the scoring and the table sizes, the ratings used, the finishes and the
  method's version. The figures are worked out again only when it moves.
- *figures*: what ``work_out`` stores as JSON in ``PodiumChances``: the round they are
  after, the rounds left, the tables still to play, the finishes played, the tiebreaks
  simulated, whether the next round's seating was its own or drawn, the leader, and for
  each player (by id) ``[win, top3, need, win reachable, top3 reachable]``.

A visitor's request never works them out: the task ``derived.tasks.work_out_chances``
does, coalesced (one at a time a tournament, stopping when its key goes stale).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings

from tournament.models import Bye, Player, Round, Seat, TablePolicy, Tournament
from tournament.rounds.seating import splits_for
from tournament.rounds.seating_request import seating_sizes
from tournament.series.services import ratings_before, ratings_stamp
from tournament.shared.derived import DerivedState, round_results
from tournament.standings.services import bye_points

if TYPE_CHECKING:
    import numpy as np

# Finishes played for the stored figures (``settings.PODIUM_FINISHES``): 10,000 puts a
# chance within ±1 point of a percentage (two standard errors at 50 %); 1,000 players
# take about 2 s.
FINISHES = 10_000


def stored_finishes() -> int:
    return int(getattr(settings, "PODIUM_FINISHES", FINISHES))


# Moved whenever the method changes what it stores, so stored figures are made again.
METHOD_VERSION = 2


def chances_apply(tournament: Tournament, after: int, missing: bool) -> bool:
    """Whether podium chances are shown after released round ``after`` (the last), with
    tables of released rounds still ``missing`` a result or not."""
    if after == 0 or tournament.finished:
        return False
    return after < tournament.planned_rounds or missing


def _applies(tournament: Tournament, state: DerivedState) -> bool:
    return chances_apply(
        tournament, max(state.round_numbers, default=0), bool(state.missing_tables)
    )


def _next_round(
    tournament: Tournament, number: int
) -> tuple[tuple[tuple[int, ...], ...] | None, tuple[int, ...]]:
    """The tables (player ids, seat 1 first) and byes of round ``number`` once it has
    started (seating a round moves nothing public before its start); else None."""
    round_ = Round.objects.filter(tournament=tournament, number=number, started=True).first()
    if round_ is None:
        return None, ()
    tables: dict[int, list[int]] = {}
    for table, player in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables.setdefault(table, []).append(player)
    byes = tuple(Bye.objects.filter(round=round_).values_list("player_id", flat=True))
    return tuple(tuple(seated) for seated in tables.values()), byes


def chances_key(
    tournament: Tournament, fingerprint: str, after: int, missing: bool, finishes: int = 0
) -> str:
    """The digest of what the chances of the public view of ``fingerprint`` (released
    rounds up to ``after``, tables still ``missing`` a result or not) are made from;
    empty when no chances apply. A handful of queries."""
    if not chances_apply(tournament, after, missing):
        return ""
    seated = _next_round(tournament, after + 1)
    on = sorted(
        Player.objects.filter(tournament=tournament, active=True).values_list("pk", flat=True)
    )
    facts = (
        METHOD_VERSION,
        finishes or stored_finishes(),
        fingerprint,
        seated,
        on,
        tournament.planned_rounds,
        tournament.scoring,
        tournament.rules.as_data(),
        tournament.rotations_per_round,
        tournament.bye_score,
        tournament.table_policy,
        tournament.table_sizes,
        tournament.slug,
        ratings_stamp(tournament),
    )
    return hashlib.sha256(repr(facts).encode()).hexdigest()


def work_out(
    tournament: Tournament,
    state: DerivedState,
    finishes: int = 0,
    seed: int | None = None,
    keep_going: Callable[[], bool] | None = None,
) -> dict[str, Any] | None:
    """The figures of the public view ``state``; empty when no chances apply, None when
    ``keep_going`` said stop between blocks of finishes (the view moved on). ``seed``
    defaults to one made from the tournament's slug: the same facts give the same
    figures, in a restored copy too."""
    # Imported here: numpy and the simulator load only where chances are worked out.
    import numpy as np

    from scoring.simulation.podium import (
        Field,
        RoundsLeft,
        Stopped,
        podium_chances,
        pool_for,
    )

    if not _applies(tournament, state):
        return {}
    finishes = finishes or stored_finishes()
    standings = state.standings
    after = max(state.round_numbers)
    keys = [row.key for row in standings.rows]
    index: dict[Any, int] = {pk: at for at, pk in enumerate(keys)}
    tallies = {row.key: row.tally for row in standings.rows}
    on = set(Player.objects.filter(tournament=tournament, active=True).values_list("pk", flat=True))
    ranked = [row for row in standings.rows if row.rank is not None]
    leader = (ranked or list(standings.rows))[0].key

    def column(figure: Callable[[Any], int]) -> np.ndarray:
        return np.asarray([figure(tallies[pk]) for pk in keys], dtype=np.int64)

    ratings_of, skill = _skill(tournament, keys)
    columns = len(standings.round_numbers)
    rounds = np.asarray(
        [[total or 0 for total in tallies[pk].rounds] for pk in keys], dtype=np.int64
    ).reshape(len(keys), columns)
    field = Field(
        points=column(lambda tally: tally.points),
        last_in=column(lambda tally: tally.last_in),
        table_wins=column(lambda tally: tally.table_wins),
        rounds=rounds,
        played=np.asarray(
            [[total is not None for total in tallies[pk].rounds] for pk in keys], dtype=bool
        ).reshape(rounds.shape),
        plays_on=np.asarray([pk in on for pk in keys], dtype=bool),
        leader=index[leader],
        skill=skill,
    )
    pending = _pending(tournament, state, index)
    seated_ids, seated_byes = _next_round(tournament, after + 1)
    seated = (
        tuple(tuple(index[pk] for pk in table) for table in seated_ids)
        if seated_ids is not None
        else None
    )
    rounds_left = max(tournament.planned_rounds - after, 0)
    sizes = _drawn_sizes(tournament, int(field.plays_on.sum()))
    every_size = (
        set(sizes)
        | {len(table) for table in seated or ()}
        | {len(table) for each in pending for table in each.tables}
    )
    system, rules, rotations = (
        tournament.scoring_system,
        tournament.rules,
        tournament.rotations_per_round,
    )
    plan = RoundsLeft(
        rounds_left=rounds_left,
        sizes=sizes,
        bye_points=bye_points(tournament),
        seated=seated,
        seated_byes=tuple(index[pk] for pk in seated_byes),
        pending=pending,
    )
    pools = {size: pool_for(rules, system, size, rotations) for size in every_size}
    try:
        found = podium_chances(
            field,
            plan,
            pools,
            standings.tiebreaks,
            finishes,
            zlib.crc32(tournament.slug.encode()) if seed is None else seed,
            keep_going=keep_going,
        )
    except Stopped:
        return None
    return {
        "after_round": after,
        "rounds_left": rounds_left,
        "pending": [list(each) for each in _pending_tables(state)],
        "finishes": finishes,
        "tiebreaks": list(found.tiebreaks_used),
        "seated": seated is not None,
        "ratings_of": ratings_of,
        "leader": leader,
        "players": {
            str(pk): [
                round(float(found.win[at]), 4),
                round(float(found.top3[at]), 4),
                None if pk == leader else found.need[at],
                bool(found.win_reachable[at]),
                bool(found.top3_reachable[at]),
            ]
            for pk, at in index.items()
        },
    }


def _pending_tables(state: DerivedState) -> list[tuple[int, int]]:
    return [(table.round, table.table) for table in state.missing_tables]


def _pending(tournament: Tournament, state: DerivedState, index: dict[Any, int]) -> tuple[Any, ...]:
    """The tables of released rounds without a result, by round: their seats (player
    indexes, seat 1 first), played as still to come."""
    from scoring.simulation.podium import PendingRound

    missing: dict[int, set[int]] = {}
    for number, table in _pending_tables(state):
        missing.setdefault(number, set()).add(table)
    found = []
    for number, tables in sorted(missing.items()):
        played = round_results(tournament, number)
        assert played is not None, number  # a counted round has its tables stored
        found.append(
            PendingRound(
                column=state.round_numbers.index(number),
                tables=tuple(
                    tuple(index[seat.player_id] for seat in table.seats)
                    for table in played.tables
                    if table.number in tables
                ),
            )
        )
    return tuple(found)


def _skill(tournament: Tournament, keys: list[Any]) -> tuple[str, Any]:
    """The players' skill from the ratings of a series counting the tournament, as they
    stood before it: each rated player's mu less the mean of the rated players here, 0
    for the others. ("", None), equal skill, when no series rates any of them."""
    import numpy as np

    found = ratings_before(tournament)
    if found is None:
        return "", None
    name, ratings = found
    people = dict(Player.objects.filter(pk__in=keys).values_list("pk", "person_id"))
    mu = [ratings.get(people.get(pk) or 0) for pk in keys]
    rated = [value for value in mu if value is not None]
    if not rated:
        return "", None
    mean = sum(rated) / len(rated)
    return name, np.asarray([0.0 if value is None else value - mean for value in mu])


def _drawn_sizes(tournament: Tournament, playing: int) -> tuple[int, ...]:
    """The table sizes of a drawn round: the engine's best split for the players it would
    seat under the mixed policy, else tables of five (the rest sit out)."""
    if tournament.table_policy == TablePolicy.MIXED:
        splits = splits_for(tournament)
        if splits and sum(splits[0]) <= playing:
            return tuple(splits[0])
    sizes = seating_sizes(tournament) or tournament.sizes_allowed
    five = 5 if 5 in sizes else max(sizes)
    return (five,) * (playing // five)
