"""Seating engine benchmark: time and meeting figures for typical and large instances.

Run from the repository root: ``.venv/bin/python bench/seating.py``. Each instance is
planned jointly for all its rounds with seed 0; the figures are deterministic, the times are
this machine's. "budget" is the time the spec allows, where it sets one.
``--sweep`` prints the figures of 165 requests of common sizes instead.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.seating import SeatingRequest, Table, plan, quality, table_splits


@dataclass(frozen=True)
class Instance:
    players: int
    rounds: int
    policy: str  # "mixed", "fives" or "fours" (tables of that size only), or "byes"
    budget: float | None = None
    played: int = 0  # rounds already played (planned first, then fed back as history)
    arrivals: int = 0  # players who join after the rounds already played
    # How the rounds played were seated: "plan" (by the engine, seed 0), "dealt" (a shuffled
    # deal in which nobody meets twice) or "shuffled" (cut from a shuffle; repeats happen).
    history: str = "plan"


INSTANCES = [
    Instance(12, 4, "mixed"),
    Instance(23, 5, "mixed"),
    Instance(25, 6, "fives"),
    Instance(35, 7, "fives"),
    Instance(23, 5, "byes"),
    Instance(30, 6, "mixed"),
    # Tight: zero-repeat seatings exist (social golfer results 6-5-5, 6-4-6, 7-4-8, 8-4-9).
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
    Instance(35, 7, "fives", played=2, history="dealt"),
    Instance(35, 7, "fives", played=2, history="shuffled"),
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


def rounds_played(instance: Instance) -> tuple[tuple[int, ...], ...]:
    if instance.history == "plan":
        first = plan(request_for(instance, instance.players, instance.played))
        return tuple(table for r in first.rounds for table in r.tables)
    rng = random.Random(0)
    split = table_splits(instance.players, request_for(instance, 1, 1).sizes, limit=1)[0]
    met: dict[int, set[int]] = {p: set() for p in range(1, instance.players + 1)}
    tables: list[tuple[int, ...]] = []
    while len(tables) < instance.played * len(split):
        seated: list[list[int]] = [[] for _ in split]
        for p in rng.sample(sorted(met), len(met)):
            free = [
                t
                for t, table in enumerate(seated)
                if len(table) < split[t]
                and (instance.history == "shuffled" or not met[p].intersection(table))
            ]
            if not free:
                break
            seated[free[0] if instance.history == "shuffled" else rng.choice(free)].append(p)
        else:
            for table in seated:
                for p in table:
                    met[p].update(table)
            tables += map(tuple, seated)
    return tuple(tables)


def run(instance: Instance) -> dict[str, object]:
    history: tuple[tuple[int, ...], ...] = ()
    if instance.played:
        history = rounds_played(instance)
    players = instance.players + instance.arrivals
    request = request_for(instance, players, instance.rounds - instance.played, history)
    start = time.perf_counter()
    result = plan(request)
    seconds = time.perf_counter() - start
    sizes = sorted({len(t) for r in result.rounds for t in r.tables}, reverse=True)
    policy = instance.policy + (f" +{instance.arrivals} late" if instance.arrivals else "")
    if instance.played and instance.history != "plan":
        policy += f", {instance.history}"
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
        "played": quality([], history).repeat_meetings if instance.played else "",
        "most": figures.max_meetings,
        "bound": figures.lower_bound,
        "most bound": figures.max_meetings_lower_bound,
    }


def shuffled_rounds(n: int, split: tuple[int, ...], count: int, seed: int) -> tuple[Table, ...]:
    rng = random.Random(seed)
    tables: list[Table] = []
    for _ in range(count):
        line = rng.sample(range(1, n + 1), n)
        starts = [sum(split[:t]) for t in range(len(split))]
        tables += [tuple(line[s : s + size]) for s, size in zip(starts, split, strict=True)]
    return tuple(tables)


def sweep_requests() -> list[tuple[str, SeatingRequest]]:
    """Common sizes: the default tables and byes for a few rounds, re-plans after shuffled
    rounds, keep-apart pairs and clubs."""
    requests = []
    for n in [20, 21, 22, 23, 24, 26, 27, 28, 29, *range(31, 41), 45, 50]:
        for rounds in range(3, 8):
            requests.append((f"{n} mixed x{rounds}", SeatingRequest(players(n), rounds)))
    for n in [21, 22, 23, 24, 26, 27, 28, 29, 31, 33, 34, 37, 38, 39]:
        for rounds in (4, 5, 6):
            request = SeatingRequest(players(n), rounds, byes=True)
            requests.append((f"{n} byes x{rounds}", request))
    for seed in (0, 1, 2):
        for n, rounds, sizes, played in ((35, 7, (5,), 2), (30, 5, (5,), 1), (24, 6, (4,), 2)):
            split = table_splits(n, sizes, limit=1)[0]
            history = shuffled_rounds(n, split, played, seed)
            request = SeatingRequest(players(n), rounds - played, sizes, history=history, seed=seed)
            requests.append((f"{n} {sizes} {played} shuffled+{rounds - played} s{seed}", request))
        history = shuffled_rounds(23, (5, 5, 5, 4, 4), 2, seed)
        request = SeatingRequest(players(23), 3, history=history, seed=seed)
        requests.append((f"23 mixed 2 shuffled+3 s{seed}", request))
        apart = ((1, 2), (3, 4), (5, 6))
        request = SeatingRequest(
            players(40), 7, keep_apart=apart, fixed_tables=((7, 1),), seed=seed
        )
        requests.append((f"40 mixed x7 apart, fixed s{seed}", request))
        request = SeatingRequest(
            players(30),
            5,
            keep_apart=((1, 2), (3, 4)),
            keep_apart_early=((5, 6), (7, 8), (5, 7)),
            early_rounds=2,
            seed=seed,
        )
        requests.append((f"30 mixed x5 apart, clubs s{seed}", request))
    return requests


def players(n: int) -> tuple[int, ...]:
    return tuple(range(1, n + 1))


def sweep() -> None:
    for name, request in sweep_requests():
        start = time.perf_counter()
        figures = plan(request).quality
        seconds = time.perf_counter() - start
        print(
            f"{name:36} repeats {figures.repeat_meetings:4} most {figures.max_meetings} "
            f"bound {figures.lower_bound:4} {seconds:6.3f} s"
        )


def main() -> None:
    if "--sweep" in sys.argv[1:]:
        sweep()
        return
    rows = [run(instance) for instance in INSTANCES]
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(str(row[c])) for row in rows)) for c in columns}
    print("  ".join(c.rjust(widths[c]) for c in columns))
    for row in rows:
        print("  ".join(str(row[c]).rjust(widths[c]) for c in columns))
    print(
        "\nrepeats = repeat meetings (sum over pairs of meetings - 1), history included; "
        "played = those already in the rounds played;\nmost = most meetings of any pair; "
        "bound / most bound = the counting lower bounds on those; rounds a+b = b rounds "
        "planned after a played."
    )


if __name__ == "__main__":
    main()
