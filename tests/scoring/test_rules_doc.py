"""docs/rules.md is the project's account of the rules: its worked example and its table
of sizes must be what the code computes."""

import re
from pathlib import Path

import pytest

from scoring.rules import (
    DealFacts,
    Leave,
    absent_seats,
    dealer_at,
    dealers,
    deals_in_round,
    make_deal,
)
from scoring.rulesets import RULE_SETS, STANDARD, rule_set
from scoring.systems import ScoringSystem, score_deal

TABLE_PARAMS = {table.players: table for table in STANDARD.tables}

RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()


def _numbers(text: str) -> list[int]:
    return [int(n.replace("−", "-")) for n in re.findall(r"[−-]?\d+", text)]


def test_the_worked_example_scores_as_the_document_says():
    row = re.search(
        r"cards won `([^`]+)`, last in\s+seat (\d), left over (\d+)", RULES.replace("\n", " ")
    )
    assert row is not None
    deal = DealFacts(tuple(_numbers(row[1])), int(row[2]), int(row[3]))
    winner = re.search(r"Points, one a pair: `([^`]+)`", RULES.replace("\n", " "))
    assert winner is not None
    assert list(score_deal(deal, 1, ScoringSystem.WINNER_ADVANTAGE)) == _numbers(winner[1])
    nets = [int(n.replace("−", "-")) for n in re.findall(r"\*\*([−-]?\d+)\*\*", RULES)]
    classic = next(s for s in ScoringSystem if s is not ScoringSystem.WINNER_ADVANTAGE)
    assert list(score_deal(deal, 1, classic)) == nets


def test_the_table_of_sizes_is_the_codes():
    rows = re.findall(r"^\| ([3-6]) \| (.+) \|$", RULES, flags=re.MULTILINE)
    assert [int(size) for size, _ in rows] == [3, 4, 5, 6]
    for size, cells in rows:
        params = TABLE_PARAMS[int(size)]
        hand, middle, stakes, pot, prize, break_even = (c.strip() for c in cells.split("|"))
        dealer_stake, other_stake = (int(v) for v in stakes.split("/"))
        assert (int(hand), int(middle)) == (params.cards_each, params.table_cards)
        assert (dealer_stake, other_stake) == (params.dealer_stake, params.other_stake)
        assert (int(pot), int(prize), int(break_even)) == (
            params.pot,
            params.last_in_prize,
            params.break_even,
        )


def _leave_section() -> str:
    start = RULES.index("## A player leaves mid-round")
    return RULES[start : RULES.index("\n## ", start + 1)]


def test_the_leave_example_deals_and_scores_as_the_document_says():
    section = _leave_section()
    flat = section.replace("\n", " ")
    setting = re.search(r"(\w+) players, (\w+) rotations per round", flat)
    assert setting is not None
    words = {"four": 4, "five": 5, "six": 6, "one": 1, "two": 2, "three": 3}
    size, rotations = words[setting[1].lower()], words[setting[2]]
    left = re.search(r"### Worked example: seat (\d) leaves after deal (\d+)", section)
    assert left is not None
    leaves = [Leave(after_deal=int(left[2]), seat=int(left[1]))]
    order = re.search(r"Dealers, deal 1 to (\d+): `([^`]+)`", flat)
    assert order is not None
    assert dealers(size, rotations, leaves) == tuple(_numbers(order[2]))
    assert deals_in_round(size, rotations, leaves) == int(order[1])
    rows = re.findall(r"^\| (\d+) \| (.+) \|$", section, flags=re.MULTILINE)
    assert len(rows) == 2
    classic = next(s for s in ScoringSystem if s is not ScoringSystem.WINNER_ADVANTAGE)
    for number, cells in rows:
        dealer, players, won, last_in, left_over, winner, stakes = (
            c.strip() for c in cells.split("|")
        )
        deal_number = int(number)
        counts = [None if c.strip() == "–" else int(c) for c in won.split(",")]
        deal = make_deal(
            counts, int(last_in), int(left_over), size, absent_seats(deal_number, leaves)
        )
        assert dealer_at(deal_number, size, leaves) == int(dealer)
        assert deal.players == int(players)
        assert list(score_deal(deal, int(dealer), ScoringSystem.WINNER_ADVANTAGE)) == _numbers(
            winner
        )
        assert list(score_deal(deal, int(dealer), classic)) == _numbers(stakes)
    # The prose repeats the first row's checksum and the stakes it was staked at.
    first = TABLE_PARAMS[4]
    assert f"a last-in prize of {first.last_in_prize}, a break-even of {first.break_even}" in flat


def _preset_examples() -> list[tuple[str, str, str]]:
    start = RULES.index("### Worked examples of the rule sets")
    section = RULES[start : RULES.index("\n## ", start)]
    parts = re.split(r"^#### .*\(`([\w-]+)`, `([\w-]+)`\)$", section, flags=re.MULTILINE)
    return [
        (parts[i], parts[i + 1], parts[i + 2].replace("\n", " ")) for i in range(1, len(parts), 3)
    ]


def test_every_preset_and_scoring_system_has_a_worked_example():
    shown = {(key, scoring) for key, scoring, _ in _preset_examples()}
    assert {key for key, _ in shown} == set(RULE_SETS)
    assert {scoring for _, scoring in shown} == {system.value for system in ScoringSystem}


@pytest.mark.parametrize(("key", "scoring", "text"), _preset_examples())
def test_the_worked_examples_of_the_rule_sets_score_as_the_document_says(key, scoring, text):
    row = re.search(
        r"Cards won `([^`]+)`, last in seat (\d), left over (\d+)"
        r"(?:, lying-down order `([^`]+)`)?",
        text,
        flags=re.IGNORECASE,
    )
    assert row is not None, key
    won = _numbers(row[1])
    system = ScoringSystem(scoring)
    deal = make_deal(
        won,
        int(row[2]),
        int(row[3]),
        len(won),
        laid_down=_numbers(row[4]) if row[4] else None,
        order_needed=system.needs_order,
    )
    shown = re.search(r"(?:Points|Nets): `([^`]+)`", text)
    assert shown is not None, key
    assert list(score_deal(deal, 1, system, rule_set(key))) == _numbers(shown[1])
