"""Helpers for races: calls run in threads all at once (each with its own database
connection), a service slowed down or made to linger to widen the race window, and
complete sheets to save."""

import threading
import time

from django.db import connection

from tests.pages import sheet_cells
from tournament.models import Table
from tournament.sheets.saving import save_sheet


def slow_down(monkeypatch, module, name):
    """Make ``module.name`` pause before doing its work, widening the race window."""
    real = getattr(module, name)

    def slow(*args, **kwargs):
        time.sleep(OVERLAP)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)


def run_together(*calls):
    """Run every call in its own thread, all starting at once; the outcome of each."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def work(index, call):
        try:
            # Connect before the barrier, so that connecting does not stagger the start.
            connection.ensure_connection()
            barrier.wait(timeout=30)
            outcomes[index] = Outcome(value=call())
        except Exception as error:
            outcomes[index] = Outcome(error=error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=work, args=(index, call), name=f"caller-{index}")
        for index, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread hung (a deadlock?)"
    return outcomes


def complete_rows(size, variant=0):
    """A complete, valid sheet for a table of ``size``: ``size`` deals adding up to 52."""
    rows = []
    for deal in range(size):
        pairs = [25 // size + (1 if seat < 25 % size else 0) for seat in range(size)]
        # Move a pair from one seat to the next to tell variants apart.
        giver = (deal + variant) % size
        if variant and pairs[giver]:
            pairs[giver] -= 1
            pairs[(giver + 1) % size] += 1
        rows.append({"won": [2 * p for p in pairs], "last_in": deal % size + 1, "left_over": 2})
    return rows


def load_table(pk):
    return Table.objects.select_related("round__tournament").get(pk=pk)


def after(seconds, call):
    """``call``, started ``seconds`` late: the other thread is first into its transaction."""

    def late():
        time.sleep(seconds)
        return call()

    return late


def linger_after(monkeypatch, module, name, seconds=0.15):
    """Make ``module.name`` pause after doing its work: whatever it looked at may change
    meanwhile, unless a lock holds it still."""
    real = getattr(module, name)

    def lingering(*args, **kwargs):
        result = real(*args, **kwargs)
        time.sleep(seconds)
        return result

    monkeypatch.setattr(module, name, lingering)


# Long enough for every thread to reach the locked section while the first holds it.
OVERLAP = 0.3


class Outcome:
    def __init__(self, value=None, error=None):
        self.value = value
        self.error = error

    def __repr__(self):
        return f"Outcome(value={self.value!r}, error={self.error!r})"


def saver(table_pk, user, rows, **kwargs):
    def call():
        return save_sheet(load_table(table_pk), user, rows, **kwargs).or_raise()

    return call


def sheet_form(rows, version=0):
    return {"expected_version": str(version), "action": "final", **sheet_cells(rows)}
