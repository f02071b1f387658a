"""Door check-in: a tablet at the door, handed to the players as they arrive, on which
each finds their name, checks themselves in and sees their table.

Terms:

- *door*: a tournament's check-in page for the tablet. An organiser or scorer opens it
  (``open_door``) and closes it (``close_door``); it also closes itself ``DOOR_HOURS``
  after it was opened, so a forgotten door does not stay open for the next evening.
- *door address*: the door page's URL. It carries a *door token*: the tournament and a
  random *nonce*, signed with the site's secret key (``django.core.signing``), so it
  cannot be forged or moved to another tournament. It works without a login (the tablet
  need not be logged in at all) and only while the door it was made for is open:
  closing the door, or opening it again with a new address, ends it.
- *door record*: what the server keeps of an open door (``OpenDoor``: its nonce, who
  opened it, when it closes), one row per tournament, shared by every worker.

A player at the door can do nothing but find names and check one in or undo that
(``services.players.set_status``, as the players page does); they see where a player
sits once the round being played has started.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import OpenDoor, Player, Tournament
from tournament.services import players as player_service
from tournament.services import room

DOOR_HOURS = 12
# Names shown for one search: the tablet shows big buttons, and more than this means
# the player should type more of their name.
SHOWN_MAX = 12
QUERY_MAX = 100
_SALT = "tournament.services.door"


class DoorRefused(UserError):
    """A door address that does not open the door: forged, another tournament's,
    replaced, closed or expired. Worded for whoever holds the tablet."""


@dataclass(frozen=True)
class Door:
    tournament_id: int
    token: str
    opened_by: str
    opened_at: datetime
    closes_at: datetime


def _token(tournament_id: int, nonce: str) -> str:
    return signing.Signer(salt=_SALT).sign(f"{tournament_id}.{nonce}")


def _door_of(record: OpenDoor) -> Door:
    return Door(
        tournament_id=record.tournament_id,
        token=_token(record.tournament_id, record.nonce),
        opened_by=record.opened_by,
        opened_at=record.opened_at,
        closes_at=record.closes_at,
    )


def _record(tournament_id: int) -> OpenDoor | None:
    return OpenDoor.objects.filter(tournament_id=tournament_id).first()


def open_door(tournament: Tournament, by: AbstractBaseUser | None) -> Door:
    """Open the door with a new address; an address given out before stops working."""
    now = timezone.now()
    with transaction.atomic():
        record, _ = OpenDoor.objects.update_or_create(
            tournament=tournament,
            defaults={
                "nonce": secrets.token_urlsafe(16),
                "opened_by": by.get_username() if by is not None else "",
                "opened_at": now,
                "closes_at": now + timedelta(hours=DOOR_HOURS),
            },
        )
    return _door_of(record)


def close_door(tournament: Tournament) -> bool:
    """Close the door: its address stops working. False when it was not open."""
    with transaction.atomic():
        deleted, _ = OpenDoor.objects.filter(tournament=tournament).delete()
    return deleted > 0


def current_door(tournament: Tournament) -> Door | None:
    """The open door, None when it is closed (or closed itself)."""
    record = _record(tournament.pk)
    if record is None:
        return None
    door = _door_of(record)
    return door if door.closes_at > timezone.now() else None


def door_token(tournament: Tournament, by: AbstractBaseUser | None = None) -> str:
    """The open door's token, opening the door when it is closed."""
    door = current_door(tournament) or open_door(tournament, by)
    return door.token


def tournament_at_door(slug: str, token: str) -> Tournament:
    """The tournament whose open door ``token`` opens, or ``DoorRefused`` saying why not."""
    try:
        value = signing.Signer(salt=_SALT).unsign(token)
        number, nonce = value.split(".", 1)
        tournament_id = int(number)
    except (signing.BadSignature, ValueError):
        raise DoorRefused(
            "This door address is not valid. Ask the organiser or a scorer to open the door "
            "check-in again and use the address it gives."
        ) from None
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or tournament.pk != tournament_id:
        raise DoorRefused(
            "This door address belongs to another tournament. Ask the organiser or a scorer "
            "for this tournament's door address."
        )
    record = _record(tournament_id)
    if record is None:
        raise DoorRefused(
            f"The door check-in of {tournament.name} is closed. The organiser or a scorer "
            "can open it again (Door check-in)."
        )
    if not secrets.compare_digest(record.nonce, nonce):
        raise DoorRefused(
            f"The door check-in of {tournament.name} has a newer address: this one no longer "
            "works. Open the address the organiser's Door check-in page shows now."
        )
    door = _door_of(record)
    if door.closes_at <= timezone.now():
        closed = timezone.localtime(door.closes_at).strftime("%H:%M on %d %B")
        raise DoorRefused(
            f"The door check-in of {tournament.name} closed itself at {closed}, "
            f"{DOOR_HOURS} hours after it was opened. The organiser or a scorer can open it "
            "again (Door check-in)."
        )
    return tournament


# At the door -----------------------------------------------------------------------


@dataclass(frozen=True)
class ArrivingPlayer:
    pk: int
    name: str
    club: str
    checked_in: bool
    active: bool


@dataclass(frozen=True)
class DoorSearch:
    query: str
    found: tuple[ArrivingPlayer, ...]
    # How many more matched than are shown.
    more: int
    # Why nothing is shown, in words for the player; empty when something is.
    message: str


def find_players(tournament: Tournament, text: str) -> DoorSearch:
    """The tournament's players whose name holds ``text`` (case and spaces ignored),
    alphabetically, at most ``SHOWN_MAX``: one query."""
    query = room.single_spaced(text)
    if not query:
        return DoorSearch("", (), 0, "Type part of your name, then tap it.")
    if len(query) > QUERY_MAX:
        return DoorSearch(
            "", (), 0, f"That is too long ({QUERY_MAX} characters at most): type part of your name."
        )
    found = [
        ArrivingPlayer(*row)
        for row in Player.objects.filter(tournament=tournament)
        .order_by("name", "pk")
        .values_list("pk", "name", "club", "checked_in", "active")
        if room.name_holds(row[1], query)
    ]
    if not found:
        return DoorSearch(
            query,
            (),
            0,
            f"Nobody registered has “{query}” in their name: check the spelling, type less "
            "of it, or ask the organiser to register you.",
        )
    return DoorSearch(query, tuple(found[:SHOWN_MAX]), max(0, len(found) - SHOWN_MAX), "")


@dataclass(frozen=True)
class Arrival:
    """What the door says after a tap: the player, what happened, and where they sit."""

    player: ArrivingPlayer
    # "checked_in", "already", "undone" or "dropped".
    outcome: str
    round_number: int | None
    placement: room.Placement | None
    bye: bool


def _arriving(tournament: Tournament, player_id: object) -> Player:
    try:
        pk = int(str(player_id))
    except ValueError:
        pk = 0
    player = Player.objects.filter(tournament=tournament, pk=pk).first()
    if player is None:
        raise UserError(
            "That name is not registered for this tournament: search for your name again."
        )
    return player


def _arrival(tournament: Tournament, player: Player, outcome: str) -> Arrival:
    """The arrival with the player's place in the current round once it has started
    (the door shows it even when the seating is not public: the door is the organiser's
    own tablet, like the printed seating list)."""
    round_ = room.current_round(tournament)
    placement, bye = None, False
    if round_ is not None and not round_.released and player.active:
        seating = room.seated_round(tournament, round_)
        placement = seating.placement_of(player.pk)
        bye = any(b.player_id == player.pk for b in seating.byes)
    return Arrival(
        player=ArrivingPlayer(
            player.pk, player.name, player.club, player.checked_in, player.active
        ),
        outcome=outcome,
        round_number=round_.number if round_ is not None and not round_.released else None,
        placement=placement,
        bye=bye,
    )


def check_in(tournament: Tournament, player_id: object) -> Arrival:
    """Check the player in (a dropped-out player is not: the organiser brings them back);
    checking in twice says so and changes nothing."""
    player = _arriving(tournament, player_id)
    if not player.active:
        return _arrival(tournament, player, "dropped")
    if player.checked_in:
        return _arrival(tournament, player, "already")
    player_service.set_status(player, checked_in=True)
    return _arrival(tournament, player, "checked_in")


def undo_check_in(tournament: Tournament, player_id: object) -> Arrival:
    player = _arriving(tournament, player_id)
    if player.checked_in:
        player_service.set_status(player, checked_in=False)
    return _arrival(tournament, player, "undone")
