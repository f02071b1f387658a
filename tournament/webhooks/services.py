"""A tournament's webhooks as its organiser keeps them (adding, rotating the secret,
switching off and on, removing, pinging), and the events the other concepts tell
(``tell``, ``standings_moved``, ``final_results_out``), each queued after the commit of
the change that made it: nothing is ever sent inside a request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Prefetch

from scoring.errors import UserError
from tournament.models import (
    DeliveryState,
    Round,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookFormat,
)
from tournament.models.webhooks import SITE_MAX
from tournament.webhooks import announcing, tasks
from tournament.webhooks.addresses import checked_target
from tournament.webhooks.messages import EVENT_KEYS, STANDINGS_CHANGED, new_secret

MAX_ENDPOINTS = 10
RECENT_DELIVERIES = 10


@dataclass(frozen=True)
class Made:
    """An endpoint with its secret, shown this once."""

    endpoint: WebhookEndpoint
    secret: str


def add_endpoint(
    tournament: Tournament,
    url: str,
    events: Sequence[str],
    format_: str = WebhookFormat.STANDARD,
    *,
    site: str,
) -> Made:
    """Add an endpoint to ``tournament``: ``UserError`` naming what is wrong (a refused
    address among them)."""
    if tournament.is_rehearsal:
        raise UserError("A rehearsal never sends webhooks: add them to the tournament itself.")
    if format_ not in WebhookFormat.values:
        raise UserError(
            f"the format {str(format_)[:20]!r} is not one of: " + ", ".join(WebhookFormat.values)
        )
    unknown = [event for event in events if event not in EVENT_KEYS]
    if unknown:
        raise UserError(
            f"no such event: {', '.join(str(e)[:40] for e in unknown)} "
            f"(the events are {', '.join(EVENT_KEYS)})"
        )
    if not events:
        raise UserError("choose at least one event to send")
    checked_target(url)
    if not site.startswith(("http://", "https://")) or len(site) > SITE_MAX:
        raise UserError(f"the site's address {site[:60]!r} does not start with https://")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if WebhookEndpoint.objects.filter(tournament=locked).count() >= MAX_ENDPOINTS:
            raise UserError(f"a tournament has at most {MAX_ENDPOINTS} webhooks: remove one first")
        secret = new_secret()
        endpoint = WebhookEndpoint.objects.create(
            tournament=locked,
            url=url.strip(),
            format=format_,
            events=[event for event in EVENT_KEYS if event in events],
            secret=secret,
            site=site.rstrip("/"),
            announced_standings=announcing.public_fingerprint(locked.pk),
        )
    return Made(endpoint, secret)


def endpoint_of(tournament: Tournament, endpoint_id: int) -> WebhookEndpoint:
    found = WebhookEndpoint.objects.filter(tournament=tournament, pk=endpoint_id).first()
    if found is None:
        raise UserError(f"this tournament has no webhook {endpoint_id}")
    return found


def rotate_secret(endpoint: WebhookEndpoint) -> Made:
    """A new secret for ``endpoint``: the old one signs nothing from now on."""
    secret = new_secret()
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(secret=secret)
    endpoint.secret = secret
    return Made(endpoint, secret)


def switch(endpoint: WebhookEndpoint, on: bool) -> None:
    """Switch the endpoint on (forgetting why it was switched off) or off; switched off,
    what waited for it is not sent."""
    with transaction.atomic():
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(enabled=on, switched_off="")
        if not on:
            WebhookDelivery.objects.filter(endpoint=endpoint, state=DeliveryState.WAITING).update(
                state=DeliveryState.NOT_SENT, answer="the endpoint was switched off", next_try=None
            )
    endpoint.enabled, endpoint.switched_off = on, ""


def remove(endpoint: WebhookEndpoint) -> None:
    endpoint.delete()


def ping(endpoint: WebhookEndpoint) -> None:
    """Queue a ``webhook.ping`` to ``endpoint``, sent by the task worker."""
    if endpoint.tournament.is_rehearsal:
        raise UserError("A rehearsal never sends webhooks.")
    if not endpoint.enabled:
        raise UserError("this webhook is switched off: switch it on before sending a ping")
    with transaction.atomic():
        made = announcing.ping_delivery(endpoint)
        transaction.on_commit(lambda: tasks.send([made]), robust=True)


def endpoints_of(tournament: Tournament) -> list[WebhookEndpoint]:
    """The tournament's endpoints, each with its recent deliveries (``recent``): two
    queries."""
    recent = WebhookDelivery.objects.order_by("-created", "-pk").defer("body")
    return list(
        WebhookEndpoint.objects.filter(tournament=tournament)
        .order_by("created", "pk")
        .prefetch_related(Prefetch("deliveries", recent[:RECENT_DELIVERIES], to_attr="recent"))
    )


# Events told by the other concepts --------------------------------------------------------


def tell(tournament_id: int, event: str, number: int | None = None) -> None:
    """Queue ``event`` (of round ``number``) to the endpoints asking for it, once the
    present transaction commits (at once outside one)."""

    def queue() -> None:
        tasks.send(announcing.event_deliveries(tournament_id, event, number))

    transaction.on_commit(queue, robust=True)


def standings_moved(tournament_id: int) -> None:
    """The public standings were worked out anew: told ``tasks.STANDINGS_DEBOUNCE`` later
    where an endpoint asks for them."""
    asking = WebhookEndpoint.objects.filter(tournament_id=tournament_id, enabled=True)
    if any(STANDINGS_CHANGED in events for events in asking.values_list("events", flat=True)):
        transaction.on_commit(lambda: tasks.standings_soon(tournament_id), robust=True)


def final_results_out(tournament: Tournament) -> bool:
    """Whether the public standings are final: a round released, and the last planned
    one released or the tournament marked finished (``public.room.progress``)."""
    last = Round.objects.filter(tournament=tournament, released=True).aggregate(last=Max("number"))[
        "last"
    ]
    if not last:
        return False
    finished = Tournament.objects.filter(pk=tournament.pk).values_list("finished", flat=True)
    return bool(finished.first()) or last >= tournament.planned_rounds
