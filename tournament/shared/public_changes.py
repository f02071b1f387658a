"""What a change changes, decided once, from what changed. Two keys of a tournament:

- its **page generation** (``Tournament.public_changed``), moved by ``mark_page_changed``
  when a field a public page shows changes: a player's name, club, whether they play on
  and who they are; a round started, released or withheld; the round's clock; the
  tournament's settings. Every cached public page of the tournament is keyed by it
  (``public.cache``), so moving it makes them all stale at once. Each worker remembers
  the generations it read (``generations``) for ``GENERATION_SECONDS``.
- its **standings version** (``Tournament.standings_version``), moved by
  ``mark_standings_changed`` in the transaction of any change to what the standings are
  made of (sheets confirmed, rounds started, released or withheld, seats and byes of a
  started round, penalties and awards, leaves, players' names and whether they play
  on, the rules and the scoring). After the commit, in that process, the views are
  worked out again (``after_standings_change``, which ``derived.refresh`` answers): the
  public view moves the page generation itself when it changed.

Neither moves for what no page shows and nothing is worked out from: a check-in at the
door, a tap's time, a fixed table, a keep-apart pair, a table's code, the seating plan.
A save that names its fields (``update_fields``) is judged by them; a full save by the
values it changes from those it was loaded with (``Tracked``).

Beyond one tournament, the **installation generation** (``InstallationGeneration``)
moves after the commit of any change a public list, a series or a career may show: a
tournament's page generation moved (published, withdrawn, renamed, a round released),
a tournament deleted, a series or its entries changed, a person renamed or linked, a
backup restored (``mark_installation_changed``). The read API keys its lists, series and
careers by it (``api.cache``); each worker trusts the one it read for
``GENERATION_SECONDS`` too.

Inside ``quietly()`` (an import, a replace, a deletion) the receivers only note the
tournament, or nothing when finding it would take a query: the block names its
tournaments and marks them both ways once, at its end.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from tournament.models import (
    Adjustment,
    Bye,
    InstallationGeneration,
    Person,
    Player,
    Round,
    Seat,
    Series,
    SeriesTournament,
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


def mark_page_changed(tournament_id: int) -> None:
    """Make the tournament's cached public pages stale: at once in this process, within
    ``GENERATION_SECONDS`` in the others. Noted inside ``quietly()``."""
    pending = _quiet.get()
    if pending is not None:
        pending.add(tournament_id)
        return
    Tournament.objects.filter(pk=tournament_id).update(public_changed=timezone.now())
    _forget_now_and_on_commit()


def mark_standings_changed(tournament_id: int) -> None:
    """Move the tournament's standings version in this transaction, and have its views
    worked out again once it commits. Noted inside ``quietly()``."""
    pending = _quiet.get()
    if pending is not None:
        pending.add(tournament_id)
        return
    Tournament.objects.filter(pk=tournament_id).update(standings_version=F("standings_version") + 1)
    _after_commit((tournament_id,))


def mark_changed(tournament_id: int) -> None:
    """Both: the pages are stale and the standings may have changed (a bulk write whose
    rows sent no signal: players imported, a round's results released with others)."""
    mark_page_changed(tournament_id)
    mark_standings_changed(tournament_id)


# Run after a committed change to the standings, with the tournament's id.
_after_change: list[Callable[[int], None]] = []


def after_standings_change(hook: Callable[[int], None]) -> None:
    """Have ``hook(tournament_id)`` run once each change that moved a tournament's
    standings version is committed (at once outside a transaction). A hook registers
    when its module is imported; it must be cheap when there is nothing new to do, as a
    transaction may mark a tournament several times."""
    if hook not in _after_change:
        _after_change.append(hook)


def _after_commit(tournament_ids: Iterable[int]) -> None:
    for tournament_id in tournament_ids:
        for hook in _after_change:
            # Robust: a hook that fails is logged, never undoes nor fails the change (the
            # worker's sweep works out a view left behind).
            transaction.on_commit(partial(hook, tournament_id), robust=True)


def _forget_now_and_on_commit() -> None:
    # Again at the commit: another thread may have read the old generation in between.
    generations.clear()
    transaction.on_commit(generations.clear)
    mark_installation_changed()


# (the installation generation, when this worker read it), while it trusts it.
_installation: list[tuple[datetime, float]] = []


def installation_generation() -> datetime:
    """The installation generation, as read at most ``GENERATION_SECONDS`` ago by this
    worker: no query while it trusts it, else one (two on a database that never had
    one)."""
    now = time.monotonic()
    known = _installation[0] if _installation else None
    if known is not None and now - known[1] < GENERATION_SECONDS:
        return known[0]
    changed = InstallationGeneration.objects.filter(pk=1).values_list("changed", flat=True).first()
    if changed is None:
        changed = InstallationGeneration.objects.get_or_create(
            pk=1, defaults={"changed": timezone.now()}
        )[0].changed
    _installation[:] = [(changed, now)]
    return changed


def mark_installation_changed() -> None:
    """Move the installation generation once the current transaction commits (at once
    outside one): a rolled-back change moves nothing, and the data is committed before
    the key that finds it. Once per transaction, however many changes it makes."""
    _installation.clear()
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
        hook is _move_installation for _, hook, _ in connection.run_on_commit
    ):
        return
    transaction.on_commit(_move_installation)


def _move_installation() -> None:
    now = timezone.now()
    if not InstallationGeneration.objects.filter(pk=1).update(changed=now):
        InstallationGeneration.objects.get_or_create(pk=1, defaults={"changed": now})
    _installation.clear()


_quiet: contextvars.ContextVar[set[int] | None] = contextvars.ContextVar("quiet", default=None)


@contextmanager
def quietly(*tournament_ids: int) -> Iterator[set[int]]:
    """Bulk writes (an import, a replace, a deletion) without a receiver's query for
    every row: the receivers only note the tournament, and each noted tournament (and each
    of ``tournament_ids``) is marked changed both ways once when the block ends without
    an error. The yielded set takes more tournaments to mark."""
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
        Tournament.objects.filter(pk__in=pending).update(
            public_changed=timezone.now(), standings_version=F("standings_version") + 1
        )
        _forget_now_and_on_commit()
        _after_commit(sorted(pending))


def is_quiet() -> bool:
    """Inside ``quietly``: changes are noted, and marked once at its end."""
    return _quiet.get() is not None


def public_version(tournament: Tournament) -> str:
    """What a tournament's public pages stand at: a value that moves whenever anything
    shown publicly changes (``mark_page_changed``). Keys of cached public data hold it."""
    return str(tournament.public_changed.timestamp())


def forget_generations() -> None:
    """Read every generation afresh (tests: the database under them was rolled back)."""
    generations.clear()
    _installation.clear()


# Deciding, from what changed -----------------------------------------------------------


def changed_fields(instance: Any, fields: frozenset[str], kwargs: dict[str, Any]) -> set[str]:
    """Which of ``fields`` a save changed: those it names, or for a full save those whose
    value differs from the one it was loaded with (every one, for a new row or a row
    not loaded from the database)."""
    if kwargs.get("created"):
        return set(fields)
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and not getattr(instance, "_whole_save", False):
        return set(fields) & set(update_fields)
    loaded = getattr(instance, "_loaded", None)
    if loaded is None:
        return set(fields)
    changed = set()
    for name in fields:
        attname = instance._meta.get_field(name).attname
        # A deferred field never read is not in the instance: it cannot have changed.
        if attname in instance.__dict__ and instance.__dict__[attname] != loaded.get(attname):
            changed.add(name)
    return changed


# A player's fields the public pages show, and those the standings are made of (a
# player who stops playing on changes the podium chances).
_PLAYER_PAGE_FIELDS = frozenset({"name", "club", "active", "person"})
_PLAYER_STANDINGS_FIELDS = frozenset({"ref", "name", "club", "active", "person", "tournament"})
# A round's: whether it has started (its seating is then public) and released; its clock
# shows on the pages but no standing is made of it.
_ROUND_STANDINGS_FIELDS = frozenset({"started", "released", "number"})
_ROUND_CLOCK_FIELDS = frozenset({"clock_ends", "clock_left"})
# The tournament's: everything but what only the organiser's pages or the seating use.
_TOURNAMENT_PRIVATE_FIELDS = frozenset({"seating_plan", "owner"})
_TOURNAMENT_STANDINGS_FIELDS = frozenset(
    {
        "scoring",
        "rule_set",
        "house_rules",
        "rotations_per_round",
        "tiebreaks",
        "bye_score",
        "planned_rounds",
        "finished",
        "table_policy",
        "table_sizes",
        "slug",
    }
)


@receiver(post_save, sender=Player, dispatch_uid="lld-player-saved")
def _player_saved(sender: type, instance: Player, **kwargs: Any) -> None:
    changed = changed_fields(instance, _PLAYER_STANDINGS_FIELDS | _PLAYER_PAGE_FIELDS, kwargs)
    if changed & _PLAYER_PAGE_FIELDS:
        mark_page_changed(instance.tournament_id)
    if changed & _PLAYER_STANDINGS_FIELDS:
        mark_standings_changed(instance.tournament_id)


@receiver(post_delete, sender=Player, dispatch_uid="lld-player-deleted")
def _player_deleted(sender: type, instance: Player, **kwargs: Any) -> None:
    mark_changed(instance.tournament_id)


def _round_change(instance: Round, saved: bool, kwargs: dict[str, Any]) -> tuple[bool, bool]:
    """(pages, standings): what a round's save or deletion changes."""
    if not saved:
        # Deleting a round not yet started shows nowhere, nor counts.
        return (instance.started, instance.started)
    if kwargs.get("created"):
        return (instance.started, instance.started)
    changed = changed_fields(instance, _ROUND_STANDINGS_FIELDS | _ROUND_CLOCK_FIELDS, kwargs)
    standings = bool(changed & _ROUND_STANDINGS_FIELDS)
    # A clock of a round being played; seeding a round or renumbering one not started
    # shows nowhere.
    clock = bool(changed & _ROUND_CLOCK_FIELDS)
    pages = clock or (standings and (instance.started or "started" in changed))
    return pages, standings and (instance.started or "started" in changed)


def _round_saved(sender: type, instance: Round, **kwargs: Any) -> None:
    pages, standings = _round_change(instance, kwargs.get("signal") is post_save, kwargs)
    if pages:
        mark_page_changed(instance.tournament_id)
    if standings:
        mark_standings_changed(instance.tournament_id)


def _started_round_tournament(round_id: int) -> int | None:
    """The tournament of a started round (whose tables, seats and byes count in the
    organiser's view and show publicly), None for one not started (its start marks it)."""
    if is_quiet():
        # A bulk write names its tournaments (``quietly``): no query for every row.
        return None
    return (
        Round.objects.filter(pk=round_id, started=True)
        .values_list("tournament_id", flat=True)
        .first()
    )


def _seating_changed(sender: type, instance: Table | Seat | Bye, **kwargs: Any) -> None:
    # A table's code is private; its leaves are part of its confirmed sheet.
    if (
        sender is Table
        and kwargs.get("signal") is post_save
        and not changed_fields(instance, frozenset({"left", "number"}), kwargs)
    ):
        return
    tournament_id = _started_round_tournament(instance.round_id)
    if tournament_id is not None:
        mark_changed(tournament_id)


def _sheet_changed(sender: type, instance: Sheet, **kwargs: Any) -> None:
    # Drafts and sheets awaiting confirmation count nowhere, and a confirmed sheet being
    # corrected keeps its confirmed deals until the correction is confirmed: only a save
    # as confirmed (or a deletion) changes the standings.
    if kwargs.get("signal") is post_save and instance.status != SheetStatus.CONFIRMED:
        return
    if is_quiet():
        return
    found = (
        Table.objects.filter(pk=instance.table_id, round__started=True)
        .values_list("round__tournament_id", "round__released")
        .first()
    )
    if found is None:
        return
    tournament_id, released = found
    mark_standings_changed(tournament_id)
    if released:
        # The player pages show the deals themselves, which a correction may change
        # without changing any sum.
        mark_page_changed(tournament_id)


def _adjustment_changed(sender: type, instance: Adjustment, **kwargs: Any) -> None:
    mark_standings_changed(instance.tournament_id)


for _model, _receiver in (
    (Round, _round_saved),
    (Table, _seating_changed),
    (Seat, _seating_changed),
    (Bye, _seating_changed),
    (Sheet, _sheet_changed),
    (Adjustment, _adjustment_changed),
):
    post_save.connect(_receiver, sender=_model, dispatch_uid=f"lld-saved-{_model.__name__}")
    post_delete.connect(_receiver, sender=_model, dispatch_uid=f"lld-deleted-{_model.__name__}")


@receiver(post_save, sender=Tournament, dispatch_uid="lld-tournament-saved")
def _tournament_saved(sender: type, instance: Tournament, **kwargs: Any) -> None:
    everything = frozenset(
        field.name for field in Tournament._meta.concrete_fields if field.name != "id"
    )
    changed = changed_fields(instance, everything - _TOURNAMENT_PRIVATE_FIELDS, kwargs)
    if not changed:
        return
    mark_page_changed(instance.pk)
    if kwargs.get("created") or changed & _TOURNAMENT_STANDINGS_FIELDS:
        mark_standings_changed(instance.pk)


@receiver(post_delete, sender=Tournament, dispatch_uid="lld-tournament-deleted")
def _tournament_deleted(sender: type, instance: Tournament, **kwargs: Any) -> None:
    # Its pages are unreachable at once: a worker read its generation by its slug.
    forget_generations()
    mark_installation_changed()


def _installation_changed(sender: type, **kwargs: Any) -> None:
    # A series' name, scheme or entries, a person's name or club: what a series, a
    # career or a list shows beyond one tournament's pages.
    mark_installation_changed()


for _beyond in (Series, SeriesTournament, Person):
    _name = _beyond.__name__
    post_save.connect(_installation_changed, sender=_beyond, dispatch_uid=f"lld-all-{_name}")
    post_delete.connect(_installation_changed, sender=_beyond, dispatch_uid=f"lld-all-gone-{_name}")


# A worker remembers the generations of at most this many slugs (any typed slug that
# names a tournament counts), then forgets them all and reads again.
MAX_REMEMBERED = 1000


def published_generation(slug: str) -> tuple[int, datetime] | None:
    """The published tournament of ``slug`` and its generation, as read at most
    ``GENERATION_SECONDS`` ago by this worker (the public pages' cache and the read API's
    share the memo); None when no published tournament has that slug."""
    now = time.monotonic()
    known = generations.get(slug)
    if known is not None and now - known[2] < GENERATION_SECONDS:
        return known[0], known[1]
    found = Tournament.objects.filter(slug=slug, published=True).values_list("pk", "public_changed")
    if not found:
        generations.pop(slug, None)
        return None
    ((pk, changed),) = found
    if len(generations) >= MAX_REMEMBERED:
        generations.clear()
    generations[slug] = (pk, changed, now)
    return pk, changed
