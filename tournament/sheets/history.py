"""A score sheet's history in words: each version, who made it and when, and the cells it
changed as a scorer would say them ("deal 3, seat 2 (Ann): 7 → 9", "deal 4: lying-down
order 3, 1, 4, 2 → 1, 3, 4, 2", the seats first out first). The numbers saved
since the sheet last counted are hidden from whoever may still confirm them blind."""

from __future__ import annotations

from typing import Any

from tournament.kernel.cells import ORDER
from tournament.models import SheetVersion, Table
from tournament.sheets.leaves import leave_changes
from tournament.sheets.order import WHERE, order_in_words
from tournament.sheets.rows import Row
from tournament.sheets.status import phone_name
from tournament.sheets.versions import RESEATED

_ACTIONS = {
    "draft": "Draft saved",
    "entered": "Entered, awaiting confirmation",
    "confirmed": "Confirmed",
    "corrected": "Corrected",
    "correction_draft": "Correction: draft saved",
    "correction": "Correction entered, awaiting confirmation",
    "correction_confirmed": "Correction confirmed",
    RESEATED: "Re-seated",
}


# The versions after which the sheet's deals counted.
_COUNTED = frozenset({"confirmed", "corrected", "correction_confirmed"})


def _value_in_words(value: object) -> str:
    if value is None:
        return "blank"
    if isinstance(value, str):
        return f"“{value}”"
    return str(value)


def row_in_words(row: Row) -> str:
    """A whole deal as the history says it: "cards won 10, 4, 10, 0; left over 28; last
    in 4"."""
    won = ", ".join(_value_in_words(v) for v in row.get("won", []))
    order = f"; {WHERE} {order_in_words(row['laid_down'])}" if row.get("laid_down") else ""
    return (
        f"cards won {won}; left over {_value_in_words(row.get('left_over'))}; "
        f"last in {_value_in_words(row.get('last_in'))}{order}"
    )


def change_in_words(change: dict[str, Any], names: dict[int, str]) -> str:
    """One changed cell of ``SheetVersion.changes`` as a scorer would say it."""
    deal = change["deal"]
    before, after = change["before"], change["after"]
    if change["field"] == "seat":
        return f"seat {change['seat']}: {before} → {after}"
    if change["field"] == "deal":
        if before is None:
            return f"deal {deal} added: {row_in_words(after)}"
        return f"deal {deal} removed (it was: {row_in_words(before)})"
    if change["field"] == ORDER:
        return f"deal {deal}: {WHERE} {order_in_words(before)} → {order_in_words(after)}"
    if change["field"] == "won":
        seat = change["seat"]
        where = f"seat {seat} ({names[seat]})" if seat in names else f"seat {seat}"
    else:
        where = change["field"].replace("_", " ")
    return f"deal {deal}, {where}: {_value_in_words(before)} → {_value_in_words(after)}"


def history_entries(table: Table, *, blind: bool) -> tuple[list[dict[str, Any]], bool]:
    """The versions of ``table``'s sheet, latest first, each with its changes in words;
    with ``blind`` (the reader may still confirm the sheet blind), those saved since it
    last counted show no numbers. Also whether any are hidden so."""
    names = {seat.position: seat.player.name for seat in table.seats.all()}
    versions = list(
        SheetVersion.objects.filter(sheet__table=table).select_related("by").order_by("-number")
    )
    # The numbers saved since the sheet last counted are the ones awaiting confirmation:
    # hidden from whoever may still confirm them blind. What counted is public anyway.
    hidden_after = (
        max((v.number for v in versions if v.action in _COUNTED), default=0) if blind else None
    )
    # Each version's leaves against the one before it (versions are numbered from 1).
    left_before = {version.number + 1: version.left for version in versions}
    entries = []
    for version in versions:
        hidden = hidden_after is not None and version.number > hidden_after
        entries.append(
            {
                "number": version.number,
                "action": _ACTIONS.get(version.action, version.action),
                "by": phone_name(table.number, version.phone)
                if version.phone is not None
                else version.by.get_username()
                if version.by
                else "someone since removed",
                "at": version.at,
                "deals": len(version.deals),
                "hidden": hidden,
                "changes": []
                if hidden
                else [
                    *leave_changes(left_before.get(version.number, []), version.left, names),
                    *(change_in_words(change, names) for change in version.changes),
                ],
            }
        )
    return entries, hidden_after is not None
