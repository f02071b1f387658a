"""A player's public page under Caidis scoring: each deal says where the player lay down
("out 2nd") or that they were last in, and scores the deal by the recorded order."""

import re

import pytest
from django.urls import reverse

from tests.factories import CAIDIS_ROWS, table_of
from tournament.models import Player
from tournament.sheets.saving import save_sheet


@pytest.fixture
def released(db, organiser):
    table = table_of(
        4,
        slug="caidis-open",
        scoring="caidis",
        table_sizes=[3, 4, 5],
        published=True,
        two_person_check=False,
        owner=organiser,
    )
    save_sheet(table, organiser, CAIDIS_ROWS, expected_version=0, final=True)
    round_ = table.round
    round_.released = True
    round_.save()
    return table.round.tournament


def deal_rows(page):
    """Each deal's number, where the player lay down and the points, as the page shows."""
    body = re.search(r'<table class="standings deals">.*?<tbody>(.*?)</tbody>', page, re.S)[1]
    return re.findall(
        r'<tr[^>]*><td class="num">(\d+)</td>.*?<td class="col-last-in">(.*?)</td>'
        r'<td class="num">([-−]?\d+)</td></tr>',
        body,
    )


def test_each_deal_says_where_the_player_lay_down(client, released):
    # Seat 1: out 3rd in deal 1, last in in deal 2, out 1st in deal 3, out 3rd in deal 4.
    first = Player.objects.get(tournament=released, name="Player 0000")
    page = client.get(reverse("player", args=[released.slug, first.pk])).content.decode()
    assert '<th scope="col" class="col-last-in">Order</th>' in page
    # By hand (tests/sheets/test_lying_down_order.py): 1, 3 + 1 (the dealer's stake), -3, 1.
    assert deal_rows(page) == [
        ("1", "out 3rd", "1"),
        ("2", "last in", "4"),
        ("3", "out 1st", "−3"),
        ("4", "out 3rd", "1"),
    ]
    assert "round total <strong>3</strong>" in page


def test_the_phone_shows_the_place_beside_the_cards(client, released):
    second = Player.objects.get(tournament=released, name="Player 0001")
    page = client.get(reverse("player", args=[released.slug, second.pk])).content.decode()
    assert '<span class="last-in-inline"> out 1st</span>' in page
    assert '<span class="last-in-inline"> last in</span>' in page
