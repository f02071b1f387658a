"""Synthetic tournaments: the demo evening and larger data sets for benchmarks.

Rounds are seated one at a time by the seating engine, as an organiser would.

Deals are played by the simulator (``scoring.simulation``): each player has a skill of
their own (a strategy and an oversight rate, ``skills``), each table's deals are one run
of the simulator from a seed of its own (``table_seed``), so the numbers are those of
real games and a seed gives the same evening on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from scoring import rulesets
from scoring.seating import SeatingRequest, plan
from scoring.simulation import SimulatedPlayer, player, simulate
from scoring.systems import ScoringSystem
from tournament.tournament_file.file_format import FORMAT, deal_entry

DEMO_SLUG = "red-lion-winter-open"
DEMO_SEED = 526
# The demo's players are not all alike: about a third take any legal capture (the naive
# strategy), and each overlooks a capture with a chance drawn up to this, so that the
# stronger players win more often, as in a real room.
NAIVE_SHARE = 0.35
MAX_OVERSIGHT = 0.25
# The season the demo evening ends: two earlier evenings and the demo, one series.
DEMO_SERIES_SLUG = "red-lion-season"
DEMO_SERIES_NAME = "Red Lion Season 2026"
DEMO_PLAYERS: tuple[tuple[str, str], ...] = (
    ("Ann Smith", "Red Lion"),
    ("Bartholomew Fiske", "Red Lion"),
    ("Cecily Ward", "Red Lion"),
    ("Dorothy Hale", "Red Lion"),
    ("Edmund Carew", "Red Lion"),
    ("Frances Moyle", "Crown & Anchor"),
    ("Gervase Pinch", "Crown & Anchor"),
    ("Hester Lacy", "Crown & Anchor"),
    ("Isaac Thorne", "Crown & Anchor"),
    ("Joan Penhallow", "Crown & Anchor"),
    ("Kit Marlowe", "Rose Theatre Guild"),
    ("Lettice Knollys", "Rose Theatre Guild"),
    ("Mary Sidney", "Rose Theatre Guild"),
    ("Nicholas Udall", "Rose Theatre Guild"),
    ("Olive Bray", "Rose Theatre Guild"),
    ("Philip Henslowe", "Historical Games Society"),
    ("Quentin Rowe", "Historical Games Society"),
    ("Rose Trevelyan", "Historical Games Society"),
    ("Simon Forman", "Historical Games Society"),
    ("Thomasina Grey", "Historical Games Society"),
    ("Ursula Wyatt", ""),
    ("Valentine Oke", ""),
    ("Walter Ralegh", ""),
)


# Two guests at the earlier evenings; like the demo's three players without a club, they
# have no member number and are linked to nobody.
DEMO_GUESTS: tuple[tuple[str, str], ...] = (("Yolande Fitch", ""), ("Zachary Leke", ""))


def member_number(player_name: str) -> str | None:
    """The demo member's number ("RL01"), by their place in ``DEMO_PLAYERS``; players
    without a club are guests, without one."""
    for index, (name, club) in enumerate(DEMO_PLAYERS, start=1):
        if name == player_name:
            return f"RL{index:02d}" if club else None
    return None


def table_sizes(players: int) -> list[int]:
    """Tables as close to five as possible: 23 → 5, 5, 5, 4, 4; 12 → 4, 4, 4."""
    tables = max(1, -(-players // 5))
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def skills(refs: Sequence[str], seed: int) -> dict[str, SimulatedPlayer]:
    """Each player's skill for the evening of ``seed``: a strategy and an oversight rate,
    drawn in the order of ``refs``. About a third play naively (any legal capture); the
    rest follow Willughby's advice; each overlooks a capture with a chance of its own."""
    rng = random.Random(seed)
    drawn = {}
    for ref in refs:
        strategy = "naive" if rng.random() < NAIVE_SHARE else "willughby"
        drawn[ref] = player(strategy, round(rng.uniform(0.0, MAX_OVERSIGHT), 3))
    return drawn


def table_seed(seed: int, round_number: int, table_number: int) -> int:
    """The seed of the simulated deals at table ``table_number`` of round
    ``round_number`` of the evening of ``seed``: one run of the simulator a table."""
    return seed * 1_000_000 + round_number * 1_000 + table_number


def simulated_deals(
    players: Sequence[SimulatedPlayer],
    count: int,
    seed: int,
    *,
    scoring: str = "winner-advantage",
    rule_set: str = "standard",
) -> list[dict[str, Any]]:
    """``count`` deals simulated at a table of these players (seat 1 first) from ``seed``,
    as a tournament file holds them (the lying-down order where the scoring needs it)."""
    system = ScoringSystem(scoring)
    run = simulate(rulesets.rule_set(rule_set), system, players, count, seed) if count else ()
    return [deal_entry(deal.facts, system.needs_order) for deal in run]


def synthetic_rounds(
    refs: Sequence[str],
    rounds: int,
    rotations: int,
    seed: int,
    *,
    absent: dict[int, Sequence[int]] | None = None,
    stopped_early: dict[int, tuple[int, int]] | None = None,
    split: Sequence[int] | None = None,
    scoring: str = "winner-advantage",
    rule_set: str = "standard",
) -> Iterator[tuple[int, list[tuple[tuple[str, ...], list[dict[str, Any]]]]]]:
    """Each round of a made-up evening of the players ``refs``: its number and its tables,
    each as (the players in seat order, the deals played), seated by the seating engine
    and played by the simulator (``simulated_deals``), each player with the skill
    ``skills`` gives them for ``seed``, each table from its ``table_seed``. ``absent``
    maps a round number to indexes of players who miss it; ``stopped_early`` maps a round
    number to ``(table number, deals played)`` for a table that stopped early; ``split``
    gives the table sizes (else as close to five as can be)."""
    skill = skills(refs, seed)
    history: list[tuple[int | str, ...]] = []
    for number in range(1, rounds + 1):
        missing = {refs[index] for index in (absent or {}).get(number, ())}
        active = tuple(ref for ref in refs if ref not in missing)
        request = SeatingRequest(
            players=active,
            split=tuple(split or table_sizes(len(active))),
            history=tuple(history),
            seed=seed + number,
            search_effort=0.2,
        )
        seated = plan(request).rounds[0].tables
        history.extend(seated)
        stop = (stopped_early or {}).get(number, (0, 0))
        tables = []
        for table_number, seats in enumerate(seated, start=1):
            count = stop[1] if stop[0] == table_number else len(seats) * rotations
            deals = simulated_deals(
                [skill[str(ref)] for ref in seats],
                count,
                table_seed(seed, number, table_number),
                scoring=scoring,
                rule_set=rule_set,
            )
            tables.append((tuple(str(ref) for ref in seats), deals))
        yield number, tables


def synthetic_tournament(
    *,
    name: str,
    slug: str,
    players: Sequence[tuple[str, str]],
    rounds: int,
    rotations: int = 1,
    seed: int = 0,
    date: str | None = None,
    absent: dict[int, Sequence[int]] | None = None,
    stopped_early: dict[int, tuple[int, int]] | None = None,
    members: bool = False,
    scoring: str = "winner-advantage",
    rule_set: str = "standard",
    split: Sequence[int] | None = None,
) -> dict[str, Any]:
    """A complete tournament file.

    ``members`` gives the demo's members their member numbers (``member_number``).
    ``absent`` maps a round number to player indexes who miss it; ``stopped_early`` maps a
    round number to ``(table number, deals played)`` for a table that stopped early.
    ``scoring`` and ``rule_set`` are the file's; ``split`` the table sizes of every round.
    """
    refs = [f"p{index}" for index in range(1, len(players) + 1)]
    file_rounds = [
        {
            "number": number,
            "started": True,
            "released": True,
            "tables": [
                {"number": table_number, "seats": list(seats), "deals": deals}
                for table_number, (seats, deals) in enumerate(tables, start=1)
            ],
        }
        for number, tables in synthetic_rounds(
            refs,
            rounds,
            rotations,
            seed,
            absent=absent,
            stopped_early=stopped_early,
            split=split,
            scoring=scoring,
            rule_set=rule_set,
        )
    ]
    return {
        "format": FORMAT,
        "name": name,
        "slug": slug,
        **({"date": date} if date else {}),
        "scoring": scoring,
        "rule_set": rule_set,
        **({"table_sizes": sorted(set(split))} if split else {}),
        "rotations_per_round": rotations,
        "tiebreaks": ["last_in", "table_wins", "countback"],
        "players": [
            {"id": ref, "name": player_name, "club": club} | _member(player_name, members)
            for ref, (player_name, club) in zip(refs, players, strict=True)
        ],
        "rounds": file_rounds,
    }


def _member(player_name: str, members: bool) -> dict[str, str]:
    number = member_number(player_name) if members else None
    return {"member": number} if number else {}


def demo_tournament(seed: int = DEMO_SEED) -> dict[str, Any]:
    """The demo evening: 23 players (tables of 5 and 4), four rounds of two rotations, one
    player missing round 3, one table stopping early in round 4."""
    return synthetic_tournament(
        name="Red Lion Winter Open",
        slug=DEMO_SLUG,
        players=DEMO_PLAYERS,
        rounds=4,
        rotations=2,
        seed=seed,
        date="2026-12-05",
        absent={3: [21]},
        stopped_early={4: (2, 7)},
        members=True,
    )


def demo_season() -> list[dict[str, Any]]:
    """The season of the demo's series, in date order: two earlier evenings of three
    rounds (some members missing, two guests) and the demo evening itself."""
    earlier = [
        ("Red Lion October Night", "red-lion-october-night", "2026-10-03", DEMO_PLAYERS[:16]),
        ("Red Lion November Night", "red-lion-november-night", "2026-11-07", DEMO_PLAYERS[4:18]),
    ]
    return [
        synthetic_tournament(
            name=name,
            slug=slug,
            players=(*players, *DEMO_GUESTS),
            rounds=3,
            seed=DEMO_SEED + number,
            date=date,
            members=True,
        )
        for number, (name, slug, date, players) in enumerate(earlier, start=1)
    ] + [demo_tournament()]


DU_COEUR_SLUG = "guildhall-long-tables"


def demo_du_coeur() -> dict[str, Any]:
    """A second demo evening under another rule set: Justin du Coeur's larger tables at
    classic stakes, fifteen players at a table of eight and one of seven, three rounds."""
    return synthetic_tournament(
        name="Guildhall Long Tables Night",
        slug=DU_COEUR_SLUG,
        players=(*DEMO_PLAYERS[:13], *DEMO_GUESTS),
        rounds=3,
        seed=DEMO_SEED + 7,
        date="2026-11-21",
        scoring="classic-stakes",
        rule_set="du-coeur",
        split=(8, 7),
    )
