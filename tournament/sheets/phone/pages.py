"""What the phone's pages at the table share: their common context, this phone and the
phone that entered the sheet (``Phones``), why this phone may not act on the sheet now,
the refusal page, and the thanks page's message.

The phone is told apart by ``phone_token`` in its session. Saves go through the sheets'
services with the phone as author (``AtTable``) and the submission's idempotency key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import capfirst

from scoring.errors import UserError
from scoring.rules import Leave, deals_in_round
from tournament.kernel.codes import shown_code
from tournament.kernel.http import resent, saved_redirect
from tournament.models import Sheet, Table
from tournament.sheets import access
from tournament.sheets import at_table as entry
from tournament.sheets.access import Act
from tournament.sheets.authors import AtTable, refusal_in_words
from tournament.sheets.pages.view_model import where

# What the last submission or confirmation of this phone said, for the thanks page.
DONE = "table_done"


def code_url(name: str, table: Table, *args: object) -> str:
    return reverse(name, args=[table.code, *args])


def round_deals(table: Table, leaves: Sequence[Leave] = ()) -> int:
    return deals_in_round(table.size, table.round.tournament.rotations_per_round, leaves)


@dataclass(frozen=True)
class Phones:
    """Who has the sheet, as this phone sees it."""

    mine: int | None  # this phone's number at the table, None before its first save
    entered: int | None  # the phone that saved the sheet last, None for a user

    @property
    def entered_by_me(self) -> bool:
        return self.mine is not None and self.entered == self.mine


def phones_of(request: HttpRequest, table: Table, sheet: Sheet) -> Phones:
    mine = entry.phone_number(table, entry.known_phone(request.session, table))
    return Phones(mine, sheet.entered_by_phone)


def this_phone(request: HttpRequest, table: Table) -> AtTable:
    """This phone as the sheet's rule knows it; a phone that has not saved yet has no
    token: it entered nothing."""
    return entry.known_phone(request.session, table) or AtTable("")


def phone_refusal(request: HttpRequest, table: Table, sheet: Sheet, act: Act) -> str:
    """Why this phone may not ``act`` on the sheet, in words; blank when it may."""
    return refusal_in_words(table, sheet, this_phone(request, table), act)


def closed_to_me(request: HttpRequest, table: Table, sheet: Sheet) -> bool:
    """Whether this phone may not change the sheet: it awaits confirmation and someone
    else submitted it (the numbers may be re-typed blind, so they are not shown)."""
    return bool(phone_refusal(request, table, sheet, Act.SAVE))


def base_context(table: Table, **context: Any) -> dict[str, Any]:
    round_ = table.round
    return {
        "tournament": round_.tournament,
        "round": round_,
        "table": table,
        "seats": list(table.seats.all()),
        "code": table.code,
        "shown_code": shown_code(table.code),
        "where": where(table),
        "most": round_deals(table),
        # Whether another phone may confirm the sheet once submitted (not once released).
        "phones_confirm": access.phones_confirm(round_),
        # The page follows the code's opening the sheet; one drawn after a refusal that may
        # have closed it asks again (``sheet_opens``) before linking back to it.
        "sheet_opens": True,
        **context,
    }


def resent_aside(request: HttpRequest) -> str:
    """What a save adds to its "saved" when static/js/keep.js sent it again by itself: the
    phone showed "Waiting for the network…", and now says that the save went through."""
    return " (sent again when the network came back)" if resent(request) else ""


def done(request: HttpRequest, table: Table, text: str) -> HttpResponse:
    if resent(request):
        text += " It was sent again when the network came back."
    request.session[DONE] = {
        "where": where(table),
        "tournament": table.round.tournament.name,
        "text": text,
        "code": table.code,
    }
    return saved_redirect(request, reverse("table:thanks"))  # type: ignore[arg-type]


def sheet_opens(table: Table) -> bool:
    """Whether the table's code still opens its sheet, asked again now: a page rendered
    after the sheet may have changed links back to it only then."""
    return entry.sheet_now(table.code).opens


def closed(
    request: HttpRequest, table: Table, refusal: UserError, *, reload: bool = False
) -> HttpResponse:
    """Nothing was saved, and why; with ``reload``, the refusal concerned this submission
    and the sheet may still be open to this phone: the page links back to it while its
    code opens it, and says to hand the paper in otherwise."""
    reload = reload and sheet_opens(table)
    context = base_context(table, refusal=capfirst(str(refusal)), reload=reload)
    return render(request, "table/closed.html", context, status=409)
