"""How a scorer's page answers what a save or a confirmation came to (``sheets.outcome``):
the one answer of the desk's face to a refusal, asked by every page that writes the sheet.

What the scorer can act on where they are (rows that break the rules, a re-type that
differs, a sheet changed meanwhile) is the page drawn again by the view (``page``), with
422 for what was typed and 409 for what happened meanwhile; anything else (the sheet's
rule refusing, a retry carrying other numbers than its first try) is said in a message on
the page the view names (``back``), the sheet shown as it is."""

from __future__ import annotations

from collections.abc import Callable, Collection

from django.contrib import messages
from django.http import HttpResponse
from django.utils.text import capfirst

from tournament.kernel.http import HtmxHttpRequest, saved_redirect
from tournament.sheets.outcome import Outcome, OutcomeKind

# What a page drawn again answers, by the outcome's kind.
STATUS = {OutcomeKind.INVALID: 422, OutcomeKind.MISMATCH: 422, OutcomeKind.CHANGED: 409}


def answer(
    request: HtmxHttpRequest,
    outcome: Outcome,
    *,
    page: Callable[[Outcome, int], HttpResponse],
    on_page: Collection[OutcomeKind],
    back: str,
    then: str = "",
    go: Callable[[HtmxHttpRequest, str], HttpResponse] = saved_redirect,
) -> HttpResponse:
    """The answer to an ``outcome`` that is not saved (a view answers a save itself, its
    own way): the view's own ``page`` drawn again, with its status, for the kinds it
    shows (``on_page``); otherwise the refusal as a message, ``then`` after it, on the
    page at ``back``, reached by ``go``."""
    assert not outcome.saved
    if outcome.kind in on_page:
        return page(outcome, STATUS[outcome.kind])
    messages.error(request, capfirst(str(outcome.refusal)) + "." + then)
    return go(request, back)
