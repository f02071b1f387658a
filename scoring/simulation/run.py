"""A run of simulated deals at one table: the deal passes left from seat 1, each deal is
shuffled, dealt and played, and its facts come out as a score sheet records them.

Terms:

- *run*: ``deals`` deals at a table of the given players under one rule set and scoring
  system; deal ``d`` is dealt by seat ``((d - 1) mod n) + 1`` (``scoring.rules.dealer_of``).
- *seed*: the one number a run is reproduced from. Every random choice of the run (the
  shuffles, a naive player's captures, the oversights) comes from one
  ``random.Random(seed)`` in order, so the same seed, table and players give the same
  deals on any machine, and the first deals of a longer run are those of a shorter one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from scoring.errors import UserError
from scoring.rules import DealFacts, TableParams, dealer_of
from scoring.rulesets import RuleSet, sizes_text
from scoring.simulation.cards import deal, shuffled_pack
from scoring.simulation.play import play_deal
from scoring.simulation.registry import SimulatedPlayer, player
from scoring.simulation.variants import PlayRules, play_rules
from scoring.systems import ScoringSystem, allowed_sizes


class SimulatedDeal(NamedTuple):
    """Deal ``number`` of a run, dealt by seat ``dealer``, and its facts (a named tuple,
    made faster than a dataclass: a run makes one a deal)."""

    number: int
    dealer: int
    facts: DealFacts


def simulate(
    rule_set: RuleSet,
    system: ScoringSystem,
    players: int | Sequence[SimulatedPlayer],
    deals: int,
    seed: int = 0,
) -> Iterator[SimulatedDeal]:
    """The deals of a run, one at a time. ``players`` is the table: a number of players
    of the default skill, or one ``SimulatedPlayer`` a seat, seat 1 first. Refused, in words,
    for a table the rule set and the scoring do not seat and for fewer than one deal."""
    size = players if isinstance(players, int) else len(players)
    params = table_params(rule_set, system, size)
    seated = (player(),) * size if isinstance(players, int) else tuple(players)
    if deals < 1:
        raise UserError(f"a run has at least 1 deal, not {deals}")
    return _run(params, seated, play_rules(system), deals, seed)


def table_params(rule_set: RuleSet, system: ScoringSystem, size: int) -> TableParams:
    """The rule set's numbers for a table of ``size``, which the scoring must seat too."""
    params = rule_set.params(size)
    allowed = allowed_sizes(system, rule_set)
    if size not in allowed:
        raise UserError(
            f"a table of {size} players cannot play under {system.label}: with "
            f"{rule_set.name} it seats {sizes_text(allowed)} players"
        )
    return params


def _run(
    params: TableParams,
    seated: tuple[SimulatedPlayer, ...],
    rules: PlayRules,
    deals: int,
    seed: int,
) -> Iterator[SimulatedDeal]:
    rng = random.Random(seed)
    for number in range(1, deals + 1):
        dealer = dealer_of(number, params.players)
        dealt = deal(shuffled_pack(rng), params)
        yield SimulatedDeal(number, dealer, play_deal(dealt, dealer, seated, rules, rng))
