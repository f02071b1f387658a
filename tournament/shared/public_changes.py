"""What changes the public pages: a tournament's *generation* (``Tournament.public_changed``),
which ``mark_changed`` moves, and the signal receivers that mark a tournament changed
when a row its public pages show is saved or deleted.

Every cached public page and result of a tournament is keyed by its generation
(``public_version``), so moving it makes them all stale at once (the page cache itself is
``public.cache``). Each worker remembers the generations it read (``generations``) for
``GENERATION_SECONDS``; ``mark_changed`` forgets them in its own process at once.

They are connected per model, only to the seven models the public pages show, so that
every other model (deals, their per-seat results) keeps Django's fast delete. Inside
``quietly()`` (an import, a replace, a deletion) they only note the
tournament, or nothing when finding it would take a query: the block names its
tournaments and marks them once at its end.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from tournament.models import (
    Bye,
    KeepApart,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    Table,
    Tournament,
)

# How long a worker trusts the generation it read: the most a change can take to reach
# the other workers' cached pages (the worker that made it sees it at once).
GENERATION_SECONDS = 1.0
# slug -> (tournament id, generation, when this worker read it)
generations: dict[str, tuple[int, datetime, float]] = {}


def mark_changed(tournament_id: int) -> None:
    """Make the tournament's cached public pages stale: at once in this process, within
    ``GENERATION_SECONDS`` in the others. Silent inside ``quietly()``, which marks the
    tournaments it was told about once, at its end."""
    pending = _quiet.get()
    if pending is not None:
        pending.add(tournament_id)
        return
    Tournament.objects.filter(pk=tournament_id).update(public_changed=timezone.now())
    _forget_now_and_on_commit()
    _after_commit((tournament_id,))


# Run after a committed change, with the tournament's id (``after_public_change``).
_after_change: list[Callable[[int], None]] = []


def after_public_change(hook: Callable[[int], None]) -> None:
    """Have ``hook(tournament_id)`` run once each change that marks a tournament changed
    is committed (at once outside a transaction). A hook registers when its module is
    imported; it must be cheap when there is nothing new to do, as a transaction may mark
    a tournament several times."""
    if hook not in _after_change:
        _after_change.append(hook)


def _after_commit(tournament_ids: Iterable[int]) -> None:
    for tournament_id in tournament_ids:
        for hook in _after_change:
            # Robust: a hook that fails is logged, never undoes nor fails the change.
            transaction.on_commit(partial(hook, tournament_id), robust=True)


def _forget_now_and_on_commit() -> None:
    # Again at the commit: another thread may have read the old generation in between.
    generations.clear()
    transaction.on_commit(generations.clear)


_quiet: contextvars.ContextVar[set[int] | None] = contextvars.ContextVar("quiet", default=None)


@contextmanager
def quietly(*tournament_ids: int) -> Iterator[set[int]]:
    """Bulk writes (an import, a replace, a deletion) without a cache receiver's query for
    every row: the receivers only note the tournament, and each noted tournament (and each
    of ``tournament_ids``) is marked changed once when the block ends without an error.
    The yielded set takes more tournaments to mark."""
    outer = _quiet.get()
    if outer is not None:  # already quiet: the outer block marks them
        outer.update(tournament_ids)
        yield outer
        return
    pending = set(tournament_ids)
    token = _quiet.set(pending)
    try:
        yield pending
    finally:
        _quiet.reset(token)
    if pending:
        Tournament.objects.filter(pk__in=pending).update(public_changed=timezone.now())
        _forget_now_and_on_commit()
        _after_commit(sorted(pending))


def is_quiet() -> bool:
    """Inside ``quietly``: changes are noted, and marked once at its end."""
    return _quiet.get() is not None


def public_version(tournament: Tournament) -> str:
    """What a tournament's public data stand at: a value that moves whenever anything
    shown publicly changes (``mark_changed``). Keys of cached public data hold it, so a
    change makes them all stale at once."""
    return str(tournament.public_changed.timestamp())


def forget_generations() -> None:
    """Read every generation afresh (tests: the database under them was rolled back)."""
    generations.clear()


# What of a round the public pages show besides its results: whether it has started
# (its seating is then public, unless the tournament keeps it private) and its clock.
_PUBLIC_ROUND_FIELDS = frozenset({"released", "started", "clock_ends", "clock_left"})


def _round_change_is_public(instance: Round, saved: bool, signal_kwargs: dict[str, Any]) -> bool:
    if instance.released or instance.started:
        return True
    # Creating or deleting a round not yet started shows nowhere publicly, nor does
    # seeding one; a save that may have withheld or un-started it (a full save, or one
    # of the fields above) does.
    if not saved or signal_kwargs.get("created"):
        return False
    update_fields = signal_kwargs.get("update_fields")
    return update_fields is None or bool(_PUBLIC_ROUND_FIELDS & set(update_fields))


def _public_tournament_id(instance: Any) -> int | None:
    """The tournament whose public pages this row belongs to, or None when the public
    cannot see it: the tables, seats and byes of a round not yet started (whose start
    clears the cache anyway), and the sheets of an unreleased round (whose release
    does)."""
    if isinstance(instance, Player | Round | KeepApart):
        return instance.tournament_id
    if is_quiet():
        # A bulk write names its tournaments (``quietly``): no query for every row.
        return None
    if isinstance(instance, Table | Seat | Bye):
        return (
            Round.objects.filter(Q(released=True) | Q(started=True), pk=instance.round_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    if isinstance(instance, Sheet):
        return (
            Table.objects.filter(pk=instance.table_id, round__released=True)
            .values_list("round__tournament_id", flat=True)
            .first()
        )
    return None


def _public_data_changed(sender: type, instance: Any, **kwargs: Any) -> None:
    # Drafts and sheets awaiting confirmation are never public, and a confirmed sheet
    # being corrected keeps its confirmed deals until the correction is confirmed: only
    # a save as confirmed changes what the public sees. Scorers' drafts therefore leave
    # the public pages' cache alone.
    saved = kwargs.get("signal") is post_save
    if sender is Sheet and saved and instance.status != SheetStatus.CONFIRMED:
        return
    if sender is Round and not _round_change_is_public(instance, saved, kwargs):
        return
    tournament_id = _public_tournament_id(instance)
    if tournament_id is not None:
        mark_changed(tournament_id)


# Only the rows the public pages show, each connected by its model: every other model
# (deals, their per-seat results) keeps Django's fast delete, one statement for all rows.
_PUBLIC_MODELS = (Player, Round, KeepApart, Table, Seat, Bye, Sheet)
for _model in _PUBLIC_MODELS:
    post_save.connect(_public_data_changed, sender=_model, dispatch_uid=f"lld-public-{_model}")
    post_delete.connect(
        _public_data_changed, sender=_model, dispatch_uid=f"lld-public-del-{_model}"
    )


# Saved by seating as it plans the rounds ahead: nothing public.
_PRIVATE_TOURNAMENT_FIELDS = frozenset({"seating_plan"})


@receiver(post_save, sender=Tournament)
def _tournament_saved(sender: type, instance: Tournament, **kwargs: Any) -> None:
    # Settings (scoring, tiebreaks, publishing) change what the public pages show.
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and update_fields <= _PRIVATE_TOURNAMENT_FIELDS:
        return
    mark_changed(instance.pk)


@receiver(post_delete, sender=Tournament)
def _tournament_deleted(sender: type, instance: Tournament, **kwargs: Any) -> None:
    # Its pages are unreachable at once: a worker read its generation by its slug.
    forget_generations()
