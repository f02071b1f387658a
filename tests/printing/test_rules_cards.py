"""The rules card printed for each table of a round: seats, who deals, how to count, and a
worked example whose points come from the scoring itself."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.examples import EXAMPLE_DEALER, EXAMPLE_DEALS, example_deal
from scoring.rules import CARDS_IN_PACK, validate_deal
from scoring.systems import ScoringSystem, score_deal
from tests.factories import TournamentFactory, make_players, play_round
from tournament.models import Round, Seat


def _url(round_, **query):
    url = reverse("print:rules_cards", args=[round_.tournament.slug, round_.number])
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return url


def _card(html, table_number):
    match = re.search(
        rf'<article class="rules-card(?: seats-wide)?" data-table="{table_number}">(.*?)</article>',
        html,
        re.S,
    )
    assert match, f"no card for table {table_number}"
    return match.group(1)


def _example_rows(card):
    """{seat: (won, cards scored, working, points)} of the worked example."""
    example = card.split('class="card-table example"')[1]
    rows = re.findall(
        r'<tr data-seat="(\d)">.*?<td class="num">(-?\d+)</td><td class="num cards">(-?\d+)</td>'
        r'<td class="working">([^<]*)</td><td class="num points">(-?\d+)</td>',
        example,
        re.S,
    )
    return {
        int(seat): (int(won), int(cards), working, int(points))
        for seat, won, cards, working, points in rows
    }


@pytest.fixture
def mixed_round(organiser, scorer):
    """Round 1 of a tournament with tables of 3, 5 and 6 (14 players), two rotations."""
    tournament = TournamentFactory(
        name="Card Night",
        slug="card-night",
        owner=organiser,
        scorers=[scorer],
        rotations_per_round=2,
    )
    players = make_players(tournament, 14)
    round_ = Round.objects.create(tournament=tournament, number=1, started=True)
    play_round(round_, [players[0:3], players[3:8], players[8:14]])
    return round_


@pytest.mark.parametrize("size", sorted(EXAMPLE_DEALS))
def test_every_example_deal_is_a_valid_deal_of_its_size(size):
    deal = example_deal(size)
    assert deal.table_size == size
    assert validate_deal(deal.won, deal.last_in, deal.left_over, size) == []
    assert sum(deal.won) + deal.left_over == CARDS_IN_PACK


def test_the_table_of_five_is_the_worked_example_of_the_rules():
    assert score_deal(example_deal(5), EXAMPLE_DEALER, ScoringSystem.WINNER_ADVANTAGE) == (
        3,
        2,
        5,
        0,
        16,
    )
    assert score_deal(example_deal(5), EXAMPLE_DEALER, ScoringSystem.CLASSIC_STAKES) == (
        8,
        -4,
        -1,
        -6,
        3,
    )


def test_one_card_per_table_with_seats_and_who_deals(organiser_client, mixed_round):
    html = organiser_client.get(_url(mixed_round)).content.decode()
    for number, size in ((1, 3), (2, 5), (3, 6)):
        card = _card(html, number)
        assert f"Round 1 · Table {number}: how to play and score" in card
        assert f"{2 * size} deals: 2 rotations of {size}." in card
        deals = dict(
            re.findall(r'<tr data-seat="(\d)">.*?<td class="deal-numbers">([^<]+)</td>', card, re.S)
        )
        # Seat s deals deals s and s + n: seat 1 deals first, the deal passes left.
        assert deals == {str(s): f"{s}, {s + size}" for s in range(1, size + 1)}
        assert "Each row adds up to 52:" in card
        assert f"All {2 * size} rows together make {52 * 2 * size}." in card


def test_players_are_named_in_seat_order(organiser_client, mixed_round):
    html = organiser_client.get(_url(mixed_round, table=2)).content.decode()
    card = _card(html, 2)
    names = re.findall(r'<td class="player-name">([^<]+)</td>', card.split("card-table example")[0])
    seated = [
        s.player.name
        for s in Seat.objects.filter(round=mixed_round, table__number=2).order_by("position")
    ]
    assert names == seated


def _round_of(organiser, sizes, **fields):
    """Round 1 of a tournament seated at tables of ``sizes``."""
    tournament = TournamentFactory(slug="rules-night", owner=organiser, **fields)
    players = make_players(tournament, sum(sizes))
    round_ = Round.objects.create(tournament=tournament, number=1, started=True)
    starts = [sum(sizes[:index]) for index in range(len(sizes))]
    play_round(round_, [players[a : a + n] for a, n in zip(starts, sizes, strict=True)])
    return round_


@pytest.mark.parametrize(
    ("scoring", "rule_set", "sizes"),
    [
        ("winner-advantage", "standard", (3, 5, 6)),
        ("classic-stakes", "standard", (3, 5, 6)),
        ("classic-stakes", "willughby-four-thirteen", (4,)),
        ("winner-advantage", "du-coeur", (7, 8)),
        ("classic-stakes", "du-coeur", (6, 7, 8)),
        ("classic-stakes", "du-coeur-low-stakes", (8,)),
        ("caidis", "standard", (3, 4, 5)),
    ],
)
def test_the_worked_example_is_scored_by_the_tournaments_rules(
    organiser_client, organiser, scoring, rule_set, sizes
):
    round_ = _round_of(
        organiser, list(sizes), scoring=scoring, rule_set=rule_set, table_sizes=sorted(sizes)
    )
    system, rules = ScoringSystem(scoring), round_.tournament.rules
    html = organiser_client.get(_url(round_)).content.decode()
    for number, size in enumerate(sizes, start=1):
        rows = _example_rows(_card(html, number))
        deal = example_deal(size)
        points = score_deal(deal, EXAMPLE_DEALER, system, rules)
        assert [rows[s][0] for s in range(1, size + 1)] == list(deal.won)
        assert [rows[s][3] for s in range(1, size + 1)] == list(points)
        for seat, (_, cards, working, shown) in rows.items():
            # The working shown evaluates to the points scored (words in brackets say
            # what a figure is).
            arithmetic = re.sub(r"\([a-z0-9 ]*[a-z][a-z0-9 ]*\)", "", working)
            assert eval(arithmetic.replace("−", "-").replace("÷", "//")) == shown, working
            gets_left_over = deal.last_in if system is ScoringSystem.WINNER_ADVANTAGE else 1
            assert cards == deal.won[seat - 1] + (deal.left_over if seat == gets_left_over else 0)
    if system is ScoringSystem.WINNER_ADVANTAGE:
        assert "every deal hands out 26 points" in html
    elif 8 in sizes:
        assert "The pay-off is not zero-sum" in html
    else:
        assert "The nets of a deal add up to 0." in html
    if system is ScoringSystem.CAIDIS:
        assert "Also write the lying-down order:" in html
        assert "Here seats 2, 4, 1, 3 lay down in that order, and seat 5 was last in." in (
            _card(html, 3)
        )


def test_one_table_only(organiser_client, mixed_round):
    html = organiser_client.get(_url(mixed_round, table=3)).content.decode()
    assert html.count('<article class="rules-card"') == 1
    assert "All tables of round 1" in html


@pytest.mark.parametrize("table", ["99", "abc", "-1", "1e3"])
def test_a_table_that_is_not_there_is_a_404(organiser_client, mixed_round, table):
    assert organiser_client.get(_url(mixed_round, table=table)).status_code == 404


def test_a_round_not_seated_says_so(organiser_client, mixed_round):
    empty = Round.objects.create(tournament=mixed_round.tournament, number=2)
    html = organiser_client.get(_url(empty)).content.decode()
    assert "Round 2 has not been seated yet." in html
    assert "has not started: its seating may still change" in html


def test_a_scorer_may_not_print_rules_cards(scorer_client, mixed_round):
    assert scorer_client.get(_url(mixed_round)).status_code == 403


def test_an_outsider_gets_404(outsider_client, mixed_round):
    assert outsider_client.get(_url(mixed_round)).status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client, mixed_round):
    response = client.get(_url(mixed_round))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_query_count_does_not_grow_with_the_tables(organiser_client, organiser):
    def queries(round_):
        with CaptureQueriesContext(connection) as captured:
            assert organiser_client.get(_url(round_)).status_code == 200
        return len(captured)

    counts = []
    for tables in (1, 4):
        tournament = TournamentFactory(slug=f"tables-{tables}", owner=organiser)
        players = make_players(tournament, 5 * tables)
        round_ = Round.objects.create(tournament=tournament, number=1, started=True)
        play_round(round_, [players[5 * t : 5 * t + 5] for t in range(tables)])
        counts.append(queries(round_))
    assert counts[0] == counts[1]


def test_the_round_page_links_to_the_rules_cards(organiser_client, mixed_round):
    url = reverse("organiser:round", args=[mixed_round.tournament.slug, 1])
    html = organiser_client.get(url).content.decode()
    assert f'href="{_url(mixed_round)}">Print rules cards</a>' in html
