"""One try of a delivery, and what follows it: delivered, another try later, or given up
with the endpoint switched off.

Terms:

- *schedule*: the waits between tries, ``RETRY_AFTER``: 30 seconds, 2 minutes, 10
  minutes, 1 hour and 6 hours, so six tries over a little more than seven hours. A try
  is delivered when the endpoint answers 2xx in time; anything else (another status, a
  redirect, a timeout, a refused address, no connection) is a failure.
- *switched off*: a delivery whose last try failed gives up, and the endpoint is
  switched off with a message on its page saying why; what else waited for it is not
  sent. The organiser switches it on again when the receiver is mended.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from tournament.models import DeliveryState, WebhookDelivery, WebhookEndpoint
from tournament.models.webhooks import ANSWER_MAX
from tournament.webhooks import client
from tournament.webhooks.addresses import AddressRefused, checked_target
from tournament.webhooks.messages import signed_headers

RETRY_AFTER = (
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(hours=1),
    timedelta(hours=6),
)
TRIES = len(RETRY_AFTER) + 1


@dataclass(frozen=True)
class Tried:
    """What a try came to, for the task: the time of the next try, if any."""

    outcome: str
    next_try: datetime | None = None


def _finish(delivery: WebhookDelivery, state: str, answer: str) -> Tried:
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        state=state, answer=answer[:ANSWER_MAX], next_try=None
    )
    return Tried(state)


def try_delivery(delivery_id: int) -> Tried:
    """Try to deliver ``delivery_id`` once, now (nothing when it is no longer waiting)."""
    delivery = (
        WebhookDelivery.objects.select_related("endpoint__tournament")
        .filter(pk=delivery_id, state=DeliveryState.WAITING)
        .first()
    )
    if delivery is None:
        return Tried("nothing waits")
    endpoint = delivery.endpoint
    if endpoint.tournament.is_rehearsal:
        return _finish(delivery, DeliveryState.NOT_SENT, "a rehearsal never sends")
    if not endpoint.enabled:
        return _finish(delivery, DeliveryState.NOT_SENT, "the endpoint is switched off")
    body = delivery.body.encode()
    now = timezone.now()
    headers = {}
    if endpoint.format == "standard":
        headers = signed_headers(endpoint.secret, delivery.message_id, int(now.timestamp()), body)
    try:
        # Checked again at every try, and the request connects to the address checked.
        answer = client.post(checked_target(endpoint.url), body, headers)
    except AddressRefused as refused:
        answer = client.Answer(None, f"not sent: {refused}")
    return _record(delivery, answer, now)


def _record(delivery: WebhookDelivery, answer: client.Answer, now: datetime) -> Tried:
    attempts = delivery.attempts + 1
    values = {
        "attempts": attempts,
        "status_code": answer.status,
        "answer": " ".join(answer.text.split())[:ANSWER_MAX],
        "last_tried": now,
        "next_try": None,
    }
    if answer.delivered:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            state=DeliveryState.DELIVERED, **values
        )
        return Tried("delivered")
    if attempts < TRIES:
        next_try = now + RETRY_AFTER[attempts - 1]
        WebhookDelivery.objects.filter(pk=delivery.pk).update(**{**values, "next_try": next_try})
        return Tried("failed, tried again later", next_try)
    with transaction.atomic():
        WebhookDelivery.objects.filter(pk=delivery.pk).update(state=DeliveryState.FAILED, **values)
        _switch_off(delivery, answer, now)
    return Tried("failed, endpoint switched off")


def not_tried_again(delivery_id: int) -> None:
    """A failed delivery that no later try can follow (tasks run at once, no queue):
    failed, the endpoint left on."""
    WebhookDelivery.objects.filter(pk=delivery_id, state=DeliveryState.WAITING).update(
        state=DeliveryState.FAILED, next_try=None
    )


def _switch_off(delivery: WebhookDelivery, answer: client.Answer, now: datetime) -> None:
    said = f"answered {answer.status}" if answer.status is not None else answer.text[:80]
    message = (
        f"Switched off on {date_format(timezone.localtime(now), 'j F Y, H:i')}: "
        f"{TRIES} tries to send {delivery.event} failed over "
        f"{_span(sum(RETRY_AFTER, timedelta()))} (the last {said}). "
        "Mend the receiver, then switch it on again."
    )
    WebhookEndpoint.objects.filter(pk=delivery.endpoint_id).update(
        enabled=False, switched_off=message[:300]
    )
    WebhookDelivery.objects.filter(
        endpoint_id=delivery.endpoint_id, state=DeliveryState.WAITING
    ).update(state=DeliveryState.NOT_SENT, answer="the endpoint was switched off", next_try=None)


def schedule_in_words() -> str:
    """ "30 seconds, 2 minutes, 10 minutes, 1 hour and 6 hours"."""
    words = []
    for wait in RETRY_AFTER:
        seconds = int(wait.total_seconds())
        for unit, size in (("hour", 3600), ("minute", 60), ("second", 1)):
            if seconds % size == 0:
                count = seconds // size
                words.append(f"{count} {unit}{'s' if count != 1 else ''}")
                break
    return ", ".join(words[:-1]) + " and " + words[-1]


def _span(wait: timedelta) -> str:
    hours, seconds = divmod(int(wait.total_seconds()), 3600)
    minutes = seconds // 60
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"
