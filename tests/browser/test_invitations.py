"""The pages of an invitation fit a phone and a laptop: the organiser's Scorers page with
the invitations not yet used, the new link with its QR code, the invited scorer's page
and a used link's. Nothing scrolls sideways; every cell of their tables is on screen.

What the pages do (inviting, choosing a password, confirming a sheet, a link working
once) is tested without a browser, in tests/accounts/test_invitations.py. Screenshots go
to artifacts/screenshots/invitations/ (each page at 360 px and 1366 px).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.pages import PHONE, check_fits, signed_in
from tournament.accounts import invitations

pytestmark = pytest.mark.browser

WIDE = {"width": 1366, "height": 768}


def test_the_invitation_pages_fit_a_phone_and_a_laptop(
    new_page, live_server, seated_round, organiser, screenshot_dir
):
    shots = screenshot_dir("invitations")
    tournament = seated_round.tournament
    invitations.invite_scorer(tournament, "eve.black", organiser)
    used = invitations.invite_scorer(tournament, "fay", organiser)
    invitations.accept(used.secret, "lanterns-at-dusk-42")
    scorers_path = reverse("organiser:scorers", args=[tournament.slug])

    olive = new_page(viewport=PHONE, is_mobile=True)
    signed_in(olive, live_server.url, "olive")
    olive.goto(scorers_path)
    olive.get_by_label("User name for the new scorer").fill("dora")
    olive.get_by_role("button", name="Make an invitation link").click()
    expect(olive.get_by_role("heading", name="Invitation of dora")).to_be_visible()
    expect(olive.locator(".invitation-qr svg")).to_be_visible()
    link = olive.locator(".invitation-address a").get_attribute("href")
    assert link
    anyone = new_page(viewport=PHONE, is_mobile=True)
    anyone.goto(link)
    expect(anyone.locator(".invitation-name")).to_have_text("dora")
    used_page = new_page(viewport=PHONE, is_mobile=True)
    response = used_page.goto(reverse("invitation", args=[used.secret]))
    assert response is not None
    assert response.status == 410

    for size, viewport in (("360", PHONE), ("1366", WIDE)):
        for page in (olive, anyone, used_page):
            page.set_viewport_size(viewport)
        check_fits(olive, f"the new link at {size} px")
        olive.screenshot(path=shots / f"new-link-{size}.png", full_page=True)
        check_fits(anyone, f"the invitation at {size} px")
        anyone.screenshot(path=shots / f"invitation-{size}.png", full_page=True)
        check_fits(used_page, f"a used link at {size} px")
        used_page.screenshot(path=shots / f"used-link-{size}.png", full_page=True)
    olive.get_by_role("link", name="Back to Scorers").click()
    expect(olive.locator("ul.invitation-list li")).to_have_count(2)
    for size, viewport in (("1366", WIDE), ("360", PHONE)):
        olive.set_viewport_size(viewport)
        check_fits(olive, f"the Scorers page at {size} px")
        olive.screenshot(path=shots / f"scorers-{size}.png", full_page=True)
