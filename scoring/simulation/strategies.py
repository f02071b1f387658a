"""Strategies: which capture a player makes on a turn, when it can make several.

Terms (``cards`` defines packed counts and rank bits):

- *capture*: ``(rank_bit, from_hand, from_middle)``: the cards of one rank a player
  takes, ``from_hand`` of its own with ``from_middle`` of the middle: one with one (2
  cards won), one with the three of a prial in the middle (4), or, where the rules allow
  it, a pair with a pair (4). Cards are always won in pairs.
- *capturable*: the rank mask of the ranks both the hand and the middle hold, less any
  the player overlooked this turn (``play`` decides that). Never empty when a strategy
  is asked.
- *others*: the packed count of the cards in every other hand. A player cannot see
  them, but knows them rank by rank: every card not in its hand is in the middle, won
  face up, set aside, or in another hand.
- *simple mate*: one card of a rank in the middle, matched from hand, that another
  player could take first (someone else holds its rank).
- *certain mate*: a capture nobody can take from the player: two of the rank in the
  middle (another may take one, the other stays), or one whose rank nobody else holds
  (the fourth of a prial in hand lying in the middle).

Willughby's advice (Parlett's summary, du Coeur's and the Compendium's lists): take all
three of a prial in the middle; take a simple mate at once; keep certain mates for last,
one pair a turn, "to leave yourself as many future plays as possible". ``willughby``
follows it, ranks in order when several captures are equally good (ranks are alike, so
the order biases nothing). ``naive`` takes any legal capture, at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from scoring.simulation.cards import count, rank_bits

Capture = tuple[int, int, int]
Choose = Callable[[int, int, int, int, bool, random.Random], Capture]


def willughby(
    capturable: int,
    hand: int,
    middle: int,
    others: int,
    pair_for_pair: bool,
    rng: random.Random,
) -> Capture:
    """All three of a prial in the middle, else a simple mate, else a certain mate."""
    # three(middle), one(middle) and held(others), written out: this runs on every turn.
    prials = capturable & middle & middle >> 1
    if prials:
        return prials & -prials, 1, 3
    simple = capturable & ~(middle >> 1 | middle >> 2) & (others | others >> 1 | others >> 2)
    if simple:
        return simple & -simple, 1, 1
    return capturable & -capturable, 1, 1


def naive(
    capturable: int,
    hand: int,
    middle: int,
    others: int,
    pair_for_pair: bool,
    rng: random.Random,
) -> Capture:
    """Any legal capture, each as likely: one with one, one with three, pair with pair."""
    captures: list[Capture] = []
    for bit in rank_bits(capturable):
        in_middle = count(middle, bit)
        if in_middle == 3:
            captures.append((bit, 1, 3))
            continue
        captures.append((bit, 1, 1))
        if pair_for_pair and in_middle == 2 and count(hand, bit) == 2:
            captures.append((bit, 2, 2))
    return rng.choice(captures)
