"""Where a table's sheet stands and who has it, in the words every page and the desk
use.

Terms: a table's *status* is its sheet's (``SheetStatus``); a table whose deals were
restored from a tournament file without a sheet row counts as confirmed. Its *desk
status* (``DeskStatus``) says the same in the desk's words, and who is typing: a phone at
the table (``Sheet.entered_by_phone``) or a scorer; a draft or an entered sheet of a
table that has been confirmed before is a *correction of a confirmed sheet*, whose
confirmed results stand meanwhile (``access.CORRECTIONS``). A phone is named as the
sheet's history names it: "table 4, phone 1".
"""

from __future__ import annotations

from typing import Any

from django.db import models

from tournament.models import Round, Sheet, SheetStatus
from tournament.sheets import access


class DeskStatus(models.TextChoices):
    """Where a table's sheet stands, and who has it: what the desk acts on."""

    NOT_STARTED = "not_started", "Not started"
    AT_TABLE = "at_table", "Being entered at the table"
    BY_SCORER = "by_scorer", "Being entered by a scorer"
    SUBMITTED = "submitted", "Submitted by the table"
    ENTERED = "entered", "Entered by a scorer"
    CORRECTION = "correction", "Correction of a confirmed sheet"
    CONFIRMED = "confirmed", "Confirmed"


def desk_status(status: SheetStatus, by_phone: bool, *, ever_confirmed: bool = False) -> DeskStatus:
    """``status`` of a sheet last saved by a phone at the table (``by_phone``) or a user,
    of a table confirmed before or not (``ever_confirmed``: a draft or an entered sheet is
    then a correction)."""
    if access.stage_of(status, ever_confirmed=ever_confirmed) in access.CORRECTIONS:
        return DeskStatus.CORRECTION
    if status == SheetStatus.DRAFT:
        return DeskStatus.AT_TABLE if by_phone else DeskStatus.BY_SCORER
    if status == SheetStatus.ENTERED:
        return DeskStatus.SUBMITTED if by_phone else DeskStatus.ENTERED
    return DeskStatus(status.value)


# What a correction's desk status adds, by the sheet's status: the confirmed results stand
# until it is confirmed in turn.
CORRECTION_NOTES = {
    SheetStatus.DRAFT: "being typed; the confirmed results stand meanwhile",
    SheetStatus.ENTERED: "awaiting confirmation; the confirmed results stand meanwhile",
}


def state_in_words(sheet: Sheet) -> str:
    """Where ``sheet`` stands, as a page's sentence says it ("awaiting confirmation",
    "correction of a confirmed sheet, awaiting confirmation"), lower case."""
    status = SheetStatus(sheet.status)
    if access.sheet_stage(sheet) in access.CORRECTIONS:
        return f"{str(DeskStatus.CORRECTION.label).lower()}, {CORRECTION_NOTES[status]}"
    return str(status.label).lower()


def sheet_labels(round_: Round) -> dict[int, tuple[SheetStatus, str]]:
    """Each sheet of ``round_`` by its table's id: its status and how a page names it
    (``SheetStatus``'s label, or "Correction of a confirmed sheet"). One query; a table
    with no sheet row is absent."""
    rows = (
        Sheet.objects.filter(table__round=round_)
        .annotate(confirmed_before=access.confirmed_before("table"))
        .values_list("table_id", "status", "confirmed_before")
    )
    labels = {}
    for table_id, status, confirmed_before in rows:
        stage = access.stage_of(status, ever_confirmed=bool(confirmed_before))
        label = DeskStatus.CORRECTION.label if stage in access.CORRECTIONS else status_label(status)
        labels[table_id] = (SheetStatus(status), str(label))
    return labels


def status_label(status: str) -> str:
    return str(SheetStatus(status).label)


def phone_name(table_number: int, phone: int) -> str:
    """A phone at a table, as pages and the history name it."""
    return f"table {table_number}, phone {phone}"


def author_name(table_number: int, user: Any, phone: int | None) -> str:
    """Who saved a sheet of table ``table_number``: a phone of the table ("table 4, phone
    1") or a user's name; empty when neither is known."""
    if phone is not None:
        return phone_name(table_number, phone)
    return user.get_username() if user is not None else ""
