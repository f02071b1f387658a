"""Entry at the table: a phone opens its table's sheet with the table code printed on the
paper sheet (``tournament.kernel.codes``), types it in and submits it; a scorer (or, where the
organiser allows it, a second phone at the table) confirms it (``sheets.confirming``).

A code opens its own table of its own round only, and only while that sheet can still
be typed at the table: the tournament has table entry on, the round has started, and the
sheet has never been confirmed (a round released with the table's result missing keeps
its code open; only the desk confirms the sheet then). Whatever the reason a code
does not open a sheet, the answer is the same ``TableCodeRefusedError``, so that a
wrong guess learns nothing. Wrong codes count against the address they came from
(``wrong_code_limit``).

Terms: the *phone token* is a random key a phone keeps in its session for one table
(``phone_token``); ``sheets.authors`` numbers the phones of a table by it.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.http import HttpRequest
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited

from tournament.kernel.codes import clean_code, new_table_code
from tournament.models import Round, Seat, Sheet, SheetStatus, SheetVersion, Table, TablePhone
from tournament.shared.locks import lock_round
from tournament.sheets import access
from tournament.sheets.authors import AtTable

# Wrong table codes one address may try before it has to wait: a pub's wifi is one
# address, and a mistyped code is tried again at once, so this is generous for people
# and hopeless for guessing (codes.py: about 10¹² codes).
WRONG_CODES_RATE = "20/m"
_RATE_GROUP = "table-code"


class TableCodeRefusedError(Exception):
    """The code opens no sheet now. Deliberately says nothing about why."""


def table_for_code(typed: str) -> Table:
    """The table whose sheet ``typed`` opens now, with its round, tournament and seats.

    An unknown code and the code of a table closed to phones take the same path, one
    query and the same rule (``sheets.access``), so that how long the answer takes does
    not tell a guess that hit a closed table from one that hit nothing."""
    code = clean_code(typed)
    if code is None:
        raise TableCodeRefusedError
    table = _with_facts(Table.objects.filter(code=code)).first()
    if table is None or not _opens(table):
        raise TableCodeRefusedError
    prefetch_related_objects(
        [table], Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )
    return table


PHONE = access.Writer.PHONE


def _with_facts(tables: QuerySet[Table]) -> QuerySet[Table]:
    """``tables`` with what the rule needs to know of each: its sheet, round and
    tournament, and whether it was ever confirmed."""
    return tables.select_related("round__tournament", "sheet").annotate(
        confirmed_before=access.confirmed_before()
    )


def _opens(table: Table) -> bool:
    return access.refusal(PHONE, access.Act.OPEN, _facts(table)) is None


def _facts(table: Table) -> access.SheetFacts:
    """The facts of ``table``'s sheet, from the row ``_with_facts`` read (no query)."""
    try:
        status = table.sheet.status
    except Sheet.DoesNotExist:
        status = SheetStatus.NOT_STARTED
    round_ = table.round
    return access.SheetFacts(
        stage=access.stage_of(status, ever_confirmed=bool(table.confirmed_before)),  # type: ignore[attr-defined]
        round_started=round_.started,
        round_released=round_.released,
        table_entry=round_.tournament.table_entry,
        table_confirm=round_.tournament.table_confirm,
    )


@dataclass(frozen=True)
class SheetNow:
    """Where a table's sheet stands for a phone that used its code: whether the code
    still opens it (the rule), and whether it was ever confirmed (then it counts, and a
    change is the desk's)."""

    opens: bool
    confirmed: bool


def sheet_now(typed: str) -> SheetNow:
    """Where the sheet that the code ``typed`` opened stands now, for a phone that used it:
    what a page that would link back to it asks first (one query). A code renewed since
    opens nothing, and says nothing of its old sheet."""
    code = clean_code(typed)
    table = None if code is None else _with_facts(Table.objects.filter(code=code)).first()
    if table is None:
        return SheetNow(opens=False, confirmed=False)
    confirmed = bool(table.confirmed_before)  # type: ignore[attr-defined]
    return SheetNow(opens=_opens(table), confirmed=confirmed)


def wrong_code_limit(request: HttpRequest, *, count: bool) -> bool:
    """Whether the address of ``request`` has tried too many wrong codes lately; with
    ``count``, this request's code was wrong and counts."""
    return is_ratelimited(
        request, group=_RATE_GROUP, key="ip", rate=WRONG_CODES_RATE, method=ALL, increment=count
    )


def saved_for_repeat(typed: str, key: str | None) -> SheetVersion | None:
    """The save already recorded with the idempotency ``key`` through the code ``typed``
    (with its sheet's table, round and tournament), whether or not the code still opens
    it: a submission retried after its answer was lost (and the sheet confirmed meanwhile)
    is told that it was saved, not that the code opens nothing, once its numbers are
    checked against the recorded ones (``sheets.versions.carried_same``)."""
    code = clean_code(typed)
    if code is None or not key:
        return None
    return (
        SheetVersion.objects.filter(sheet__table__code=code, key=key)
        .select_related("sheet__table__round__tournament")
        .first()
    )


def phone_token(session: MutableMapping[str, Any], table: Table) -> AtTable:
    """The phone behind ``session`` at ``table``: the same token for every save it makes
    there, a new one for a phone (or browser) the table has not seen."""
    tokens = session.get("table_phones") or {}
    key = str(table.pk)
    if key not in tokens:
        tokens = {**tokens, key: secrets.token_urlsafe(16)}
        session["table_phones"] = tokens
    return AtTable(tokens[key])


def known_phone(session: MutableMapping[str, Any], table: Table) -> AtTable | None:
    """The phone behind ``session`` if it has a token for ``table`` (without making one)."""
    token = (session.get("table_phones") or {}).get(str(table.pk))
    return AtTable(token) if token else None


def phone_number(table: Table, phone: AtTable | None) -> int | None:
    """The number ``table`` gave ``phone`` on its first save ("phone 2"), None before."""
    if phone is None:
        return None
    return (
        TablePhone.objects.filter(table=table, token=phone.token)
        .values_list("number", flat=True)
        .first()
    )


def renew_code(table: Table) -> str:
    """A new code for ``table``: the old one stops working at once."""
    with transaction.atomic():
        table.code = new_table_code()
        Table.objects.filter(pk=table.pk).update(code=table.code)
    return table.code


def renew_codes(round_: Round) -> int:
    """New codes for every table of ``round_``; how many tables."""
    with transaction.atomic():
        lock_round(round_.pk)
        tables = list(Table.objects.filter(round=round_).only("pk"))
        for table in tables:
            Table.objects.filter(pk=table.pk).update(code=new_table_code())
    return len(tables)
