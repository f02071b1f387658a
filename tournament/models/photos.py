"""Photos of paper score sheets read at the desk (docs/photos.md): one photo of one table's
sheet, sent by a scorer, kept downscaled with what was read from it.

Terms:

- *batch*: the photos one scorer sent at once (one from a sheet's page, a stack from the
  round's desk); one task reads them one after another, and one page follows them.
- *state*: waiting (sent, not read yet), reading, read (a reading is stored), refused
  (not a sheet we can read, or not the one it was sent for: ``reason`` and ``words`` say
  why), failed (the reader stopped on an error of ours).
- *sheet image*: the sheet as photographed, straightened to the printed sheet's
  millimetres (``scale`` pixels a millimetre); each cell's crop is cut from it by the
  rectangle ``cells`` keeps, so showing a crop needs neither the reader nor the layout.

A photo is never a public file: its bytes live in the database, served only to the
tournament's scorers and organiser, and go with the tournament when it is deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models.rounds import Round, Table


class PhotoState(models.TextChoices):
    WAITING = "waiting", "Waiting to be read"
    READING = "reading", "Being read"
    READ = "read", "Read"
    REFUSED = "refused", "Refused"
    FAILED = "failed", "Failed"


# A photo still in the queue: its scorer sends no other until it is read.
UNFINISHED = (PhotoState.WAITING, PhotoState.READING)


class SheetPhoto(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="photos")
    # The table it was sent for (a sheet's "Read a photo"), or, for a stack, the table its
    # QR code named once read; blank until then, or when the photo named no table.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="photos"
    )
    # Sent for this table: a photo of another table is refused, not routed.
    for_table = models.BooleanField(default=False)
    batch = models.UUIDField(db_index=True)
    position = models.PositiveSmallIntegerField(default=1)
    # The file's name as the phone or computer sent it, to tell a stack's photos apart.
    name = models.CharField(max_length=200, blank=True)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    sent_at = models.DateTimeField(default=timezone.now)
    state = models.CharField(max_length=8, choices=PhotoState.choices, default=PhotoState.WAITING)
    # The bytes as sent, kept only until the photo is read.
    upload = models.BinaryField(default=b"", blank=True)
    # The photo downscaled (JPEG), orientation applied: what the history keeps.
    image = models.BinaryField(default=b"", blank=True)
    # Refused: one of scoring.sheet_reading.reader.REFUSALS, and a sentence naming what
    # is wrong; failed: what went wrong, for the organiser.
    reason = models.CharField(max_length=20, blank=True)
    words = models.TextField(blank=True)
    # What was read (scoring.sheet_reading.reader.as_json: deals and doubtful cells, with
    # each cell's probability after decoding under "probability").
    reading = models.JSONField(null=True, blank=True)
    sheet_image = models.BinaryField(default=b"", blank=True)
    scale = models.FloatField(default=0)
    # Each cell's rectangle on the sheet image, in millimetres: {"d3_s2": [x, y, w, h]}.
    cells = models.JSONField(default=dict, blank=True)
    # The version of the table's sheet when the reading was stored: saving the form filled
    # from it expects that version, so a sheet entered, confirmed or corrected since is
    # answered as changed meanwhile, never overwritten by an older paper.
    sheet_version = models.PositiveIntegerField(default=0)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["sent_at", "position"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "position"], name="photo_batch_position"),
            models.CheckConstraint(
                condition=Q(state__in=[choice.value for choice in PhotoState]),
                name="photo_state_known",
            ),
        ]
        indexes = [models.Index(fields=["sent_by", "state"], name="photo_sender_state")]

    def __str__(self) -> str:
        return f"Photo {self.position} of {self.batch} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state not in UNFINISHED
