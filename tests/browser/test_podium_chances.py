"""Podium chances in real Chromium: a player's page on a phone shows their chances once a
round is released, with the method a tap away.

Screenshots go to artifacts/screenshots/podium-chances/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.pages import check_fits
from tests.factories import played_tournament
from tournament.models import Player, PodiumChances
from tournament.shared.derived import load_view

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def test_the_player_page_on_a_phone_shows_the_chances_after_a_release(
    new_page, transactional_db, screenshot_dir
):
    shots = screenshot_dir("podium-chances")
    # Released rounds commit at once here: each change has worked the chances out (the
    # tests run tasks at once).
    tournament = played_tournament(players=10, rounds=1, planned_rounds=3)
    tournament.refresh_from_db()
    state = load_view(tournament, "public")
    assert PodiumChances.objects.get(tournament=tournament).fingerprint == state.chances_key
    player = Player.objects.filter(tournament=tournament).order_by("name").first()

    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"/t/{tournament.slug}/players/{player.pk}/")
    line = phone.locator(".chances-line")
    expect(line).to_contain_text("After round 1 of 3:")
    expect(line).to_contain_text("to win")
    expect(line).to_contain_text("top three")
    method = phone.locator(".chances-method p")
    expect(method).to_be_hidden()
    phone.get_by_text("How these chances are worked out").click()
    expect(method).to_contain_text("simulated finishes of rounds 2 to 3")
    check_fits(phone, "the player page at 360 px")
    phone.screenshot(path=shots / "01-player-phone.png", full_page=True)
