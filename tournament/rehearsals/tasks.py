"""A rehearsal's slow work as tasks of the worker (``manage.py run_worker``), queued after
the commit of the organiser's click (``rehearsals.services``). After the views and the
chances of the evenings being played: a rehearsal never delays a real room."""

from __future__ import annotations

from django_tasks import task

from tournament.rehearsals import work

REHEARSAL_PRIORITY = 0


@task(priority=REHEARSAL_PRIORITY)
def fill_rehearsal(rehearsal_id: int) -> str:
    return work.fill_copy(rehearsal_id)


@task(priority=REHEARSAL_PRIORITY)
def play_rehearsal_round(rehearsal_id: int, number: int) -> str:
    return work.play_round(rehearsal_id, number)
