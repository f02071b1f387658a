"""Seating engine benchmark: time and meeting figures for typical and large instances.

Run from the repository root: ``.venv/bin/python bench/seating.py``. Each instance is
planned jointly for all its rounds with seed 0; the figures are deterministic, the times are
this machine's. "budget" is the time the spec allows, where it sets one.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.seating import SeatingRequest, plan


@dataclass(frozen=True)
class Instance:
    players: int
    rounds: int
    policy: str  # "mixed", "fives" or "fours" (tables of that size only), or "byes"
    budget: float | None = None
    played: int = 0  # rounds already played (planned first, then fed back as history)
    arrivals: int = 0  # players who join after the rounds already played


INSTANCES = [
    Instance(12, 4, "mixed"),
    Instance(23, 5, "mixed"),
    Instance(25, 6, "fives"),
    Instance(35, 7, "fives"),
    Instance(23, 5, "byes"),
    Instance(30, 6, "mixed"),
    # Tight: zero-repeat seatings exist (social golfer results), no construction here.
    Instance(30, 5, "fives"),
    Instance(24, 6, "fours"),
    Instance(28, 8, "fours"),
    Instance(32, 9, "fours"),
    Instance(40, 8, "mixed"),
    Instance(60, 8, "mixed"),
    Instance(60, 8, "byes"),
    Instance(200, 10, "mixed", budget=2.0),
    Instance(1000, 10, "mixed", budget=10.0),
    Instance(1003, 10, "byes"),
    Instance(25, 6, "fives", played=1),
    Instance(35, 7, "fives", played=2),
    Instance(60, 8, "mixed", played=4, arrivals=3),
    Instance(1000, 10, "mixed", played=5, arrivals=7),
]


def request_for(instance: Instance, players: int, rounds: int, history=()) -> SeatingRequest:
    return SeatingRequest(
        players=tuple(range(1, players + 1)),
        rounds=rounds,
        sizes={"fives": (5,), "fours": (4,)}.get(instance.policy, (4, 5, 6)),
        byes=instance.policy == "byes",
        history=history,
    )


def run(instance: Instance) -> dict[str, object]:
    history: tuple[tuple[int, ...], ...] = ()
    if instance.played:
        first = plan(request_for(instance, instance.players, instance.played))
        history = tuple(table for r in first.rounds for table in r.tables)
    players = instance.players + instance.arrivals
    request = request_for(instance, players, instance.rounds - instance.played, history)
    start = time.perf_counter()
    result = plan(request)
    seconds = time.perf_counter() - start
    sizes = sorted({len(t) for r in result.rounds for t in r.tables}, reverse=True)
    policy = instance.policy + (f" +{instance.arrivals} late" if instance.arrivals else "")
    figures = result.quality
    return {
        "players": players,
        "policy": policy,
        "sizes": "/".join(map(str, sizes)),
        "rounds": f"{instance.played}+{request.rounds}" if instance.played else str(request.rounds),
        "seconds": f"{seconds:.3f}",
        "budget": f"{seconds / instance.budget:.0%} of {instance.budget:g}s"
        if instance.budget
        else "",
        "repeats": figures.repeat_meetings,
        "most": figures.max_meetings,
        "bound": figures.lower_bound,
        "most bound": figures.max_meetings_lower_bound,
    }


def main() -> None:
    rows = [run(instance) for instance in INSTANCES]
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(str(row[c])) for row in rows)) for c in columns}
    print("  ".join(c.rjust(widths[c]) for c in columns))
    for row in rows:
        print("  ".join(str(row[c]).rjust(widths[c]) for c in columns))
    print(
        "\nrepeats = repeat meetings (sum over pairs of meetings - 1), history included; "
        "most = most meetings of any pair;\nbound / most bound = the counting lower bounds "
        "on those; rounds a+b = b rounds planned after a played."
    )


if __name__ == "__main__":
    main()
