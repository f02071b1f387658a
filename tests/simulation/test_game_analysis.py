"""What the game is like, measured (docs/game-analysis.md): the statistics on hand-made
deals, worked by hand; the rows the tables make; ``manage.py game_analysis``'s JSON and
refusals; and the doc's figures reproduced from its own commands."""

import json
import math
import re
import shlex
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from scoring.errors import UserError
from scoring.rules import DealFacts
from scoring.rulesets import DU_COEUR, RULE_SETS, STANDARD, WILLUGHBY_FOUR_THIRTEEN
from scoring.simulation import SimulatedDeal, simulate
from scoring.simulation.analysis import (
    Z_95,
    advantage,
    analyse,
    deal_arrays,
    distribution,
    last_in_shares,
    mean_estimate,
    share,
    strategy_difference,
    tables,
    tied_for_most,
)
from scoring.systems import ScoringSystem

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-analysis.md"
COMMAND = re.compile(
    r"```sh\n\.venv/bin/python manage\.py game_analysis (?P<args>[^\n]*)\n```\n\n"
    r"<!-- output -->\n(?P<output>.*?)<!-- end of output -->",
    re.DOTALL,
)
SMALL = 2000


def run(*args):
    out = StringIO()
    call_command("game_analysis", *args, stdout=out)
    return out.getvalue()


def test_a_mean_s_interval_is_1_96_standard_errors_of_the_sample_sd():
    found = mean_estimate([1, 2, 3, 4])
    assert found.mean == 2.5
    # sd: squares 2.25 + 0.25 + 0.25 + 2.25 = 5 over 3; standard error sd / 2.
    assert found.half_width == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2)
    assert (found.low, found.high) == pytest.approx((2.5 - 1.265151, 2.5 + 1.265151), abs=1e-6)
    assert pytest.approx(1.959964) == Z_95
    with pytest.raises(ValueError, match="at least 2 values"):
        mean_estimate([7])


def test_a_share_s_interval_is_the_normal_approximation_of_a_proportion():
    found = share(1, 4)
    assert found.mean == 0.25
    assert found.half_width == pytest.approx(1.959964 * math.sqrt(0.25 * 0.75 / 4))
    assert share(0, 10).half_width == 0.0


def test_a_distribution_s_quantiles_are_values_that_occurred():
    found = distribution([10, 2, 0, 4, 2])
    assert found.mean == pytest.approx(3.6)
    # Deviations -3.6, -1.6, -1.6, 0.4, 6.4: squares sum to 59.2, over 4.
    assert found.sd == pytest.approx(math.sqrt(14.8))
    assert (found.lowest, found.highest) == (0, 10)
    # 0 is 20 % of the values, 0 and 2 60 %, up to 4 80 %: 10 %→0, 25 %→2, 50 %→2,
    # 75 %→4, 90 %→10.
    assert found.quantiles == (0, 2, 2, 4, 10)


def test_last_in_is_counted_by_position_from_the_dealer():
    # Three players, four deals: seat indexes, 0 for seat 1.
    dealer = np.array([0, 1, 2, 0])
    last_in = np.array([0, 2, 2, 1])
    # Positions: the dealer, the eldest (2 is 1's left), the dealer, the eldest.
    found = last_in_shares(dealer, last_in, 3)
    assert [estimate.mean for estimate in found] == [0.5, 0.5, 0.0]
    assert found[0].half_width == pytest.approx(1.959964 * math.sqrt(0.25 / 4))
    assert found[2].half_width == 0.0


def test_an_advantage_is_against_the_table_average_of_each_deal():
    points = np.array([[6, 2, 1], [3, 3, 3], [0, 9, 0]])  # each deal's average is 3
    found = advantage(points, np.array([0, 1, 1]))
    # 6 - 3, 3 - 3, 9 - 3: mean 3, sd 3.
    assert found.mean == 3.0
    assert found.half_width == pytest.approx(1.959964 * 3 / math.sqrt(3))


def test_a_strategy_difference_is_seat_one_against_the_others_average():
    found = strategy_difference(np.array([[4, 2, 0], [1, 1, 1]]))
    # 4 - 1 and 1 - 1: mean 1.5, sd 1.5 × √2, standard error 1.5.
    assert found.mean == 1.5
    assert found.half_width == pytest.approx(1.959964 * 1.5)


def test_tied_for_most_counts_deals_where_the_most_cards_are_shared():
    finals = np.array([[10, 10, 4], [12, 8, 6], [6, 6, 6], [2, 14, 14]])
    assert tied_for_most(finals).mean == 0.75


def test_deal_arrays_score_each_deal_by_the_app_s_scoring():
    # Three players, seat 1 deals; seat 2 is last in with 6 left over; seat 1 lay down
    # first, seat 3 second.
    facts = DealFacts(won=(10, 20, 16), last_in=2, left_over=6, laid_down=(1, 3))
    deals = [SimulatedDeal(1, 1, facts)]
    winner = deal_arrays(deals, ScoringSystem.WINNER_ADVANTAGE, STANDARD)
    assert winner.points.tolist() == [[5, 13, 8]]  # the left over is the last in's
    assert winner.finals is None
    caidis = deal_arrays(deals, ScoringSystem.CAIDIS, STANDARD)
    # Lying down: 1st of 3 nets -2, 2nd 0, the last in +2; the left over is the dealer's
    # (16, 20, 16), so seat 2 alone has most and takes the dealer's stake.
    assert caidis.points.tolist() == [[-3, 3, 0]]
    assert caidis.finals is not None
    assert caidis.finals.tolist() == [[16, 20, 16]]
    assert (caidis.dealer.tolist(), caidis.last_in.tolist()) == ([0], [1])


def test_tables_leave_out_sizes_a_rule_set_does_not_seat_unless_it_was_the_only_one():
    everything = tables(list(RULE_SETS.values()), [ScoringSystem.CAIDIS], [5, 8])
    assert {(rule_set.key, size) for rule_set, _system, size in everything} == {
        (key, 5) for key in RULE_SETS
    }
    with pytest.raises(UserError, match="a table of 8 players cannot play under Compendium"):
        tables([DU_COEUR], [ScoringSystem.CAIDIS], [8])
    with pytest.raises(UserError, match="no rule set seats tables of 9 players"):
        tables(list(RULE_SETS.values()), list(ScoringSystem), [9])


def test_tables_whose_figures_are_the_same_by_construction_make_one_row():
    chosen = tables([STANDARD, WILLUGHBY_FOUR_THIRTEEN], [ScoringSystem.CLASSIC_STAKES], [4, 5])
    rows = analyse(chosen, deals=40, seed=3)
    # Willughby's four-handed pot stakes the four differently; the five is the same.
    assert [(row.players, row.rule_sets) for row in rows] == [
        (4, ("standard",)),
        (4, ("willughby-four-thirteen",)),
        (5, ("standard", "willughby-four-thirteen")),
    ]
    alone = analyse(tables([STANDARD], [ScoringSystem.CLASSIC_STAKES], [5]), deals=40, seed=3)
    assert alone[0].dealer_advantage == rows[2].dealer_advantage


def test_a_row_s_figures_are_those_of_its_simulated_deals():
    (row,) = analyse(tables([STANDARD], [ScoringSystem.CAIDIS], [4]), deals=48, seed=5)
    deals = list(simulate(STANDARD, ScoringSystem.CAIDIS, 4, 48, seed=5))
    arrays = deal_arrays(deals, ScoringSystem.CAIDIS, STANDARD)
    assert row.deals == 48
    assert row.dealer_advantage == advantage(arrays.points, arrays.dealer)
    assert row.last_in_advantage == advantage(arrays.points, arrays.last_in)
    assert row.cards_won == distribution(arrays.won)
    assert row.tied_for_most == tied_for_most(arrays.finals)
    assert sum(found.mean for found in row.last_in) == pytest.approx(1.0)


def test_the_json_gives_every_figure_of_every_row():
    data = json.loads(
        run(
            "--rule-set",
            "standard",
            "--scoring",
            "caidis",
            "--sizes",
            "3,4",
            "--deals",
            "60",
            "--seed",
            "2",
            "--format",
            "json",
        )
    )
    assert {key: data[key] for key in ("deals", "seed", "confidence")} == {
        "deals": 60,
        "seed": 2,
        "confidence": 0.95,
    }
    assert [(row["scoring"], row["players"]) for row in data["rows"]] == [
        ("caidis", 3),
        ("caidis", 4),
    ]
    estimate = {"mean", "low", "high"}
    for row in data["rows"]:
        assert row["rule_sets"] == ["standard"]
        assert row["deals"] == 60
        for figure in ("cards_won", "points"):
            assert set(row[figure]) == {"mean", "sd", "lowest", "quantiles", "highest"}
            assert list(row[figure]["quantiles"]) == ["0.1", "0.25", "0.5", "0.75", "0.9"]
        positions = [found["position"] for found in row["last_in"]]
        assert positions == ["dealer", "eldest", "2nd", "3rd"][: row["players"]]
        assert all(set(found) == {"position"} | estimate for found in row["last_in"])
        for figure in (
            "dealer_advantage",
            "last_in_advantage",
            "willughby_among_naive",
            "naive_among_willughby",
            "tied_for_most",
        ):
            assert set(row[figure]) == estimate
            assert row[figure]["low"] <= row[figure]["mean"] <= row[figure]["high"]
    classic = json.loads(
        run("--scoring", "classic-stakes", "--sizes", "5", "--deals", "10", "--format", "json")
    )
    assert classic["rows"][0]["tied_for_most"] is None
    assert classic["rows"][0]["rule_sets"] == list(RULE_SETS)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--rule-set", "standard", "--sizes", "8"],
            'the rule set "standard" seats tables of 3 to 6 players, not 8',
        ),
        (
            ["--rule-set", "du-coeur", "--scoring", "caidis", "--sizes", "5,6"],
            "a table of 6 players cannot play under Compendium Caidis",
        ),
        (["--sizes", "2"], "no rule set seats tables of 2 players"),
        (["--sizes", "four"], "give table sizes like 4,5,6"),
        (["--rule-set", "house"], '"house" is not a rule set'),
        (["--deals", "1"], "at least 2 deals"),
    ],
)
def test_bad_arguments_are_refused_naming_the_problem(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def _doc_commands():
    return [
        (shlex.split(found["args"]), found["output"]) for found in COMMAND.finditer(DOC.read_text())
    ]


def _option(args, name):
    return args[args.index(name) + 1]


def test_every_command_of_the_doc_is_followed_by_its_output_for_its_deals_and_seed():
    commands = _doc_commands()
    assert len(commands) >= 4
    for args, output in commands:
        deals, seed = int(_option(args, "--deals")), _option(args, "--seed")
        assert f"**: {deals:,} deals a table, seed {seed};" in output, args


def _advantages(output):
    """The advantage table's estimates, by players (the first row of a size), as (mean,
    half width) pairs."""
    table = output.split("Advantage, ")[1]
    rows = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0].isdigit():
            rows.setdefault(
                int(cells[0]),
                [tuple(float(part) for part in cell.split(" ± ")) for cell in cells[2:6]],
            )
    return rows


def test_the_doc_s_small_table_reproduces_byte_for_byte_and_agrees_with_its_large_one():
    small = [
        (args, output) for args, output in _doc_commands() if int(_option(args, "--deals")) <= SMALL
    ]
    assert small, f"the doc states a table of at most {SMALL:,} deals that a test can run"
    for args, output in small:
        assert run(*args) == output
        # The same table in the large run: the figures agree within their intervals.
        scoring, size = _option(args, "--scoring"), int(_option(args, "--sizes"))
        (large,) = [
            found
            for found_args, found in _doc_commands()
            if int(_option(found_args, "--deals")) > SMALL
            and _option(found_args, "--scoring") == scoring
        ]
        for (mean, width), (big_mean, big_width) in zip(
            _advantages(output)[size], _advantages(large)[size], strict=True
        ):
            assert abs(mean - big_mean) <= width + big_width
