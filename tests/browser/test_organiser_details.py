"""Small things on the organiser's pages, in real Chromium: Drop out is a quiet control
that asks for a second tap; the tournament form unticks and disables the table sizes the
chosen scoring and rule set do not seat as they are chosen; links are in the site's
colour, not the browser's blue; the format advisor's "Use this format" opens the new
tournament with the answer.

Screenshots (360×740 and 1366×768) go to artifacts/screenshots/organiser-details-drop-out/,
-caidis/ and -advisor/.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.pages import log_in
from tournament.models import Player, Table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
# static/css/app.css: --accent.
SITE_LINK = "rgb(122, 31, 31)"


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1366"])
def test_drop_out_asks_for_a_second_tap_and_is_quieter_than_check_in(
    new_page, seated_round, screenshot_dir, viewport
):
    shots = screenshot_dir(f"organiser-details-drop-out-{viewport['width']}")
    tournament = seated_round.tournament
    player = Player.objects.filter(tournament=tournament).order_by("name").first()
    page = new_page(viewport=viewport)
    log_in(page, "olive", reverse("organiser:players", args=[tournament.slug]))
    row = page.locator(f"#player-{player.pk}")
    check_in = row.get_by_role("button", name="Check in")
    drop = row.get_by_text("Drop out…")
    size = "parseFloat(getComputedStyle(el).fontSize)"
    assert drop.evaluate(f"el => {size}") < check_in.evaluate(f"el => {size}")
    assert drop.bounding_box()["height"] >= 24
    assert check_in.bounding_box()["height"] >= 44
    # One tap opens the question; the player is still in.
    drop.click()
    confirm = row.get_by_role("button", name=f"Drop {player.name} out")
    expect(confirm).to_be_visible()
    expect(row).to_contain_text("later rounds will not seat them")
    assert Player.objects.get(pk=player.pk).active
    fits(page)
    page.screenshot(path=shots / f"players-drop-out-{viewport['width']}.png", full_page=True)
    confirm.click()
    expect(page.get_by_text(f"{player.name} has dropped out")).to_be_visible()
    assert not Player.objects.get(pk=player.pk).active


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1366"])
def test_choosing_caidis_unticks_the_sizes_it_does_not_seat(
    new_page, organiser, screenshot_dir, viewport
):
    shots = screenshot_dir(f"organiser-details-caidis-{viewport['width']}")
    page = new_page(viewport=viewport)
    log_in(page, "olive", reverse("organiser:create"))
    six = page.get_by_label("tables of 6")
    expect(six).to_be_checked()
    page.get_by_label("Scoring", exact=True).select_option("caidis")
    expect(six).not_to_be_checked()
    expect(six).to_be_disabled()
    expect(page.locator("#sizes-note")).to_have_text(
        re.compile(r"^Tables of 6 unticked: .* with Compendium Caidis .* seats 3 to 5\.$")
    )
    # Back to winner-advantage under du Coeur's rules: every size up to eight may be ticked.
    page.get_by_label("Scoring", exact=True).select_option("winner-advantage")
    page.get_by_label(re.compile("^Rule set")).select_option("du-coeur")
    for size in (6, 7, 8):
        expect(page.get_by_label(f"tables of {size}")).to_be_enabled()
    fits(page)
    page.screenshot(path=shots / f"new-tournament-{viewport['width']}.png", full_page=True)


def test_links_are_in_the_sites_colour_on_organiser_and_table_pages(new_page, seated_round):
    tournament = seated_round.tournament
    colour = "el => getComputedStyle(el).color"
    page = new_page(viewport=LAPTOP)
    log_in(page, "olive", reverse("organiser:edit", args=[tournament.slug]))
    advisor = page.get_by_role("link", name="format advisor")
    assert advisor.evaluate(colour) == SITE_LINK
    # A phone at the table, on a deal's page: its way back to the table's page.
    table = Table.objects.filter(round=seated_round).order_by("number").first()
    phone = new_page(viewport=PHONE)
    phone.goto(reverse("table:deal", args=[table.code, 1]))
    back = phone.locator("p.crumbs a")
    expect(back).to_be_visible()
    assert back.evaluate(colour) == SITE_LINK


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1366"])
def test_use_this_format_opens_the_new_tournament_with_the_answer(
    new_page, organiser, screenshot_dir, viewport
):
    shots = screenshot_dir(f"organiser-details-advisor-{viewport['width']}")
    page = new_page(viewport=viewport)
    query = "?players=15&minutes=150&rule_set=du-coeur"
    log_in(page, "olive", reverse("organiser:advisor") + query)
    expect(page.get_by_text("15 players at tables of 5 + 5 + 5 or 8 + 7")).to_be_visible()
    use = page.get_by_role("link", name="Use this format", exact=True)
    assert use.bounding_box()["height"] >= 44
    page.screenshot(path=shots / f"advisor-{viewport['width']}.png", full_page=True)
    fits(page)
    use.click()
    expect(page.get_by_role("heading", name="New tournament")).to_be_visible()
    expect(page.get_by_text("The format advisor's answer is filled in below")).to_be_visible()
    expect(page.get_by_label("Planned rounds")).to_have_value("2")
    expect(page.get_by_label("Rotations per round")).to_have_value("3")
    expect(page.get_by_label("tables of 8")).to_be_checked()
    expect(page.get_by_label("tables of 7")).to_be_checked()
    expect(page.get_by_label("tables of 5")).not_to_be_checked()
    fits(page)
    page.screenshot(path=shots / f"advised-tournament-{viewport['width']}.png", full_page=True)
