"""Opening a table's sheet with its code (``services.table_for_code``), as every page a
phone opens at the table does. A code that opens no sheet now, whatever the reason, gets
the same 404 page; a wrong one counts against the address it came from, and past the
limit every code the phone has not opened before gets a 429 page (a phone half-way
through its sheet carries on: the codes a session opened are remembered).

A retried submission whose sheet closed meanwhile is still answered as saved
(``open_for_post``), once the numbers it carries are those its first try recorded."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tournament.kernel.codes import TYPED_MAX
from tournament.kernel.http import HtmxHttpRequest, saved_redirect
from tournament.models import Table
from tournament.sheets import at_table as entry
from tournament.sheets.pages.forms import sheet_post
from tournament.sheets.pages.view_model import where
from tournament.sheets.phone.pages import closed
from tournament.sheets.rows import Row
from tournament.sheets.versions import ReplayMismatchError, carried_same

# The codes a session opened, remembered so that a phone keeps its table past the limit
# on wrong codes that someone else on the pub's wifi ran into.
_OPENED = "table_codes"


_OPENED_KEPT = 10


def _typed_again(typed: str) -> str:
    """What goes back in the code box after a code that opens no sheet: the code as
    typed, to be corrected rather than typed again; nothing for junk the box cannot hold."""
    typed = typed.strip()
    # The box holds TYPED_MAX characters (templates/table/_code_form.html).
    if len(typed) > TYPED_MAX or not typed.isprintable():
        return ""
    return typed


def _refused(request: HttpRequest, typed: str = "") -> HttpResponse:
    """The one answer to every code that opens no sheet: it says nothing of why, and
    gives back what was typed."""
    return render(request, "table/refused.html", {"typed": _typed_again(typed)}, status=404)


def _too_many(request: HttpRequest) -> HttpResponse:
    return render(request, "table/too_many.html", status=429)


def _opened_before(request: HttpRequest, code: str) -> bool:
    return code in (request.session.get(_OPENED) or [])


def _remember(request: HttpRequest, table: Table) -> None:
    opened = [c for c in (request.session.get(_OPENED) or []) if c != table.code]
    request.session[_OPENED] = [table.code, *opened][:_OPENED_KEPT]


def open_code(request: HttpRequest, typed: str) -> Table | HttpResponse:
    """The table whose sheet ``typed`` opens, or the refusal to answer with."""
    known = _opened_before(request, typed)
    if not known and entry.wrong_code_limit(request, count=False):
        return _too_many(request)
    try:
        table = entry.table_for_code(typed)
    except entry.TableCodeRefusedError:
        # A code this phone opened before (its sheet confirmed since) is no guess.
        if not known and entry.wrong_code_limit(request, count=True):
            return _too_many(request)
        return _refused(request, typed)
    _remember(request, table)
    return table


def open_for_post(
    request: HtmxHttpRequest, code: str, carried: PostedRows | None = None
) -> Table | HttpResponse:
    """As ``open_code``, but a submission already recorded with its key is answered as saved
    even when the code no longer opens the sheet (confirmed meanwhile), once
    the numbers it carries (``carried``: its rows, by the table's size) are those the key
    recorded; with other numbers it is refused (``ReplayMismatchError``)."""
    opened = open_code(request, code)
    if isinstance(opened, Table):
        return opened
    saved = entry.saved_for_repeat(code, sheet_post(request).get("key"))
    if saved is None:
        return opened
    table = saved.sheet.table
    if carried is not None:
        rows, numbers = carried(table)
        if not carried_same(list(saved.deals), rows, numbers):
            return closed(request, table, ReplayMismatchError(table))
    messages.info(request, f"{where(table)}: this was already saved.")
    return saved_redirect(request, reverse("table:thanks"))


# A submission's own numbers, read for ``table``: its rows, and the deals among them it
# carried (None: all of them).
PostedRows = Callable[[Table], tuple[list[Row], tuple[int, ...] | None]]
