"""Swapping two players' places in a seated round, and the token of what the organiser saw.

A draft round's seating changes freely; a started round's only for tables with no scores
yet, when the organiser explicitly re-seats, and their sheets then get a new version.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction

from scoring.errors import UserError
from tournament.models import Bye, Player, Round, Seat, Sheet, SheetStatus, Table
from tournament.shared.locks import lock_round
from tournament.sheets.reading import sheet_of
from tournament.sheets.versions import record_reseat


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
