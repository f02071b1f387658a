"""What a webhook says: the events, the links, the bodies of each format, and the
signature of the standard one.

Terms:

- *event*: what happened, by its type (``EVENTS``); an endpoint is sent the events it
  chose (``webhook.ping`` is sent when asked, whatever it chose).
- *standard body*: ``{"type", "timestamp", "data"}`` as Standard Webhooks has it
  (https://www.standardwebhooks.com/), with a thin ``data``: the tournament's slug, the
  round's number, and links into the API and to the public page, so that the receiver
  reads what it wants from there.
- *signature*: ``v1,`` and the base64 of the HMAC-SHA256 of ``id.timestamp.body``, keyed
  with the base64-decoded bytes of the secret after ``whsec_``; sent in
  ``webhook-signature`` beside ``webhook-id`` and ``webhook-timestamp`` (seconds).
- *chat message*: for ``discord`` and ``slack``, one short line with a link to the
  public page, in their incoming webhooks' bodies, mentioning nobody.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.urls import reverse

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32


@dataclass(frozen=True)
class Event:
    key: str
    label: str


ROUND_STARTED = "round.started"
ROUND_RELEASED = "round.released"
ROUND_WITHHELD = "round.withheld"
STANDINGS_CHANGED = "standings.changed"
TOURNAMENT_FINISHED = "tournament.finished"
TOURNAMENT_UNPUBLISHED = "tournament.unpublished"
PING = "webhook.ping"

EVENTS = (
    Event(ROUND_STARTED, "A round starts (its seating becomes public)"),
    Event(ROUND_RELEASED, "A round's results are released"),
    Event(ROUND_WITHHELD, "A released round is withheld again"),
    Event(STANDINGS_CHANGED, "The public standings change"),
    Event(TOURNAMENT_FINISHED, "The final results are revealed"),
    Event(TOURNAMENT_UNPUBLISHED, "The tournament is made private again"),
)
EVENT_KEYS = tuple(event.key for event in EVENTS)
ALL_KEYS = (*EVENT_KEYS, PING)


def new_secret() -> str:
    """``whsec_`` and the base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def new_message_id() -> str:
    return "msg_" + secrets.token_urlsafe(18)


def secret_key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(secret, message_id, timestamp, body),
    }


# Links ---------------------------------------------------------------------------------
# The API's addresses (namespace "api": api:tournament, api:standings, api:round), built
# here from their paths, in this one place, so that they can become reverse() calls.

API_ROOT = "/api/v1"


def api_link(site: str, slug: str, what: str = "tournament", number: int | None = None) -> str:
    path = f"{API_ROOT}/tournaments/{slug}"
    if what == "standings":
        path += "/standings"
    elif what == "round":
        path += f"/rounds/{number}"
    return site + path


def page_link(site: str, slug: str, number: int | None = None) -> str:
    if number is None:
        return site + reverse("standings", args=[slug])
    return site + reverse("public_round", args=[slug, number])


# Bodies --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Happening:
    """An event of one tournament, as every format needs it."""

    event: str
    slug: str
    name: str
    at: datetime
    round: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _data(site: str, happening: Happening) -> dict[str, Any]:
    slug = happening.slug
    data: dict[str, Any] = {"tournament": slug}
    if happening.round is not None:
        data["round"] = happening.round
    data.update(happening.extra)
    if happening.event in (ROUND_STARTED, ROUND_RELEASED, ROUND_WITHHELD):
        data["links"] = {
            "round": api_link(site, slug, "round", happening.round),
            # A round just started has no results to show: where everyone sits.
            "page": site + reverse("find_seat", args=[slug])
            if happening.event == ROUND_STARTED
            else page_link(site, slug, happening.round),
        }
    elif happening.event in (STANDINGS_CHANGED, TOURNAMENT_FINISHED):
        data["links"] = {
            "standings": api_link(site, slug, "standings"),
            "page": page_link(site, slug),
        }
    else:
        data["links"] = {"tournament": api_link(site, slug)}
    return data


def _line(happening: Happening) -> str:
    name, number = happening.name, happening.round
    return {
        ROUND_STARTED: f"Round {number} of {name} has started: find your table.",
        ROUND_RELEASED: f"The results of round {number} of {name} are out.",
        ROUND_WITHHELD: f"The results of round {number} of {name} are withdrawn for now.",
        STANDINGS_CHANGED: f"The standings of {name} have changed.",
        TOURNAMENT_FINISHED: f"The final results of {name} are out.",
        TOURNAMENT_UNPUBLISHED: f"{name} is private again.",
        PING: f"Webhook test from {name}: this channel will be told of the tournament.",
    }[happening.event]


def _link(site: str, happening: Happening) -> str | None:
    if happening.event == TOURNAMENT_UNPUBLISHED:
        return None
    if happening.event in (ROUND_STARTED, ROUND_RELEASED) and happening.round is not None:
        if happening.event == ROUND_STARTED:
            return site + reverse("find_seat", args=[happening.slug])
        return page_link(site, happening.slug, happening.round)
    return page_link(site, happening.slug)


def _slack_text(text: str) -> str:
    # Slack reads <…> as links and mentions (<!channel>): its three escapes.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def body(format_: str, site: str, happening: Happening) -> bytes:
    """The bytes sent to an endpoint of ``format_`` for ``happening``."""
    if format_ == "standard":
        payload: dict[str, Any] = {
            "type": happening.event,
            "timestamp": happening.at.isoformat().replace("+00:00", "Z"),
            "data": _data(site, happening),
        }
    else:
        line, link = _line(happening), _link(site, happening)
        if format_ == "discord":
            text = line if link is None else f"{line} {link}"
            # Nobody is pinged, whatever a tournament's name holds (@everyone).
            payload = {"content": text[:2000], "allowed_mentions": {"parse": []}}
        else:
            text = _slack_text(line)
            if link is not None:
                text += f" <{link}|Open the page>"
            payload = {"text": text}
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
