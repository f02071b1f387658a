"""One example deal for each table size: the worked example printed on a table's rules
card.

Each is deal 1 of a round (seat 1 deals) written as a score sheet records it: cards won
per seat, the last-in seat, the cards left over and the order the seats lay down (which
Compendium Caidis scoring counts). The tables of five, seven and eight are worked
examples of docs/rules.md; the others are made the same way (a plausible deal that adds
up to 52). Their points are never written here: ``scoring.systems.score_deal`` computes
them, so a card cannot disagree with the scoring.
"""

from __future__ import annotations

from scoring.rules import DealFacts, make_deal

EXAMPLE_DEALER = 1

EXAMPLE_DEALS: dict[int, DealFacts] = {
    3: make_deal((10, 14, 4), 2, 24, 3, laid_down=(3, 1)),
    4: make_deal((8, 12, 2, 6), 3, 24, 4, laid_down=(4, 1, 2)),
    5: make_deal((6, 4, 10, 0, 8), 5, 24, 5, laid_down=(2, 4, 1, 3)),
    6: make_deal((4, 8, 0, 10, 6, 2), 4, 22, 6, laid_down=(3, 6, 1, 5, 2)),
    7: make_deal((8, 6, 4, 10, 2, 0, 6), 4, 16, 7, laid_down=(6, 5, 3, 7, 2, 1)),
    8: make_deal((6, 6, 0, 8, 2, 6, 6, 2), 4, 16, 8, laid_down=(3, 5, 8, 7, 2, 6, 1)),
}


def example_deal(table_size: int) -> DealFacts:
    """The example deal for a table of ``table_size`` (3 to 8)."""
    return EXAMPLE_DEALS[table_size]
