"""The webhooks' tests share a receiver run by the test (an HTTP server on 127.0.0.1 in a
thread, answering as told), the queue in the database, and a way to run what waits in it
as the worker would at a given time."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

# What the queue stores as the run time of a task to run at once.
DATE_MAX = get_date_max()
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    # The statuses to answer, in turn; then ``status``.
    answers: list[int] = field(default_factory=list)
    status: int = 200
    requests: list[Received] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A webhook receiver on 127.0.0.1: it keeps each request and answers ``answers`` in
    turn, then ``status``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    receiver = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}/hooks/lld")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            receiver.requests.append(Received(self.path, dict(self.headers.items()), body))
            status = receiver.answers.pop(0) if receiver.answers else receiver.status
            answer = b"ok" if status < 400 else b"receiver broken"
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", receiver.url + "/elsewhere")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: object) -> None:
            pass

    server.RequestHandlerClass = Handler
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def allow_private(settings):
    """The installation allows private addresses: the tests' receiver is on 127.0.0.1."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True


@pytest.fixture
def queued(settings):
    """Tasks wait in the database queue, as in production, until ``run_due`` runs them."""
    settings.TASKS = DATABASE


def waiting() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(status=TaskResultStatus.READY).order_by("enqueued_at"))


def run_due(at: datetime | None = None) -> int:
    """Run, as the worker would at ``at`` (now), every task then due, and those they
    queue that are due too: how many ran."""
    at = at or timezone.now()
    ran = 0
    while True:
        due = [
            task for task in waiting() if task.run_after in (None, DATE_MAX) or task.run_after <= at
        ]
        if not due:
            return ran
        for result in due:
            DBTaskResult.objects.filter(pk=result.pk).update(
                status=TaskResultStatus.SUCCESSFUL, finished_at=timezone.now()
            )
            result.task.call(*result.args_kwargs["args"], **result.args_kwargs["kwargs"])
            ran += 1


@pytest.fixture
def worker(after_commit):
    """``run_due``: the worker's turn, at a given time, once what was owed after the
    commits so far is done (the tasks they queue)."""

    def turn(at: datetime | None = None) -> int:
        after_commit()
        return run_due(at)

    return turn
