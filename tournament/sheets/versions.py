"""The versions of a score sheet: every save, confirmation and re-seat is recorded as a
numbered ``SheetVersion`` with its rows, leaves, the cells it changed and who made it.

A save may carry an idempotency *key* (the page makes one per submission): a submission
retried with its key, say after the network dropped the answer, is recognised by the
version recorded under it (``repeated``) and recorded once, whatever happened to the
sheet meanwhile; retried with other numbers, it is refused (``ReplayMismatchError``).
A retry is the same save: the same numbers, asking for the same (a draft, or the sheet
complete) with the same players who left. The same numbers under the same key saved as
a draft and then as complete, or with other players who left, are two saves, and the
second is made (``save_key``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from scoring.errors import UserError
from scoring.rules import Leave
from tournament.models import Sheet, SheetStatus, SheetVersion, Table
from tournament.sheets.authors import Who
from tournament.sheets.leaves import as_items, current_leaves, stored_leaves
from tournament.sheets.reading import current_rows
from tournament.sheets.rows import Row, diff, order_of

# The action of the version a re-seat gives a sheet: it changes no deal, but a page that
# shows the old seating must not be saved.
RESEATED = "reseated"


def record_version(
    sheet: Sheet,
    action: str,
    rows: list[Row],
    before: list[Row],
    who: Who,
    key: str | None = None,
    leaves: Sequence[Leave] = (),
) -> None:
    sheet.version += 1
    # A re-type that did not match was of the sheet as it was: it no longer stands.
    sheet.retyped = []
    sheet.retyped_by_phone = None
    sheet.save()
    SheetVersion.objects.create(
        sheet=sheet,
        number=sheet.version,
        action=action,
        status=sheet.status,
        deals=rows,
        left=as_items(leaves),
        changes=diff(before, rows),
        by=who.user,
        phone=who.phone,
        key=key or "",
    )


def record_reseat(sheet: Sheet, changes: list[dict[str, Any]], user: Any) -> None:
    """A new version of ``sheet`` (locked by the caller) whose table was re-seated:
    ``changes`` names each seat's player before and after."""
    # Through the queryset: a re-seat is no save of the sheet, so "last saved" stays.
    sheet.version += 1
    Sheet.objects.filter(pk=sheet.pk).update(version=sheet.version)
    SheetVersion.objects.create(
        sheet=sheet,
        number=sheet.version,
        action=RESEATED,
        status=sheet.status,
        deals=current_rows(sheet),
        left=as_items(current_leaves(sheet)),
        changes=changes,
        by=user,
    )
    Sheet.objects.filter(pk=sheet.pk).update(retyped=[], retyped_by_phone=None)


class ReplayMismatchError(UserError):
    """A submission retried with its idempotency key, but carrying other numbers than the
    save recorded under that key: neither is silently kept over the other."""

    def __init__(self, table: Table) -> None:
        super().__init__(
            f"round {table.round.number}, table {table.number}: this save was already "
            "recorded with other numbers: reload the sheet"
        )


def _recorded(sheet: Sheet, key: str | None) -> SheetVersion | None:
    """The version of ``sheet`` already recorded for this submission, if any."""
    if not key:
        return None
    return SheetVersion.objects.filter(sheet=sheet, key=key).first()


def carried_same(recorded: list[Row], rows: list[Row], carried: Sequence[int] | None) -> bool:
    """Whether a retried submission carries the numbers its first try recorded: every row
    (``carried`` None), or only the deals it carried (a phone's deal page sends one; its
    review sends none)."""
    if carried is None:
        return _numbers(recorded) == _numbers(rows)
    return all(_numbers(recorded[n - 1 : n]) == _numbers(rows[n - 1 : n]) for n in carried)


def _numbers(rows: Sequence[Row]) -> list[tuple[Any, ...]]:
    """What a row says, without how it was typed (``derived``)."""
    return [(tuple(r["won"]), r["last_in"], r["left_over"], order_of(r)) for r in rows]


@dataclass(frozen=True)
class SaveKey:
    """A save carrying a key, against the versions already recorded: whether it is one
    of them again (``repeated``), and else the key to record it under ("" without one)."""

    repeated: bool
    key: str


def save_key(
    table: Table,
    sheet: Sheet,
    key: str | None,
    rows: list[Row],
    carried: Sequence[int] | None,
    *,
    final: bool,
    leaves: Sequence[Leave] | None,
) -> SaveKey:
    """How this save stands against the versions recorded under its ``key``: the same
    save again when it carries the same numbers (other numbers: ``ReplayMismatchError``),
    is ``final`` as that one was, and sent the same ``leaves`` (None: it sent none, and
    they are not compared). Saved as a draft and then as complete, or with other players
    who left, the same numbers under the same key are two saves: the second is recorded
    under a key of its own made from the page's (``_variant``), as the database keeps
    one version a key."""
    if not key:
        return SaveKey(False, "")
    variant = _variant(key, final, leaves)
    for candidate in (variant, key):
        recorded = _recorded(sheet, candidate)
        if recorded is None:
            continue
        if not carried_same(list(recorded.deals), rows, carried):
            raise ReplayMismatchError(table)
        if candidate == variant or _asked_same(recorded, final, leaves):
            return SaveKey(True, candidate)
        return SaveKey(False, variant)
    return SaveKey(False, key)


def _variant(key: str, final: bool, leaves: Sequence[Leave] | None) -> str:
    """The key of a second save sent under ``key``, made of its start and what the save
    asked for: at most 64 characters, and never a key a page makes (those have no dot)."""
    asked = json.dumps([key, final, None if leaves is None else as_items(leaves)])
    return f"{_stem(key)}{hashlib.sha256(asked.encode()).hexdigest()[:31]}"


def _stem(key: str) -> str:
    return f"{key[:32]}."


def _asked_same(recorded: SheetVersion, final: bool, leaves: Sequence[Leave] | None) -> bool:
    if (recorded.status != SheetStatus.DRAFT) != final:
        return False
    return leaves is None or stored_leaves(recorded.left) == tuple(sorted(leaves))


def saved_since_only_by(sheet: Sheet, key: str | None, version: int) -> bool:
    """Whether ``sheet`` moved past ``version`` by saves sent under ``key`` alone (the
    page saved a draft, then the same sheet as complete): no one else's save would be
    overwritten."""
    if not key or version >= sheet.version:
        return False
    others = SheetVersion.objects.filter(sheet=sheet, number__gt=version).exclude(
        Q(key=key) | Q(key__startswith=_stem(key))
    )
    return not others.exists()


def already_recorded(
    table: Table,
    sheet: Sheet,
    key: str | None,
    rows: list[Row] | None,
    carried: Sequence[int] | None = None,
) -> bool:
    """Whether this submission was already recorded; refused when it was, with other
    numbers. ``rows`` None: the submission carried no numbers to compare."""
    recorded = _recorded(sheet, key)
    if recorded is None:
        return False
    if rows is not None and not carried_same(list(recorded.deals), rows, carried):
        raise ReplayMismatchError(table)
    return True
