"""Penalties and awards an organiser gives a player in a round, with their reasons."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.kernel import limits
from tournament.models.players import Player
from tournament.models.rounds import Round
from tournament.models.tournaments import Tournament


class Adjustment(models.Model):
    """A penalty (negative points) or an award the organiser gives a player in a round,
    in the tournament's scoring system, with its reason: added to the player's total for
    that round once the round is released. Removing one keeps the row (``removed_at``),
    so that the history says who gave it, who took it back and when."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="adjustments")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="adjustments")
    points = models.IntegerField()
    reason = models.CharField(max_length=limits.REASON_MAX)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round__number", "created", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(points=0), name="adjustment_not_zero"),
            models.CheckConstraint(
                condition=Q(points__gte=-limits.ADJUSTMENT_MAX, points__lte=limits.ADJUSTMENT_MAX),
                name="adjustment_in_range",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.points:+d} for {self.player} in {self.round} ({self.reason})"
