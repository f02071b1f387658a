"""One-time links that make a scorer's account for one tournament."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models.tournaments import Tournament


class Invitation(models.Model):
    """A one-time link that makes a scorer's account for one tournament
    (``accounts.invitations``): the organiser names the account, whoever opens the link
    sets its password. The link carries a random secret and only its SHA-256 is kept here,
    so that reading the database (or a backup) opens no invitation. A link stops working
    once used, withdrawn or past ``expires``; the row stays, so that the page can say which."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    secret_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    # The account the link made: kept after use, for the Scorers page and the admin.
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires__gt=models.F("created")), name="invitation_expires_later"
            ),
            models.CheckConstraint(
                condition=Q(used_at=None) | Q(withdrawn_at=None),
                name="invitation_used_or_withdrawn",
            ),
            models.CheckConstraint(condition=~Q(username=""), name="invitation_names_someone"),
        ]

    def __str__(self) -> str:
        return f"Invitation of {self.username} to {self.tournament_id}"
