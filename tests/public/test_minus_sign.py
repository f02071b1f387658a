"""Classic stakes' nets below zero read with a minus sign ("−4", U+2212), as a penalty's
"−2" does, on every page that shows a tournament's points: never a hyphen ("-4")."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tournament.kernel.numbers import shown
from tournament.models import Player

# In a page's text, a number after a space or a bracket with a hyphen for its sign.
HYPHENATED = re.compile(r"(?:^|[\s(])-\d")
MINUS_SIGNED = re.compile(r"(?:^|[\s(])−\d")


@pytest.fixture
def stakes(db):
    return played_tournament(players=12, rounds=2, planned_rounds=3, scoring="classic-stakes")


def pages(tournament):
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    return [
        reverse("standings", args=[tournament.slug]),
        reverse("projector", args=[tournament.slug]),
        reverse("player", args=[tournament.slug, player.pk]),
        reverse("public_round", args=[tournament.slug, 1]),
        reverse("final", args=[tournament.slug]),
    ]


def test_nets_below_zero_have_a_minus_sign_on_every_page(client, stakes):
    signed = 0
    for url in pages(stakes):
        html = client.get(url).content.decode()
        html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
        body = unescape(re.sub(r"<[^>]*>", " ", html))
        assert not HYPHENATED.search(body), (url, HYPHENATED.findall(body)[:3])
        signed += len(MINUS_SIGNED.findall(body))
    # The fixture's evening has nets below zero to show.
    assert signed > 10


@pytest.mark.parametrize(
    ("value", "text"),
    [(-4, "−4"), (0, 0), (7, 7), (-5.5, "−5.5"), ("-5.3", "−5.3"), ("–", "–"), (True, True)],
)
def test_a_number_is_shown_with_a_minus_sign(value, text):
    assert shown(value) == text
