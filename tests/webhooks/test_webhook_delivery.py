"""Delivering a webhook to a receiver the test runs: signed as Standard Webhooks has it
(checked by the reference verifier), tried again on the schedule after a failure, the
endpoint switched off after the last, private addresses refused at every try, and the
connection made to the address that was checked."""

from __future__ import annotations

import contextlib
import json
import socket
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from tests.factories import TournamentFactory
from tournament.models import DeliveryState, WebhookDelivery, WebhookEndpoint
from tournament.webhooks import client, services
from tournament.webhooks.delivery import RETRY_AFTER, TRIES
from tournament.webhooks.messages import EVENT_KEYS, PING, ROUND_RELEASED

pytestmark = pytest.mark.django_db

SITE = "https://scores.example.org"


def endpoint_for(receiver, format_="standard", events=(ROUND_RELEASED,), **fields):
    tournament = TournamentFactory(name="Red Lion Open", slug="red-lion", published=True, **fields)
    return services.add_endpoint(tournament, receiver.url, events, format_, site=SITE)


def waiting_deliveries():
    return DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__endswith="deliver_webhook"
    ).order_by("pk")


def test_a_ping_verifies_with_the_reference_verifier(allow_private, queued, receiver, worker):
    made = endpoint_for(receiver)
    services.ping(made.endpoint)
    assert receiver.requests == [], "queued, not sent by the one who asked"
    assert worker() == 1
    (request,) = receiver.requests
    assert request.path == "/hooks/lld"
    payload = Webhook(made.secret).verify(request.body, request.headers)
    assert payload["type"] == PING
    assert payload["data"] == {
        "tournament": "red-lion",
        "endpoint": made.endpoint.pk,
        "links": {"tournament": f"{SITE}/api/v1/tournaments/red-lion"},
    }
    assert request.headers["webhook-id"].startswith("msg_")
    assert request.headers["Host"] == receiver.url.split("/")[2]
    with pytest.raises(WebhookVerificationError):
        Webhook(services.rotate_secret(made.endpoint).secret).verify(request.body, request.headers)
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.status_code) == ("delivered", 1, 200)


def test_the_secret_is_whsec_and_24_random_bytes_at_least(allow_private, receiver):
    import base64

    first = endpoint_for(receiver).secret
    second = services.rotate_secret(WebhookEndpoint.objects.get()).secret
    assert first.startswith("whsec_")
    assert second.startswith("whsec_")
    assert len(base64.b64decode(first.removeprefix("whsec_"))) >= 24
    assert first != second
    assert WebhookEndpoint.objects.get().secret == second


def test_a_500_is_tried_again_later_with_the_same_message(allow_private, queued, receiver, worker):
    made = endpoint_for(receiver)
    receiver.answers = [500]
    services.ping(made.endpoint)
    before = timezone.now()
    worker()
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.status_code) == ("waiting", 1, 500)
    assert delivery.answer == "receiver broken"
    # The next try waits in the queue with a later run time, the schedule's first wait.
    (retry,) = waiting_deliveries()
    assert retry.args_kwargs["args"] == [delivery.pk]
    assert retry.run_after >= before + RETRY_AFTER[0]
    assert retry.run_after == delivery.next_try
    assert not DBTaskResult.objects.ready().exists(), "the worker leaves it until then"
    assert worker() == 0, "not yet due"
    assert len(receiver.requests) == 1
    assert worker(retry.run_after) == 1
    first, second = receiver.requests
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body
    Webhook(made.secret).verify(second.body, second.headers)
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.status_code) == ("delivered", 2, 200)
    assert delivery.next_try is None


def test_repeated_failure_switches_the_endpoint_off(allow_private, queued, receiver, worker):
    made = endpoint_for(receiver)
    receiver.status = 500
    services.ping(made.endpoint)
    at = timezone.now()
    waits = []
    worker(at)
    for _ in range(TRIES - 1):
        (retry,) = waiting_deliveries()
        waits.append(retry.run_after - WebhookDelivery.objects.get().last_tried)
        at = retry.run_after
        worker(at)
    assert waits == list(RETRY_AFTER)
    assert len(receiver.requests) == TRIES
    assert not waiting_deliveries().exists()
    endpoint = WebhookEndpoint.objects.get()
    assert not endpoint.enabled
    assert "6 tries to send webhook.ping failed" in endpoint.switched_off
    assert WebhookDelivery.objects.get().state == DeliveryState.FAILED
    # Switched off, nothing more is sent until the organiser switches it on.
    services.tell(endpoint.tournament_id, ROUND_RELEASED, 1)
    worker(at + timedelta(days=1))
    assert len(receiver.requests) == TRIES
    with pytest.raises(Exception, match="switched off"):
        services.ping(endpoint)
    services.switch(endpoint, True)
    receiver.status = 200
    services.ping(endpoint)
    worker(at + timedelta(days=1))
    assert len(receiver.requests) == TRIES + 1
    assert WebhookEndpoint.objects.get().switched_off == ""


def test_a_redirect_is_not_followed_and_counts_as_a_failure(
    allow_private, queued, receiver, worker
):
    made = endpoint_for(receiver)
    receiver.answers = [302]
    services.ping(made.endpoint)
    worker()
    assert len(receiver.requests) == 1, "the Location was not followed"
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.status_code) == ("waiting", 302)


def test_only_the_start_of_a_long_answer_is_read(allow_private, monkeypatch, receiver):
    monkeypatch.setattr(client, "ANSWER_BYTES", 10)
    from tournament.webhooks.addresses import checked_target

    answer = client.post(checked_target(receiver.url), b"{}", {})
    assert answer.status == 200
    assert answer.text == "ok"
    receiver.status = 500
    answer = client.post(checked_target(receiver.url), b"{}", {})
    assert answer.text == "receiver b", "ten bytes of “receiver broken”"


def test_no_receiver_and_a_certificate_for_another_name_are_failures(allow_private, tmp_path):
    import ssl
    import subprocess
    import threading

    from tournament.webhooks.addresses import Target, checked_target

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    answer = client.post(checked_target(f"https://127.0.0.1:{port}/"), b"{}", {})
    assert (answer.status, answer.text.split(":")[0]) == (None, "could not connect")
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", tmp_path / "key.pem", "-out", tmp_path / "cert.pem",
         "-subj", "/CN=somewhere.example"],
        capture_output=True, check=False,
    )  # fmt: skip
    if made.returncode:
        pytest.skip("no openssl to make a certificate with")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()

        def handshake():
            connection, _ = server.accept()
            with connection, contextlib.suppress(OSError):
                context.wrap_socket(connection, server_side=True)

        threading.Thread(target=handshake, daemon=True).start()
        target = Target("https", "hooks.example.org", server.getsockname()[1], "/", "127.0.0.1")
        answer = client.post(target, b"{}", {})
    assert answer.status is None
    assert answer.text.startswith("TLS failed: [SSL: CERTIFICATE_VERIFY_FAILED]")


def test_a_private_address_is_refused_at_delivery_too(settings, queued, receiver, worker):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    made = endpoint_for(receiver)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    services.ping(made.endpoint)
    worker()
    assert receiver.requests == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.status_code is None
    assert "127.0.0.1 is a loopback address" in delivery.answer


def test_the_request_connects_to_the_address_checked(
    allow_private, queued, receiver, worker, monkeypatch
):
    """A name that resolves elsewhere at the next lookup (DNS rebinding) is looked up
    once a try: the connection goes to the address checked, the name in Host."""
    port = int(receiver.url.split(":")[2].split("/")[0])
    looked_up = []
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        looked_up.append(host)
        if host == "hooks.example.org":
            # First the receiver, then an address that must never be reached.
            address = "127.0.0.1" if looked_up.count(host) == 1 else "10.9.9.9"
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    tournament = TournamentFactory(slug="rebound", published=True)
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament,
        url=f"http://hooks.example.org:{port}/hooks/lld",
        events=list(EVENT_KEYS),
        secret="whsec_" + "A" * 43 + "=",
        site=SITE,
    )
    services.ping(endpoint)
    worker()
    (request,) = receiver.requests
    assert request.headers["Host"] == f"hooks.example.org:{port}"
    assert looked_up.count("hooks.example.org") == 1


@pytest.mark.parametrize(
    ("format_", "expected"),
    [
        (
            "discord",
            {
                "content": "The results of round 2 of @everyone <b>Night</b> are out. "
                "https://scores.example.org/t/red-lion/rounds/2/",
                "allowed_mentions": {"parse": []},
            },
        ),
        (
            "slack",
            {
                "text": "The results of round 2 of @everyone &lt;b&gt;Night&lt;/b&gt; are out. "
                "<https://scores.example.org/t/red-lion/rounds/2/|Open the page>"
            },
        ),
    ],
)
def test_chat_channels_get_a_short_message_that_mentions_nobody(
    allow_private, queued, receiver, worker, format_, expected
):
    made = endpoint_for(receiver, format_)
    made.endpoint.tournament.name = "@everyone <b>Night</b>"
    made.endpoint.tournament.save()
    services.tell(made.endpoint.tournament_id, ROUND_RELEASED, 2)
    worker()
    (request,) = receiver.requests
    assert json.loads(request.body) == expected
    assert "webhook-signature" not in request.headers
