"""The strategies by key, and a player: a strategy with an oversight rate.

Terms:

- *strategy* (``Strategy``): a key, a label and the function choosing a capture
  (``strategies``). Adding one is one function and one entry in ``STRATEGIES``.
- *oversight*: the chance, 0 to 1, that a player misses something it could do, each time
  it could do it: a capture on its turn (one capturable rank goes unseen; with nothing
  else to take it lies down), laying down its pair when another takes a card of the
  rank, claiming a pair someone else left in the middle.
- *player* (``SimulatedPlayer``): the skill of one seat, a strategy and an oversight, so that a
  tournament simulation can seat players of different skill.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import UserError
from scoring.simulation.constants import DEFAULT_OVERSIGHT, DEFAULT_STRATEGY
from scoring.simulation.strategies import Choose, naive, willughby


@dataclass(frozen=True)
class Strategy:
    key: str
    label: str
    choose: Choose


STRATEGIES: tuple[Strategy, ...] = (
    Strategy(
        "willughby",
        "Willughby's advice: prials and simple mates at once, certain mates last",
        willughby,
    ),
    Strategy("naive", "Any legal capture, at random", naive),
)


def strategy_keys() -> list[str]:
    return [strategy.key for strategy in STRATEGIES]


def strategy_named(key: str) -> Strategy:
    """The strategy ``key``; refused in words for a key that is none."""
    for strategy in STRATEGIES:
        if strategy.key == key:
            return strategy
    known = ", ".join(strategy_keys())
    raise UserError(f"“{key}” is not a strategy; the strategies are {known}")


@dataclass(frozen=True)
class SimulatedPlayer:
    strategy: Strategy
    oversight: float = DEFAULT_OVERSIGHT


def player(
    strategy: str = DEFAULT_STRATEGY, oversight: float = DEFAULT_OVERSIGHT
) -> SimulatedPlayer:
    """A player of strategy ``strategy`` who overlooks with chance ``oversight``."""
    if not 0.0 <= oversight <= 1.0:
        raise UserError(f"an oversight is a chance from 0 to 1, not {oversight}")
    return SimulatedPlayer(strategy_named(strategy), oversight)
