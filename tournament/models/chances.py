"""A tournament's podium chances as last worked out: derived data, never a fact.

``PodiumChances`` holds, for one tournament, the figures ``derived.chances`` works out
in the task worker (each player's chance of winning and of the top three, and what
they need), and the chances key of the public view they were made for
(``models.derived``). The pages show them only while that key is the public view's:
older figures are never shown, and never worked out by a visitor's request.
"""

from django.db import models

from tournament.models.derived import DIGEST_LENGTH
from tournament.models.tournaments import Tournament


class PodiumChances(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="podium_chances"
    )
    # The chances key of the public view they were made for (``models.derived``).
    fingerprint = models.CharField(max_length=DIGEST_LENGTH)
    # The figures as JSON (``derived.chances.work_out``), empty when no chances apply.
    figures = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"podium chances of {self.tournament_id}"
