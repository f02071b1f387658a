"""Helpers for tests of the seats' stored sums: the sums a table stores, and the same
sums worked out again from its deals."""

from scoring.rules import DealFacts
from scoring.systems import SeatSums, table_sums
from tournament.models import Seat
from tournament.sheets.reading import confirmed_rows


def stored(table) -> list[SeatSums]:
    return [seat.sums for seat in Seat.objects.filter(table=table).order_by("position")]


def from_deals(table) -> list[SeatSums]:
    rows = confirmed_rows(table)
    facts = [DealFacts(tuple(r["won"]), r["last_in"], r["left_over"]) for r in rows]
    return list(table_sums(facts, Seat.objects.filter(table=table).count()))
