"""Rules cards print on one page each, on A4 and on US Letter: Chromium's own PDF of the
print page, for tables of 3, 5 and 6 at four rotations (the longest list of deals) with
long names, under classic stakes (the longest working).

The PDFs go to artifacts/screenshots/rules-cards/ for a look.
"""

from __future__ import annotations

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
