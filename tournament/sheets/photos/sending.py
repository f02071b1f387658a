"""Sending photos of paper sheets to be read: what is refused at once, in words (a file
too large, a format we cannot read, a scorer whose last photos are still being read), and
the batch queued for the task that reads it once the photos are stored.

Terms: a *batch* is the photos one scorer sends at once (``models.photos``); *one read at
a time* means a scorer sends no batch while one of theirs waits or is being read, so that
one person's stack never holds the worker for everyone else twice over.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import UNFINISHED, Round, SheetPhoto, Table
from tournament.shared.tasks import enqueue_after_commit
from tournament.sheets.photos.tasks import read_photos

# The brands of the ISO base media file format that phones write HEIC and AVIF photos
# in: recognised by name so that the scorer is told which setting to change.
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif"}


class PhotoRefused(UserError):
    """Photos that were not sent: the words say which and why, and nothing was stored."""


@dataclass(frozen=True)
class SentFile:
    name: str
    size: int
    data: bytes


def _megabytes(count: int) -> str:
    return f"{count / (1024 * 1024):.0f} MB"


def is_heif(data: bytes) -> bool:
    """Whether ``data`` is a HEIC (or AVIF) photo, which the reader cannot decode."""
    return data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS


def file_problem(sent: SentFile) -> str | None:
    """What is wrong with one file before it is read, in words naming it; None if nothing."""
    limit = settings.PHOTO_MAX_BYTES
    if sent.size > limit:
        return (
            f"{sent.name or 'The photo'} is {_megabytes(sent.size)}, more than the "
            f"{_megabytes(limit)} a photo may be: take it again at a lower resolution"
        )
    if sent.size == 0:
        return f"{sent.name or 'The photo'} is empty: take the photo again"
    if is_heif(sent.data):
        return (
            f"{sent.name or 'The photo'} is a HEIC photo, which cannot be read here: set the "
            "camera to take JPEG photos (on an iPhone: Settings, Camera, Formats, Most "
            "Compatible), or send a screenshot of it"
        )
    return None


# A photo still waiting or being read this long after it was sent has lost its reader (a
# worker stopped half-way, or none runs): it no longer holds its scorer back, and its page
# says to send it again. A stack of 40 is read in well under a minute.
STALE_AFTER = timedelta(minutes=10)


def is_stale(photo: SheetPhoto) -> bool:
    """Whether ``photo`` is unfinished and has waited past ``STALE_AFTER``."""
    return photo.state in UNFINISHED and photo.sent_at < timezone.now() - STALE_AFTER


def _unfinished_of(user_id: int) -> SheetPhoto | None:
    return (
        SheetPhoto.objects.filter(
            sent_by_id=user_id,
            state__in=UNFINISHED,
            sent_at__gte=timezone.now() - STALE_AFTER,
        )
        .select_related("round", "table")
        .order_by("sent_at")
        .first()
    )


def one_at_a_time(user_id: int) -> str | None:
    """Why this scorer may not send photos now (theirs still being read), or None."""
    waiting = _unfinished_of(user_id)
    if waiting is None:
        return None
    local = timezone.localtime(waiting.sent_at)
    return (
        f"Your photos sent at {local:%H:%M} (round {waiting.round.number}) are still being "
        "read: one read at a time for each scorer. Send these once they are read"
    )


def send_photos(
    round_: Round, user_id: int, files: Sequence[SentFile], *, table: Table | None = None
) -> uuid.UUID:
    """Store ``files`` as one batch of round ``round_``'s photos sent by the user, queued to
    be read once stored; with ``table``, the one photo of that table's sheet (a photo of
    another table is then refused when read). ``PhotoRefused`` names every file refused
    and why; then nothing is stored."""
    if not files:
        raise PhotoRefused("No photo was sent: choose a photo of the sheet, or take one.")
    if table is not None and len(files) != 1:
        raise PhotoRefused(f"Send one photo of table {table.number}'s sheet at a time.")
    most = settings.PHOTO_MAX_FILES
    if len(files) > most:
        raise PhotoRefused(
            f"{len(files)} photos were sent at once; send at most {most}, then the rest."
        )
    problems = [problem for sent in files if (problem := file_problem(sent))]
    if problems:
        raise PhotoRefused(
            "Nothing was sent: " + "; ".join(problems) + "."
            if len(problems) == 1
            else "Nothing was sent:\n" + "\n".join(f"- {p}." for p in problems)
        )
    batch = uuid.uuid4()
    with transaction.atomic():
        # The scorer's row, locked: two sends at once from one account are one at a time.
        get_user_model().objects.select_for_update().filter(pk=user_id).first()
        busy = one_at_a_time(user_id)
        if busy:
            raise PhotoRefused(busy + ".")
        now = timezone.now()
        SheetPhoto.objects.bulk_create(
            SheetPhoto(
                round=round_,
                table=table,
                for_table=table is not None,
                batch=batch,
                position=position,
                name=sent.name[:200],
                sent_by_id=user_id,
                sent_at=now,
                upload=sent.data,
            )
            for position, sent in enumerate(files, start=1)
        )
        enqueue_after_commit(read_photos, str(batch))
    return batch
