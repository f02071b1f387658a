"""The organiser's Standings page: the standings as they stand, sheets awaiting
confirmation counted too (the public pages show released rounds only)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from scoring.tiebreaks import order_in_words
from tournament.kernel.http import HtmxHttpRequest
from tournament.shared.permissions import (
    get_tournament_for_organiser,
)
from tournament.standings.services import tournament_standings
from tournament.standings.tables import standings_table


@login_required
@require_GET
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The organiser's standings, counting sheets that await confirmation too."""
    tournament = get_tournament_for_organiser(request, slug)
    result = tournament_standings(tournament, include_unconfirmed=True)
    context = {
        "tournament": tournament,
        "result": result,
        "table": standings_table(result),
        "chain": order_in_words(result.standings.tiebreaks),
        "rounds_played": len(result.standings.round_numbers),
        "incomplete_tables": result.incomplete_tables,
        "private": True,
        "public_url": reverse("standings", args=[slug]),
    }
    return render(request, "standings/standings.html", context)
