"""A correction of a confirmed sheet as its confirmer sees it: which cells it changes,
what each held when the sheet was confirmed, and how much of the corrected values a page
may show (``changed_cells``, ``shown``).

Terms: a *correction* is a new version of a confirmed sheet, saved at the desk
(``access.CORRECTIONS``); its *changed cells* are where its rows, or the players who left,
differ from the confirmed deals: a cell (deal, seat, field), a whole deal added or taken
away, or the leaves. The *confirmed* value of each counts on the public pages already, so
any page may show it; the *corrected* value is what a blind re-type must find on the
paper by itself, so a page shows it only once the re-type cannot be helped by it: the
re-type found the same value, or the blind comparison's own rule shows it
(``blind.shown_mismatch``: a few cells that differ, each with the value entered).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.rules import Leave
from tournament.models import Sheet, Table
from tournament.sheets import access
from tournament.sheets.blind import ShownMismatch
from tournament.sheets.history import row_in_words
from tournament.sheets.leaves import leave_in_words, stored_leaves
from tournament.sheets.pages.view_model import mismatch_differences
from tournament.sheets.reading import confirmed_rows, pending_rows
from tournament.sheets.rows import Mismatch, compare, diff, trim


@dataclass(frozen=True)
class ChangedCell:
    """One change a correction makes, as its confirmer is shown it."""

    where: str  # "Deal 1, seat 2 (Ann)", "Deal 5", "Players who left"
    deal: int | None  # None for the players who left
    cell: str  # the form cell's name (``Mismatch.cell``); blank for a deal or the leaves
    confirmed: str
    # The corrected value in words; None while the page may not show it.
    corrected: str | None

    @property
    def hidden(self) -> bool:
        return self.corrected is None


def changed_cells(table: Table, sheet: Sheet) -> list[ChangedCell]:
    """Every change the correction ``sheet`` (of ``table``, with its seats loaded) makes
    to the confirmed sheet, deal by deal, with both values; none for a sheet that is no
    correction."""
    if access.sheet_stage(sheet) not in access.CORRECTIONS:
        return []
    before = confirmed_rows(table)
    after = trim(pending_rows(sheet))
    common = min(len(before), len(after))
    cells = compare(before[:common], after[:common])
    changes = [
        ChangedCell(shown.where, shown.deal, cell.cell, shown.entered, shown.retyped)
        for cell, shown in zip(cells, mismatch_differences(table, cells), strict=True)
    ]
    for change in diff(before, after):
        if change["field"] != "deal":
            continue
        was, now = change["before"], change["after"]
        changes.append(
            ChangedCell(
                f"Deal {change['deal']}",
                change["deal"],
                "",
                row_in_words(was) if was else "not on the confirmed sheet",
                row_in_words(now) if now else "taken away",
            )
        )
    names = {seat.position: seat.player.name for seat in table.seats.all()}
    left_before, left_after = stored_leaves(table.left), stored_leaves(sheet.pending_left)
    if set(left_before) != set(left_after):
        changes.append(
            ChangedCell(
                "Players who left",
                None,
                "",
                _leaves_in_words(left_before, names),
                _leaves_in_words(left_after, names),
            )
        )
    return sorted(changes, key=lambda c: (c.deal is None, c.deal or 0))


def _leaves_in_words(leaves: Sequence[Leave], names: dict[int, str]) -> str:
    return "; ".join(leave_in_words(leave, names) for leave in leaves) or "nobody left"


@dataclass(frozen=True)
class ShownChanges:
    """The changes a page shows, each with its corrected value or not."""

    cells: tuple[ChangedCell, ...]

    @property
    def hidden(self) -> bool:
        """Whether some corrected value is not shown."""
        return any(change.hidden for change in self.cells)


def in_full(changes: Sequence[ChangedCell]) -> ShownChanges:
    """``changes`` as a page shows them once every number is in view (reviewing the sheet
    against the paper)."""
    return ShownChanges(tuple(changes))


def blind(changes: Sequence[ChangedCell]) -> ShownChanges:
    """``changes`` as a page shows them before a blind re-type: the confirmed values only."""
    return ShownChanges(tuple(replace(change, corrected=None) for change in changes))


def after_retype(changes: Sequence[ChangedCell], shown: ShownMismatch[Mismatch]) -> ShownChanges:
    """``changes`` as a page shows them after a complete blind re-type that differed from
    the correction (``shown``: what the page shows of the differences): a corrected value
    where the re-type found it too, or where the differences shown give it anyway; the
    players who left are compared before the cells, so a re-type that got this far found
    them."""
    differing_deals = set(shown.deals)
    result = []
    for change in changes:
        if change.cell and shown.few:
            # Found by the re-type, or shown beside it as a cell that differs.
            result.append(change)
        elif change.deal not in differing_deals:
            # A deal (or leaves) the re-type typed as corrected, every cell of it.
            result.append(change)
        else:
            result.append(replace(change, corrected=None))
    return ShownChanges(tuple(result))


def in_words(changes: Sequence[ChangedCell], most: int = 5) -> str:
    """The changes as a sentence says them, the first ``most`` of them: "deal 1, seat 2
    (Ann): 4 → 6; …", for the message once the correction is confirmed."""
    said = [
        f"{change.where[0].lower()}{change.where[1:]}: {change.confirmed} → {change.corrected}"
        for change in changes[:most]
    ]
    if len(changes) > most:
        said.append(f"and {len(changes) - most} more (the sheet's history has them all)")
    return "; ".join(said)
