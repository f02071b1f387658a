"""``manage.py simulate``: the simulated deals' facts as a tournament file's deals, each
with its dealer; every deal passes the rules, the deal passes left from seat 1, a seed
gives the same deals, and bad arguments are refused naming the problem."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.rules import dealer_of, make_deal
from scoring.systems import ScoringSystem


def simulate(*args):
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("scoring", "rule_set", "players"),
    [
        ("winner-advantage", "standard", 5),
        ("classic-stakes", "willughby-four-thirteen", 4),
        ("classic-stakes", "du-coeur", 8),
        ("winner-advantage", "du-coeur-low-stakes", 7),
        ("caidis", "standard", 3),
        ("caidis", "du-coeur", 5),
    ],
)
def test_every_deal_passes_the_rules_and_the_dealer_rotates_from_seat_one(
    scoring, rule_set, players
):
    text = simulate(
        "--scoring",
        scoring,
        "--rule-set",
        rule_set,
        "--players",
        str(players),
        "--deals",
        "40",
        "--seed",
        "11",
        "--format",
        "json",
    )
    deals = json.loads(text)
    needs_order = ScoringSystem(scoring).needs_order
    assert len(deals) == 40
    for number, deal in enumerate(deals, start=1):
        keys = {"won", "last_in", "left_over", "dealer"} | ({"laid_down"} if needs_order else set())
        assert set(deal) == keys
        assert deal["dealer"] == dealer_of(number, players)
        make_deal(
            deal["won"],
            deal["last_in"],
            deal["left_over"],
            players,
            laid_down=deal.get("laid_down"),
            order_needed=needs_order,
        )
    assert [deal["dealer"] for deal in deals[:players]] == list(range(1, players + 1))


def test_the_defaults_are_winner_advantage_the_standard_table_of_five_seed_zero_and_json():
    explicit = simulate(
        "--scoring",
        "winner-advantage",
        "--rule-set",
        "standard",
        "--players",
        "5",
        "--deals",
        "5",
        "--seed",
        "0",
        "--format",
        "json",
    )
    assert simulate("--deals", "5") == explicit
    assert len(json.loads(simulate())) == 5  # one rotation unless told


def test_a_seed_gives_the_same_deals_and_another_seed_others():
    first = simulate("--deals", "30", "--seed", "4", "--strategy", "naive", "--oversight", "0.1")
    again = simulate("--deals", "30", "--seed", "4", "--strategy", "naive", "--oversight", "0.1")
    other = simulate("--deals", "30", "--seed", "5", "--strategy", "naive", "--oversight", "0.1")
    assert first == again
    assert first != other


def test_the_text_format_is_a_line_a_deal_under_a_heading():
    text = simulate("--scoring", "caidis", "--players", "4", "--deals", "3", "--format", "text")
    lines = text.splitlines()
    assert lines[0] == "4 players, standard, caidis, seed 0: 3 deals"
    deals = json.loads(simulate("--scoring", "caidis", "--players", "4", "--deals", "3"))
    for line, deal in zip(lines[1:], deals, strict=True):
        won = " ".join(str(cards) for cards in deal["won"])
        order = " ".join(str(seat) for seat in deal["laid_down"])
        assert line.endswith(
            f"seat {deal['dealer']} deals: won {won}, last in {deal['last_in']}, "
            f"left over {deal['left_over']}, laid down {order}"
        )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "7"],
            "a table of 7 players cannot play under the rule set “Willughby and Parlett",
        ),
        (["--players", "2"], "a table of 2 players cannot play"),
        (
            ["--scoring", "caidis", "--rule-set", "du-coeur", "--players", "6"],
            "a table of 6 players cannot play under Compendium Caidis",
        ),
        (["--rule-set", "house"], '"house" is not a rule set'),
        (["--deals", "0"], "at least 1 deal, not 0"),
        (["--deals", "1000001"], "at most 1,000,000 in one run"),
        (["--scoring", "points"], "invalid choice: 'points'"),
        (["--strategy", "clever"], "invalid choice: 'clever'"),
        (["--oversight", "-0.5"], "an oversight is a chance from 0 to 1"),
    ],
)
def test_bad_arguments_are_refused_naming_the_problem(args, message):
    with pytest.raises(CommandError, match=message):
        simulate(*args)
