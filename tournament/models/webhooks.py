"""A tournament's webhooks: the addresses its organiser asked to be told at
(``WebhookEndpoint``), and each message sent or being sent to one (``WebhookDelivery``).

Terms (``tournament.webhooks`` has the rest):

- *format*: what a message looks like: ``standard`` (the Standard Webhooks convention,
  signed with the endpoint's secret), ``discord`` or ``slack`` (their incoming webhooks'
  bodies, a short message with a link).
- *switched off*: an endpoint the organiser disabled, or that was disabled for repeated
  failure, in which case ``switched_off`` says why on its page.
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournament.models.tournaments import Tournament

URL_MAX = 500
SITE_MAX = 200
SECRET_MAX = 80
EVENT_MAX = 40
ANSWER_MAX = 200


class WebhookFormat(models.TextChoices):
    STANDARD = "standard", "Standard Webhooks (signed JSON)"
    DISCORD = "discord", "Discord channel"
    SLACK = "slack", "Slack channel"


class DeliveryState(models.TextChoices):
    WAITING = "waiting", "waiting"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed"
    NOT_SENT = "not sent", "not sent"


class WebhookEndpoint(models.Model):
    """An address a tournament's events are sent to. The secret is kept as it is (signing
    needs it), shown to the organiser once, when it is made, and carried by backups."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.CharField(max_length=URL_MAX)
    format = models.CharField(
        max_length=10, choices=WebhookFormat.choices, default=WebhookFormat.STANDARD
    )
    events = models.JSONField(default=list)
    secret = models.CharField(max_length=SECRET_MAX)
    # The address of this site the messages' links start with: PUBLIC_BASE_URL, or the
    # address the organiser added the endpoint from (a task has no request to ask).
    site = models.CharField(max_length=SITE_MAX)
    enabled = models.BooleanField(default=True)
    # Why the endpoint was switched off by itself (repeated failure); empty otherwise.
    switched_off = models.CharField(max_length=300, blank=True)
    # The fingerprint of the public standings last announced to it (standings.changed).
    announced_standings = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=[choice.value for choice in WebhookFormat]),
                name="webhook_known_format",
            ),
            models.CheckConstraint(
                condition=Q(enabled=False) | Q(switched_off=""),
                name="webhook_switched_off_is_disabled",
            ),
        ]

    def __str__(self) -> str:
        return f"Webhook {self.pk} of {self.tournament_id}: {self.url}"


class WebhookDelivery(models.Model):
    """One message to one endpoint, through every try: the body is kept as first made,
    so every try sends the same bytes under the same ``message_id``."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    message_id = models.CharField(max_length=40, unique=True)
    event = models.CharField(max_length=EVENT_MAX)
    body = models.TextField()
    created = models.DateTimeField(default=timezone.now)
    state = models.CharField(
        max_length=10, choices=DeliveryState.choices, default=DeliveryState.WAITING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    # The last try's answer: its HTTP status, or none when there was no answer.
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    # The start of the last answer's body, or what went wrong ("timed out").
    answer = models.CharField(max_length=ANSWER_MAX, blank=True)
    last_tried = models.DateTimeField(null=True, blank=True)
    next_try = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["endpoint", "-created"], name="webhook_delivery_recent")]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=[choice.value for choice in DeliveryState]),
                name="webhook_delivery_known_state",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} to webhook {self.endpoint_id} ({self.state})"
