"""The pack and the deal: shuffling, dealing, and what a packed count says of its ranks.

Terms (``constants`` defines the packed count and the rank bit):

- *pack*: the 52 cards as packed units (``constants.PACK``), in the order dealt.
- *the deal* (``Dealt``): each seat's hand and the middle, as packed counts. From a
  shuffled pack, blocks of cards are as random as cards dealt one at a time from the
  dealer's left, so the deal gives the seats their cards in blocks, seat 1 first, and the
  middle the rest. A Compendium Caidis widow's hand, turned face up in the middle, is
  dealt the same way: its counts are the rule set's middle.
- *rigged deal* (``rigged``): hands written out as rank letters (``RANK_NAMES``, ``T``
  for ten), for the tests and the docs' examples; the hands may differ in size.
- *held*, *one*, *two*, *three*, *four*: the rank mask of the ranks a packed count
  holds at least one card of, exactly one, two, three, all four of.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from scoring.errors import UserError
from scoring.rules import TableParams
from scoring.simulation.constants import (
    EVERY_RANK,
    FIELD,
    FIELD_MASK,
    PACK,
    RANK_NAMES,
    RANKS,
    SHUFFLE_STEPS,
    SUITS,
)


class Dealt(NamedTuple):
    """The cards as dealt: ``hands[0]`` is seat 1's hand; ``middle`` the face-up cards.
    A named tuple, not a dataclass: a run makes one a deal, and a tuple is made faster."""

    hands: tuple[int, ...]
    middle: int


def shuffled_pack(rng: random.Random) -> list[int]:
    """The pack in a uniformly random order (Fisher–Yates, ``SHUFFLE_STEPS``)."""
    pack = list(PACK)
    draw = rng.getrandbits
    for last, bits in SHUFFLE_STEPS:
        pick = draw(bits)
        while pick > last:
            pick = draw(bits)
        pack[last], pack[pick] = pack[pick], pack[last]
    return pack


def deal(pack: Sequence[int], params: TableParams) -> Dealt:
    """``params.cards_each`` cards to each of ``params.players`` seats, the rest (its
    ``table_cards``) face up in the middle."""
    each = params.cards_each
    dealt = params.players * each
    hands = [sum(pack[start : start + each]) for start in range(0, dealt, each)]
    return Dealt(tuple(hands), sum(pack[dealt:]))


def held(cards: int) -> int:
    return (cards | cards >> 1 | cards >> 2) & EVERY_RANK


def one(cards: int) -> int:
    return cards & ~(cards >> 1) & ~(cards >> 2) & EVERY_RANK


def two(cards: int) -> int:
    return (cards >> 1) & ~cards & EVERY_RANK


def three(cards: int) -> int:
    return cards & (cards >> 1) & EVERY_RANK


def four(cards: int) -> int:
    return (cards >> 2) & EVERY_RANK


def count(cards: int, rank_bit: int) -> int:
    """How many cards of the rank of ``rank_bit`` the packed count holds."""
    return (cards >> (rank_bit.bit_length() - 1)) & FIELD_MASK


def rank_bits(mask: int) -> Iterator[int]:
    """The rank bits of a rank mask, lowest rank first."""
    while mask:
        lowest = mask & -mask
        yield lowest
        mask ^= lowest


def cards_of(text: str) -> int:
    """A packed count from rank letters (``"AA T K"``; spaces ignored, case too)."""
    cards = 0
    for letter in text.replace(" ", "").upper():
        rank = RANK_NAMES.find(letter)
        if rank < 0:
            raise UserError(f"“{letter}” is not a rank; the ranks are {RANK_NAMES}")
        cards += 1 << FIELD * rank
    return cards


def text_of(cards: int) -> str:
    """Rank letters of a packed count, lowest rank first (``cards_of`` read back)."""
    return "".join(
        RANK_NAMES[rank] * ((cards >> FIELD * rank) & FIELD_MASK) for rank in range(RANKS)
    )


def rigged(hands: Sequence[str], middle: str | None = None) -> Dealt:
    """A deal written out: each seat's hand, seat 1 first, and the middle (every card not
    in a hand when ``middle`` is None). Refused unless every seat holds a card and the
    deal holds the 52 cards of a pack, four of each rank."""
    packed = tuple(cards_of(hand) for hand in hands)
    empty = [str(seat) for seat, hand in enumerate(packed, start=1) if not hand]
    if empty:
        raise UserError(f"a rigged deal gives every seat a card; seat {', '.join(empty)} has none")
    letters = "".join(hands).replace(" ", "").upper()
    if middle is not None:
        cards_of(middle)
        letters += middle.replace(" ", "").upper()
    wrong = [
        f"{letters.count(name)} × {name}"
        for name in RANK_NAMES
        if letters.count(name) > SUITS or (middle is not None and letters.count(name) < SUITS)
    ]
    if wrong:
        raise UserError(
            f"a rigged deal holds four of each rank, 52 cards; this one has {', '.join(wrong)}"
        )
    rest = sum(PACK) - sum(packed)
    return Dealt(packed, rest if middle is None else cards_of(middle))
