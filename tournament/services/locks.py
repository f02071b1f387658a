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
3. the tournament row last: ``public_cache.mark_changed`` updates it at the end of any
   change the public can see, so a service that locked it first could wait in a circle
   with a sheet save that holds its round. (Seating the next round locks the tournament
   alone: it creates its round and waits for no other.)

SQLite has no row locks: its transactions are IMMEDIATE (``config/settings.py``), one
writer at a time, which gives the same result.
"""

from __future__ import annotations

from django.db import connection

from tournament.models import Round


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
