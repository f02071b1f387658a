"""The public pages of a round where a player left mid-round: the round's results say
"left after deal 7", the player's page shows the deals after it as "left", and the
standings count the deals the player played."""

import pytest
from django.urls import reverse

from scoring.rules import Leave
from tests.factories import TournamentFactory, make_players, seated_round
from tournament.models import Player, Table
from tournament.sheets.saving import save_sheet
from tournament.standings.services import tournament_standings

FIVE = {"won": ["10", "10", "10", "10", "10"], "last_in": "1", "left_over": "2"}
FOUR = {"won": ["12", "6", "", "8", "14"], "last_in": "1", "left_over": "12"}


@pytest.fixture
def released(db, organiser):
    tournament = TournamentFactory(
        slug="left-open", owner=organiser, rotations_per_round=2, published=True
    )
    tournament.two_person_check = False
    tournament.save()
    round_ = seated_round(tournament, make_players(tournament, 10))
    table = Table.objects.get(round=round_, number=1)
    save_sheet(
        table,
        organiser,
        [FIVE] * 7 + [FOUR, FOUR],
        expected_version=0,
        final=True,
        left=[Leave(after_deal=7, seat=3)],
    )
    other = Table.objects.get(round=round_, number=2)
    save_sheet(other, organiser, [FIVE] * 10, expected_version=0, final=True)
    round_.released = True
    round_.save()
    return tournament


def test_the_round_page_says_who_left_after_which_deal(client, released):
    page = client.get(reverse("public_round", args=[released.slug, 1])).content.decode()
    assert "left after deal 7" in page
    # Table 1 played its 9 deals of 9: no "stopped early".
    assert "9 of 9 deals" in page


def test_the_players_page_shows_the_deals_after_leaving_as_left(client, released):
    leaver = Player.objects.get(tournament=released, name="Player 0002")
    page = client.get(reverse("player", args=[released.slug, leaver.pk])).content.decode()
    assert "Left the table after deal 7" in page
    assert page.count('<span class="muted">left</span>') == 2
    stayer = Player.objects.get(tournament=released, name="Player 0000")
    page = client.get(reverse("player", args=[released.slug, stayer.pk])).content.decode()
    assert "Left the table" not in page
    # The dealers follow the leave: seat 4 (Player 0003) deals deal 8.
    assert '<td class="num">8</td><td>Player 0003</td>' in page
    assert '<td class="num">9</td><td>Player 0004</td>' in page


def test_the_standings_count_the_deals_played(released):
    rows = {row.name: row for row in tournament_standings(released).standings.rows}
    assert rows["Player 0002"].deals == 7
    assert rows["Player 0000"].deals == 9
    # Winner-advantage: seat 3 scores 5 a deal at five and nothing after it left; seat 1,
    # last in every deal, 6 a deal at five, then 12 in each deal at four (12 + 12 left over).
    assert rows["Player 0002"].points == 7 * 5
    assert rows["Player 0000"].points == 7 * 6 + 12 + 12
