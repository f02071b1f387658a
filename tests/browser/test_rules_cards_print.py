"""Rules cards print on one page each, on A4 and on US Letter: Chromium's own PDF of the
print page, for tables of 3, 5 and 6 at four rotations (the longest list of deals) with
long names, under classic stakes (the longest working).

The PDFs go to artifacts/screenshots/rules-cards/ for a look.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.factories import TournamentFactory, play_round
from tournament.models import Player, Round

pytestmark = pytest.mark.browser

NAMES = [
    "Bartholomew Featherstonehaugh-Cholmondeley",
    "Ann Smith",
    "Kit Marlowe",
    "Wilhelmina Constance Pennyfeather",
    "Jo Li",
    "Ursula Wyatt",
    "Thomasina Grey",
    "Simon Forman",
    "Hester Lacy",
    "Gervase Pinch",
    "Olive Bray",
    "Maximilian Alexander Worthington-Smythe",
    "Rose Trevelyan",
    "Isaac Thorne",
]


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.mark.parametrize("scoring", ["classic-stakes", "winner-advantage"])
def test_each_rules_card_is_one_page_on_a4_and_letter(new_page, screenshot_dir, scoring):
    olive = get_user_model().objects.create_user("olive", password="pw")
    tournament = TournamentFactory(
        name="Card Check Open",
        slug="card-check",
        owner=olive,
        rotations_per_round=4,
        scoring=scoring,
    )
    players = [
        Player.objects.create(tournament=tournament, ref=f"p{i + 1}", name=name)
        for i, name in enumerate(NAMES)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1, started=True)
    play_round(round_, [players[0:3], players[3:8], players[8:14]])
    folder = screenshot_dir("rules-cards")

    page = new_page()
    page.goto("/print/card-check/r1/rules/")
    page.get_by_label("User name").fill("olive")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("article.rules-card")).to_have_count(3)
    page.emulate_media(media="print")
    for paper in ("A4", "Letter"):
        everything = page.pdf(format=paper)
        (folder / f"{scoring}-{paper}.pdf").write_bytes(everything)
        assert _pages(everything) == 3, paper
        for table in (1, 2, 3):
            page.goto(f"/print/card-check/r1/rules/?table={table}")
            assert _pages(page.pdf(format=paper)) == 1, (paper, table)
        page.goto("/print/card-check/r1/rules/")


EIGHT = [
    "Bartholomew Fiske",
    "Joan Penhallow",
    "Wilhelmina Constance Pennyfeather",
    "Ann Smith",
    "Maximilian Alexander Worthington",
    "Lettice Knollys",
    "Zachary Leke",
    "Gervase Pinch",
]


def test_at_eight_seats_every_name_is_whole_and_the_rules_card_one_page(new_page, screenshot_dir):
    """A table of eight under du Coeur's numbers, at three rotations (24 deals): on the
    printed score sheet every name is whole (its text's box within the box that would
    clip it) and the headings stand apart, on one page (a longer one would repeat its
    heads); the rules card, its worked example included, is one page of A4 and of Letter."""
    olive = get_user_model().objects.create_user("olive", password="pw")
    tournament = TournamentFactory(
        name="Long Tables",
        slug="long-tables",
        owner=olive,
        rule_set="du-coeur",
        scoring="classic-stakes",
        rotations_per_round=3,
        table_sizes=[7, 8],
    )
    players = [
        Player.objects.create(tournament=tournament, ref=f"p{i + 1}", name=name)
        for i, name in enumerate(EIGHT)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1, started=True)
    play_round(round_, [players])
    folder = screenshot_dir("eight-seats")

    page = new_page()
    page.goto("/print/long-tables/r1/sheets/")
    page.get_by_label("User name").fill("olive")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("article.score-sheet")).to_have_count(1)
    page.emulate_media(media="print")
    names = page.locator("article.score-sheet thead .player-name")
    expect(names).to_have_count(8)
    for index in range(8):
        fits = names.nth(index).evaluate(
            """e => {
              const clip = e.closest("th").getBoundingClientRect();
              const text = document.createRange();
              text.selectNodeContents(e);
              const box = text.getBoundingClientRect();
              return e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1
                && box.left >= clip.left - 0.5 && box.right <= clip.right + 0.5
                && box.top >= clip.top - 0.5 && box.bottom <= clip.bottom + 0.5;
            }"""
        )
        assert fits, EIGHT[index]
    heads = page.locator("article.score-sheet thead th")
    boxes = [heads.nth(i).bounding_box() for i in range(heads.count())]
    for left, right in itertools.pairwise(boxes):
        assert left["x"] + left["width"] <= right["x"] + 0.5
    overflow = page.locator("article.score-sheet thead th.dealer-head").evaluate(
        "e => e.scrollWidth <= e.clientWidth + 1"
    )
    assert overflow, "the Dealer heading runs into the next column"
    # A sheet that ran to a second page would repeat its heads there.
    repeats = page.locator("article.score-sheet table.sheet thead").evaluate(
        "e => getComputedStyle(e).display"
    )
    assert repeats == "table-header-group"
    for paper in ("A4", "Letter"):
        sheet = page.pdf(format=paper)
        (folder / f"sheet-{paper}.pdf").write_bytes(sheet)
        assert _pages(sheet) == 1, paper
    page.goto("/print/long-tables/r1/rules/")
    page.emulate_media(media="print")
    for paper in ("A4", "Letter"):
        card = page.pdf(format=paper)
        (folder / f"card-{paper}.pdf").write_bytes(card)
        assert _pages(card) == 1, paper
