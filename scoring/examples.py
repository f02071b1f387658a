"""One example deal for each table size: the worked example printed on a table's rules
card.

Each is deal 1 of a round (seat 1 deals) written as a score sheet records it: cards won
per seat, the last-in seat and the cards left over. The table of five is the worked
example of docs/rules.md; the others are made the same way (a plausible deal that adds
up to 52). Their points are never written here: ``scoring.systems.score_deal`` computes
them, so a card cannot disagree with the scoring.
"""

from __future__ import annotations

from scoring.rules import DealFacts, make_deal

EXAMPLE_DEALER = 1

EXAMPLE_DEALS: dict[int, DealFacts] = {
    3: make_deal((10, 14, 4), last_in=2, left_over=24, table_size=3),
    4: make_deal((8, 12, 2, 6), last_in=3, left_over=24, table_size=4),
    5: make_deal((6, 4, 10, 0, 8), last_in=5, left_over=24, table_size=5),
    6: make_deal((4, 8, 0, 10, 6, 2), last_in=4, left_over=22, table_size=6),
}


def example_deal(table_size: int) -> DealFacts:
    """The example deal for a table of ``table_size`` (3 to 6)."""
    return EXAMPLE_DEALS[table_size]
