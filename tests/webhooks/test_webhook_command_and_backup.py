"""``manage.py webhooks`` (its JSON line with the secret, once), and a backup and its
restore keeping the webhooks with their secrets."""

from __future__ import annotations

import base64
import io
import json
import time

import pytest
from django.core.management import CommandError, call_command
from standardwebhooks.webhooks import Webhook

from tests.backups import empty_the_database, restore
from tests.factories import TournamentFactory
from tournament.models import WebhookEndpoint
from tournament.webhooks import messages

pytestmark = pytest.mark.django_db


def command(*args: str) -> str:
    out = io.StringIO()
    call_command("webhooks", *args, stdout=out)
    return out.getvalue()


def test_add_prints_one_line_of_json_with_the_secret(allow_private):
    TournamentFactory(slug="crown-open")
    output = command(
        "add", "crown-open", "http://127.0.0.1:9/hook",
        "--events", "round.released,standings.changed", "--format", "slack",
    )  # fmt: skip
    (line,) = output.splitlines()
    shown = json.loads(line)
    endpoint = WebhookEndpoint.objects.get()
    assert shown["id"] == endpoint.pk
    assert shown["secret"] == endpoint.secret
    assert len(base64.b64decode(shown["secret"].removeprefix("whsec_"))) >= 24
    assert shown["url"] == "http://127.0.0.1:9/hook"
    assert shown["events"] == ["round.released", "standings.changed"]
    assert shown["format"] == "slack"
    # Listed without it.
    listed = json.loads(command("list", "crown-open"))
    assert "secret" not in listed
    assert listed["id"] == endpoint.pk
    rotated = json.loads(command("rotate", str(endpoint.pk)))
    assert rotated["secret"] == WebhookEndpoint.objects.get().secret != shown["secret"]
    assert json.loads(command("disable", str(endpoint.pk)))["enabled"] is False
    with pytest.raises(CommandError, match="switch it on before sending a ping"):
        command("ping", str(endpoint.pk))
    assert json.loads(command("enable", str(endpoint.pk)))["enabled"] is True
    assert "is queued" in command("ping", str(endpoint.pk))
    assert "removed" in command("remove", str(endpoint.pk))
    assert not WebhookEndpoint.objects.exists()


def test_add_takes_every_event_by_default_and_refuses_what_it_cannot_send(settings):
    TournamentFactory(slug="crown-open")
    with pytest.raises(CommandError, match=r"127\.0\.0\.1 is a loopback address"):
        command("add", "crown-open", "http://127.0.0.1/hook")
    with pytest.raises(CommandError, match=r"no such event: round\.finished"):
        command("add", "crown-open", "https://1.1.1.1/", "--events", "round.finished")
    with pytest.raises(CommandError, match="no tournament has the slug"):
        command("add", "nowhere", "https://1.1.1.1/")
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    shown = json.loads(command("add", "crown-open", "http://127.0.0.1/hook"))
    assert shown["events"] == list(messages.EVENT_KEYS)
    assert shown["format"] == "standard"


def test_a_backup_keeps_the_webhooks_and_their_secrets(allow_private, make_played, tmp_path):
    tournament = make_played(players=8, rounds=1, slug="kept-night")
    command("add", "kept-night", "http://127.0.0.1:9/a", "--format", "discord")
    command("add", "kept-night", "http://127.0.0.1:9/b", "--events", "round.released")
    WebhookEndpoint.objects.filter(url__endswith="/b").update(
        enabled=False, switched_off="Switched off: 6 tries failed."
    )
    before = list(WebhookEndpoint.objects.order_by("pk").values())
    assert tournament.webhooks.count() == 2
    out = io.StringIO()
    call_command("backup", "--dir", str(tmp_path), stdout=out)
    assert "2 webhooks with their signing secrets" in out.getvalue()
    folder = next(tmp_path.iterdir())
    empty_the_database()
    said = restore(folder)
    assert "2 webhooks put back with their signing secrets" in said
    after = list(WebhookEndpoint.objects.order_by("pk").values())
    assert after == before
    # A message signed now verifies with the secret the receiver was given before.
    secret = before[0]["secret"]
    headers = messages.signed_headers(secret, "msg_1", int(time.time()), b"{}")
    assert Webhook(secret).verify(b"{}", headers) == {}
