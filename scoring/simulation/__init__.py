"""The simulator: deals of Laugh and Lie Down shuffled, dealt and played by the rules of
the sources, each ending in the facts a score sheet records (docs/simulator.md).

Terms (docs/rules.md tells the game; each module defines its own):

- *table*: the players of a run, seat 1 first, each a ``SimulatedPlayer``: a strategy (``naive``
  or ``willughby``, ``registry.STRATEGIES``) and an *oversight*, the chance of missing
  what it could do.
- *play rules*: what differs between the sources' play (``variants``), chosen by the
  scoring system: Compendium Caidis mates a pair in the middle one by one and gives the
  last in a last turn.
- *simulated deal*: a deal's number, its dealer and its ``DealFacts`` (cards won, last
  in, left over and the lying-down order), which ``scoring.rules.make_deal`` accepts.

The modules are the steps of a deal: ``cards`` (the pack and the deal), ``play`` (the
play, to the facts), ``strategies`` (the choice of a capture), ``registry`` (strategies
by key, and players), ``variants`` (the sources' play rules), ``run`` (a run of deals
from a seed); ``constants`` holds every constant with why. ``analysis`` measures what
the game is like from many simulated deals (docs/game-analysis.md); ``pools`` makes
rounds of them, from which ``podium`` (with ``field``, what it starts from) and
``advisor`` play whole rounds and tournaments.

Public API
----------
- ``simulate(rule_set, system, players, deals, seed=0) -> Iterator[SimulatedDeal]``
- ``player(strategy="willughby", oversight=0.0) -> SimulatedPlayer``
- ``play_deal(dealt, dealer, players, rules, rng) -> DealFacts``: one deal, e.g. a ``rigged`` one.
"""

from scoring.simulation.cards import Dealt, deal, rigged, shuffled_pack
from scoring.simulation.play import play_deal
from scoring.simulation.registry import (
    STRATEGIES,
    SimulatedPlayer,
    player,
    strategy_keys,
    strategy_named,
)
from scoring.simulation.run import SimulatedDeal, simulate, table_params
from scoring.simulation.variants import CAIDIS, PARLETT, PlayRules, play_rules

__all__ = [
    "CAIDIS",
    "PARLETT",
    "STRATEGIES",
    "Dealt",
    "PlayRules",
    "SimulatedDeal",
    "SimulatedPlayer",
    "deal",
    "play_deal",
    "play_rules",
    "player",
    "rigged",
    "shuffled_pack",
    "simulate",
    "strategy_keys",
    "strategy_named",
    "table_params",
]
