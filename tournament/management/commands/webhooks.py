"""A tournament's webhooks from the command line (docs/webhooks.md):

    manage.py webhooks add SLUG URL [--events round.released,standings.changed …]
                                    [--format standard|discord|slack]
    manage.py webhooks list SLUG
    manage.py webhooks rotate ID
    manage.py webhooks disable ID | enable ID
    manage.py webhooks remove ID
    manage.py webhooks ping ID

``add`` and ``rotate`` print one line of JSON with the secret, shown this once; ``list``
prints one line of JSON a webhook, without it. A ping is queued and sent by the task
worker (``run_worker``, started by ``run.py serve``).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from tournament.models import Tournament, WebhookEndpoint, WebhookFormat
from tournament.webhooks import services
from tournament.webhooks.messages import EVENT_KEYS

# run.py serves here unless told otherwise; PUBLIC_BASE_URL names the real address.
DEFAULT_SITE = "http://127.0.0.1:8000"


def _events(text: str) -> list[str]:
    return [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]


class Command(BaseCommand):
    help = "Add, list, rotate, switch off or on, remove and ping a tournament's webhooks."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="add a webhook; prints its secret, once")
        add.add_argument("slug", help="the tournament's slug")
        add.add_argument("url", help="the address the webhooks are sent to")
        add.add_argument(
            "--events",
            nargs="+",
            default=[",".join(EVENT_KEYS)],
            help=f"the events to send, by comma or space (default all: {', '.join(EVENT_KEYS)})",
        )
        add.add_argument(
            "--format",
            choices=WebhookFormat.values,
            default=WebhookFormat.STANDARD,
            help="standard (signed JSON), discord or slack (default standard)",
        )
        add.add_argument(
            "--site",
            default="",
            help="the address of this site the links start with (default PUBLIC_BASE_URL, "
            f"else {DEFAULT_SITE})",
        )
        listing = actions.add_parser("list", help="the tournament's webhooks, one JSON line each")
        listing.add_argument("slug")
        for name, words in (
            ("rotate", "a new secret; prints it, once"),
            ("disable", "switch it off"),
            ("enable", "switch it on again"),
            ("remove", "remove it"),
            ("ping", "queue a webhook.ping, sent by the task worker"),
        ):
            actions.add_parser(name, help=words).add_argument("id", type=int)

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        try:
            getattr(self, f"_{action}")(**options)
        except UserError as refused:
            raise CommandError(str(refused)) from None

    def _tournament(self, slug: str) -> Tournament:
        found = Tournament.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"no tournament has the slug {slug!r}")
        return found

    def _endpoint(self, endpoint_id: int) -> WebhookEndpoint:
        found = WebhookEndpoint.objects.select_related("tournament").filter(pk=endpoint_id).first()
        if found is None:
            raise CommandError(f"no webhook has the id {endpoint_id}")
        return found

    def _line(self, endpoint: WebhookEndpoint, **extra: Any) -> None:
        shown = {
            "id": endpoint.pk,
            **extra,
            "url": endpoint.url,
            "events": endpoint.events,
            "format": endpoint.format,
            "tournament": endpoint.tournament.slug,
            "enabled": endpoint.enabled,
        }
        if endpoint.switched_off:
            shown["switched_off"] = endpoint.switched_off
        self.stdout.write(json.dumps(shown, ensure_ascii=False))

    def _add(self, slug: str, url: str, events: list[str], format: str, site: str, **_: Any):
        made = services.add_endpoint(
            self._tournament(slug),
            url,
            [event for given in events for event in _events(given)],
            format,
            site=site or settings.PUBLIC_BASE_URL or DEFAULT_SITE,
        )
        self._line(made.endpoint, secret=made.secret)

    def _list(self, slug: str, **_: Any) -> None:
        for endpoint in services.endpoints_of(self._tournament(slug)):
            self._line(endpoint)

    def _rotate(self, id: int, **_: Any) -> None:
        made = services.rotate_secret(self._endpoint(id))
        self._line(made.endpoint, secret=made.secret)

    def _disable(self, id: int, **_: Any) -> None:
        endpoint = self._endpoint(id)
        services.switch(endpoint, False)
        self._line(endpoint)

    def _enable(self, id: int, **_: Any) -> None:
        endpoint = self._endpoint(id)
        services.switch(endpoint, True)
        self._line(endpoint)

    def _remove(self, id: int, **_: Any) -> None:
        services.remove(self._endpoint(id))
        self.stdout.write(f"Webhook {id} removed.")

    def _ping(self, id: int, **_: Any) -> None:
        services.ping(self._endpoint(id))
        self.stdout.write(f"A webhook.ping to webhook {id} is queued: the task worker sends it.")
