"""When the views are worked out: right after the commit of a change that moved a
tournament's standings version, in the process that made it (``after_commit``); from
the task ``derive_views`` when a page finds a view missing (``ask_for_views``) or the
worker's sweep finds one behind (``sweep``); and by import and restore (``at_once``),
which also work the chances out themselves.

The chances are never worked out here but in the task worker (``derived.tasks``): the
commit only asks for them.
"""

from __future__ import annotations

import threading

from django.db.models import F, OuterRef, Q, Subquery

from tournament.derived.build import work_out_views
from tournament.derived.tasks import derive_views, work_out_chances
from tournament.models import DerivedView, Tournament
from tournament.shared import derived, public_changes
from tournament.shared.derived import PUBLIC
from tournament.shared.tasks import enqueue_once

# The standings version each tournament's views were last worked out for by this
# process: a transaction that marked a tournament several times asks once.
_done: dict[int, int] = {}
_DONE_LOCK = threading.Lock()


def after_commit(tournament_id: int) -> None:
    version = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list("standings_version", flat=True)
        .first()
    )
    if version is None:
        return
    with _DONE_LOCK:
        if _done.get(tournament_id) == version:
            return
    worked = work_out_views(tournament_id)
    with _DONE_LOCK:
        if len(_done) > 10_000:
            _done.clear()
        _done[tournament_id] = version
    if worked.chances_wanted:
        enqueue_once(work_out_chances, tournament_id)


public_changes.after_standings_change(after_commit)


def forget_done() -> None:
    """Work every tournament out afresh (tests: the database under it was rolled back)."""
    with _DONE_LOCK:
        _done.clear()


def ask_for_views(tournament_id: int) -> None:
    """A page found the tournament's view missing: have the worker work it out."""
    enqueue_once(derive_views, tournament_id)


derived.on_view_missing(ask_for_views)


def at_once(tournament: Tournament, *, chances: bool = True) -> None:
    """Work out the views, and with ``chances`` the chances, now, in this process (the
    demo, a command: never a request)."""
    worked = work_out_views(tournament.pk)
    if chances and worked.chances_wanted:
        work_out_chances.call(tournament.pk)


def restored(tournament: Tournament) -> None:
    """Work out the views and the chances of a tournament just restored, keeping the
    page generation the backup put back: the public pages come back byte for byte."""
    from tournament.derived.tasks import store_chances

    worked = work_out_views(tournament.pk, move_generation=False)
    if worked.chances_wanted:
        store_chances(tournament.pk, move_generation=False)


def sweep() -> int:
    """Ask for the views of every tournament whose views are missing or behind its
    standings version (a change whose after-commit work failed, or a new installation):
    how many were asked for."""
    public = DerivedView.objects.filter(tournament=OuterRef("pk"), kind=PUBLIC)
    behind = Tournament.objects.annotate(made_for=Subquery(public.values("made_for")[:1])).filter(
        Q(made_for__isnull=True) | Q(made_for__lt=F("standings_version"))
    )
    ids = list(behind.values_list("pk", flat=True))
    for tournament_id in ids:
        enqueue_once(derive_views, tournament_id)
    return len(ids)
