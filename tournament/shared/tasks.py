"""Work off the request, on the task queue (Django's task framework, ``django_tasks``,
with the queue in the database, ``django_tasks_db``): what the library leaves to us.

Terms:

- *enqueue after the commit* (``enqueue_after_commit``): a task asked for inside a
  transaction is queued only once it commits, so the worker never runs it against data
  it cannot see yet, nor for a change that was rolled back.
- *coalescing*: a task already waiting with the same arguments is not queued twice
  (``enqueue_once``); a task that works something out for a key holds a *claim*
  (``claim``, a ``TaskClaim`` row with a unique key), so one runs at a time per key, and
  a second that finds the claim held leaves the work to the first, which checks again
  before it lets go.
- *dead*: a task the worker started more than ``DEAD_AFTER`` ago and never finished (its
  worker was killed): ``housekeeping`` marks it failed and queues it again; a claim
  older than that is taken over. Our tasks beat their claim as they go, and none runs
  that long.
- *pruning*: finished tasks are deleted a day after they finished (``housekeeping``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django_tasks import task_backends
from django_tasks.base import Task, TaskResultStatus

from tournament.models import TaskClaim

logger = logging.getLogger(__name__)

DEAD_AFTER = timedelta(minutes=5)
PRUNE_AFTER = timedelta(days=1)


def _queued_in_database() -> bool:
    return settings.TASKS["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"


def enqueue_once(task: Task[Any, Any], *args: Any) -> None:
    """Queue ``task(*args)`` unless the same task with the same arguments already waits."""
    if _queued_in_database():
        from django_tasks_db.models import DBTaskResult

        waiting = DBTaskResult.objects.filter(
            status=TaskResultStatus.READY,
            task_path=task.module_path,
            args_kwargs={"args": list(args), "kwargs": {}},
        )
        if waiting.exists():
            return
    task.enqueue(*args)


def enqueue_after_commit(task: Task[Any, Any], *args: Any) -> None:
    """``enqueue_once`` when the present transaction commits (at once outside one)."""
    transaction.on_commit(lambda: enqueue_once(task, *args), robust=True)


@contextmanager
def claim(key: str) -> Iterator[bool]:
    """Hold the claim on ``key`` for the block: yields True when it is ours, False when
    another task holds it (and is alive)."""
    now = timezone.now()
    held = False
    try:
        with transaction.atomic():
            TaskClaim.objects.create(key=key, claimed_at=now)
        held = True
    except IntegrityError:
        # Taken over only from a task dead long enough.
        held = bool(
            TaskClaim.objects.filter(key=key, claimed_at__lt=now - DEAD_AFTER).update(
                claimed_at=now
            )
        )
    try:
        yield held
    finally:
        if held:
            TaskClaim.objects.filter(key=key).delete()


def beat(key: str) -> None:
    """Keep a claim alive while its task works."""
    TaskClaim.objects.filter(key=key).update(claimed_at=timezone.now())


def housekeeping(*, prune: bool) -> dict[str, int]:
    """Queue again the tasks of dead workers, free dead claims, and with ``prune`` delete
    tasks that finished over a day ago: what was done, counted."""
    if not _queued_in_database():
        return {}
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    again = 0
    for dead in DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=now - DEAD_AFTER
    ):
        with transaction.atomic():
            # Still dead as we mark it: a slow task finishing now keeps its result.
            if not DBTaskResult.objects.filter(pk=dead.pk, status=TaskResultStatus.RUNNING).update(
                status=TaskResultStatus.FAILED,
                finished_at=now,
                exception_class_path="tournament.shared.tasks.WorkerStopped",
                traceback=f"the worker stopped: no result {DEAD_AFTER} after it started",
            ):
                continue
            try:
                task = dead.task
            except (ImportError, AttributeError):
                logger.warning("a dead task of %s is not run again: no such task", dead.task_path)
                continue
            task.using(priority=dead.priority).enqueue(
                *dead.args_kwargs["args"], **dead.args_kwargs["kwargs"]
            )
            again += 1
    freed = TaskClaim.objects.filter(claimed_at__lt=now - DEAD_AFTER).delete()[0]
    pruned = 0
    if prune:
        pruned = DBTaskResult.objects.filter(
            status__in=[TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED],
            finished_at__lt=now - PRUNE_AFTER,
        ).delete()[0]
    if again:
        logger.warning("queued again %s task(s) whose worker stopped", again)
    return {"queued again": again, "claims freed": freed, "pruned": pruned}


def backend_name() -> str:
    """ "the task worker" or "at once, in the process that asks" (the immediate backend)."""
    backend = task_backends["default"]
    return "the task worker" if _queued_in_database() else f"at once ({type(backend).__name__})"
