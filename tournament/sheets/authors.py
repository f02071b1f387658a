"""Who saves or confirms a score sheet, and whether they may now.

Who saves is a user (a scorer or the organiser) or a phone at the table (``AtTable``),
which opened the table's entry page with its table code. A phone is known by a token it
keeps in its session and is numbered in the table's history ("table 4, phone 2").

Whether they may is the sheet's one rule (``access``): ``refusal_for`` asks it for an
author, and ``check_may`` asks it again under the locks, raising the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst

from scoring.errors import UserError
from tournament.models import Sheet, Table, TablePhone
from tournament.sheets import access


@dataclass(frozen=True)
class AtTable:
    """A phone at the table saving through the table code, known by the random token it
    keeps in its session (not a user)."""

    token: str


# Who saves or confirms a sheet: a user, or a phone at the table.
Author = Any


def phone_number(table: Table, phone: AtTable) -> int:
    """The number of ``phone`` at ``table``, given on its first save. The caller holds the
    table's sheet, so two phones saving at once are numbered one after the other."""
    known = TablePhone.objects.filter(table=table, token=phone.token).first()
    if known is not None:
        return known.number
    latest = TablePhone.objects.filter(table=table).order_by("-number").first()
    number = latest.number + 1 if latest else 1
    TablePhone.objects.create(table=table, number=number, token=phone.token)
    return number


@dataclass(frozen=True)
class Who:
    """An author as the sheet records them: a user, or the number of a table's phone."""

    user: Any
    phone: int | None


def recorded_as(table: Table, author: Author) -> Who:
    if isinstance(author, AtTable):
        return Who(None, phone_number(table, author))
    return Who(author, None)


def _writer(table: Table, author: Author) -> access.Writer:
    if isinstance(author, AtTable):
        return access.Writer.PHONE
    if table.round.tournament.owner_id == getattr(author, "pk", None):
        return access.Writer.ORGANISER
    return access.Writer.SCORER


def _entered_it(table: Table, sheet: Sheet, author: Author) -> bool:
    """Whether ``author`` is who entered (last saved) ``sheet``; a phone's number is looked
    up without giving it one."""
    if isinstance(author, AtTable):
        number = (
            TablePhone.objects.filter(table=table, token=author.token)
            .values_list("number", flat=True)
            .first()
        )
        return number is not None and sheet.entered_by_phone == number
    return sheet.entered_by_id is not None and sheet.entered_by_id == getattr(author, "pk", None)


def refusal_for(
    table: Table, sheet: Sheet, author: Author, act: access.Act
) -> access.Refusal | None:
    """Why ``author`` (a user, or a phone at the table: ``AtTable``) may not ``act`` on
    ``sheet`` now: the sheet's one rule (``sheets.access``), which the desk, the phone and
    the confirmation pages show and the services enforce. None when they may."""
    sheet.table = table
    facts = access.facts_of(sheet, writer_entered_it=_entered_it(table, sheet, author))
    return access.refusal(_writer(table, author), act, facts)


def refusal_in_words(table: Table, sheet: Sheet, author: Author, act: access.Act) -> str:
    """``refusal_for`` as a page says it, a sentence; blank when ``author`` may ``act``."""
    refused = refusal_for(table, sheet, author, act)
    return capfirst(refused.reason) + "." if refused else ""


class ClosedAtTableError(UserError):
    """The table's sheet can no longer be typed at the table: it was confirmed, or table
    entry turned off, since the phone's page was loaded."""

    def __init__(self) -> None:
        super().__init__(access.CLOSED_AT_TABLE.reason)


class SaveRefusedError(UserError):
    """This writer may not save the sheet in its present stage (``sheets.access``)."""


class ConfirmRefusedError(UserError):
    """The sheet cannot be confirmed by this person or phone, or not at all now."""


def check_may(table: Table, sheet: Sheet, author: Author, act: access.Act) -> None:
    """``refusal_for``, asked under the locks: what the page showed may have changed while
    the request was on its way."""
    refused = refusal_for(table, sheet, author, act)
    if refused is None:
        return
    if refused.closed:
        raise ClosedAtTableError
    if act is access.Act.CONFIRM:
        raise ConfirmRefusedError(refused.reason)
    raise SaveRefusedError(refused.reason)
