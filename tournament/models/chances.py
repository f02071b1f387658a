"""A tournament's podium chances as last worked out: derived data, never a fact.

``PodiumChances`` holds, for one tournament, the figures ``public.chances`` works out
after a public change (each player's chance of winning and of the top three, and what
they need), and the generation (``Tournament.public_changed``) they were made for. The
public pages show them only while that generation is the tournament's: older figures
are never shown, and never worked out by a visitor's request.
"""

from django.db import models

from tournament.models.tournaments import Tournament


class PodiumChances(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="podium_chances"
    )
    # The tournament's public generation the figures were made for.
    made_for = models.DateTimeField()
    # The figures as JSON (``public.chances.Figures``), empty when no chances apply.
    figures = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"podium chances of {self.tournament_id}"
