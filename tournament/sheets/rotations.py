"""Whether the sheets recorded so far still fit a round of fewer rotations: the organiser
may not lower the rotations below what a confirmed, entered or draft sheet holds."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count

from scoring.rules import deals_in_round, validate_leaves
from tournament.models import SheetStatus, Table, Tournament
from tournament.sheets.leaves import stored_leaves


def deals_beyond_rotations(tournament: Tournament, rotations: int) -> list[str]:
    """The tables that hold more deals than a round of ``rotations`` allows: confirmed
    deals, and the rows of drafts and of sheets awaiting confirmation. Empty when
    ``rotations`` suits every sheet recorded so far."""
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .select_related("round", "sheet")
        .annotate(
            seat_count=Count("seats", distinct=True), deal_count=Count("deals", distinct=True)
        )
        .order_by("round__number", "number")
    )
    found = []
    for table in tables:
        sheet = getattr(table, "sheet", None)
        typed = 0
        if sheet is not None and sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
            typed = len(sheet.pending)
        left = sheet.pending_left if typed and sheet is not None else table.left
        leaves = stored_leaves(left)
        most = deals_in_round(table.seat_count, rotations, leaves)
        if max(table.deal_count, typed) <= most:
            # A draft's leave may lie beyond its rows: it must still fit the shorter round.
            if leaves and (beyond := validate_leaves(leaves, table.seat_count, rotations)):
                found.append(f"round {table.round.number}, table {table.number}: {beyond[0]}")
            continue
        if typed > table.deal_count:
            state = (
                "in a draft"
                if typed and sheet and sheet.status == SheetStatus.DRAFT
                else "awaiting confirmation"
            )
            held = f"{typed} deals {state}"
        else:
            held = f"{table.deal_count} deals recorded"
        found.append(
            f"round {table.round.number}, table {table.number} already has {held}; a table "
            f"of {table.seat_count} at {rotations} rotation{'s' if rotations != 1 else ''} "
            f"plays {most}{' with its players who left' if left else ''}"
        )
    return found


def rotations_refusal(rotations: int, too_many: Sequence[str]) -> str:
    """Why the rotations cannot go below ``rotations``: ``too_many`` from
    ``deals_beyond_rotations``."""
    shown = list(too_many[:ROTATIONS_TABLES_NAMED])
    more = len(too_many) - len(shown)
    if more:
        shown.append(f"and {more} more table{'s' if more != 1 else ''} like these")
    return (
        f"Not fewer than {rotations} rotations: "
        + "; ".join(shown)
        + ". Those deals would no longer fit a round: correct those sheets first."
    )


# A refusal names this many tables; a tournament well under way could list every table.
ROTATIONS_TABLES_NAMED = 3
