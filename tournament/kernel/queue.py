"""How the task queue stands, for the health check and the organiser's overview: how
many tasks wait, how long the oldest has waited, and when a task last started. Two
queries; nothing when tasks run at once (no queue)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max, Min
from django.utils import timezone

# A task waiting this long means no worker is taking them (a worker takes one within a
# second or two when idle; the chances of a large field take seconds).
STALLED_SECONDS = 120


@dataclass(frozen=True)
class QueueStatus:
    waiting: int
    oldest_seconds: int
    last_started: datetime | None

    @property
    def line(self) -> str:
        return f"queue: {self.waiting} waiting, oldest {self.oldest_seconds} s"

    @property
    def stalled(self) -> bool:
        return self.waiting > 0 and self.oldest_seconds >= STALLED_SECONDS

    @property
    def idle_minutes(self) -> int:
        """Minutes since a task last started (or since the oldest began to wait)."""
        since = self.last_started
        if since is None:
            return self.oldest_seconds // 60
        return max(int((timezone.now() - since).total_seconds()) // 60, self.oldest_seconds // 60)


def queue_status() -> QueueStatus | None:
    if settings.TASKS["default"]["BACKEND"] != "django_tasks_db.DatabaseBackend":
        return None
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    found = DBTaskResult.objects.ready().aggregate(waiting=Count("pk"), oldest=Min("enqueued_at"))
    last = DBTaskResult.objects.aggregate(last=Max("started_at"))["last"]
    oldest = found["oldest"]
    seconds = int((now - oldest).total_seconds()) if oldest else 0
    return QueueStatus(found["waiting"], max(seconds, 0), last)
