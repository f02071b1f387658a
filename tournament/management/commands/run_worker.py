"""The task worker: runs the queued tasks (the views, the podium chances, the format
advisor's larger questions) in priority order, one at a time, beside the app servers.

Every ``HOUSEKEEPING_SECONDS`` it sweeps: tasks of a worker that died are queued again,
dead claims are freed, tournaments whose views are missing or behind are asked for, and
once a day finished tasks are pruned (``shared.tasks.housekeeping``). SIGINT or SIGTERM
stops it after the task it is running (a second one at once).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.utils.crypto import get_random_string
from django_tasks_db.management.commands.db_worker import Worker

from tournament.derived.refresh import sweep
from tournament.shared.tasks import housekeeping

logger = logging.getLogger("tournament.worker")

HOUSEKEEPING_SECONDS = 30.0
PRUNE_SECONDS = 24 * 60 * 60.0


class Command(BaseCommand):
    help = (
        "Run the task worker: the podium chances, the views a page found missing and the "
        "format advisor's larger questions, off the requests (docs/deploy.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="seconds to wait for a task when none waits (default 1)",
        )
        parser.add_argument(
            "--batch",
            action="store_true",
            help="run what waits, then stop (tests, a cron job)",
        )

    def handle(self, *args: Any, interval: float, batch: bool, **options: Any) -> None:
        stop = threading.Event()
        worker = Worker(
            queue_names=["*"],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=get_random_string(32),
            excluded_queue_names=[],
        )

        def shutdown(signum: int, frame: FrameType | None) -> None:
            if stop.is_set() or not worker.running_task:
                raise SystemExit(0)
            logger.warning("stopping after the task it is running")
            worker.running = False
            stop.set()

        signal.signal(signal.SIGINT, shutdown)
        signal.signal(signal.SIGTERM, shutdown)
        self.stdout.write(f"Task worker {worker.worker_id} running: Ctrl-C stops it.")
        last_sweep = last_prune = float("-inf")
        while not stop.is_set():
            now = time.monotonic()
            if now - last_sweep >= HOUSEKEEPING_SECONDS:
                prune = now - last_prune >= PRUNE_SECONDS
                done = housekeeping(prune=prune)
                asked = sweep()
                if asked:
                    logger.info("asked for the views of %s tournament(s)", asked)
                last_sweep = now
                if prune:
                    last_prune = now
                if any(done.values()):
                    logger.info("housekeeping: %s", done)
            # The library's loop in batch mode runs every task ready now, then returns.
            worker.running = True
            worker.run()
            close_old_connections()
            if batch:
                return
            stop.wait(interval)
