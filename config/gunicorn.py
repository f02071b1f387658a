"""gunicorn's settings beside those of its command line: ``run.py serve`` and the systemd
services of docs/deploy.md start it with ``-c config/gunicorn.py``.

- Its log: gunicorn's own lines (workers started, timed out) and its access log go
  through the app's handlers and formatter (``config.logs.logging_config``, which is
  ``settings.LOGGING``), so that each is one line, its control characters escaped, in
  the master process too, where the app is not loaded.
- ``worker_abort``: a worker that gunicorn kills for running past ``--timeout`` says
  which request it was serving, by its URL pattern (``tournament.kernel.slow_requests``).
"""

from __future__ import annotations

from typing import Any

from config.env import env
from config.logs import logging_config

logconfig_dict = logging_config(env.log_level("DJANGO_LOG_LEVEL", default="INFO"))


def worker_abort(worker: Any) -> None:
    """Called by gunicorn in a worker it kills at the timeout (SIGABRT), just before the
    worker exits: the line of the request it was serving, as a slow request's."""
    # The app is loaded in the worker by now; the master never imports it.
    from tournament.kernel import slow_requests

    slow_requests.log_killed()
