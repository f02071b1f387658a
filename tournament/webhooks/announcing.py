"""Turning what happened to a tournament into deliveries, one for each endpoint that
asked for the event: made after the commit of the change, sent by the task worker.

Only a published tournament tells its rounds, standings and final results (its pages
and the API show nothing of a private one); ``tournament.unpublished`` is told as it
becomes private, and ``webhook.ping`` whenever the organiser asks. A rehearsal tells
nothing. Each endpoint keeps its last ``KEEP_DELIVERIES`` deliveries.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournament.models import (
    DeliveryState,
    DerivedView,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournament.webhooks.messages import (
    PING,
    STANDINGS_CHANGED,
    TOURNAMENT_UNPUBLISHED,
    Happening,
    body,
    new_message_id,
)

KEEP_DELIVERIES = 50
TOLD_WHILE_PRIVATE = {TOURNAMENT_UNPUBLISHED, PING}


def site_of(endpoint: WebhookEndpoint) -> str:
    return settings.PUBLIC_BASE_URL or endpoint.site


def tells(tournament: Tournament, event: str) -> bool:
    """Whether ``tournament`` tells anyone of ``event`` now."""
    if tournament.is_rehearsal:
        return False
    return tournament.published or event in TOLD_WHILE_PRIVATE


def make_deliveries(happening: Happening, endpoints: Iterable[WebhookEndpoint]) -> list[int]:
    """A delivery of ``happening`` for each of ``endpoints``: their ids."""
    made = []
    for endpoint in endpoints:
        delivery = WebhookDelivery.objects.create(
            endpoint=endpoint,
            message_id=new_message_id(),
            event=happening.event,
            body=body(endpoint.format, site_of(endpoint), happening).decode(),
            created=happening.at,
        )
        made.append(delivery.pk)
        kept = WebhookDelivery.objects.filter(endpoint=endpoint).order_by("-created", "-pk")
        old = kept.exclude(state=DeliveryState.WAITING).values_list("pk", flat=True)
        stale = list(old[KEEP_DELIVERIES:])
        if stale:
            WebhookDelivery.objects.filter(pk__in=stale).delete()
    return made


def _asking(tournament: Tournament, event: str) -> list[WebhookEndpoint]:
    return [
        endpoint
        for endpoint in WebhookEndpoint.objects.filter(tournament=tournament, enabled=True)
        if event in endpoint.events
    ]


def event_deliveries(tournament_id: int, event: str, number: int | None = None) -> list[int]:
    """The deliveries of ``event`` (of round ``number``) for the endpoints asking for it."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tells(tournament, event):
        return []
    happening = Happening(event, tournament.slug, tournament.name, timezone.now(), number)
    return make_deliveries(happening, _asking(tournament, event))


def ping_delivery(endpoint: WebhookEndpoint) -> int:
    tournament = endpoint.tournament
    happening = Happening(
        PING, tournament.slug, tournament.name, timezone.now(), extra={"endpoint": endpoint.pk}
    )
    return make_deliveries(happening, [endpoint])[0]


def public_fingerprint(tournament_id: int) -> str:
    return (
        DerivedView.objects.filter(tournament_id=tournament_id, kind=DerivedView.Kind.PUBLIC)
        .values_list("fingerprint", flat=True)
        .first()
        or ""
    )


def standings_deliveries(tournament_id: int) -> list[int]:
    """A ``standings.changed`` for each endpoint asking for it that was last told other
    standings than the public ones now."""
    with transaction.atomic():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or not tells(tournament, STANDINGS_CHANGED):
            return []
        fingerprint = public_fingerprint(tournament_id)
        if not fingerprint:
            return []
        endpoints = [
            endpoint
            for endpoint in WebhookEndpoint.objects.select_for_update()
            .filter(tournament=tournament, enabled=True)
            .exclude(announced_standings=fingerprint)
            .order_by("pk")
            if STANDINGS_CHANGED in endpoint.events
        ]
        happening = Happening(STANDINGS_CHANGED, tournament.slug, tournament.name, timezone.now())
        made = make_deliveries(happening, endpoints)
        WebhookEndpoint.objects.filter(pk__in=[e.pk for e in endpoints]).update(
            announced_standings=fingerprint
        )
    return made
