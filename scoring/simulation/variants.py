"""The rules of play that differ between the sources, chosen by the scoring system.

A tournament's scoring system names the source whose game is played: winner-advantage
is Parlett's tournament adaptation, classic stakes Willughby's game as Parlett and du
Coeur give it, Compendium Caidis the SCA guild's page. Their play differs in two points
that change the facts of a deal (``PlayRules``):

- *pair for pair*: a pair from hand may capture a pair in the middle, four cards at once
  (Parlett: "Alternatively, you can play a pair from your hand to capture a pair on the
  table"). Caidis forbids it: "A pair face-up on the table must be mated one-by-one".
- *last turn*: when only one player still holds cards, that player may take one last
  turn before the cards left over go to the dealer (Caidis); in the other sources play
  stops there (Parlett: "Play ceases when only one player has any cards left in hand").

Where a mournival dealt to the middle goes (the dealer's, or face down for the winner)
differs too, but not the facts: either way it is part of the left over.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.systems import ScoringSystem


@dataclass(frozen=True)
class PlayRules:
    pair_for_pair: bool = True
    last_turn: bool = False


PARLETT = PlayRules(pair_for_pair=True, last_turn=False)
CAIDIS = PlayRules(pair_for_pair=False, last_turn=True)


def play_rules(system: ScoringSystem) -> PlayRules:
    """The rules of play of the source ``system`` scores."""
    return CAIDIS if system is ScoringSystem.CAIDIS else PARLETT
