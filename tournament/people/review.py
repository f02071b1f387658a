"""Linking a tournament's players to the register of people after they are registered
(the organiser's review page): the people each unlinked player might be, and linking
automatically those who are plainly one person.

- *proposal*: an unlinked player with the people of the same name and club (several: the
  organiser says which) and near matches (``people.services.near_matches``); people already
  playing in the tournament are never proposed.
- *automatic link*: a player linked, without asking, to the one person with the same
  name and club (``names.key``), unless that person already plays in the tournament.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from tournament.kernel import names
from tournament.models import Person, Player, Tournament
from tournament.people.services import link, near_matches, same_name_and_club, search


def _taken(tournament_id: int) -> set[int]:
    """The people already playing in the tournament."""
    return set(
        Player.objects.filter(tournament_id=tournament_id)
        .exclude(person=None)
        .values_list("person_id", flat=True)
    )


@dataclass(frozen=True)
class Proposal:
    """A player not linked yet, with the people it might be."""

    player: Player
    near: list[Person]
    # The same name and club as several people: which one is for the organiser to say.
    same: list[Person] = field(default_factory=list)


def proposals(tournament: Tournament) -> list[Proposal]:
    """Every unlinked player of ``tournament``, with the people they might be (none of
    them already playing in it)."""
    players = list(Player.objects.filter(tournament=tournament, person=None).order_by("name"))
    if not players:
        return []
    taken = _taken(tournament.pk)
    register = list(Person.objects.exclude(pk__in=taken))
    return [_proposal(player, register) for player in players]


def proposal_for(player: Player, query: str = "") -> Proposal:
    """One unlinked player's proposal; with ``query``, the people found by it instead of
    the near matches (the organiser looking for someone else)."""
    taken = _taken(player.tournament_id)
    if query:
        found = [p for p in search(query) if p.pk not in taken]
        return Proposal(player, found)
    return _proposal(player, list(Person.objects.exclude(pk__in=taken)))


def _proposal(player: Player, register: list[Person]) -> Proposal:
    key, club = names.key(player.name), names.key(player.club)
    same = [p for p in register if p.name_key == key and p.club_key == club]
    near = near_matches(player.name, player.club, exclude={p.pk for p in same}, people=register)
    return Proposal(player, near, same)


@dataclass(frozen=True)
class AutoLinks:
    linked: list[tuple[Player, Person]]
    # The same name and club as two or more people, or as a person another player of the
    # tournament has just been linked to: left for the organiser.
    left: list[Player]


def link_automatically(tournament: Tournament) -> AutoLinks:
    """Link each unlinked player to the one person with the same name and club, unless
    that person already plays in the tournament. Players given a member number (in a
    list, a file or the form) were linked by it as they were registered."""
    linked: list[tuple[Player, Person]] = []
    left: list[Player] = []
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        taken = _taken(tournament.pk)
        for player in Player.objects.filter(tournament=tournament, person=None).order_by("pk"):
            same = [p for p in same_name_and_club(player.name, player.club) if p.pk not in taken]
            if len(same) != 1:
                if same:
                    left.append(player)
                continue
            link(player, same[0])
            taken.add(same[0].pk)
            linked.append((player, same[0]))
    return AutoLinks(linked, left)
