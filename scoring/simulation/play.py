"""The play of one deal, from the cards as dealt to the facts a score sheet records.

Terms (``cards`` defines packed counts and rank bits, ``strategies`` a capture):

- *set aside*: a mournival dealt to the middle is taken out before play (the dealer's in
  the classic game, face down for the winner in Parlett's): nobody wins it in play, so it
  is part of the left over.
- *foreplay*: before play, from the eldest round to the dealer, each player lays down a
  mournival in hand (four cards won) and a pair of each prial (two won, the third kept).
- *turn*: play starts with the eldest (the dealer's left, seat ``dealer + 1``) and passes
  left, skipping seats that hold no cards. A player who can capture must make one
  capture: its strategy chooses when there is a choice, the rules when there is one
  capture only. A prial in the middle is always taken whole (taking one of it is a
  mistake the sources let others claim; the simulator does not make it). A player who
  cannot capture *lies down*: its hand goes face up into the middle, where the others
  may take from it.
- *oversight* (``registry``): a player may miss a capture on its turn, the laying down
  of its pair, a claim. The dealer never misses a mournival in the middle, nor a player
  its mournivals and prials before play: the sources let them be claimed later, which
  the simulator leaves out.
- *laying down a pair out of turn*: when a card of a rank is captured and another player
  holds the other two of it, that player lays its pair down as won at once, since it can
  no longer be won otherwise (Parlett, du Coeur, the Compendium).
- *dead pair*: two cards of a rank in the middle whose other two are won, so that nobody
  can capture them. Only an oversight makes one: a player lies down holding the pair it
  should have laid down, or lies down holding a mate it overlooked. The first player to
  its left to notice claims it, out of turn and whether or not it still holds cards
  (Willughby: "whatever is overseen is his that can catch it first"); it is noticed as
  the hand goes down or not at all.
- *out*: a seat holding no cards. It goes out by lying down, or when its last cards are
  won (by a capture, by laying a pair down, in foreplay); either way it can take nothing
  more, so it takes its place in the *lying-down order* (``DealFacts.laid_down``) then.
  Compendium Caidis pays on that order: a player who has run out of cards is no longer
  "in", so it pays every player still holding cards as one who lay down.
- *last in*: play stops when only one seat holds cards. The left over is that hand plus
  the middle plus any mournival set aside (52 less the cards won).

Edge cases, decided so that every deal has exactly one last in and at least two cards
left over (docs/rules.md, "What a score sheet records"):

- Two seats go out at once when a capture takes a player's last card and another lays
  down the pair of the rank that was all it held. They go out in that order: the capture
  came first.
- Laying down a pair out of turn is a right, not a duty ("you may immediately add the
  pair to your won cards"). Nobody lays down the last cards in play: when the player
  would be left alone holding nothing (the other seats being out), it keeps its pair and
  is last in, holding cards as last in always does. Foreplay keeps the same rule, for
  house rules that deal hands of four.
- Compendium Caidis's last turn (``PlayRules.last_turn``) is taken unless it would take
  the last cards of the deal: the deal always leaves cards over.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.rules import CARDS_IN_PACK, DealFacts
from scoring.simulation.cards import Dealt, four, held, rank_bits, three, two
from scoring.simulation.constants import EVERY_RANK
from scoring.simulation.registry import SimulatedPlayer
from scoring.simulation.variants import PlayRules


def play_deal(
    dealt: Dealt,
    dealer: int,
    players: Sequence[SimulatedPlayer],
    rules: PlayRules,
    rng: random.Random,
) -> DealFacts:
    """The facts of the deal ``dealt`` played by ``players`` (seat 1 first) with seat
    ``dealer`` dealing."""
    seats = len(dealt.hands)
    hands = list(dealt.hands)
    won = [0] * seats
    out: list[int] = []
    middle = dealt.middle - 4 * four(dealt.middle)
    holders = _foreplay(hands, won, out, dealer % seats)
    choose = [seat_player.strategy.choose for seat_player in players]
    slips = [seat_player.oversight for seat_player in players]
    careless = any(slips)
    pair_for_pair = rules.pair_for_pair
    # The seats still holding cards, as a ring passing left: ``after[s]`` plays after s.
    after = [*range(1, seats), 0]
    before = [seats - 1, *range(seats - 1)]
    if holders < seats:
        _leave_ring(hands, after, before)
    seat = dealer % seats
    in_hands = sum(hands)
    ranks = EVERY_RANK
    while holders > 1:
        hand = hands[seat]
        if not hand:
            # Gone out since the ring pointed here: a capture took the previous player's
            # last card and this player's pair was laid down with it.
            seat = after[seat]
            continue
        # held(hand) & held(middle), written out: this line runs on every turn.
        capturable = (hand | hand >> 1 | hand >> 2) & (middle | middle >> 1 | middle >> 2) & ranks
        if careless and capturable and slips[seat] and rng.random() < slips[seat]:
            capturable ^= _any_rank(capturable, rng)
        if not capturable:
            # Lying down: the hand goes face up into the middle.
            middle += hand
            in_hands -= hand
            hands[seat] = 0
            out.append(seat)
            holders -= 1
            after[before[seat]], before[after[seat]] = after[seat], before[seat]
            dead = two(middle) & held(hand) & ~held(in_hands)
            if dead:
                middle = _claim(dead, middle, seat, slips, won, rng)
            seat = after[seat]
            continue
        # A choice when two ranks can be taken, or a pair in hand with a pair in the middle.
        if capturable & (capturable - 1) or (pair_for_pair and hand & middle & (capturable << 1)):
            bit, from_hand, from_middle = choose[seat](
                capturable, hand, middle, in_hands - hand, pair_for_pair, rng
            )
        else:
            # One capture is possible: the rules make it, whatever the strategy.
            bit, from_hand = capturable, 1
            from_middle = 3 if middle & (middle >> 1) & bit else 1
        hand -= bit * from_hand
        hands[seat] = hand
        middle -= bit * from_middle
        in_hands -= bit * from_hand
        won[seat] += from_hand + from_middle
        if not hand:
            out.append(seat)
            holders -= 1
            after[before[seat]], before[after[seat]] = after[seat], before[seat]
        if (in_hands - hand) & (bit << 1):
            # Two of the rank are in other hands: laid down if one player holds both.
            other = _pair_holder(hands, seat, bit)
            if other is not None and _lays_down(hands[other], bit, holders, slips[other], rng):
                hands[other] -= 2 * bit
                in_hands -= 2 * bit
                won[other] += 2
                if not hands[other]:
                    out.append(other)
                    holders -= 1
                    after[before[other]], before[after[other]] = after[other], before[other]
        seat = after[seat]
    last = next(seat for seat in range(seats) if hands[seat])
    if rules.last_turn:
        _last_turn(last, hands[last], middle, players[last], pair_for_pair, won, rng)
    total = sum(won)
    return DealFacts(tuple(won), last + 1, CARDS_IN_PACK - total, tuple(seat + 1 for seat in out))


def _leave_ring(hands: Sequence[int], after: list[int], before: list[int]) -> None:
    """Take the seats that went out in foreplay out of the ring."""
    for seat, hand in enumerate(hands):
        if not hand:
            after[before[seat]], before[after[seat]] = after[seat], before[seat]


def _pair_holder(hands: Sequence[int], capturer: int, bit: int) -> int | None:
    """The seat other than ``capturer`` holding two cards of the rank of ``bit``."""
    for seat, hand in enumerate(hands):
        if seat != capturer and hand & (bit << 1):
            return seat
    return None


def _lays_down(hand: int, bit: int, holders: int, slip: float, rng: random.Random) -> bool:
    """Whether the player holding ``hand`` lays down its pair of the rank of ``bit``: not
    the last cards in play (it keeps them and is last in), and not when it overlooks it."""
    if hand == 2 * bit and holders == 1:
        return False
    return not (slip and rng.random() < slip)


def _foreplay(hands: list[int], won: list[int], out: list[int], eldest: int) -> int:
    """Lay down mournivals and a pair of each prial in hand; the seats still holding cards."""
    seats = len(hands)
    holders = seats
    for turn in range(seats):
        seat = (eldest + turn) % seats
        hand = hands[seat]
        mournivals = four(hand)
        prials = three(hand)
        taken = 4 * mournivals + 2 * prials
        if not taken or (taken == hand and holders == 1):
            continue
        hands[seat] = hand - taken
        won[seat] += 4 * mournivals.bit_count() + 2 * prials.bit_count()
        if taken == hand:
            out.append(seat)
            holders -= 1
    return holders


def _any_rank(mask: int, rng: random.Random) -> int:
    """One rank bit of ``mask``, each as likely."""
    bits = list(rank_bits(mask))
    return bits[int(rng.random() * len(bits))]


def _claim(
    dead: int,
    middle: int,
    lay_down: int,
    slips: Sequence[float],
    won: list[int],
    rng: random.Random,
) -> int:
    """Each dead pair goes to the first seat left of ``lay_down`` that notices it; the
    middle after the claims."""
    seats = len(won)
    for bit in rank_bits(dead):
        for step in range(1, seats):
            seat = (lay_down + step) % seats
            if not slips[seat] or rng.random() >= slips[seat]:
                won[seat] += 2
                middle -= 2 * bit
                break
    return middle


def _last_turn(
    seat: int,
    hand: int,
    middle: int,
    last_in: SimulatedPlayer,
    pair_for_pair: bool,
    won: list[int],
    rng: random.Random,
) -> None:
    """Compendium Caidis: the last in takes one last turn, unless it would leave no card
    over."""
    capturable = held(hand) & held(middle)
    if capturable and last_in.oversight and rng.random() < last_in.oversight:
        capturable ^= _any_rank(capturable, rng)
    if not capturable:
        return
    others = 0  # every other seat is out
    _bit, from_hand, from_middle = last_in.strategy.choose(
        capturable, hand, middle, others, pair_for_pair, rng
    )
    if sum(won) + from_hand + from_middle < CARDS_IN_PACK:
        won[seat] += from_hand + from_middle
