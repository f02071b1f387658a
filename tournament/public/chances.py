"""Podium chances on the public pages: worked out once per public change, stored, read.

Terms (``scoring.simulation.podium`` has the method's):

- *chances apply* while a round is released, the tournament is not finished and a
  planned round is left (``chances_apply``); never once the standings are final.
- *figures*: what ``work_out`` stores as JSON in ``PodiumChances``: the round they are
  after, the rounds left, the finishes played, the tiebreaks simulated, whether the next
  round's seating was its own or drawn, the leader, and for each player (by id)
  ``[win, top3, need]``.
- *refresh*: after a change to what the public sees is committed
  (``shared.public_changes.after_public_change``), ``refresh_chances`` works the figures
  out for the tournament's new generation and stores them, moving the generation once
  more so that pages cached meanwhile ("being worked out") go stale. A visitor's request
  only reads the stored figures, with the public results (``public.results``): never
  older ones, and it never works them out.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from scoring.simulation.podium import (
    Chances,
    Field,
    PendingRound,
    RoundsLeft,
    podium_chances,
    pool_for,
)
from tournament.models import Bye, Player, PodiumChances, Round, Seat, TablePolicy, Tournament
from tournament.rounds.seating import splits_for
from tournament.rounds.seating_request import seating_sizes
from tournament.series.services import ratings_before
from tournament.shared import public_changes
from tournament.standings.services import bye_points, standings_facts, standings_from

# Finishes played for the stored figures: 10,000 puts a chance within ±1 point of a
# percentage (two standard errors at 50 %); 1,000 players take about 1 s a round left.
FINISHES = 10_000


@dataclass(frozen=True)
class PlayerChances:
    win: float
    top3: float
    # About how many points more than the leader the player needs in the rounds left,
    # None when the player wins too rarely for a figure (or is the leader).
    need: int | None


@dataclass(frozen=True)
class StoredChances:
    """The stored figures as the pages read them."""

    after_round: int
    rounds_left: int
    finishes: int
    tiebreaks: tuple[str, ...]
    seated: bool
    leader: int
    players: dict[int, PlayerChances]
    # The series whose ratings gave the players' skill; "" for equal skill.
    ratings_of: str = ""

    @property
    def finishes_words(self) -> str:
        return f"{self.finishes:,}"

    @property
    def next_round(self) -> int:
        return self.after_round + 1

    @property
    def last_round(self) -> int:
        return self.after_round + self.rounds_left

    @property
    def rounds_words(self) -> str:
        """ "round 5" or "rounds 4 to 5"."""
        if self.rounds_left == 1:
            return f"round {self.next_round}"
        return f"rounds {self.next_round} to {self.last_round}"


def chances_apply(tournament: Tournament, after_round: int) -> bool:
    """Whether podium chances are shown after ``after_round`` (the last released)."""
    return 0 < after_round < tournament.planned_rounds and not tournament.finished


def percent(fraction: float) -> str:
    """ "31 %", "< 1 %" for a chance that is not nothing, "> 99 %" for one short of
    certain (with no-break spaces)."""
    # No-break spaces: a chance never breaks across lines.
    if 0 < fraction < 0.005:
        return "<\u00a01\u00a0%"
    if 0.995 <= fraction < 1:
        return ">\u00a099\u00a0%"
    return f"{round(fraction * 100)}\u00a0%"


def work_out(
    tournament: Tournament, finishes: int = FINISHES, seed: int | None = None
) -> dict[str, Any]:
    """The figures of ``tournament`` after its last released round; empty when no
    chances apply. ``seed`` defaults to one made from the tournament's slug: the same
    facts give the same figures, in a restored copy too."""
    facts = standings_facts(tournament, released_only=True)
    standings = standings_from(tournament, facts).standings
    after = max(standings.round_numbers, default=0)
    if not chances_apply(tournament, after):
        return {}
    keys = list(facts.players)
    index = {pk: at for at, pk in enumerate(keys)}
    tallies = {row.key: row.tally for row in standings.rows}
    on = set(Player.objects.filter(tournament=tournament, active=True).values_list("pk", flat=True))
    leader = next(row.key for row in standings.rows)

    def column(figure: Any) -> np.ndarray:
        return np.asarray([figure(tallies[pk]) for pk in keys], dtype=np.int64)

    ratings_of, skill = _skill(tournament, keys)

    rounds = np.asarray(
        [[total or 0 for total in tallies[pk].rounds] for pk in keys], dtype=np.int64
    ).reshape(len(keys), len(standings.round_numbers))
    field = Field(
        points=column(lambda tally: tally.points),
        last_in=column(lambda tally: tally.last_in),
        table_wins=column(lambda tally: tally.table_wins),
        rounds=rounds,
        played=np.asarray(
            [[total is not None for total in tallies[pk].rounds] for pk in keys], dtype=bool
        ).reshape(rounds.shape),
        plays_on=np.asarray([pk in on for pk in keys], dtype=bool),
        leader=index[leader],  # type: ignore[index]
        skill=skill,
    )
    seated, seated_byes = _next_round(tournament, after + 1, index)
    # A released table with no result yet is still to play, in every finish.
    column_of = {number: at for at, number in enumerate(standings.round_numbers)}
    pending: dict[int, list[tuple[int, ...]]] = {}
    for table in facts.tables:
        if not table.deals:
            pending.setdefault(column_of[table.round_number], []).append(
                tuple(index[pk] for pk in table.players)
            )
    plan = RoundsLeft(
        rounds_left=tournament.planned_rounds - after,
        sizes=_drawn_sizes(tournament, int(field.plays_on.sum())),
        bye_points=bye_points(tournament),
        seated=seated,
        seated_byes=seated_byes,
        pending=tuple(PendingRound(at, tuple(tables)) for at, tables in sorted(pending.items())),
    )
    sizes = set(plan.sizes) | {len(table) for table in seated or ()}
    sizes |= {len(table) for tables in pending.values() for table in tables}
    pools = {
        size: pool_for(
            tournament.rules, tournament.scoring_system, size, tournament.rotations_per_round
        )
        for size in sizes
    }
    found: Chances = podium_chances(
        field,
        plan,
        pools,
        standings.tiebreaks,
        finishes,
        zlib.crc32(tournament.slug.encode()) if seed is None else seed,
    )
    return {
        "after_round": after,
        "rounds_left": plan.rounds_left,
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
            ]
            for pk, at in index.items()
        },
    }


def _skill(tournament: Tournament, keys: list[int]) -> tuple[str, np.ndarray | None]:
    """The players' skill from the ratings of a series counting the tournament, as they
    stood before it: each rated player's mu less the mean of the rated players here, 0
    for the others. ("", None), equal skill, when no series rates any of them."""
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


def _next_round(
    tournament: Tournament, number: int, index: dict[int, int]
) -> tuple[tuple[tuple[int, ...], ...] | None, tuple[int, ...]]:
    """The tables (player indexes, seat 1 first) and byes of round ``number`` once it has
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
        tables.setdefault(table, []).append(index[player])
    byes = Bye.objects.filter(round=round_).values_list("player_id", flat=True)
    return tuple(tuple(seated) for seated in tables.values()), tuple(index[pk] for pk in byes)


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


def refresh_chances(tournament_id: int) -> None:
    """Work out and store the chances of a tournament whose public generation moved
    (after the change is committed), unless they are stored for it already."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    stamp = tournament.public_changed
    if PodiumChances.objects.filter(tournament=tournament, made_for=stamp).exists():
        return
    after = Round.objects.filter(tournament=tournament, released=True).aggregate(
        last=Max("number")
    )["last"]
    if not chances_apply(tournament, after or 0):
        PodiumChances.objects.filter(tournament=tournament).delete()
        return
    figures = work_out(tournament)
    with transaction.atomic():
        moved = timezone.now()
        # Another change meanwhile: its own refresh stores the figures for it.
        if not Tournament.objects.filter(pk=tournament_id, public_changed=stamp).update(
            public_changed=moved
        ):
            return
        PodiumChances.objects.update_or_create(
            tournament=tournament, defaults={"made_for": moved, "figures": figures}
        )
    public_changes.forget_generations()


public_changes.after_public_change(refresh_chances)


def store_for_present_generation(tournament: Tournament) -> None:
    """Work out and store the chances for the generation the tournament has, without
    moving it: for a restore, which puts back each tournament's generation as it was
    (the site comes back identical) and so finds the figures stored when its commit
    asks for a refresh."""
    after = Round.objects.filter(tournament=tournament, released=True).aggregate(
        last=Max("number")
    )["last"]
    if not chances_apply(tournament, after or 0):
        return
    PodiumChances.objects.update_or_create(
        tournament=tournament,
        defaults={"made_for": tournament.public_changed, "figures": work_out(tournament)},
    )


def stored_chances(tournament: Tournament) -> StoredChances | None:
    """The figures stored for the tournament's present generation: one query; None when
    none are (not worked out yet, or no chances apply)."""
    figures = (
        PodiumChances.objects.filter(tournament=tournament, made_for=tournament.public_changed)
        .values_list("figures", flat=True)
        .first()
    )
    if not figures:
        return None
    return StoredChances(
        after_round=figures["after_round"],
        rounds_left=figures["rounds_left"],
        finishes=figures["finishes"],
        tiebreaks=tuple(figures["tiebreaks"]),
        seated=figures["seated"],
        leader=figures["leader"],
        ratings_of=figures.get("ratings_of", ""),
        players={
            int(pk): PlayerChances(win, top3, need)
            for pk, (win, top3, need) in figures["players"].items()
        },
    )


@dataclass(frozen=True)
class ChancesView:
    """What a page shows of the chances: ``pending`` while they apply but are not stored
    for this generation yet ("being worked out"); ``stored`` once they are."""

    pending: bool
    stored: StoredChances | None

    @property
    def shown(self) -> bool:
        return self.stored is not None

    @property
    def method(self) -> str:
        """How the chances are worked out, in a few sentences (one tap away)."""
        stored = self.stored
        if stored is None:
            return ""
        order = ", then ".join(["points", *(_TIEBREAK_WORDS[key] for key in stored.tiebreaks)])
        skill = (
            f"each player's skill from their rating in {stored.ratings_of} before this "
            "tournament (a player without one of the field's average)"
            if stored.ratings_of
            else "every player of equal skill"
        )
        seating = (
            f"round {stored.next_round} as it is seated"
            if stored.seated
            else f"round {stored.next_round} seated at random into the tables of the evening"
        )
        return (
            f"{stored.finishes:,} simulated finishes of {stored.rounds_words}: every table "
            "plays deals from the game's simulator under this tournament's rules and "
            f"scoring, {skill}, {seating}"
            + (", the rounds after it at random" if stored.rounds_left > 1 else "")
            + f". Players are ranked by {order}; players still level are put in a random "
            "order. What you need is the middle (median) of your points over the leader's "
            "in the rounds left, in the finishes you win."
        )


_TIEBREAK_WORDS = {
    "last_in": "deals last in",
    "table_wins": "table wins",
    "best_round": "best round",
    "countback": "countback",
}


def chances_view(
    tournament: Tournament, after_round: int, stored: StoredChances | None
) -> ChancesView:
    """The chances a public page shows after ``after_round``: no query."""
    if not chances_apply(tournament, after_round):
        return ChancesView(False, None)
    if stored is None or stored.after_round != after_round:
        return ChancesView(True, None)
    return ChancesView(False, stored)


def need_words(stored: StoredChances, player_id: int, leader_name: str) -> str:
    """ "to pass the leader you need about 6 points more than Ann Lee in round 5", or
    empty for the leader and a player who wins too rarely for a figure."""
    mine = stored.players.get(player_id)
    if mine is None or mine.need is None or player_id == stored.leader:
        return ""
    when = f"in {stored.rounds_words}"
    if mine.need <= 0:
        return (
            f"in the finishes you win you score about as many points as the leader, "
            f"{leader_name}, {when}"
        )
    points = "point" if mine.need == 1 else "points"
    return f"to pass the leader you need about {mine.need} {points} more than {leader_name} {when}"
