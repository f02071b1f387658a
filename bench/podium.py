"""Podium chances benchmark: the Monte Carlo of ``scoring.simulation.podium`` for a large
field, on one core.

Run from the repository root: ``.venv/bin/python bench/podium.py`` (``--players``,
``--rounds-left``, ``--finishes``, ``--repeat``). The field has two rounds played, points
drawn at random from seed 0, everyone playing on at tables of five under winner-advantage
scoring and the standard rule set, ranked by points, deals last in, table wins and
countback (the default tiebreaks). Printed: the time to make the round pool (once a
process), the best of ``--repeat`` runs of the Monte Carlo, the time per finish and per
player-round, and the ratio to the target (3 s for 1,000 players, 3 rounds left, 10,000
finishes). Then the same field with skill from ratings (each player's mu less the field's
mean drawn with a spread of ``--rating-spread``, 3 rating points by default), as in a
rated series, timed in the same run, and its ratio to the equal-skill run. ``--pending N``
leaves the last N tables of five of round 2 with no result yet, played in every finish
(none by default). Numpy is held to one thread, as one core is the target.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from scoring.rulesets import STANDARD  # noqa: E402
from scoring.simulation.podium import (  # noqa: E402
    Chances,
    Field,
    PendingRound,
    RoundsLeft,
    podium_chances,
    pool_for,
)
from scoring.systems import ScoringSystem  # noqa: E402

TARGET_SECONDS = 3.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds-left", type=int, default=3)
    parser.add_argument("--finishes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rating-spread", type=float, default=3.0)
    parser.add_argument("--pending", type=int, default=0)
    args = parser.parse_args()

    started = time.perf_counter()
    pool = pool_for(STANDARD, ScoringSystem.WINNER_ADVANTAGE, 5, 1)
    pool_seconds = time.perf_counter() - started

    rng = np.random.default_rng(0)
    rounds = rng.integers(15, 45, size=(args.players, 2))
    played = np.ones(rounds.shape, dtype=bool)
    waiting = args.players - 5 * args.pending
    rounds[waiting:, 1] = 0
    played[waiting:, 1] = False
    field = Field(
        points=rounds.sum(axis=1),
        last_in=rng.integers(0, 4, size=args.players),
        table_wins=rng.integers(0, 3, size=args.players),
        rounds=rounds,
        played=played,
        plays_on=np.ones(args.players, dtype=bool),
        leader=int(np.argmax(rounds.sum(axis=1))),
    )
    tables = tuple(tuple(range(start, start + 5)) for start in range(waiting, args.players, 5))
    plan = RoundsLeft(
        rounds_left=args.rounds_left,
        sizes=(5,) * (args.players // 5),
        pending=(PendingRound(1, tables),) if tables else (),
    )
    tiebreaks = ("last_in", "table_wins", "countback")

    def timed(of: Field) -> tuple[Chances, list[float]]:
        """The chances of ``of`` and the seconds of each of ``--repeat`` runs."""
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            found = podium_chances(of, plan, {5: pool}, tiebreaks, args.finishes, seed=0)
            times.append(time.perf_counter() - started)
        return found, times

    chances, times = timed(field)
    best = min(times)
    player_rounds = args.finishes * args.players * args.rounds_left
    print(
        f"podium chances: {args.players:,} players, {args.rounds_left} rounds left, "
        f"{args.finishes:,} finishes, {args.pending} tables with no result yet"
    )
    print(f"  round pool (once a process): {pool_seconds:.2f} s")
    runs = ", ".join(f"{t:.2f}" for t in times)
    print(f"  Monte Carlo, best of {args.repeat}: {best:.2f} s ({runs})")
    per_finish = best / args.finishes * 1e3
    per_player_round = best / player_rounds * 1e9
    print(f"  per finish: {per_finish:.3f} ms; per player-round: {per_player_round:.0f} ns")
    print(f"  ratio to the {TARGET_SECONDS:.0f} s target: {best / TARGET_SECONDS:.2f}")
    print(
        f"  check: wins add up to {chances.win.sum():.4f}, top three to {chances.top3.sum():.4f}; "
        f"tiebreaks simulated: {', '.join(chances.tiebreaks_used)}"
    )
    rated_field = dataclasses.replace(
        field, skill=rng.normal(0.0, args.rating_spread, args.players)
    )
    rated, rated_times = timed(rated_field)
    rated_best = min(rated_times)
    runs = ", ".join(f"{t:.2f}" for t in rated_times)
    print(f"  with skill from ratings, best of {args.repeat}: {rated_best:.2f} s ({runs})")
    print(
        f"  ratio to equal skill: {rated_best / best:.2f}; "
        f"to the {TARGET_SECONDS:.0f} s target: {rated_best / TARGET_SECONDS:.2f}; "
        f"wins add up to {rated.win.sum():.4f}"
    )


if __name__ == "__main__":
    main()
