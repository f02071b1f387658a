"""The desk's sheet of a table of eight (du Coeur's rules) on a 360 px phone: every name
whole, broken only between words, and the whole sheet on the screen without scrolling
sideways, inside its table or the page.

Screenshots go to artifacts/screenshots/desk-sheet-eight/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.pages import log_in
from tests.factories import table_of
from tournament.models import Player

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
NAMES = [
    "Bartholomew Penhallow",
    "Tamsin Trevithick",
    "Morwenna Pascoe",
    "Jago Angove",
    "Demelza Rowse",
    "Ithel Nancarrow",
    "Loveday Chenoweth",
    "Kitto Polglase",
]

# Every word of the sheet's headings (the seats' names, the dealers') drawn in one piece:
# a word broken across two lines has two boxes.
BROKEN_WORDS = """() => {
  const broken = [];
  const cells = document.querySelectorAll('table.sheet-entry thead th, table.sheet-entry tbody th');
  for (const cell of cells) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.getClientRects().length) continue;  // not shown
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (range.getClientRects().length > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


@pytest.fixture
def table_of_eight(db, organiser, scorer):
    table = table_of(
        8,
        name="Eight Open",
        slug="eight-open",
        owner=organiser,
        scorers=[scorer],
        rule_set="du-coeur",
        table_sizes=[4, 5, 6, 7, 8],
    )
    for player, name in zip(table.seats.order_by("position"), NAMES, strict=True):
        Player.objects.filter(pk=player.player_id).update(name=name)
    return table


def test_a_table_of_eight_fits_a_phone_with_every_name_whole(
    new_page, scorer, table_of_eight, screenshot_dir
):
    shots = screenshot_dir("desk-sheet-eight")
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, scorer.username, "/score/eight-open/r1/t1/")
    expect(page.get_by_role("heading", name="Round 1 · Table 1")).to_be_visible()
    page.screenshot(path=shots / "360.png", full_page=True)
    widths = page.evaluate(
        """() => { const t = document.querySelector('table.sheet-entry');
             const s = t.closest('.table-scroll') || t.parentElement;
             return [document.documentElement.scrollWidth, s.scrollWidth, s.clientWidth,
                     t.getBoundingClientRect().right]; }"""
    )
    assert widths[0] <= PHONE["width"], widths
    assert widths[1] <= widths[2], f"the sheet scrolls inside its table: {widths}"
    assert widths[3] <= PHONE["width"], widths
    heads = page.locator("table.sheet-entry thead th.seat .sub").all_inner_texts()
    assert heads == NAMES
    assert page.evaluate(BROKEN_WORDS) == []
