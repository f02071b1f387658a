"""How a phone's page answers what a save or a confirmation came to (``sheets.outcome``):
the one answer of the phone's face to a refusal, asked by every page that writes the sheet.

What the person can act on where they are (rows that break the rules, a re-type that
differs, a sheet changed meanwhile, a confirmation refused) is the page drawn again by the
view (``page``), with 422 for what was typed and 409 for what happened meanwhile; a sheet
closed to phones meanwhile, or a save this phone may no longer make, is the refusal page
(``pages.closed``), which links back to the sheet while its code opens it."""

from __future__ import annotations

from collections.abc import Callable, Collection

from django.http import HttpResponse

from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Table
from tournament.sheets.outcome import Outcome, OutcomeKind
from tournament.sheets.phone.pages import closed

# What a page drawn again answers, by the outcome's kind.
STATUS = {
    OutcomeKind.INVALID: 422,
    OutcomeKind.MISMATCH: 422,
    OutcomeKind.CHANGED: 409,
    OutcomeKind.REFUSED: 409,
}
# What a page that saves the sheet draws again itself; the rest is the refusal page.
SAVES = frozenset({OutcomeKind.INVALID, OutcomeKind.CHANGED})


def answer(
    request: HtmxHttpRequest,
    table: Table,
    outcome: Outcome,
    *,
    page: Callable[[Outcome, int], HttpResponse],
    on_page: Collection[OutcomeKind] = SAVES,
) -> HttpResponse:
    """The answer to an ``outcome`` of a write of ``table``'s sheet that is not saved (a
    view answers a save itself, its own way): the view's own ``page`` drawn again, with
    its status, for the kinds it shows (``on_page``); the refusal page otherwise."""
    assert outcome.refusal is not None
    if outcome.kind in on_page:
        return page(outcome, STATUS[outcome.kind])
    # Closed to phones: nothing this phone can do here. Refused to this phone, or a retry
    # with other numbers: the sheet may still be open to it, and the page links back.
    return closed(request, table, outcome.refusal, reload=outcome.kind is not OutcomeKind.CLOSED)
