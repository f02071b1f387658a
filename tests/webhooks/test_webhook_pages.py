"""The organiser's Webhooks page: adding an endpoint shows its secret once, a private
address is refused with the field named, the buttons rotate, switch, remove and ping,
the switched-off message shows, and only the organiser gets the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tournament.models import DeliveryState, WebhookDelivery, WebhookEndpoint
from tournament.webhooks import services
from tournament.webhooks.messages import EVENT_KEYS, ROUND_RELEASED

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(organiser):
    return TournamentFactory(name="Crown Open", slug="crown-open", owner=organiser, published=True)


def page_of(tournament):
    return reverse("organiser:webhooks", args=[tournament.slug])


def test_adding_shows_the_secret_once(allow_private, organiser_client, tournament):
    response = organiser_client.post(
        page_of(tournament),
        {"url": "http://127.0.0.1:9/hook", "format": "discord", "events": [ROUND_RELEASED]},
    )
    assert response.status_code == 200
    endpoint = WebhookEndpoint.objects.get()
    assert (endpoint.format, endpoint.events) == ("discord", [ROUND_RELEASED])
    assert endpoint.site == "http://testserver"
    assert endpoint.secret in response.content.decode()
    again = organiser_client.get(page_of(tournament)).content.decode()
    assert endpoint.secret not in again
    assert "http://127.0.0.1:9/hook" in again


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://10.0.0.7/hook",
        "http://100.64.0.1/hook",
        "http://169.254.169.254/latest",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "http://[::]/hook",
        "http://[fe80::1]/hook",
        "http://192.168.1.20:8000/hook",
    ],
)
def test_a_private_address_is_refused_when_added(organiser_client, tournament, url):
    response = organiser_client.post(
        page_of(tournament), {"url": url, "format": "standard", "events": list(EVENT_KEYS)}
    )
    assert response.status_code == 422
    text = response.content.decode()
    assert "Not added:" in text
    assert "webhooks are sent to public addresses only" in text
    assert not WebhookEndpoint.objects.exists()


def test_a_missing_event_and_a_bad_url_are_named(organiser_client, tournament):
    response = organiser_client.post(page_of(tournament), {"url": "ftp://x", "format": "slack"})
    assert response.status_code == 422
    text = response.content.decode()
    assert "Choose at least one event to send." in text
    response = organiser_client.post(
        page_of(tournament), {"url": "ftp://x", "format": "slack", "events": [ROUND_RELEASED]}
    )
    assert "the URL must start with https://" in response.content.decode()


def test_the_buttons(allow_private, organiser_client, tournament, after_commit):
    made = services.add_endpoint(
        tournament, "http://127.0.0.1:9/hook", [ROUND_RELEASED], site="https://x.org"
    )
    pk = made.endpoint.pk
    slug = tournament.slug
    response = organiser_client.post(
        reverse("organiser:webhook_rotate", args=[slug]), {"endpoint": pk}
    )
    secret = WebhookEndpoint.objects.get().secret
    assert secret != made.secret
    assert secret in response.content.decode()
    organiser_client.post(
        reverse("organiser:webhook_switch", args=[slug]), {"endpoint": pk, "on": "0"}
    )
    assert not WebhookEndpoint.objects.get().enabled
    response = organiser_client.post(
        reverse("organiser:webhook_ping", args=[slug]), {"endpoint": pk}, follow=True
    )
    assert "switch it on before sending a ping" in response.content.decode()
    organiser_client.post(
        reverse("organiser:webhook_switch", args=[slug]), {"endpoint": pk, "on": "1"}
    )
    assert WebhookEndpoint.objects.get().enabled
    response = organiser_client.post(
        reverse("organiser:webhook_ping", args=[slug]), {"endpoint": pk}, follow=True
    )
    assert "A ping to webhook" in response.content.decode()
    after_commit()
    # Tried at once (the tests' immediate queue); nobody listens on port 9.
    delivery = WebhookDelivery.objects.get()
    assert delivery.event == "webhook.ping"
    text = organiser_client.get(page_of(tournament)).content.decode()
    assert "webhook.ping" in text
    assert "try 1 of 6" in text
    organiser_client.post(reverse("organiser:webhook_remove", args=[slug]), {"endpoint": pk})
    assert not WebhookEndpoint.objects.exists()


def test_another_tournaments_webhook_is_not_found(
    allow_private, organiser_client, tournament, outsider
):
    other = TournamentFactory(owner=outsider)
    theirs = services.add_endpoint(other, "http://127.0.0.1:9/", [ROUND_RELEASED], site="https://x")
    response = organiser_client.post(
        reverse("organiser:webhook_remove", args=[tournament.slug]),
        {"endpoint": theirs.endpoint.pk},
        follow=True,
    )
    assert f"this tournament has no webhook {theirs.endpoint.pk}" in response.content.decode()
    assert WebhookEndpoint.objects.filter(pk=theirs.endpoint.pk).exists()


def test_the_switched_off_message_shows_on_the_page(allow_private, organiser_client, tournament):
    made = services.add_endpoint(
        tournament, "http://127.0.0.1:9/", [ROUND_RELEASED], site="https://x"
    )
    WebhookEndpoint.objects.filter(pk=made.endpoint.pk).update(
        enabled=False, switched_off="Switched off on 29 November 2026, 13:00: 6 tries failed."
    )
    WebhookDelivery.objects.create(
        endpoint=made.endpoint,
        message_id="msg_1",
        event=ROUND_RELEASED,
        body="{}",
        state=DeliveryState.FAILED,
        attempts=6,
        status_code=500,
        answer="receiver broken",
    )
    text = organiser_client.get(page_of(tournament)).content.decode()
    assert "Switched off on 29 November 2026, 13:00: 6 tries failed." in text
    assert "answered 500" in text
    assert "receiver broken" in text
    assert "Switch on" in text


def test_only_the_organiser_sees_the_page(
    tournament, outsider_client, scorer_client, client, scorer
):
    tournament.scorers.add(scorer)
    assert outsider_client.get(page_of(tournament)).status_code == 404
    assert scorer_client.get(page_of(tournament)).status_code == 403
    assert client.get(page_of(tournament)).status_code == 302


def test_the_page_reads_a_fixed_number_of_queries(
    allow_private, organiser_client, tournament, django_assert_max_num_queries
):
    def add_with_deliveries():
        made = services.add_endpoint(
            tournament, "http://127.0.0.1:9/", [ROUND_RELEASED], site="https://x"
        )
        for number in range(12):
            WebhookDelivery.objects.create(
                endpoint=made.endpoint,
                message_id=f"msg_{made.endpoint.pk}_{number}",
                event=ROUND_RELEASED,
                body="{}",
            )

    add_with_deliveries()
    organiser_client.get(page_of(tournament))
    with django_assert_max_num_queries(20) as one:
        organiser_client.get(page_of(tournament))
    for _ in range(4):
        add_with_deliveries()
    with django_assert_max_num_queries(len(one.captured_queries)):
        text = organiser_client.get(page_of(tournament)).content.decode()
    assert text.count("<li>") >= 5 * 10
