"""The history page of a table's score sheet: every version, who made it and what it
changed, and the photos of its paper read at the desk (``history``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.models import SheetPhoto
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
    photos = (
        SheetPhoto.objects.filter(table=table_)
        .select_related("sent_by")
        .defer("upload", "image", "sheet_image")
        .annotate(kept=Length("image"))
        .order_by("-sent_at", "-position")
    )
    context = {
        "tournament": tournament,
        "round": round_,
        "table": table_,
        "sheet": current,
        "state": state_in_words(current),
        "entries": entries,
        "hidden": hidden,
        "photos": photos,
        "blind": blind,
    }
    return render(request, "sheets/history.html", context)
