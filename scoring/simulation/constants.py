"""Every constant of the simulator, each with why it has its value.

Terms:

- *packed count*: the cards of a hand or of the middle as one int, a field of ``FIELD``
  bits per rank, rank 0 (the ace) lowest. A field holds 0 to 4, so adding and taking
  cards of one rank never spills into the next field, and a question about every rank at
  once ("which ranks does this hand hold?") is a few operations on one int.
- *rank bit*: the lowest bit of one rank's field, ``1 << FIELD * rank``; a *rank mask*
  is several rank bits or'ed together (a set of ranks).
"""

from __future__ import annotations

from scoring.rules import CARDS_IN_PACK

# A French-suited pack: thirteen ranks of four suits. Suits never matter in the game,
# so the simulator keeps only ranks.
RANKS = 13
SUITS = 4
RANK_NAMES = "A23456789TJQK"

# Four bits a rank: a count runs 0..4 (three bits); the fourth keeps the fields apart and
# makes a packed count read as hexadecimal, one digit a rank, when debugging.
FIELD = 4
FIELD_MASK = (1 << FIELD) - 1

# The lowest bit of every rank's field: the rank mask of all thirteen ranks.
EVERY_RANK = sum(1 << FIELD * rank for rank in range(RANKS))

# The pack as packed units, four of each rank: card i is rank i // SUITS.
PACK: tuple[int, ...] = tuple(1 << FIELD * (card // SUITS) for card in range(CARDS_IN_PACK))

# Fisher–Yates from the last card down: swap card ``last`` with one of cards 0..last,
# drawn as ``bits`` random bits and drawn again when above ``last``. Drawing the bits
# here rather than through ``random.shuffle`` saves a call a card, a tenth of a deal's
# time, and keeps every order of the pack as likely.
SHUFFLE_STEPS: tuple[tuple[int, int], ...] = tuple(
    (last, last.bit_length()) for last in range(CARDS_IN_PACK - 1, 0, -1)
)

# The strategy a seat plays when none is named: the sources' advice, so that a
# simulation with no options plays the game as its players are told to.
DEFAULT_STRATEGY = "willughby"

# The chance a player overlooks something on a turn when none is given: none. Perfect
# play is the reference the sources describe; oversights are a choice of the caller
# (the sources: "mistakes are common"; tournament simulations give each player its own).
DEFAULT_OVERSIGHT = 0.0
