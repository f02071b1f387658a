"""Door check-in: a tablet at the door, handed to the players as they arrive, on which
each finds their name, checks themselves in and sees their table.

Terms:

- *door*: a tournament's check-in page for the tablet. An organiser or scorer opens it
  (``open_door``) and closes it (``close_door``); it also closes itself at the end of the
  day it was opened (midnight, ``Closing.TODAY``) or ``DOOR_HOURS`` after it was opened
  (``Closing.HOURS``), whichever they chose and never later than that, so a forgotten
  door does not stay open for the next evening.
- *door address*: the door page's URL. It carries a *door token*: the tournament and a
  random *nonce*, signed with the site's secret key (``django.core.signing``), so it
  cannot be forged or moved to another tournament. It works without a login (the tablet
  need not be logged in at all) and only while the door it was made for is open:
  closing the door, or opening it again with a new address, ends it.
- *door record*: what the server keeps of an open door (``OpenDoor``: its nonce, who
  opened it, when it closes), one row per tournament, shared by every worker.

A player at the door can do nothing but find names and check one in or undo that
(``players.services.set_status``, as the players page does); they see where a player
sits once the round being played has started. The door is bounded, because its address
is a bearer key that any device may hold:

- searches are counted per network address (``search_limit``), taps (check-in and
  Undo) per door address and network address together (``tap_limit``);
- a search needs two letters, and while the tournament's names or seating are not
  public (``names_as_typed``) a name is found only by a whole word of it, so that a
  list of names cannot be read off the door a letter at a time (``matches``);
- a tap carries a *player key*: the player's id signed for this door address
  (``player_key``), so only a name the door has shown can be tapped, not every id in
  turn;
- Undo reverts only the door's own check-in, made from the same tablet a moment ago,
  back to "not checked in" (``undo_check_in``); a player checked in before, seated in
  a round being played, or whose name was tapped at the door again since (on another
  tablet: she is here after all) stays checked in.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import Bye, OpenDoor, Player, Seat, Tournament
from tournament.players import services as player_service
from tournament.public import room

DOOR_HOURS = 12
# Names shown for one search: the tablet shows big buttons, and more than this means
# the player should type more of their name.
SHOWN_MAX = 12
QUERY_MAX = 100
# Letters (or digits) a search needs: one letter lists half the room.
LETTERS_MIN = 2
# Undo is for the tap just made by mistake ("that is not me"), seen on the panel that
# the tap brought up, which returns to the search by itself after as long
# (static/js/door.js): the next arrival never finds the last one's Undo. Later, the
# organiser checks a player out at the desk.
UNDO_SECONDS = 20
TOO_LATE = "Too late to undo here — ask at the desk"
# The salt of every door address and tap key: a constant, not this module's path. Changed,
# it would end every open door's address at the upgrade.
_SALT = "tournament.services.door"
_WORD = re.compile(r"\w+")


class Closing(StrEnum):
    """When a door closes itself, chosen when it is opened."""

    # At midnight of the day it was opened (local time), and at most ``DOOR_HOURS`` on:
    # an evening's door ends with the evening.
    TODAY = "today"
    HOURS = "hours"


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
    nonce: str


@dataclass(frozen=True)
class AtDoor:
    """The tournament an open door's address opens, and that door."""

    tournament: Tournament
    door: Door


def _token(tournament_id: int, nonce: str) -> str:
    return signing.Signer(salt=_SALT).sign(f"{tournament_id}.{nonce}")


def _door_of(record: OpenDoor) -> Door:
    return Door(
        tournament_id=record.tournament_id,
        token=_token(record.tournament_id, record.nonce),
        opened_by=record.opened_by,
        opened_at=record.opened_at,
        closes_at=record.closes_at,
        nonce=record.nonce,
    )


def _record(tournament_id: int) -> OpenDoor | None:
    return OpenDoor.objects.filter(tournament_id=tournament_id).first()


def closing_time(opened_at: datetime, closing: Closing) -> datetime:
    """When a door opened at ``opened_at`` closes itself."""
    latest = opened_at + timedelta(hours=DOOR_HOURS)
    if closing is Closing.HOURS:
        return latest
    tomorrow = timezone.localtime(opened_at).date() + timedelta(days=1)
    midnight = timezone.make_aware(datetime.combine(tomorrow, time.min))
    return min(midnight, latest)


def open_door(
    tournament: Tournament, by: AbstractBaseUser | None, closing: Closing = Closing.TODAY
) -> Door:
    """Open the door with a new address; an address given out before stops working."""
    now = timezone.now()
    with transaction.atomic():
        record, _ = OpenDoor.objects.update_or_create(
            tournament=tournament,
            defaults={
                "nonce": secrets.token_urlsafe(16),
                "opened_by": by.get_username() if by is not None else "",
                "opened_at": now,
                "closes_at": closing_time(now, closing),
            },
        )
    return _door_of(record)


def new_address(tournament: Tournament, by: AbstractBaseUser | None) -> Door | None:
    """A new address for the open door, closing when it would have (a new address is
    for one seen by the wrong people, not for a longer evening); None when it is closed."""
    now = timezone.now()
    with transaction.atomic():
        changed = OpenDoor.objects.filter(tournament=tournament, closes_at__gt=now).update(
            nonce=secrets.token_urlsafe(16),
            opened_by=by.get_username() if by is not None else "",
            opened_at=now,
        )
    return current_door(tournament) if changed else None


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


def tournament_at_door(slug: str, token: str) -> AtDoor:
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
        local = timezone.localtime(door.closes_at)
        closed = f"{local:%H:%M} on {local.day} {local:%B}"
        raise DoorRefused(
            f"The door check-in of {tournament.name} closed itself at {closed}. The "
            "organiser or a scorer can open it again (Door check-in)."
        )
    return AtDoor(tournament, door)


@dataclass(frozen=True)
class ArrivingPlayer:
    pk: int
    name: str
    club: str
    checked_in: bool
    active: bool
    # What a tap on the name posts (``player_key``).
    key: str


@dataclass(frozen=True)
class DoorSearch:
    query: str
    found: tuple[ArrivingPlayer, ...]
    # How many more matched than are shown.
    more: int
    # Why nothing is shown, in words for the player; empty when something is.
    message: str


def names_as_typed(tournament: Tournament) -> bool:
    """Whether the door finds a name only by a whole word of it: while the tournament is
    not published its names are known to nobody outside, and while its seating is
    private a found name would show where its player sits."""
    return not (tournament.published and tournament.seating_public)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def matches(name: str, query: str, *, as_typed: bool) -> bool:
    """Whether a search for ``query`` finds ``name``. Openly, any part of the name
    (``room.name_holds``). As typed, every word typed is a whole word of the name
    ("Ithel", "rowse", "Ithel Rowse" find Ithel Rowse; "It" finds nobody), except that
    the last may be the start of one once a word before it was whole ("Ithel Ro"): the
    tablet searches while a name is typed, and that shows nobody "Ithel" did not."""
    if not as_typed:
        return room.name_holds(name, query)
    words = set(_words(name))
    typed = _words(query)
    if not typed:
        return False
    *whole, last = typed
    if not all(word in words for word in whole):
        return False
    return last in words or (bool(whole) and any(word.startswith(last) for word in words))


def _signer(door: Door) -> signing.Signer:
    return signing.Signer(salt=f"{_SALT}.player.{door.nonce}")


def player_key(door: Door, player_id: int) -> str:
    """The player's id signed for this door address: what a tap on a name the door
    showed posts (a new address makes new keys)."""
    return _signer(door).sign(str(player_id))


def find_players(at: AtDoor, text: str) -> DoorSearch:
    """The tournament's players that a search for ``text`` finds (``matches``; case and
    spaces ignored), alphabetically, at most ``SHOWN_MAX``: one query."""
    query = room.single_spaced(text)
    if not query:
        return DoorSearch("", (), 0, "Type part of your name, then tap it.")
    if len(query) > QUERY_MAX:
        return DoorSearch(
            "", (), 0, f"That is too long ({QUERY_MAX} characters at most): type part of your name."
        )
    if sum(ch.isalnum() for ch in query) < LETTERS_MIN:
        return DoorSearch(query, (), 0, "Type at least two letters of your name.")
    as_typed = names_as_typed(at.tournament)
    found = [
        ArrivingPlayer(*row, key=player_key(at.door, row[0]))
        for row in Player.objects.filter(tournament=at.tournament)
        .order_by("name", "pk")
        .values_list("pk", "name", "club", "checked_in", "active")
        if matches(row[1], query, as_typed=as_typed)
    ]
    if not found and as_typed:
        return DoorSearch(
            query,
            (),
            0,
            f"No name has the word “{query}”: type your first name or your surname in "
            "full, or ask the organiser to register you.",
        )
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
    # "checked_in", "already", "dropped", "undone", "too_late" (Undo came after
    # ``UNDO_SECONDS``) or "kept": Undo left them checked in (``kept`` says why).
    outcome: str
    round_number: int | None
    placement: room.Placement | None
    bye: bool
    # Whether Undo would take this check-in back (``undo_check_in``).
    undoable: bool = False
    kept: str = ""
    # When the door checked the player in: what the tablet remembers for its Undo.
    checked_in_at: datetime | None = None


def _arriving(at: AtDoor, key: object, *, lock: bool = False) -> Player:
    """The player a tap's key names (``player_key``), locked with the tournament when
    ``lock``, as ``players.set_status`` locks it: two tablets tapping one name at once
    take turns."""
    try:
        pk = int(_signer(at.door).unsign(str(key)))
    except (signing.BadSignature, ValueError):
        pk = 0
    if lock:
        Tournament.objects.select_for_update().get(pk=at.tournament.pk)
    player = Player.objects.filter(tournament=at.tournament, pk=pk).first()
    if player is None:
        raise UserError(
            "That name is not registered for this tournament: search for your name again."
        )
    return player


def _playing_round(player: Player) -> int | None:
    """The number of a started round whose results are not released where ``player`` is
    seated (or sits out): checking them out now would say they are not here while their
    table plays."""
    seated = Seat.objects.filter(player=player, round__started=True, round__released=False)
    sits_out = Bye.objects.filter(player=player, round__started=True, round__released=False)
    number = seated.values_list("round__number", flat=True).first()
    if number is None:
        number = sits_out.values_list("round__number", flat=True).first()
    return number


def _arrival(
    at: AtDoor,
    player: Player,
    outcome: str,
    *,
    undoable: bool = False,
    kept: str = "",
    checked_in_at: datetime | None = None,
) -> Arrival:
    """The arrival with the player's place in the current round once it has started
    (the door shows it even when the seating is not public: the door is the organiser's
    own tablet, like the printed seating list)."""
    tournament = at.tournament
    round_ = room.current_round(tournament)
    placement, bye = None, False
    if round_ is not None and not round_.released and player.active:
        seating = room.seated_round(tournament, round_)
        placement = seating.placement_of(player.pk)
        bye = any(b.player_id == player.pk for b in seating.byes)
    return Arrival(
        player=ArrivingPlayer(
            player.pk,
            player.name,
            player.club,
            player.checked_in,
            player.active,
            player_key(at.door, player.pk),
        ),
        outcome=outcome,
        round_number=round_.number if round_ is not None and not round_.released else None,
        placement=placement,
        bye=bye,
        undoable=undoable,
        kept=kept,
        checked_in_at=checked_in_at,
    )


def _tapped_since(player: Player, when: datetime) -> bool:
    """Whether the player's name was tapped at the door after ``when``."""
    return player.door_tapped_at is not None and player.door_tapped_at > when


def check_in(at: AtDoor, key: object) -> Arrival:
    """Check the player in (a dropped-out player is not: the organiser brings them back);
    checking in twice says so and changes nothing. Only "checked_in" is the door's own
    check-in, the one its Undo may take back.

    Every tap is recorded on the player (``door_tapped_at``), under the tournament's
    lock, so that an Undo on another tablet (its name tapped by mistake there) does not
    check out a player this tap told she is in, whichever worker serves it."""
    with transaction.atomic():
        player = _arriving(at, key, lock=True)
        if not player.active:
            return _arrival(at, player, "dropped")
        now = timezone.now()
        player.door_tapped_at = now
        player.save(update_fields=["door_tapped_at"])
        if player.checked_in:
            return _arrival(at, player, "already")
        player_service.set_status(player, checked_in=True)
        undoable = _playing_round(player) is None
    return _arrival(at, player, "checked_in", undoable=undoable, checked_in_at=now)


def undo_check_in(at: AtDoor, key: object, checked_in_here: Mapping[int, datetime]) -> Arrival:
    """Take back the door's own check-in of the player, back to "not checked in":
    ``checked_in_here`` holds the players this tablet checked in and when. A player it did
    not check in stays checked in ("kept"), and so does one it checked in more than
    ``UNDO_SECONDS`` ago ("too_late"), whose name was tapped at the door since, or seated
    in a round being played ("kept"); the door says why."""
    with transaction.atomic():
        player = _arriving(at, key, lock=True)
        if not player.checked_in:
            return _arrival(at, player, "undone")
        when = checked_in_here.get(player.pk)
        if when is None:
            return _arrival(
                at, player, "kept", kept="this tablet did not check them in: ask at the desk"
            )
        if when < timezone.now() - timedelta(seconds=UNDO_SECONDS):
            return _arrival(at, player, "too_late")
        if _tapped_since(player, when):
            return _arrival(
                at, player, "kept", kept="their name was tapped at the door again since"
            )
        playing = _playing_round(player)
        if playing is not None:
            return _arrival(
                at, player, "kept", kept=f"they are seated in round {playing}, which has started"
            )
        player_service.set_status(player, checked_in=False)
    return _arrival(at, player, "undone")
