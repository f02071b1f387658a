"""docs/rules.md is the project's account of the rules: its worked example and its table
of sizes must be what the code computes."""

import re
from pathlib import Path

from scoring.rules import TABLE_PARAMS, DealFacts
from scoring.systems import ScoringSystem, score_deal

RULES = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()


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
