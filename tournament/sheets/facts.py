"""Writing a table's confirmed deals, the official facts: its ``Deal`` rows, the players
who left, and each seat's sums, which the standings read instead of the deals."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Case, Value, When

from scoring.rules import Leave
from tournament.models import Deal, DealResult, Seat, Table, Tournament
from tournament.sheets.leaves import as_items
from tournament.sheets.rows import Row, deal_facts, seat_sums


def write_deals(table: Table, rows: list[Row], leaves: Sequence[Leave]) -> None:
    """Write ``rows`` and ``leaves`` as the table's confirmed facts."""
    Deal.objects.filter(table=table).delete()
    table.left = as_items(leaves)
    Table.objects.filter(pk=table.pk).update(left=table.left)
    facts = [deal_facts(row) for row in rows]
    deals = Deal.objects.bulk_create(
        Deal(
            table=table,
            number=number,
            last_in=deal.last_in,
            left_over=deal.left_over,
            laid_down=list(deal.laid_down),
        )
        for number, deal in enumerate(facts, start=1)
    )
    DealResult.objects.bulk_create(
        DealResult(deal=deal, seat=seat, won=won)
        for deal, one in zip(deals, facts, strict=True)
        for seat, won in enumerate(one.won, start=1)
        # A seat that had left the table has no count in the deal.
        if won is not None
    )
    write_seat_sums(table, rows, leaves)


def write_seat_sums(table: Table, rows: list[Row], leaves: Sequence[Leave] = ()) -> None:
    """Store each seat's sums over ``rows``, the table's deals as just written (and its
    ``leaves``), in one UPDATE of the table's seats. Whatever writes a table's deals calls
    this in the same transaction: the standings read these sums, not the deals."""
    size = len(rows[0]["won"]) if rows else 0
    # Read as the save's locks leave it (the round is held): a change of rules waits for
    # this save, or this save for the change, never scores it under the rules before.
    rules = Tournament.objects.get(pk=table.round.tournament_id).rules
    values = [Seat.sum_values(sums) for sums in seat_sums(rows, size, leaves, rules)]
    Seat.objects.filter(table=table).update(
        **{
            name: Case(
                *(
                    When(position=position, then=Value(seat[name]))
                    for position, seat in enumerate(values, start=1)
                ),
                default=Value(0),
            )
            for name in Seat.SUM_FIELDS
        }
    )
