"""Seating engine benchmark: time and meeting figures for typical and large instances.

Run from the repository root: ``.venv/bin/python bench/seating.py``. Each instance is
planned jointly for all its rounds with seed 0; the figures are deterministic, the times are
this machine's. "budget" is the time the spec allows, where it sets one.
``--sweep`` prints the figures of 165 requests of common sizes instead.

``--big`` times the big fields (``BIG``: 1,000 to 5,120 players for ten rounds), each
in a process of its own so that its peak memory (``ru_maxrss``) is its own: ``plan`` alone,
then the whole ``plan_seating`` command (Django start-up and the JSON output included).

``--large-tables`` plans the fields that fill tables of seven and eight (7, 8, 14, 15, 16,
21, 23 and 40 players) for four and six rounds, at du Coeur's sizes (3 to 8, the default
split) and at sevens and eights alone, beside the same fields at the standard 4, 5 and 6
timed in the same run; with the known bounds (``table_bound``: the counting bound, and the
repeats and most meetings that any two planned rounds force).

``--record FILE`` writes every seating the benchmark and the sweep produce (and a few
seatings by standings and at random, and the plans of 5,000 and 5,120 players) to a JSON file;
``--compare FILE`` seats them again and names each request whose seating differs. Record
before changing the engine's code and compare after: a change that is meant to keep the
seatings must show no difference.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rulesets import DU_COEUR
from scoring.seating import (
    RoundSeating,
    SeatingRequest,
    Table,
    plan,
    quality,
    seat_by_standings,
    seat_randomly,
    table_splits,
)
from scoring.seating.table_bound import between_rounds, planned_most, planned_repeats


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


# Big fields, for --big (and --record / --compare): time and memory, not meeting figures.
BIG = [
    Instance(1000, 10, "mixed", budget=10.0),
    Instance(5000, 10, "mixed", budget=6.0),
    Instance(5120, 10, "mixed"),  # 1,024 tables: the design in the field GF(1,024)
]

ROOT = Path(__file__).resolve().parent.parent

# Tables of 7 and 8, for --large-tables (and --record / --compare): counts that sevens and
# eights seat whole, at du Coeur's sizes and at those two alone.
LARGE_TABLE_PLAYERS = [7, 8, 14, 15, 16, 21, 23, 40]
LARGE_TABLE_ROUNDS = [4, 6]
LARGE_TABLE_SIZES = {"du Coeur": DU_COEUR.sizes, "7s and 8s": (7, 8)}


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


def one_round_requests() -> list[tuple[str, SeatingRequest]]:
    """Single rounds for the by-standings and random methods, with and without constraints."""
    requests = []
    for seed in (0, 1):
        history = shuffled_rounds(23, (5, 5, 5, 4, 4), 2, seed)
        requests.append((f"23 mixed s{seed}", SeatingRequest(players(23), seed=seed)))
        requests.append(
            (
                f"23 byes s{seed}",
                SeatingRequest(players(23), byes=True, past_byes=(1, 2), seed=seed),
            )
        )
        request = SeatingRequest(
            players(30),
            history=history,
            keep_apart=((1, 2), (3, 4)),
            keep_apart_early=((5, 6), (7, 8)),
            early_rounds=1,
            fixed_tables=((9, 2),),
            seed=seed,
        )
        requests.append((f"30 mixed apart, clubs, fixed s{seed}", request))
    return requests


def seatings() -> dict[str, list[list[object]]]:
    """Every seating the benchmark, the sweep and the one-round methods produce, by name."""

    def rounds_of(seated: tuple[RoundSeating, ...]) -> list[list[object]]:
        return [[[list(t) for t in r.tables], list(r.byes)] for r in seated]

    found: dict[str, list[list[object]]] = {}
    for instance in [*INSTANCES, *(i for i in BIG if i not in INSTANCES)]:
        history = rounds_played(instance) if instance.played else ()
        players_in = instance.players + instance.arrivals
        rounds = instance.rounds - instance.played
        found[f"bench {instance}"] = rounds_of(
            plan(request_for(instance, players_in, rounds, history)).rounds
        )
    for name, request in sweep_requests():
        found[f"sweep {name}"] = rounds_of(plan(request).rounds)
    for label, request in large_table_requests():
        name = f"large tables {label} {len(request.players)} x{request.rounds}"
        found[name] = rounds_of(plan(request).rounds)
    for name, request in one_round_requests():
        # Rank order: a fixed shuffle, so the trades at table boundaries have work to do.
        ranked = random.Random(len(name)).sample(request.players, len(request.players))
        found[f"standings {name}"] = rounds_of((seat_by_standings(ranked, request),))
        found[f"random {name}"] = rounds_of((seat_randomly(request),))
    return found


def record(path: str) -> None:
    Path(path).write_text(json.dumps(seatings(), indent=0) + "\n")


def compare(path: str) -> None:
    recorded = json.loads(Path(path).read_text())
    now = json.loads(json.dumps(seatings()))
    differ = [name for name in recorded if recorded[name] != now.get(name)]
    differ += [name for name in now if name not in recorded]
    for name in differ:
        before, after = quality_of(recorded.get(name)), quality_of(now.get(name))
        print(f"differs: {name}: repeats/most {before} -> {after}")
    print(f"{len(now) - len(differ)} of {len(now)} seatings as recorded")
    if differ:
        sys.exit(1)


def quality_of(rounds: list[list[object]] | None) -> str:
    if rounds is None:
        return "-"
    figures = quality(RoundSeating(tuple(map(tuple, r[0]))) for r in rounds)  # type: ignore[arg-type]
    return f"{figures.repeat_meetings}/{figures.max_meetings}"


def large_table_requests() -> list[tuple[str, SeatingRequest]]:
    """(which sizes, request) for every field of --large-tables."""
    return [
        (label, SeatingRequest(players(n), rounds, sizes, rule_sizes=DU_COEUR.sizes))
        for label, sizes in LARGE_TABLE_SIZES.items()
        for n in LARGE_TABLE_PLAYERS
        for rounds in LARGE_TABLE_ROUNDS
    ]


def large_tables() -> None:
    """Fields at tables of 7 and 8: time, figures and the known bounds; the time of the
    same field at 4, 5 and 6 is taken in the same run, for the ratio."""
    standard: dict[tuple[int, int], float] = {}
    for n in LARGE_TABLE_PLAYERS:
        for rounds in LARGE_TABLE_ROUNDS:
            start = time.perf_counter()
            plan(SeatingRequest(players(n), rounds))
            standard[(n, rounds)] = time.perf_counter() - start
    rows = []
    for label, request in large_table_requests():
        n, rounds = len(request.players), request.rounds
        split = table_splits(n, request.sizes, limit=1)[0]
        start = time.perf_counter()
        figures = plan(request).quality
        seconds = time.perf_counter() - start
        between = between_rounds(split, 0)
        most = max(figures.max_meetings_lower_bound, planned_most(between, rounds, n))
        forced = planned_repeats(between, rounds, figures.max_meetings)
        bound = max(figures.lower_bound, forced)
        at_bound = figures.max_meetings == most and figures.repeat_meetings == bound
        rows.append(
            {
                "sizes": label,
                "players": n,
                "split": "+".join(map(str, split)),
                "rounds": rounds,
                "seconds": f"{seconds:.3f}",
                "x 4/5/6": f"{seconds / standard[(n, rounds)]:.1f}",
                "repeats": figures.repeat_meetings,
                "most": figures.max_meetings,
                "counting": figures.lower_bound,
                "pairs of rounds": forced,
                "most bound": most,
                "at bound": "yes" if at_bound else "",
            }
        )
    print_rows(rows)
    print(
        "\nx 4/5/6 = seconds / seconds of the same players and rounds at tables of 4, 5 and 6, "
        "this run;\ncounting = the counting bound on repeats; pairs of rounds = the repeats "
        "that any two rounds force, among plans meeting nobody more often than this one; "
        "most bound = the most meetings\nthe counts force; at bound = most meetings and "
        "repeats at their bounds (no plan does better)."
    )


def print_rows(rows: list[dict[str, object]]) -> None:
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(str(row[c])) for row in rows)) for c in columns}
    print("  ".join(c.rjust(widths[c]) for c in columns))
    for row in rows:
        print("  ".join(str(row[c]).rjust(widths[c]) for c in columns))


def big() -> None:
    """Time and peak memory of the big fields, each measured in a fresh process."""
    print("players  rounds  plan s  plan MB  command s  command MB  budget")
    for instance in BIG:
        args = [str(instance.players), str(instance.rounds)]
        child = [sys.executable, __file__, "--plan-once", *args]
        planned = json.loads(subprocess.run(child, check=True, capture_output=True).stdout)
        command = [sys.executable, __file__, "--command-once", *args]
        whole = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
        budget = (
            f"{whole['seconds'] / instance.budget:.0%} of {instance.budget:g} s"
            if instance.budget
            else ""
        )
        print(
            f"{instance.players:7}  {instance.rounds:6}  {planned['seconds']:6.2f}  "
            f"{planned['mb']:7.0f}  {whole['seconds']:9.2f}  {whole['mb']:10.0f}  "
            f"{budget}"
        )
    print(
        "\nMB = peak resident memory of the process (ru_maxrss), the interpreter included; "
        "command = manage.py plan_seating, Django start-up and JSON output included."
    )


def plan_once(players: int, rounds: int) -> None:
    request = request_for(Instance(players, rounds, "mixed"), players, rounds)
    start = time.perf_counter()
    plan(request)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "mb": peak_mb(resource.RUSAGE_SELF)}))


def command_once(players: int, rounds: int) -> None:
    """The whole plan_seating command, in a child whose peak memory is the only one
    this process waits for."""
    command = [sys.executable, str(ROOT / "manage.py"), "plan_seating"]
    command += ["--players", str(players), "--rounds", str(rounds)]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "mb": peak_mb(resource.RUSAGE_CHILDREN)}))


def peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kilobytes on Linux


def main() -> None:
    if "--sweep" in sys.argv[1:]:
        sweep()
        return
    if "--big" in sys.argv[1:]:
        big()
        return
    if "--large-tables" in sys.argv[1:]:
        large_tables()
        return
    for option, action in (("--plan-once", plan_once), ("--command-once", command_once)):
        if option in sys.argv[1:]:
            at = sys.argv.index(option)
            action(int(sys.argv[at + 1]), int(sys.argv[at + 2]))
            return
    for option, action in (("--record", record), ("--compare", compare)):
        if option in sys.argv[1:]:
            action(sys.argv[sys.argv.index(option) + 1])
            return
    print_rows([run(instance) for instance in INSTANCES])
    print(
        "\nrepeats = repeat meetings (sum over pairs of meetings - 1), history included; "
        "played = those already in the rounds played;\nmost = most meetings of any pair; "
        "bound / most bound = the counting lower bounds on those; rounds a+b = b rounds "
        "planned after a played."
    )


if __name__ == "__main__":
    main()
