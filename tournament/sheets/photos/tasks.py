"""The task that reads a batch of photos (``manage.py run_worker``): one photo after
another, in the order they were sent, each finished (read, refused or failed) before the
next begins, so that the page following them shows each as soon as it is done.

Priority: after the standings' views and chances (``derived.tasks``), which a room of
phones waits on; before the format advisor's questions."""

from __future__ import annotations

import uuid

from django_tasks import task

from tournament.models import UNFINISHED, SheetPhoto
from tournament.sheets.photos.reading import failed, read_photo

PHOTOS_PRIORITY = 30


@task(priority=PHOTOS_PRIORITY)
def read_photos(batch: str) -> str:
    states = []
    for photo_id in SheetPhoto.objects.filter(
        batch=uuid.UUID(batch), state__in=UNFINISHED
    ).values_list("pk", flat=True):
        try:
            states.append(read_photo(photo_id))
        # One photo's error never stops the stack: it says so, and the next is read.
        except Exception as error:
            failed(photo_id, error)
            states.append("failed")
    return ", ".join(states) or "nothing to read"
