"""Finding what the public career and club pages show: a person by the identifier in their
address, and a club's people with their ranks in the series they played.

- *identifier*: ``Person.identifier``: the member number, or ``person-<id>`` for a person
  without one (``/p/M0123/``, ``/p/person-17/``);
- *club slug*: a club's name as an address (``/c/red-lion/``), made from its name key
  (``names.key``: accents, case and spacing ignored), so that "Red Lion" and
  "red-lion " are one club;
- *public person*: a person linked to a player of a published tournament. Only they have
  a page: the register itself is the organisers', and a person known only to an
  unpublished tournament is not revealed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from tournament.kernel import limits
from tournament.models import PERSON_ID_PREFIX, Person, Series
from tournament.series import services as series_service


def public_people() -> QuerySet[Person]:
    return Person.objects.filter(
        pk__in=Person.objects.filter(
            players__tournament__published=True, players__tournament__rehearsal_token=""
        ).values("pk")
    )


def person_by_identifier(identifier: str) -> Person | None:
    """The public person whose identifier is ``identifier``, or None."""
    if not identifier or "\x00" in identifier:
        return None  # PostgreSQL cannot look up a NUL; nobody's identifier holds one
    people = public_people()
    by_member = people.filter(member=identifier).first()
    if by_member is not None:
        return by_member
    number = identifier.removeprefix(PERSON_ID_PREFIX)
    if identifier.startswith(PERSON_ID_PREFIX) and number.isascii() and number.isdigit():
        return people.filter(pk=int(number), member="").first()
    return None


def club_slug(club_key: str) -> str:
    return limits.slug_from_name(club_key)


@dataclass(frozen=True)
class ClubMember:
    person: Person
    # (series, the person's row in its standings), for each series they have a row in.
    ranks: tuple[tuple[Series, series_service.SeriesRow], ...]


@dataclass(frozen=True)
class Club:
    name: str
    slug: str
    members: tuple[ClubMember, ...]


def club(slug: str) -> Club | None:
    """The club whose slug is ``slug``, with its public people and their series ranks;
    None when no public person's club has that slug."""
    clubs = public_people().exclude(club_key="").values_list("club_key", flat=True)
    keys = [key for key in clubs.distinct() if club_slug(key) == slug]
    if not keys:
        return None
    people = list(public_people().filter(club_key__in=keys).order_by("name_key", "pk"))
    # The series any of them is in: each series' standings once (they are cached), not
    # once per person.
    series_list = Series.objects.filter(
        Q(entries__accepted=True, entries__tournament__published=True),
        entries__tournament__players__person__in=people,
    ).distinct()
    rows: dict[int, list[tuple[Series, series_service.SeriesRow]]] = {}
    for series in series_list.order_by("name", "pk"):
        for row in series_service.series_standings(series).rows:
            rows.setdefault(row.person.pk, []).append((series, row))
    # The club's name as most of its people write it.
    names = [person.club for person in people]
    name = max(sorted(set(names)), key=names.count)
    return Club(
        name=name,
        slug=slug,
        members=tuple(ClubMember(person, tuple(rows.get(person.pk, ()))) for person in people),
    )
