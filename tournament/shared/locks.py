"""Row locks that keep a score sheet and what it depends on consistent, and the one order
every service takes them in.

A sheet depends on its round (started, released), its table's seats and the tournament's
rotations per round. A save reads them and writes the sheet; an organiser's change writes
them. Each of the two holds the round's row until it commits, so the later one waits and
then sees what the first did:

1. the rounds concerned, in number order: *held* (``FOR SHARE``) by a sheet being saved,
   so that the sheets of one round are saved side by side; *locked* (``FOR UPDATE``) by
   the organiser's changes (re-seating, starting, releasing, a setting every round
   depends on), which wait for the saves in progress and make new ones wait;
2. then the sheet rows;
3. the tournament row last: ``public_changes.mark_changed`` updates it at the end of any
   change the public can see, so a service that locked it first could wait in a circle
   with a sheet save that holds its round. (Seating the next round locks the tournament
   alone: it creates its round and waits for no other. A penalty or award holds its
   round as a sheet save does, then locks the tournament: ``players.adjustments``.)

The register of people (``people.services``: linking a player to a person, unlinking,
merging and editing people) takes its locks in one order too, so that two of its changes
at the same moment wait for each other rather than deadlock:

1. the tournaments concerned, by id: the row ``mark_changed`` writes at the end anyway,
   and the one registering players locks first (``players.services``);
2. then the people, by id: ``FOR UPDATE`` to merge or edit them, ``FOR KEY SHARE``
   (``hold_person``) to link a player to one. The foreign key's own check takes that
   lock too, but only at the commit, after the player's row and the tournament's:
   a merge holding the person and waiting for the tournament then waited in a circle;
3. then the players written.

A person's tournaments are known only once the person is locked (a player may be
linked to them meanwhile), so ``lock_people`` reads them, locks them and then the
people, and starts again (its savepoint rolled back, which releases those locks) when
the people's tournaments have grown meanwhile. It takes no round and no sheet: a sheet
save never waits for a person, so the two orders never meet.

SQLite has no row locks: its transactions are IMMEDIATE (``config/settings.py``), one
writer at a time, which gives the same result.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction

from tournament.models import Person, Player, Round, Tournament

# How many times ``lock_people`` reads the people's tournaments again when players were
# linked to them as it locked: each time takes a link committed in a split second.
LOCK_PEOPLE_TRIES = 3


def hold_round(round_id: int) -> Round:
    """The round, held still until the transaction ends, as it is once held: other sheets
    of it may be saved meanwhile, the organiser's changes to it wait."""
    if connection.vendor == "postgresql":
        # Django's select_for_update has no FOR SHARE.
        with connection.cursor() as cursor:
            cursor.execute(
                f'SELECT 1 FROM "{Round._meta.db_table}" WHERE "id" = %s FOR SHARE', [round_id]
            )
    return Round.objects.select_related("tournament").get(pk=round_id)


def lock_round(round_id: int) -> Round:
    """The round, locked for a change by the organiser, as it is once locked."""
    return Round.objects.select_for_update().get(pk=round_id)


def lock_rounds(tournament_id: int) -> list[Round]:
    """Every round of the tournament, locked for a change that concerns them all."""
    return list(
        Round.objects.select_for_update().filter(tournament_id=tournament_id).order_by("number")
    )


def lock_tournaments(ids: Iterable[int]) -> None:
    """The tournaments locked, by id, as ``mark_changed`` locks them (``FOR NO KEY
    UPDATE``: inserting a row that refers to one does not wait)."""
    wanted = sorted(set(ids))
    if wanted:
        list(
            Tournament.objects.select_for_update(no_key=True)
            .filter(pk__in=wanted)
            .order_by("pk")
            .values_list("pk", flat=True)
        )


def hold_person(person_id: int) -> Person | None:
    """The person, kept in the register until the transaction ends (a merge waits), as
    they are once held; None when they are no longer in it (merged away meanwhile)."""
    if connection.vendor == "postgresql":
        # Django's select_for_update has no FOR KEY SHARE.
        with connection.cursor() as cursor:
            cursor.execute(
                f'SELECT 1 FROM "{Person._meta.db_table}" WHERE "id" = %s FOR KEY SHARE',
                [person_id],
            )
    return Person.objects.filter(pk=person_id).first()


class _TournamentsGrew(Exception):
    """A player was linked to one of the people in another tournament as they were locked."""


def _tournaments_of(person_ids: list[int]) -> set[int]:
    return set(
        Player.objects.filter(person_id__in=person_ids).values_list("tournament_id", flat=True)
    )


def lock_people(person_ids: Iterable[int]) -> dict[int, Person] | None:
    """The people still in the register among ``person_ids``, locked ``FOR UPDATE`` after
    the tournaments they play in; None when their tournaments kept growing meanwhile."""
    wanted = sorted(set(person_ids))
    tournaments: set[int] = set()
    for _ in range(LOCK_PEOPLE_TRIES):
        tournaments |= _tournaments_of(wanted)
        try:
            with transaction.atomic():
                lock_tournaments(tournaments)
                people = {
                    person.pk: person
                    for person in Person.objects.select_for_update()
                    .filter(pk__in=wanted)
                    .order_by("pk")
                }
                # Locked, the people take no new player: their tournaments stay as read.
                if not _tournaments_of(wanted) <= tournaments:
                    raise _TournamentsGrew
                return people
        except _TournamentsGrew:
            continue
    return None
