"""Seating rounds of a stored tournament with the engine in ``scoring.seating``.

Over 400 lines: building the engine's request from the stored rounds, keeping its plan,
re-seating by hand and the quality figures all read the same history of who sat where.

Terms:

- *draft round*: a round that is seated but not started. Its seating may be regenerated
  with another seed or changed by swapping two players.
- *started round*: frozen; only a table with no scores yet may be explicitly re-seated.
- *plan*: the engine seats all the rounds still to come at once (the tournament knows
  its planned number of rounds), which gives the same quality round by round as planning
  the whole tournament. The plan is stored on the tournament with a fingerprint of what
  it was made from: the roster, the seating history and the constraints (club pairs and
  how many rounds keep clubs apart included). The next round is taken from the plan while
  the fingerprint still matches; when any of these changed (a late arrival, a drop, a hand
  swap, an edited club), or the organiser gives a seed, the remaining rounds are planned
  again.
- *checked in*: once any active player is checked in, rounds seat only the active players
  who are; before that, every active player.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from scoring.errors import UserError
from scoring.seating import (
    Method,
    PlayerId,
    Quality,
    RoundSeating,
    SeatingError,
    SeatingRequest,
    method_named,
    quality,
    table_splits,
)
from scoring.seating.table_bound import round_forced_repeats
from tournament.models import (
    Bye,
    KeepApart,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    Table,
    TablePolicy,
    Tournament,
)
from tournament.shared.locks import lock_round
from tournament.sheets.reading import sheet_of
from tournament.sheets.versions import record_reseat


@dataclass(frozen=True)
class RoundQuality:
    """The figures shown to the organiser for a round: the meetings this round adds to
    the rounds before it."""

    quality: Quality
    # Pairs who meet at this round's tables and have met before: (name, name, times).
    repeats: tuple[tuple[str, str, int], ...]
    # Active players a new round would leave out because check-in has begun without them.
    not_checked_in: int = 0


def _to_seat(tournament: Tournament) -> QuerySet[Player]:
    """The players a new round seats: the active ones, and only those checked in once
    check-in has begun."""
    active = Player.objects.filter(tournament=tournament, active=True)
    if active.filter(checked_in=True).exists():
        return active.filter(checked_in=True)
    return active


def not_checked_in(tournament: Tournament) -> int:
    """How many active players the next round leaves out for not being checked in."""
    active = Player.objects.filter(tournament=tournament, active=True)
    if not active.filter(checked_in=True).exists():
        return 0
    return active.filter(checked_in=False).count()


def _history(tournament: Tournament, before: int | None = None) -> list[tuple[int, ...]]:
    seats = Seat.objects.filter(round__tournament=tournament)
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in seats.order_by(
        "round__number", "table__number", "position"
    ).values_list("table_id", "player_id"):
        tables[table_id].append(player_id)
    return [tuple(players) for players in tables.values()]


def seating_request(
    tournament: Tournament,
    *,
    rounds: int,
    seed: int,
    before: int | None = None,
    split: tuple[int, ...] | None = None,
) -> SeatingRequest:
    """What the engine needs to seat ``rounds`` rounds after the rounds before ``before``
    (all rounds when None), at tables of ``split`` when the organiser chose one."""
    players = list(_to_seat(tournament).values_list("pk", "club", "fixed_table"))
    byes = Bye.objects.filter(round__tournament=tournament)
    if before is not None:
        byes = byes.filter(round__number__lt=before)
    played = Round.objects.filter(tournament=tournament)
    if before is not None:
        played = played.filter(number__lt=before)
    early_rounds = max(0, tournament.keep_clubs_apart_rounds - played.count())
    clubs: dict[str, list[int]] = defaultdict(list)
    for pk, club, _ in players:
        if club.strip():
            clubs[club.strip().casefold()].append(pk)
    same_club = tuple(
        pair for members in clubs.values() for pair in combinations(sorted(members), 2)
    )
    return SeatingRequest(
        players=tuple(sorted(pk for pk, _, _ in players)),
        rounds=rounds,
        sizes=tuple(tournament.table_sizes),
        byes=tournament.table_policy == TablePolicy.BYES,
        split=split if tournament.table_policy == TablePolicy.MIXED else None,
        history=tuple(_history(tournament, before)),
        past_byes=tuple(sorted(byes.values_list("player_id", flat=True))),
        keep_apart=tuple(
            KeepApart.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("first_id", "second_id")
        ),
        keep_apart_early=same_club if early_rounds else (),
        early_rounds=early_rounds,
        fixed_tables=tuple((pk, fixed) for pk, _, fixed in players if fixed is not None),
        seed=seed,
    )


def _fingerprint(request: SeatingRequest) -> str:
    """What a plan depends on, besides how many rounds it covers and the seed it was made
    with (a new round without a seed continues the plan; a given seed re-plans)."""
    facts = replace(request, rounds=0, seed=0)
    return hashlib.sha256(repr(facts).encode()).hexdigest()


def _after(request: SeatingRequest, seated: RoundSeating) -> SeatingRequest:
    """The request as it will look once ``seated`` is in the history."""
    early_rounds = max(0, request.early_rounds - 1)
    return replace(
        request,
        history=(*request.history, *seated.tables),
        past_byes=tuple(sorted((*request.past_byes, *seated.byes))),
        keep_apart_early=request.keep_apart_early if early_rounds else (),
        early_rounds=early_rounds,
    )


def _as_json(seating: RoundSeating) -> dict[str, Any]:
    return {"tables": [list(t) for t in seating.tables], "byes": list(seating.byes)}


def _from_json(data: dict[str, Any]) -> RoundSeating:
    return RoundSeating(tuple(tuple(t) for t in data["tables"]), tuple(data["byes"]))


def _balanced(
    tournament: Tournament,
    number: int,
    seed: int,
    split: tuple[int, ...] | None,
    replan: bool,
    method: Method,
) -> RoundSeating:
    remaining = max(1, tournament.planned_rounds - (number - 1))
    request = seating_request(tournament, rounds=remaining, seed=seed, before=number, split=split)
    stored = tournament.seating_plan or {}
    if not replan and stored.get("fingerprint") == _fingerprint(request) and stored.get("rounds"):
        upcoming = [_from_json(r) for r in stored["rounds"]]
    else:
        upcoming = list(method.seat(request, request.players))
    seated, rest = upcoming[0], upcoming[1:]
    tournament.seating_plan = {
        "fingerprint": _fingerprint(_after(request, seated)),
        "rounds": [_as_json(r) for r in rest],
    }
    tournament.save(update_fields=["seating_plan"])
    return seated


def _ranked(tournament: Tournament, request: SeatingRequest) -> list[PlayerId]:
    from tournament.standings.services import tournament_standings

    active = set(request.players)
    return [row.key for row in tournament_standings(tournament).standings.rows if row.key in active]


# The engine names players by the ids it was given (the players' row ids), which mean
# nothing to an organiser: these are the places its messages name them.
_NAMED_IDS = re.compile(
    r"^(?P<a>\d+)(?= is fixed to )"
    r"|^(?P<b>\d+) and (?P<c>\d+)(?= must be kept apart)"
    r"|(?<=^Could not keep )(?P<d>\d+) and (?P<e>\d+)(?= apart)"
)


def _with_names(message: str, tournament: Tournament) -> str:
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))

    def named(found: re.Match[str]) -> str:
        ids = [int(value) for value in found.groupdict().values() if value is not None]
        return " and ".join(names.get(pk, str(pk)) for pk in ids)

    return _NAMED_IDS.sub(named, message)


def _seat(
    tournament: Tournament,
    number: int,
    method: str,
    seed: int,
    split: tuple[int, ...] | None = None,
    replan: bool = False,
) -> RoundSeating:
    try:
        return _seat_by(tournament, number, method, seed, split, replan)
    except SeatingError as error:
        raise SeatingError(_with_names(str(error), tournament)) from None


def _seat_by(
    tournament: Tournament,
    number: int,
    method: str,
    seed: int,
    split: tuple[int, ...] | None,
    replan: bool,
) -> RoundSeating:
    chosen = method_named(method)
    if chosen.plans_ahead:
        return _balanced(tournament, number, seed, split, replan, chosen)
    request = seating_request(tournament, rounds=1, seed=seed, before=number, split=split)
    ranked = _ranked(tournament, request) if chosen.wants_ranking else request.players
    return chosen.seat(request, ranked)[0]


def _write(round_: Round, seating: RoundSeating) -> None:
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number) for number in range(1, len(seating.tables) + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, position=position, player_id=player)
        for table, players in zip(tables, seating.tables, strict=True)
        for position, player in enumerate(players, start=1)
    )
    Bye.objects.bulk_create(Bye(round=round_, player_id=player) for player in seating.byes)
    Sheet.objects.bulk_create(Sheet(table=table) for table in tables)


def seat_next_round(
    tournament: Tournament,
    *,
    method: str = "balanced",
    seed: int | None = None,
    split: tuple[int, ...] | None = None,
) -> Round:
    """Seat the next round as a draft. Refused while the latest round is still a draft, so
    two organisers (or a double click) generating at once create one round. Without a
    seed the round comes from the stored plan (its seed is the round number); a given
    seed plans the remaining rounds again with it."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        latest = Round.objects.filter(tournament=tournament).order_by("-number").first()
        if latest is not None and not latest.started:
            raise UserError(
                f"round {latest.number} is seated but not started: start it, or "
                "regenerate its seating, before seating another round"
            )
        number = latest.number + 1 if latest else 1
        replan = seed is not None
        seed = number if seed is None else seed
        seating = _seat(tournament, number, method, seed, split, replan)
        round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
        _write(round_, seating)
    return round_


def regenerate_round(
    round_: Round,
    *,
    method: str = "balanced",
    seed: int,
    split: tuple[int, ...] | None = None,
) -> Round:
    """Seat a draft round again, with another seed or method."""
    with transaction.atomic():
        # The round before the tournament: the order of ``kernel.locks``.
        round_ = lock_round(round_.pk)
        tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        if round_.started:
            raise UserError(f"round {round_.number} has started: its seating is frozen")
        Table.objects.filter(round=round_).delete()
        Bye.objects.filter(round=round_).delete()
        # A new seed asks for a new plan.
        tournament.seating_plan = None
        seating = _seat(tournament, round_.number, method, seed, split)
        round_.seed = seed
        round_.save(update_fields=["seed"])
        _write(round_, seating)
    return round_


def splits_for(tournament: Tournament) -> list[tuple[int, ...]]:
    """The table splits the organiser can choose from for the active players, best first
    (empty under the byes policy, where every table has five)."""
    if tournament.table_policy != TablePolicy.MIXED:
        return []
    try:
        return table_splits(_to_seat(tournament).count(), tuple(tournament.table_sizes))
    except UserError:
        return []


def seating_token(round_: Round) -> str:
    """A fingerprint of the round's seating: who sits where, and who sits out."""
    seats = Seat.objects.filter(round=round_).order_by("table__number", "position")
    facts = (
        list(seats.values_list("table__number", "position", "player_id")),
        sorted(Bye.objects.filter(round=round_).values_list("player_id", flat=True)),
    )
    return hashlib.sha256(repr(facts).encode()).hexdigest()[:16]


def _has_scores(table_id: int) -> bool:
    return (
        Sheet.objects.filter(table_id=table_id).exclude(status=SheetStatus.NOT_STARTED).exists()
        or Table.objects.filter(pk=table_id, deals__isnull=False).exists()
    )


def swap_players(
    round_: Round, first: Player, second: Player, *, reseat: bool = False, by: Any = None
) -> None:
    """Swap two players' places in a round (a seat for a seat, or a seat for a bye).

    In a started round this needs ``reseat`` (the organiser, ``by``, explicitly re-seats)
    and both tables must have no scores yet. Their sheets then get a new version, so that
    a scorer's page showing the old seating cannot be saved.
    """
    if first.pk == second.pk:
        raise UserError("choose two different players to swap")
    with transaction.atomic():
        # Waits for sheets of the round being saved, and makes new saves wait.
        round_ = lock_round(round_.pk)
        places = {
            seat.player_id: seat
            for seat in Seat.objects.filter(round=round_, player__in=[first, second])
        }
        byes = set(
            Bye.objects.filter(round=round_, player__in=[first, second]).values_list(
                "player_id", flat=True
            )
        )
        for player in (first, second):
            if player.pk not in places and player.pk not in byes:
                raise UserError(f"{player.name} is not seated in round {round_.number}")
        if round_.started:
            if not reseat:
                raise UserError(
                    f"round {round_.number} has started: its seating is frozen unless you "
                    "explicitly re-seat a table with no scores yet"
                )
            held = {
                seat.table_id: Sheet.objects.select_for_update().get(pk=sheet_of(seat.table).pk)
                for seat in sorted(places.values(), key=lambda seat: seat.table_id)
            }
            for seat in places.values():
                if _has_scores(seat.table_id):
                    raise UserError(
                        f"table {seat.table.number} already has scores: it cannot be re-seated"
                    )
            names = {first.pk: first.name, second.pk: second.name}
            for table_id, sheet in held.items():
                record_reseat(
                    sheet,
                    [
                        {
                            "deal": None,
                            "field": "seat",
                            "seat": seat.position,
                            "before": names[seat.player_id],
                            "after": names[second.pk if seat.player_id == first.pk else first.pk],
                        }
                        for seat in places.values()
                        if seat.table_id == table_id
                    ],
                    by,
                )
        if first.pk in places and second.pk in places:
            a, b = places[first.pk], places[second.pk]
            # Delete and re-create: updating in place would seat a player twice in the
            # round for a moment, which the database refuses. A seat's sums belong to
            # its place at the table, so they stay with the place.
            swapped = [
                Seat(
                    table_id=a.table_id,
                    round=round_,
                    position=a.position,
                    player=second,
                    **Seat.sum_values(a.sums),
                ),
                Seat(
                    table_id=b.table_id,
                    round=round_,
                    position=b.position,
                    player=first,
                    **Seat.sum_values(b.sums),
                ),
            ]
            Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
            Seat.objects.bulk_create(swapped)
        else:
            seated, resting = (first, second) if first.pk in places else (second, first)
            seat = places[seated.pk]
            Bye.objects.filter(round=round_, player=resting).delete()
            seat.delete()
            Seat.objects.create(
                table_id=seat.table_id,
                round=round_,
                position=seat.position,
                player=resting,
                **Seat.sum_values(seat.sums),
            )
            Bye.objects.create(round=round_, player=seated)


def round_quality(round_: Round) -> RoundQuality:
    """Meeting figures of the tournament up to and including this round."""
    tournament = round_.tournament
    history = _history(tournament, before=round_.number)
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
        _history_by_round(tournament, before=round_.number),
    )
    history_repeats = sum(times - 1 for times in met.values())
    figures = replace(figures, lower_bound=max(figures.lower_bound, history_repeats + forced))
    return RoundQuality(figures, tuple(repeats), not_checked_in(tournament))


def _history_by_round(tournament: Tournament, before: int) -> list[list[list[int]]]:
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


def plan_json(
    players: int, seating: Sequence[RoundSeating], figures: Quality, byes: bool
) -> dict[str, Any]:
    """The ``plan_seating`` command's output: the data contract in the seating issue."""
    rounds: list[Any] = []
    for seated in seating:
        tables = [list(table) for table in seated.tables]
        rounds.append({"tables": tables, "byes": list(seated.byes)} if byes else tables)
    return {
        "players": players,
        "rounds": rounds,
        "quality": {
            "repeat_meetings": figures.repeat_meetings,
            "max_meetings": figures.max_meetings,
            "lower_bound": figures.lower_bound,
        },
    }
