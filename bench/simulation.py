"""The simulator's speed: deals a second at tables of five and eight, and what measuring
them costs (``scoring.simulation.analysis``, docs/game-analysis.md).

Each figure is the best of ``--repeat`` runs of ``--deals`` deals (process CPU time, so
that another process on the machine slows it less; the wall time beside it), the runs
of every case alternated so that a drift of the machine's speed touches them alike. The
ratios compare each case with the first, in the same run:

- simulating at five (the standard table, winner-advantage), at eight (du Coeur's),
  five naive players, five under Compendium Caidis;
- the analysis of one table of five (``analyse``): three runs of the deals (everyone
  following Willughby, a Willughby player among naive ones, a naive one among Willughby
  players), each scored by the app's scoring, then the statistics: its deals a second
  count the deals of the three runs;
- scoring and the statistics alone, on deals already simulated (``deal_arrays`` and the
  figures of a row).

Run from the repository root: ``.venv/bin/python bench/simulation.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rulesets import DU_COEUR, STANDARD
from scoring.simulation import player, simulate
from scoring.simulation.analysis import (
    advantage,
    analyse,
    deal_arrays,
    distribution,
    last_in_shares,
    tables,
)
from scoring.systems import ScoringSystem

WINNER = ScoringSystem.WINNER_ADVANTAGE


def cases(deals: int) -> dict[str, tuple[Callable[[], object], int]]:
    """Each case's call and the deals it handles."""
    five = list(simulate(STANDARD, WINNER, 5, deals, seed=1))

    def figures() -> object:
        arrays = deal_arrays(five, WINNER, STANDARD)
        return (
            distribution(arrays.won),
            distribution(arrays.points),
            last_in_shares(arrays.dealer, arrays.last_in, 5),
            advantage(arrays.points, arrays.dealer),
            advantage(arrays.points, arrays.last_in),
        )

    return {
        "simulate: 5 players (standard, winner-advantage)": (
            lambda: sum(1 for _ in simulate(STANDARD, WINNER, 5, deals, seed=1)),
            deals,
        ),
        "simulate: 8 players (du-coeur, winner-advantage)": (
            lambda: sum(1 for _ in simulate(DU_COEUR, WINNER, 8, deals, seed=1)),
            deals,
        ),
        "simulate: 5 naive players": (
            lambda: sum(1 for _ in simulate(STANDARD, WINNER, [player("naive")] * 5, deals, 1)),
            deals,
        ),
        "simulate: 5 players, Compendium Caidis": (
            lambda: sum(1 for _ in simulate(STANDARD, ScoringSystem.CAIDIS, 5, deals, seed=1)),
            deals,
        ),
        "analyse: a table of 5 (3 runs, scored, figures)": (
            lambda: analyse(tables([STANDARD], [WINNER], [5]), deals, seed=1),
            3 * deals,
        ),
        "score and figures alone, 5 players": (figures, deals),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    timed = cases(args.deals)
    best = {name: (float("inf"), float("inf")) for name in timed}
    for _ in range(args.repeat):
        for name, (call, _count) in timed.items():
            cpu, wall = time.process_time(), time.perf_counter()
            call()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            best[name] = (min(best[name][0], cpu), min(best[name][1], wall))
    print(f"{args.deals:,} deals a run, best of {args.repeat} (CPU time; wall beside it)")
    print(f"{'':52} {'deals/s CPU':>12} {'deals/s wall':>13} {'÷ first':>8}")
    first = None
    for name, (_call, count) in timed.items():
        cpu, wall = best[name]
        rate = count / cpu
        first = first or rate
        print(f"{name:52} {rate:12,.0f} {count / wall:13,.0f} {rate / first:8.2f}")


if __name__ == "__main__":
    main()
