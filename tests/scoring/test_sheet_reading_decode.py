"""Decoding a sheet's box probabilities into the most probable reading the rules allow."""

import itertools

import numpy as np
import pytest

from scoring.rules import validate_deal
from scoring.sheet_reading.decode import (
    BLANK,
    CLASSES,
    DOUBTFUL_BELOW,
    FLOOR,
    NONE,
    DealBoxes,
    SheetCell,
    SheetRules,
    decode_deal,
    value_probabilities,
)


def box(guess: int, sure: float = 0.97, **others: float) -> np.ndarray:
    """A digit box's probabilities: ``guess`` (BLANK for a blank box) at ``sure``, any
    ``d3=0.2``-style alternatives, the rest spread evenly."""
    probs = np.zeros(CLASSES)
    taken = {int(k[1:]) if k != "blank" else BLANK: v for k, v in others.items()}
    probs[guess] = sure
    for digit, p in taken.items():
        probs[digit] = p
    rest = 1 - probs.sum()
    free = [i for i in range(CLASSES) if i != guess and i not in taken]
    probs[free] += rest / len(free)
    return probs


def number(value: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Two boxes sure of ``value``, right-aligned; None: both blank."""
    if value is None:
        return (box(BLANK), box(BLANK))
    if value < 10:
        return (box(BLANK), box(value))
    return (box(value // 10), box(value % 10))


def deal_boxes(won, left_over, last_in, seats, places=None) -> DealBoxes:
    ticks = tuple(0.97 if seat == last_in else 0.02 for seat in range(1, seats + 1))
    return DealBoxes(
        won=tuple(number(v) for v in won),
        left_over=number(left_over),
        last_in_ticks=ticks,
        last_in_digits=None,
        laid_down=None if places is None else tuple((box(p if p else BLANK),) for p in places),
    )


RULES = SheetRules(seats=4, deals=1, order_needed=False, absent=(frozenset(),))


def test_a_clear_deal_reads_as_written_and_nothing_is_doubtful():
    decoded = decode_deal(1, deal_boxes((10, 8, 6, 14), 14, 2, 4), RULES)
    assert decoded.deal.won == (10, 8, 6, 14)
    assert (decoded.deal.left_over, decoded.deal.last_in) == (14, 2)
    assert decoded.doubtful == ()


def test_raw_guesses_that_break_the_checksum_decode_to_the_reading_that_adds_up():
    boxes = deal_boxes((10, 8, 6, 14), 14, 2, 4)
    # Seat 2's 8 looks more like a 3 on its own; 3 is odd and 52 needs 8.
    won = list(boxes.won)
    won[1] = (box(BLANK), box(3, 0.55, d8=0.4))
    # Seat 4's 14 might be a 11 or a 17: only 14 is even and adds up.
    won[3] = (box(1), box(1, 0.5, d4=0.3, d7=0.15))
    boxes = DealBoxes(tuple(won), boxes.left_over, boxes.last_in_ticks, None, None)
    decoded = decode_deal(1, boxes, RULES)
    assert decoded.raw.won == (10, 3, 6, 11)
    assert decoded.deal.won == (10, 8, 6, 14)
    assert not validate_deal(decoded.deal.won, 2, 14, 4)


def test_the_sum_decides_between_two_even_readings_and_says_how_sure_it_is():
    boxes = deal_boxes((10, 8, 6, 14), 14, 2, 4)
    won = list(boxes.won)
    won[0] = (box(1), box(6, 0.5, d0=0.45))  # 16 or 10: only 10 adds up to 52
    decoded = decode_deal(
        1, DealBoxes(tuple(won), boxes.left_over, boxes.last_in_ticks, None, None), RULES
    )
    assert decoded.raw.won[0] == 16
    assert decoded.deal.won[0] == 10
    assert decoded.probability[SheetCell(1, "won", 1)] > DOUBTFUL_BELOW


def test_two_readings_equally_likely_leave_the_cells_doubtful():
    boxes = deal_boxes((10, 8, 6, 14), 14, 2, 4)
    won = list(boxes.won)
    # 10 or 16 on seat 1, 8 or 2 on seat 2: 10 + 8 and 16 + 2 both add up.
    won[0] = (box(1), box(0, 0.48, d6=0.48))
    won[1] = (box(BLANK), box(8, 0.48, d2=0.48))
    decoded = decode_deal(
        1, DealBoxes(tuple(won), boxes.left_over, boxes.last_in_ticks, None, None), RULES
    )
    assert {SheetCell(1, "won", 1), SheetCell(1, "won", 2)} <= set(decoded.doubtful)
    assert SheetCell(1, "won", 3) not in decoded.doubtful


def test_a_deal_that_cannot_add_up_keeps_what_it_says_and_is_all_doubtful():
    # Clearly written and 12 over 52: no one figure changed makes it add up, so it is the
    # scorer's slip, not the reader's to correct.
    decoded = decode_deal(1, deal_boxes((10, 8, 6, 14), 26, 2, 4), RULES)
    assert decoded.deal.won == (10, 8, 6, 14)
    assert decoded.deal.left_over == 26
    assert set(decoded.doubtful) == {
        SheetCell(1, "won", 1),
        SheetCell(1, "won", 2),
        SheetCell(1, "won", 3),
        SheetCell(1, "won", 4),
        SheetCell(1, "left_over", None),
        SheetCell(1, "last_in", None),
    }


def test_a_clear_deal_two_short_is_never_changed_silently():
    # Any of several figures could be the slip: whatever the reading, what it changed is
    # doubtful.
    decoded = decode_deal(1, deal_boxes((10, 8, 6, 12), 14, 2, 4), RULES)
    changed = [
        SheetCell(1, "won", seat)
        for seat in range(1, 5)
        if decoded.deal.won[seat - 1] != decoded.raw.won[seat - 1]
    ]
    if decoded.deal.left_over != decoded.raw.left_over:
        changed.append(SheetCell(1, "left_over", None))
    assert set(changed) <= set(decoded.doubtful)
    assert decoded.doubtful


def test_a_deal_left_blank_is_not_played_and_not_doubtful():
    boxes = deal_boxes((None,) * 4, None, None, 4)
    decoded = decode_deal(1, boxes, RULES)
    assert decoded.deal.won == (None,) * 4
    assert (decoded.deal.left_over, decoded.deal.last_in) == (None, None)
    assert not decoded.deal.played
    assert decoded.doubtful == ()


def test_a_seat_that_left_stays_blank_and_cannot_be_last_in():
    rules = SheetRules(seats=4, deals=1, order_needed=False, absent=(frozenset({3}),))
    boxes = deal_boxes((20, 8, None, 14), 10, 3, 4)
    # The tick in seat 3's box is a slip of the pen: seat 3 had left. Seat 4's tick is faint.
    ticks = (0.02, 0.02, 0.6, 0.45)
    decoded = decode_deal(1, DealBoxes(boxes.won, boxes.left_over, ticks, None, None), rules)
    assert decoded.deal.won == (20, 8, None, 14)
    assert decoded.deal.last_in == 4
    assert SheetCell(1, "won", 3) not in decoded.probability


def test_last_in_and_the_lying_down_order_agree():
    rules = SheetRules(seats=4, deals=1, order_needed=True, absent=(frozenset(),))
    # Places: seat 1 lay down 2nd, seat 2 was last in (no place), seat 3 1st, seat 4 3rd.
    boxes = deal_boxes((10, 8, 6, 14), 14, 2, 4, places=(2, None, 1, 3))
    # The tick boxes can't tell seat 2 from seat 4; the order can: seat 4 has a place.
    ticks = (0.02, 0.6, 0.02, 0.6)
    decoded = decode_deal(
        1, DealBoxes(boxes.won, boxes.left_over, ticks, None, boxes.laid_down), rules
    )
    assert decoded.deal.last_in == 2
    assert decoded.deal.laid_down == (3, 1, 4)
    assert not validate_deal(
        decoded.deal.won, 2, 14, 4, laid_down=decoded.deal.laid_down, order_needed=True
    )


def test_a_place_read_twice_is_decoded_to_the_permutation():
    rules = SheetRules(seats=4, deals=1, order_needed=True, absent=(frozenset(),))
    boxes = deal_boxes((10, 8, 6, 14), 14, 2, 4, places=(2, None, 1, 3))
    places = list(boxes.laid_down or ())
    places[3] = (box(1, 0.5, d3=0.45),)  # seat 4's 3 looks like a 1, and seat 3 is 1st
    decoded = decode_deal(
        1, DealBoxes(boxes.won, boxes.left_over, boxes.last_in_ticks, None, tuple(places)), rules
    )
    assert decoded.raw.laid_down is not None
    assert decoded.raw.laid_down.count(4) == 1
    assert decoded.deal.laid_down == (3, 1, 4)


@pytest.mark.parametrize(
    ("boxes", "value"),
    [
        ((BLANK, 8), 8),
        ((8, BLANK), 8),
        ((0, 8), 8),
        ((1, 4), 14),
        ((BLANK, BLANK), NONE),
    ],
)
def test_a_number_reads_from_its_boxes_however_it_is_aligned(boxes, value):
    table = value_probabilities([box(b, 0.999) for b in boxes])
    assert max(table, key=table.__getitem__) == value


def test_posteriors_are_exact_over_every_reading_that_adds_up():
    rng = np.random.default_rng(7)
    rules = SheetRules(seats=3, deals=1, order_needed=False, absent=(frozenset(),))

    def noisy() -> np.ndarray:
        p = rng.dirichlet(np.ones(CLASSES) * 0.3)
        return p

    boxes = DealBoxes(
        won=tuple((noisy(), noisy()) for _ in range(3)),
        left_over=(noisy(), noisy()),
        last_in_ticks=(0.9, 0.1, 0.1),
        last_in_digits=None,
        laid_down=None,
    )
    decoded = decode_deal(1, boxes, rules)
    tables = [value_probabilities(b) for b in boxes.won] + [value_probabilities(boxes.left_over)]
    total, by_cell = 0.0, [dict() for _ in tables]
    for values in itertools.product(range(0, 53, 2), repeat=4):
        if sum(values) != 52 or values[3] < 2:
            continue
        weight = np.prod([t.get(v, 0.0) for t, v in zip(tables, values, strict=True)])
        total += weight
        for cell, v in zip(by_cell, values, strict=True):
            cell[v] = cell.get(v, 0.0) + weight
    ticks = [(1 - FLOOR) * p + FLOOR / 2 for p in boxes.last_in_ticks or ()]
    blank = np.prod([t[NONE] for t in tables]) * np.prod([1 - p for p in ticks])
    last_in = sum(np.prod([1 - p for p in ticks]) / (1 - p) * p for p in ticks)
    assert blank < total  # the deal was played
    for seat in range(1, 4):
        value = decoded.deal.won[seat - 1]
        share = by_cell[seat - 1][value] / total
        # The cell's posterior is its share among the readings, times the deal's being played.
        assert decoded.probability[SheetCell(1, "won", seat)] == pytest.approx(
            share * total * last_in / (total * last_in + blank), rel=1e-6
        )
