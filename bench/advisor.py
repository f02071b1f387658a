"""Format advisor benchmark: ``scoring.simulation.advisor.advise`` for a pub's field, a
big open and a federation's, on one core.

Run from the repository root: ``.venv/bin/python bench/advisor.py`` (``--players``,
``--minutes``, ``--repeat``, ``--rule-set``). Winner-advantage scoring, 3 minutes a deal,
the standard rule set and du Coeur's (whose tables of 7 and 8 the advisor tries as well:
three splits, and a table of eight plays eight deals a rotation). Printed for each field:
the time of the first call (it makes the deal pools, once a process), the best of
``--repeat`` later calls, the formats listed, the question's size in players × deals
(``question_work``) with the microseconds a unit, and the ratio to the target (2 s for 100
players). Last, the seconds the bounds stand for: the largest question answered in the
request (``REQUEST_WORK``) and by the task worker (``TASK_WORK``), at the largest rate
measured. Numpy is held to one thread, as one core is the target.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rulesets import RULE_SETS  # noqa: E402
from scoring.simulation.advisor import (  # noqa: E402
    REQUEST_WORK,
    TASK_WORK,
    advise,
    question_work,
)
from scoring.systems import ScoringSystem  # noqa: E402

TARGET_SECONDS = 2.0
TARGET_PLAYERS = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[20, 100, 1000])
    parser.add_argument("--minutes", type=int, default=180)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--rule-set", nargs="+", default=["standard", "du-coeur"], choices=sorted(RULE_SETS)
    )
    options = parser.parse_args()
    system = ScoringSystem.WINNER_ADVANTAGE
    rates = []
    for key in options.rule_set:
        print(f"advisor: {options.minutes} minutes, {system.value}, {key}")
        rates += _fields(options, system, key)
    slowest = max(rates)
    print(
        f"bounds at {slowest * 1e6:.1f} µs a unit: in the request up to {REQUEST_WORK:,} "
        f"({REQUEST_WORK * slowest:.2f} s), by the task worker up to {TASK_WORK:,} "
        f"({TASK_WORK * slowest:.1f} s)"
    )


def _fields(options: argparse.Namespace, system: ScoringSystem, key: str) -> list[float]:
    rules = RULE_SETS[key]
    rates = []
    for players in options.players:
        started = time.perf_counter()
        advice = advise(players, options.minutes, system, rules)
        first = time.perf_counter() - started
        best = float("inf")
        for seed in range(1, options.repeat + 1):
            started = time.perf_counter()
            advise(players, options.minutes, system, rules, seed=seed)
            best = min(best, time.perf_counter() - started)
        asked, deals = question_work(players, options.minutes, system, rules)
        work = asked * deals
        rates.append(best / work)
        line = (
            f"{players:>6} players: first call {first:.3f} s, best of {options.repeat} "
            f"{best:.3f} s, {len(advice.formats)} formats at {len(advice.splits)} split(s), "
            f"{work:,} players × deals, "
            f"{best / work * 1e6:.1f} µs a unit"
        )
        if players == TARGET_PLAYERS:
            line += f", {best / TARGET_SECONDS:.2f} of the {TARGET_SECONDS:g} s target"
        print(line)
    return rates


if __name__ == "__main__":
    main()
