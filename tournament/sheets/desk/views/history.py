"""The history page of a table's score sheet: every version, who made it and what it
changed (``history``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.shared.permissions import get_round, get_tournament_for_scorer
from tournament.sheets.blind import awaits_blind_confirmation
from tournament.sheets.desk.pages import table_for
from tournament.sheets.history import history_entries
from tournament.sheets.reading import peek_sheet
from tournament.sheets.status import state_in_words


@login_required
@require_GET
def history(request: HttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    table_ = table_for(round_, table)
    current = peek_sheet(table_)
    blind = awaits_blind_confirmation(table_, current, request.user)
    entries, hidden = history_entries(table_, blind=blind)
    context = {
        "tournament": tournament,
        "round": round_,
        "table": table_,
        "sheet": current,
        "state": state_in_words(current),
        "entries": entries,
        "hidden": hidden,
    }
    return render(request, "sheets/history.html", context)
