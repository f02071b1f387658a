"""The register of people kept across tournaments, and linking tournaments' players to it.

- *member number*: a guild's own number for a person ("M0123"), unique on the
  installation, optional. It may not start with ``person-``: that is how a person without
  one is named in exports (``Person.identifier``).
- *same person*: a player and a person are taken to be the same, without asking, when
  they have the same member number, or else the same name and club as compared by
  ``names.key`` (case, accents and spacing ignored).
- *near matches*: people whose name is like the player's (``difflib``'s similarity of the
  name keys, or the same words in another order), proposed to the organiser, never linked
  without them.
- *linking*: a person plays at most once in a tournament. The database's constraint
  ``player_person_once_a_tournament`` backs the check made here, so two requests linking
  two players to one person at the same moment cannot both succeed.
- linking a tournament's players after they are registered (the review page):
  ``people.review``.
- *merging*: two people found to be one become the kept one; the other's players (so
  their results) move to the kept person, refused when both played in one tournament.
  The refusal names that tournament only to someone who may see it
  (``permissions.visible_tournaments``): the register is shared by every organiser, an
  unpublished tournament is its organiser's and scorers' alone.
- *locks*: linking, unlinking, merging and editing lock the tournaments concerned, then
  the people, then the players, each by id (the order is ``shared.locks``'s), so that
  a link and a merge of the same person at the same moment wait for each other: the
  first wins, the second is told what changed ("Ann Lee is no longer in the register:
  merged into another person meanwhile"), never a deadlock or a foreign-key error.
"""

from __future__ import annotations

import difflib
import re

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from scoring.errors import UserError
from tournament.kernel import limits, names
from tournament.kernel.names import text_problem
from tournament.models import PERSON_ID_PREFIX, Person, Player, Tournament
from tournament.shared.locks import hold_person, lock_people, lock_tournaments
from tournament.shared.public_changes import mark_changed

# How alike two name keys must be (difflib's ratio, 0 to 1) to be proposed: "Jon Smith"
# and "John Smith" are (0.95), "Ann Lee" and "Ian Lee" are (0.86), "Ann" and "Bob" not.
NEAR_RATIO = 0.8
NEAR_SHOWN = 5
SEARCH_SHOWN = 8


class PeopleError(UserError):
    """What an organiser can put right: a member number taken, a person already playing."""


_MEMBER_CHARACTERS = re.compile(r"[\w.-]+")  # safe in a career's address, /p/M0123/


def clean_member(raw: str, where: str = "member number") -> str:
    """A member number as stored: spaces around it dropped; refused naming ``where`` when
    it cannot be one."""
    member = raw.strip()
    if not member:
        return ""
    if len(member) > limits.MEMBER_MAX:
        raise PeopleError(f"{where}: longer than {limits.MEMBER_MAX} characters")
    if any(char.isspace() for char in member):
        raise PeopleError(f"{where}: “{member}” has a space in it; a member number is one word")
    if member.casefold().startswith(PERSON_ID_PREFIX):
        raise PeopleError(
            f"{where}: “{member}” starts with “{PERSON_ID_PREFIX}”, which names people "
            "without a member number; choose another"
        )
    problem = text_problem(member, "member number")
    if problem:
        raise PeopleError(f"{where}: {problem}")
    if not _MEMBER_CHARACTERS.fullmatch(member):
        words = "letters, digits, dots, hyphens and underscores (it names the person's page)"
        raise PeopleError(f"{where}: “{member}”: a member number is made of {words}")
    return member


def _member_taken(member: str, exclude: int | None = None) -> Person | None:
    if not member:
        return None
    same = Person.objects.filter(member=member)
    if exclude is not None:
        same = same.exclude(pk=exclude)
    return same.first()


def _clash(member: str, other: Person) -> PeopleError:
    return PeopleError(f"member number {member} is already {other.name}’s")


def _save_person(person: Person) -> Person:
    """Save, turning the member number's unique constraint (a clash at the same moment
    as the check) into the organiser's message."""
    try:
        with transaction.atomic():
            person.save()
    except IntegrityError:
        other = _member_taken(person.member, person.pk)
        if other is None:
            raise
        raise _clash(person.member, other) from None
    return person


def _name_and_club(name: str, club: str) -> tuple[str, str]:
    """A person's name and club as stored (spaces tidied), checked by the one rule for
    every name (``names.text_problem``); refused naming the field."""
    name, club = " ".join(name.split()), " ".join(club.split())
    if not name:
        raise PeopleError("name: give the person's name")
    for what, value in (("name", name), ("club", club)):
        if problem := text_problem(value, what):
            raise PeopleError(f"{what}: {problem}")
    return name, club


def add_person(name: str, club: str = "", member: str = "") -> Person:
    name, club = _name_and_club(name, club)
    member = clean_member(member)
    other = _member_taken(member)
    if other is not None:
        raise _clash(member, other)
    return _save_person(Person(name=name, club=club, member=member))


def edit_person(person: Person, name: str, club: str, member: str) -> Person:
    name, club = _name_and_club(name, club)
    member = clean_member(member)
    with transaction.atomic():
        # Their tournaments first, as a merge locks them: both mark them changed.
        _lock(person)
        other = _member_taken(member, exclude=person.pk)
        if other is not None:
            raise _clash(member, other)
        person.name, person.club, person.member = name, club, member
        _save_person(person)
        _mark_tournaments(person)
    return person


def _lock(*wanted: Person) -> dict[int, Person]:
    """``wanted`` as they are once locked with their tournaments (``locks.lock_people``);
    refused, naming them, when one was merged away meanwhile."""
    people = lock_people(person.pk for person in wanted)
    if people is None:
        who = " and ".join(person.name for person in wanted)
        raise PeopleError(f"{who}: players were being linked to them meanwhile; try again")
    for person in wanted:
        if person.pk not in people:
            raise _merged_away(person)
    return people


def _merged_away(person: Person) -> PeopleError:
    return PeopleError(
        f"{person.name} is no longer in the register: merged into another person meanwhile"
    )


def _mark_tournaments(person: Person) -> None:
    """The public pages of the person's tournaments show them (links to careers)."""
    for tournament_id in set(person.players.values_list("tournament_id", flat=True)):
        mark_changed(tournament_id)


# Finding people --------------------------------------------------------------------------


def by_member(member: str) -> Person | None:
    return Person.objects.filter(member=member).first() if member else None


def same_name_and_club(name: str, club: str) -> list[Person]:
    return list(Person.objects.filter(name_key=names.key(name), club_key=names.key(club)))


def _likeness(wanted: str, other: str) -> float:
    """How alike two name keys are, 0 to 1; the same words in another order count as
    alike. difflib's cheap upper bounds rule most of a register out before its full
    comparison (a review of 60 players against thousands of people stays quick)."""
    if sorted(wanted.split()) == sorted(other.split()):
        return 1.0
    matcher = difflib.SequenceMatcher(None, wanted, other)
    if matcher.real_quick_ratio() < NEAR_RATIO or matcher.quick_ratio() < NEAR_RATIO:
        return 0.0
    return matcher.ratio()


def near_matches(
    name: str,
    club: str = "",
    *,
    exclude: set[int] | None = None,
    people: list[Person] | None = None,
) -> list[Person]:
    """People whose name is like ``name``, the likest first (the same club first among
    equals); at most ``NEAR_SHOWN``. ``people``: the register, when the caller has it."""
    wanted, wanted_club = names.key(name), names.key(club)
    register = people if people is not None else list(Person.objects.all())
    scored = [
        (likeness, person)
        for person in register
        if person.pk not in (exclude or set())
        and (likeness := _likeness(wanted, person.name_key)) >= NEAR_RATIO
    ]
    scored.sort(
        key=lambda pair: (
            -pair[0],
            pair[1].club_key != wanted_club,
            pair[1].name_key,
            pair[1].pk,
        )
    )
    return [person for _, person in scored[:NEAR_SHOWN]]


def search(query: str, limit: int = SEARCH_SHOWN) -> list[Person]:
    """People whose name (case, accents and spacing ignored), club or member number holds
    ``query``; the names starting with it first. A NUL, which no stored text holds (and
    PostgreSQL refuses in a query), finds nobody."""
    if "\x00" in query:
        return []
    wanted = names.key(query)
    if not wanted:
        return []
    people = _search_queryset(query, wanted)
    return sorted(
        people[: limit * 4],
        key=lambda person: (
            person.member.casefold() != query.strip().casefold(),
            not person.name_key.startswith(wanted),
            person.name_key,
            person.pk,
        ),
    )[:limit]


def _search_queryset(query: str, wanted: str) -> QuerySet[Person]:
    return Person.objects.filter(
        Q(name_key__contains=wanted)
        | Q(club_key__contains=wanted)
        | Q(member__iexact=query.strip())
    ).order_by("name_key", "pk")


# Linking ---------------------------------------------------------------------------------


def _already_plays(person: Person, tournament: Tournament, player: Player) -> PeopleError:
    return PeopleError(
        f"{person.name} already plays in {tournament.name} as {player.name}; a person "
        "plays at most once in a tournament"
    )


def link(player: Player, person: Person) -> Player:
    """Link ``player`` to ``person``; refused when another of the tournament's players is
    already theirs, or when the person was merged away meanwhile."""
    tournament = player.tournament
    with transaction.atomic():
        lock_tournaments([tournament.pk])
        # Held until the commit, so that a merge cannot take the person away from under
        # the link (the foreign key would refuse it at the commit, as an error).
        if hold_person(person.pk) is None:
            raise PeopleError(f"{_merged_away(person)}; choose again")
        other = (
            Player.objects.filter(tournament=tournament, person=person)
            .exclude(pk=player.pk)
            .first()
        )
        if other is not None:
            raise _already_plays(person, tournament, other)
        player.person = person
        try:
            with transaction.atomic():
                player.save(update_fields=["person"])
        except IntegrityError:
            # Another request linked a player to this person since the check above.
            player.person_id = None
            other = Player.objects.filter(tournament=tournament, person=person).first()
            if other is None:
                raise
            raise _already_plays(person, tournament, other) from None
        mark_changed(tournament.pk)
    return player


def unlink(player: Player) -> Player:
    with transaction.atomic():
        # As a merge moving the player to another person locks it: one waits.
        lock_tournaments([player.tournament_id])
        player.person = None
        player.save(update_fields=["person"])
        mark_changed(player.tournament_id)
    return player


def create_for(player: Player, member: str = "") -> Person:
    """A new person made from ``player`` (their name and club), linked to them."""
    with transaction.atomic():
        person = add_person(player.name, player.club, member)
        link(player, person)
    return person


def link_or_create(player: Player, member: str) -> Person:
    """The person with member number ``member`` (made from the player when there is
    none) linked to ``player``."""
    person = by_member(member)
    if person is None:
        return create_for(player, member)
    link(player, person)
    return person


# Merging ---------------------------------------------------------------------------------


def merge(
    kept: Person,
    gone: Person,
    member: str | None = None,
    *,
    seen: QuerySet[Tournament] | None = None,
) -> Person:
    """``gone`` becomes ``kept``: its players move to ``kept`` and it is deleted.
    ``member``: the merged person's member number (by default the kept one's, else the
    other's). Refused when both played in one tournament, naming it when it is among
    ``seen``, the tournaments the one merging may see (by default every one)."""
    if kept.pk == gone.pk:
        raise PeopleError("choose two different people to merge")
    with transaction.atomic():
        # Their tournaments, then both people, in one order whichever is kept: two merges
        # of the same pair the other way round, or a link of one of them, wait for each
        # other rather than deadlock.
        locked = _lock(kept, gone)
        kept, gone = locked[kept.pk], locked[gone.pk]
        both = Tournament.objects.filter(players__person=kept).filter(players__person=gone)
        if both.exists():
            named = both if seen is None else both.filter(pk__in=seen.values("pk"))
            shown = named.order_by("name").values_list("name", flat=True).first()
            raise PeopleError(
                f"{kept.name} and {gone.name} both played in "
                f"{shown or 'a tournament you cannot see'}: they are two people, or one of "
                "those players is linked to the wrong person"
            )
        chosen = kept.member or gone.member if member is None else clean_member(member)
        if chosen not in ("", kept.member, gone.member):
            other = _member_taken(chosen, exclude=kept.pk)
            if other is not None and other.pk != gone.pk:
                raise _clash(chosen, other)
        tournaments = set(gone.players.values_list("tournament_id", flat=True))
        gone.players.update(person=kept)
        gone.delete()
        kept.member = chosen
        kept.save()
        for tournament_id in tournaments | set(
            kept.players.values_list("tournament_id", flat=True)
        ):
            mark_changed(tournament_id)
    return kept
