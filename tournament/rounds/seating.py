"""Seating rounds of a stored tournament with the engine in ``scoring.seating``.

Terms:

- *draft round*: a round that is seated but not started. Its seating may be regenerated
  with another seed or changed by swapping two players (``rounds.swaps``).
- *started round*: frozen; only a table with no scores yet may be explicitly re-seated.
- *method*: how the engine seats (``scoring.seating.method_named``); the balanced method
  takes the round from the plan of the rounds still to come (``rounds.seating_plan``),
  from what the engine is asked (``rounds.seating_request``).
"""

from __future__ import annotations

import re

from django.db import transaction

from scoring.errors import UserError
from scoring.seating import (
    PlayerId,
    RoundSeating,
    SeatingError,
    SeatingRequest,
    method_named,
    table_splits,
)
from tournament.models import Bye, Player, Round, Seat, Sheet, Table, TablePolicy, Tournament
from tournament.rounds.seating_plan import planned_round
from tournament.rounds.seating_request import players_to_seat, seating_request, seating_sizes
from tournament.shared.locks import lock_round


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
        return planned_round(tournament, number, seed, split, replan, chosen)
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
        # The round before the tournament: the order of ``shared.locks``.
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
    """The table splits the organiser can choose from for the active players, best first,
    at the sizes the rules allow (``seating_request.seating_sizes``); empty under the byes
    policy, where every table has five."""
    if tournament.table_policy != TablePolicy.MIXED:
        return []
    try:
        return table_splits(
            players_to_seat(tournament).count(),
            seating_sizes(tournament),
            rule_sizes=tournament.sizes_allowed,
        )
    except UserError:
        return []
