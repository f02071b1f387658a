"""Rows written with the ids a file gives them, so that addresses built from ids (a
player's page ``/t/SLUG/players/17/``, a person's ``/p/person-42/``) answer the same
after a restore.

- *kept id*: an id a file carries for a row; an import gives it back when no row of that
  table has it (*free*), and lets the database choose one otherwise.
- *making room*: PostgreSQL hands out ids from a sequence that knows nothing of ids
  written by hand; before such a write (and after a restore) the sequence is moved past
  them, never back, so that a row added meanwhile or later cannot be given one of them.
  SQLite's ``AUTOINCREMENT`` tables move past a written id by themselves.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, models

# SQLite's default limit of host parameters in one statement is 32766; stay well under.
_CHUNK = 5000


def free_ids(model: type[models.Model], wanted: Iterable[int | None]) -> set[int]:
    """Of ``wanted``, the ids no row of ``model`` has."""
    wanted_set = {pk for pk in wanted if pk is not None}
    ordered = sorted(wanted_set)
    taken: set[int] = set()
    for start in range(0, len(ordered), _CHUNK):
        chunk = ordered[start : start + _CHUNK]
        taken.update(model._default_manager.filter(pk__in=chunk).values_list("pk", flat=True))
    return wanted_set - taken


def make_room(model: type[models.Model], highest: int) -> None:
    """Make the database never hand out an id up to ``highest`` for a new ``model`` row
    (PostgreSQL; nothing to do on SQLite)."""
    if connection.vendor != "postgresql" or highest < 1:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        # One statement: ``setval`` is not undone by a rollback, and a GREATEST never
        # moves the sequence back under ids that were handed out already.
        cursor.execute(
            "SELECT setval(seq, GREATEST(%s, COALESCE(pg_sequence_last_value(seq), 0))) "
            "FROM (SELECT pg_get_serial_sequence(%s, %s)::regclass AS seq) AS found "
            "WHERE seq IS NOT NULL",
            [highest, table, model._meta.pk.column],
        )


def make_room_for_rows(*models_: type[models.Model]) -> None:
    """After rows were written with kept ids: each table's sequence past its highest id."""
    for model in models_:
        highest = model._default_manager.aggregate(highest=models.Max("pk"))["highest"]
        make_room(model, highest or 0)
