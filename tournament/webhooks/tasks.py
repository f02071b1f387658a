"""The webhooks' tasks, run by the task worker (``manage.py run_worker``), never in a
request:

- ``deliver_webhook``: one try of a delivery; a failed try queues the next one with a
  later run time (``run_after``), as the schedule has it (``delivery.RETRY_AFTER``);
- ``announce_standings``: the public standings changed: queued ``STANDINGS_DEBOUNCE``
  after the change unless one already waits, so that every change within that time is
  told once, as the standings then stand.

A backend that cannot run a task later (the immediate backend of the tests and of
``TASKS_BACKEND=immediate``) tells the standings at once, and tries a delivery once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django_tasks import task, task_backends
from django_tasks.base import Task, TaskResultStatus

from tournament.webhooks import announcing, delivery

WEBHOOKS_PRIORITY = 20
# A round's confirmations arrive in bursts: the standings are told at most once in this
# time, as they stand at its end.
STANDINGS_DEBOUNCE = timedelta(seconds=30)


def _waiting(task_: Task[Any, Any], *args: Any) -> bool:
    if type(task_backends["default"]).__name__ != "DatabaseBackend":
        return False
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        task_path=task_.module_path,
        args_kwargs={"args": list(args), "kwargs": {}},
    ).exists()


def enqueue_later(task_: Task[Any, Any], when: datetime | None, *args: Any) -> None:
    """Queue ``task_(*args)`` to run at ``when`` (at once when None, or when the
    backend cannot wait)."""
    if when is not None and task_backends["default"].supports_defer:
        task_.using(run_after=when).enqueue(*args)
    else:
        task_.enqueue(*args)


@task(priority=WEBHOOKS_PRIORITY)
def deliver_webhook(delivery_id: int) -> str:
    tried = delivery.try_delivery(delivery_id)
    if tried.next_try is not None:
        if not task_backends["default"].supports_defer:
            delivery.not_tried_again(delivery_id)
            return "failed, not tried again: tasks run at once here"
        enqueue_later(deliver_webhook, tried.next_try, delivery_id)
    return tried.outcome


def send(delivery_ids: list[int]) -> None:
    """Queue the first try of each delivery."""
    for delivery_id in delivery_ids:
        deliver_webhook.enqueue(delivery_id)


@task(priority=WEBHOOKS_PRIORITY)
def announce_standings(tournament_id: int) -> str:
    made = announcing.standings_deliveries(tournament_id)
    send(made)
    return f"{len(made)} to send"


def standings_soon(tournament_id: int) -> None:
    """Have the standings told ``STANDINGS_DEBOUNCE`` from now, unless that waits already."""
    if not _waiting(announce_standings, tournament_id):
        enqueue_later(announce_standings, timezone.now() + STANDINGS_DEBOUNCE, tournament_id)
