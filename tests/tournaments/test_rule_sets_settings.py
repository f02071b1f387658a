"""Choosing a rule set in the settings, and house rules on the Rules page: the sizes it
seats, the numbers it is checked against, and re-scoring what is recorded."""

import html
import re

import pytest
from django.urls import reverse

from scoring.rules import DealFacts, dealer_at, leaves_of
from scoring.rulesets import HOUSE, STANDARD, WILLUGHBY_FOUR_THIRTEEN
from scoring.systems import score_deal
from tests.pages import SETTINGS, enter
from tournament.models import Deal, Seat, Tournament
from tournament.standings.services import tournament_standings


@pytest.fixture
def tournament(seated_round):
    return seated_round.tournament


def url(name, tournament):
    return reverse(f"organiser:{name}", args=[tournament.slug])


def _post_settings(client, tournament, **change):
    data = {**SETTINGS, "slug": tournament.slug, "name": tournament.name, **change}
    return client.post(url("edit", tournament), data)


def _points_deal_by_deal(tournament):
    """Each player's points summed deal by deal from the recorded deals."""
    points: dict[int, int] = {}
    for deal in Deal.objects.filter(table__round__tournament=tournament).select_related("table"):
        seats = list(Seat.objects.filter(table=deal.table).order_by("position"))
        won = [None] * len(seats)
        for result in deal.results.all():
            won[result.seat - 1] = result.won
        facts = DealFacts(tuple(won), deal.last_in, deal.left_over, tuple(deal.laid_down))
        dealer = dealer_at(deal.number, len(seats), leaves_of(deal.table.left))
        for seat, value in zip(
            seats,
            score_deal(facts, dealer, tournament.scoring_system, tournament.rules),
            strict=True,
        ):
            points[seat.player_id] = points.get(seat.player_id, 0) + value
    return points


def _points_from_standings(tournament):
    return {row.key: row.tally.points for row in tournament_standings(tournament).standings.rows}


def test_du_coeur_seats_seven_and_eight_and_the_standard_table_does_not(
    organiser_client, tournament
):
    response = _post_settings(organiser_client, tournament, table_sizes=["5", "7"])
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Tables of 7 are not played under Willughby and Parlett" in page
    assert "it seats 3 to 6." in page
    response = _post_settings(
        organiser_client, tournament, rule_set="du-coeur", table_sizes=["7", "8"]
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.rule_set, tournament.table_sizes) == ("du-coeur", [5, 7, 8])
    assert tournament.sizes_allowed == (3, 4, 5, 6, 7, 8)


def test_caidis_seats_three_to_five(organiser_client, tournament):
    response = _post_settings(organiser_client, tournament, scoring="caidis")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    # The refusal names the size it refuses and the sizes the rules seat.
    assert (
        "Tables of 6 are not played under Willughby and Parlett's table (3 to 6) with "
        "Compendium Caidis (stakes paid on lying down): it seats 3 to 5." in page
    )
    response = _post_settings(organiser_client, tournament, scoring="caidis", table_sizes=["4"])
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.scoring == "caidis"


def test_a_new_rule_set_rescores_what_is_recorded(organiser_client, organiser, make_played):
    tournament = make_played(players=8, rounds=2, scoring="classic-stakes", owner=organiser)
    before = _points_from_standings(tournament)
    assert before == _points_deal_by_deal(tournament)
    response = _post_settings(
        organiser_client,
        tournament,
        scoring="classic-stakes",
        rule_set=WILLUGHBY_FOUR_THIRTEEN.key,
        planned_rounds=4,
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    after = _points_from_standings(tournament)
    # Eight players sit at two tables of four: 4-3-3-3 stakes and 7 to the last in
    # change the nets, and the standings follow the deals scored anew.
    assert after == _points_deal_by_deal(tournament)
    assert after != before


def test_caidis_is_refused_for_deals_recorded_without_their_order(
    organiser_client, organiser, make_played
):
    tournament = make_played(players=8, rounds=1, owner=organiser)
    response = _post_settings(
        organiser_client, tournament, scoring="caidis", table_sizes=["4"], planned_rounds=4
    )
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Nothing was changed" in page
    assert "round 1, table 1, deal 1: no lying-down order recorded" in page
    tournament.refresh_from_db()
    assert tournament.scoring == "winner-advantage"


def _house_form(rule_set, **change):
    data = {"left_over_to": "dealer"}
    for table in rule_set.tables:
        data[f"plays_{table.players}"] = "on"
        for name in ("cards_each", "table_cards", "dealer_stake", "other_stake"):
            data[f"{name}_{table.players}"] = str(getattr(table, name))
        data[f"last_in_prize_{table.players}"] = str(table.last_in_prize)
        data[f"break_even_{table.players}"] = str(table.break_even)
    return {**data, **change}


def test_the_rules_page_shows_the_numbers_and_says_what_is_not_zero_sum(
    organiser_client, tournament
):
    tournament.rule_set = "du-coeur"
    tournament.save()
    page = html.unescape(organiser_client.get(url("rules", tournament)).content.decode())
    assert "Justin du Coeur" in page
    assert "Tables of 8, classic stakes: not zero-sum" in page
    assert "Tables of 5, classic stakes: zero-sum" in page
    # The table of eight's break-even, 5, is odd: said in words, not only "(odd)".
    assert '5 <span class="muted">(odd: see below)</span>' in page
    assert (
        "The break-even, 5, is odd: cards are won in pairs, so nobody ends a deal on "
        "exactly 5; 6 cards win one stake and 4 lose one" in page
    )
    assert page.count("is odd:") == 1


def test_house_rules_with_numbers_that_do_not_deal_52_are_refused_by_size(
    organiser_client, tournament
):
    response = organiser_client.post(
        url("rules", tournament), _house_form(STANDARD, cards_each_4="11", other_stake_6="")
    )
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Tables of 4: 4 × 11 cards each and 12 in the middle deal 56 cards, not 52." in page
    assert "Tables of 6: others' stake is missing." in page
    # What was typed is still there.
    assert 'name="cards_each_4" value="11"' in page
    tournament.refresh_from_db()
    assert (tournament.rule_set, tournament.house_rules) == ("standard", None)


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        pytest.param(
            {"plays_05": "on", "cards_each_05": "8"},
            [
                "“plays_05”: “05” is not a table size; the house rules' sizes are 3 to 8, in "
                "plain digits.",
                "“cards_each_05”: “05” is not a table size; the house rules' sizes are 3 to 8, "
                "in plain digits.",
            ],
            id="leading-zero",
        ),
        pytest.param(
            {"break_even_٥": "9"},
            [
                "“break_even_٥”: “٥” is not a table size; the house rules' sizes are 3 to 8, in "
                "plain digits."
            ],
            id="arabic-indic-five",
        ),
        pytest.param(
            {"plays_²": "on"},
            [
                "“plays_²”: “²” is not a table size; the house rules' sizes are 3 to 8, in plain digits."
            ],
            id="superscript-two",
        ),
        pytest.param(
            {"cards_each_5": ["8", "9"]},
            ["Tables of 5: cards each is given more than once; give it once."],
            id="five-twice",
        ),
        pytest.param(
            {"plays_7": ["", "on"]},
            ["Tables of 7 is given more than once; give it once."],
            id="a-size-not-played-twice",
        ),
    ],
)
def test_the_rules_form_takes_the_sizes_3_to_8_each_once(
    organiser_client, tournament, posted, said
):
    """A box is named by its size: one posted for no size, or twice, is refused by name,
    not left out."""
    response = organiser_client.post(url("rules", tournament), _house_form(STANDARD, **posted))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    for each in said:
        assert each in page
    # Each message names its box once ("Tables of 7: Tables of 7 …" would say it twice).
    assert not re.search(r"(Tables of \d): \1", page)
    tournament.refresh_from_db()
    assert (tournament.rule_set, tournament.house_rules) == ("standard", None)


def test_house_rules_are_saved_and_rescore_what_is_recorded(
    organiser_client, organiser, make_played
):
    tournament = make_played(players=8, rounds=1, scoring="classic-stakes", owner=organiser)
    before = _points_from_standings(tournament)
    response = organiser_client.post(
        url("rules", tournament),
        _house_form(STANDARD, dealer_stake_4="4", other_stake_4="3", last_in_prize_4="7"),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_set == HOUSE
    assert tournament.rules.params(4) == WILLUGHBY_FOUR_THIRTEEN.params(4)
    after = _points_from_standings(tournament)
    assert after == _points_deal_by_deal(tournament) != before


def test_starting_house_rules_from_another_preset(organiser_client, tournament):
    page = organiser_client.get(url("rules", tournament) + "?from=du-coeur").content.decode()
    assert "Now filled in from: <strong>Justin du Coeur" in page
    assert (
        'name="plays_8" checked' in page
        or 'checked id="id_plays_8"' in page
        or ('name="plays_8"' in page and "id_plays_8" in page)
    )


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_the_rules_page_is_the_organisers(client, outsider, tournament, who):
    if who == "outsider":
        client.force_login(outsider)
    response = client.get(reverse("organiser:rules", args=[tournament.slug]))
    assert response.status_code == (404 if who == "outsider" else 302)
    assert Tournament.objects.get(pk=tournament.pk).rule_set == "standard"


def test_caidis_is_refused_while_a_sheet_awaiting_confirmation_has_no_order(
    organiser_client, scorer_client, tournament
):
    enter(scorer_client)
    response = _post_settings(organiser_client, tournament, scoring="caidis", table_sizes=["4"])
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert (
        "round 1, table 1: the sheet awaiting confirmation has no lying-down order for deal 1 "
        "and 3 more" in page
    )
    tournament.refresh_from_db()
    assert tournament.scoring == "winner-advantage"


@pytest.mark.parametrize(
    ("rule_set", "scoring", "sizes", "words"),
    [
        (
            "standard",
            "winner-advantage",
            [4, 5, 6],
            "Mixed tables (5s, with 4s or 6s absorbing the remainder)",
        ),
        (
            "du-coeur",
            "winner-advantage",
            [4, 5, 6, 7, 8],
            "Mixed tables (5s, with 4s, 6s, 7s or 8s absorbing the remainder)",
        ),
        (
            "du-coeur",
            "winner-advantage",
            [5, 7, 8],
            "Mixed tables (5s, with 7s or 8s absorbing the remainder)",
        ),
        ("du-coeur", "winner-advantage", [7, 8], "Mixed tables of 7 or 8"),
        ("standard", "winner-advantage", [5], "Tables of five"),
        # Caidis seats up to five, whatever sizes are kept from before.
        (
            "du-coeur",
            "caidis",
            [4, 5, 6, 7, 8],
            "Mixed tables (5s, with 4s absorbing the remainder)",
        ),
    ],
)
def test_the_table_policy_is_said_from_the_sizes_really_seated(rule_set, scoring, sizes, words):
    tournament = Tournament(rule_set=rule_set, scoring=scoring, table_sizes=sizes)
    assert tournament.table_policy_words == words


def test_the_overview_says_the_tables_of_a_du_coeur_evening(organiser_client, tournament):
    response = _post_settings(
        organiser_client, tournament, rule_set="du-coeur", table_sizes=["4", "6", "7", "8"]
    )
    assert response.status_code == 302
    page = html.unescape(organiser_client.get(url("dashboard", tournament)).content.decode())
    assert "Mixed tables (5s, with 4s, 6s, 7s or 8s absorbing the remainder)" in page
    assert "with 4s or 6s absorbing" not in page
