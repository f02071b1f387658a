"""Registering players one at a time (a CSV list of them: ``players.lists``),
checking them in and out, dropping them out and keeping pairs apart.

Every name and club, typed or imported, is checked by ``kernel.names.text_problem``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q

from tournament.models import Bye, KeepApart, Person, Player, Round, Seat, Tournament
from tournament.people import services as people

NAME_MAX = 200
CLUB_MAX = 200
MAX_LINES = 2000


def next_refs(tournament: Tournament, count: int) -> list[str]:
    """Fresh ids for tournament files: p1, p2, ... after the highest used."""
    refs = Player.objects.filter(tournament=tournament, ref__regex=r"^p[0-9]+$").values_list(
        "ref", flat=True
    )
    highest = max((int(ref[1:]) for ref in refs), default=0)
    return [f"p{highest + i}" for i in range(1, count + 1)]


def duplicate_warning(tournament: Tournament, name: str, exclude: int | None = None) -> str | None:
    same = Player.objects.filter(tournament=tournament, name__iexact=name.strip())
    if exclude is not None:
        same = same.exclude(pk=exclude)
    if same.exists():
        return (
            f"another player is already registered as {name.strip()}: "
            "check it is not the same person"
        )
    return None


def add_player(
    tournament: Tournament,
    name: str,
    club: str = "",
    fixed_table: int | None = None,
    *,
    person: Person | None = None,
    member: str = "",
) -> Player:
    """Register a player, linked at once to ``person`` (whose club fills a blank one), or
    to the person with member number ``member`` (made from the player when nobody has
    it); all or nothing."""
    if person is not None and not club:
        club = person.club
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        (ref,) = next_refs(tournament, 1)
        player = Player.objects.create(
            tournament=tournament, ref=ref, name=name, club=club, fixed_table=fixed_table
        )
        if person is not None:
            people.link(player, person)
        elif member:
            people.link_or_create(player, member)
        return player


def set_status(player: Player, **changes: bool) -> str | None:
    """Check a player in or out, drop them out or bring them back (``checked_in``,
    ``active``); a warning when a round seated but not started does not agree.

    The tournament is locked, as seating the next round locks it: a round seated at the
    same moment seated the player as they were before or after the change, and the
    warning tells which."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=player.tournament_id)
        for name, value in changes.items():
            setattr(player, name, value)
        player.save(update_fields=list(changes))
        if "active" not in changes:
            return None
        draft = (
            Round.objects.filter(tournament_id=player.tournament_id, started=False)
            .order_by("number")
            .last()
        )
        if draft is None:
            return None
        in_draft = (
            Seat.objects.filter(round=draft, player=player).exists()
            or Bye.objects.filter(round=draft, player=player).exists()
        )
        if in_draft and not player.active:
            return (
                f"{player.name} is seated in round {draft.number}, which has not started: "
                "regenerate it to seat the round without them"
            )
        if not in_draft and player.active:
            return (
                f"round {draft.number} is already seated without {player.name}: regenerate "
                "it to seat them"
            )
    return None


@dataclass(frozen=True)
class CheckInCount:
    """Who is in: players checked in, of those playing (not dropped out)."""

    checked_in: int
    playing: int
    dropped: int

    @property
    def waiting(self) -> int:
        return self.playing - self.checked_in


def check_in_count(tournament: Tournament) -> CheckInCount:
    """How many of the tournament's players are checked in: one query."""
    counts = Player.objects.filter(tournament=tournament).aggregate(
        checked_in=Count("pk", filter=Q(active=True, checked_in=True)),
        playing=Count("pk", filter=Q(active=True)),
        dropped=Count("pk", filter=Q(active=False)),
    )
    return CheckInCount(**counts)


def not_checked_in(tournament: Tournament) -> list[Player]:
    """The players still to check in (not dropped out), by name."""
    return list(
        Player.objects.filter(tournament=tournament, active=True, checked_in=False).order_by(
            "name", "pk"
        )
    )


def check_in_everyone(tournament: Tournament, player_ids: Collection[int]) -> int:
    """Check in at once those of ``player_ids`` (the names a confirmation showed) still
    not checked in; how many. A player dropped out or checked in meanwhile, or added
    since, is left as they are: only the names the organiser saw are checked in.

    The tournament is locked, as ``set_status`` locks it, so a round seated at the same
    moment seats the room as it was before or after, never half of it."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        # Nothing public changes: no page shows who is checked in, no standing counts it.
        checked = Player.objects.filter(
            tournament=tournament, pk__in=player_ids, active=True, checked_in=False
        ).update(checked_in=True)
    return checked


def keep_apart(tournament: Tournament, first: Player, second: Player) -> tuple[Player, Player]:
    """Never seat ``first`` and ``second`` at one table; the pair in a fixed order (a
    pair is stored once, whichever way round it was chosen)."""
    low, high = sorted([first, second], key=lambda player: player.pk)
    with transaction.atomic():
        KeepApart.objects.get_or_create(tournament=tournament, first=low, second=high)
    return low, high


def allow_together(pair: KeepApart) -> None:
    with transaction.atomic():
        pair.delete()
