"""The organiser's Webhooks page in Chromium, on a phone and a laptop: an endpoint switched
off with its message and recent deliveries, adding a Discord webhook with its secret shown
once, and the Settings page's link to it, all without sideways scrolling, with targets a finger can hit, and passing axe-core.

Screenshots go to artifacts/screenshots/webhooks/ (360 px and 1366 px).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.layout import layout_problems
from tests.browser.pages import PHONE, check_fits, log_in
from tournament.models import DeliveryState, WebhookDelivery, WebhookEndpoint

pytestmark = pytest.mark.browser

WIDE = {"width": 1366, "height": 768}


def test_the_webhooks_page_on_a_phone_and_a_laptop(
    new_page, seated_round, settings, screenshot_dir
):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    shots = screenshot_dir("webhooks")
    tournament = seated_round.tournament
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament,
        url="https://discord.com/api/webhooks/1234567890123456789/"
        "aVeryLongTokenThatWouldScrollSidewaysOnAPhoneIfNothingWrappedIt",
        format="discord",
        events=["round.started", "round.released", "standings.changed"],
        secret="whsec_" + "A" * 43 + "=",
        site="https://scores.example.org",
        enabled=False,
        switched_off="Switched off on 29 November 2026, 21:40: 6 tries to send "
        "round.released failed over 7 h 12 min (the last answered 500). Mend the receiver, "
        "then switch it on again.",
    )
    now = timezone.now()
    for number, (state, code, attempts) in enumerate(
        [(DeliveryState.FAILED, 500, 6), (DeliveryState.DELIVERED, 204, 1)]
    ):
        WebhookDelivery.objects.create(
            endpoint=endpoint,
            message_id=f"msg_{number}",
            event="round.released",
            body="{}",
            created=now - timedelta(minutes=number),
            state=state,
            status_code=code,
            attempts=attempts,
            answer="upstream receiver answered with an error page" if code == 500 else "",
        )
    WebhookDelivery.objects.create(
        endpoint=endpoint,
        message_id="msg_waiting",
        event="standings.changed",
        body="{}",
        state=DeliveryState.NOT_SENT,
        answer="the endpoint was switched off",
    )
    path = reverse("organiser:webhooks", args=[tournament.slug])

    for viewport, name in ((PHONE, "360"), (WIDE, "1366")):
        page = new_page(viewport=viewport, is_mobile=viewport is PHONE)
        log_in(page, "olive", path)
        expect(page.get_by_role("heading", name="Webhooks", exact=True)).to_be_visible()
        expect(page.get_by_role("alert")).to_contain_text("Switched off on 29 November 2026")
        expect(page.locator("ol.deliveries li")).to_have_count(3)
        check_fits(page, f"the Webhooks page at {name} px")
        assert layout_problems(page, viewport["width"]) == []
        page.screenshot(path=shots / f"webhooks-{name}.png", full_page=True)

        page.get_by_label("Address (URL)").fill(f"http://127.0.0.1:9/hook/{name}")
        page.get_by_label("Discord channel").check()
        page.get_by_role("button", name="Add webhook").click()
        expect(page.get_by_role("heading", name="Secret of webhook")).to_be_visible()
        secret = WebhookEndpoint.objects.latest("pk").secret
        expect(page.locator(".webhook-secret code")).to_have_text(secret)
        check_fits(page, f"the new secret at {name} px")
        assert layout_problems(page, viewport["width"]) == []
        page.screenshot(path=shots / f"secret-{name}.png", full_page=True)

        # The Settings page leads there.
        page.goto(reverse("organiser:edit", args=[tournament.slug]))
        link = page.get_by_role("link", name="Webhooks (")
        expect(link).to_be_visible()
        check_fits(page, f"the Settings page at {name} px")
        link.scroll_into_view_if_needed()
        page.screenshot(path=shots / f"settings-{name}.png")
