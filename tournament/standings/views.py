"""The organiser's Standings page: the organiser's view of the standings, every started
round's confirmed sheets (the public pages show the released rounds only), and the
sheets that still await confirmation, named."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from scoring.tiebreaks import order_in_words
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Sheet, SheetStatus
from tournament.shared.derived import organiser_view
from tournament.shared.permissions import get_tournament_for_organiser
from tournament.standings.tables import standings_table


@login_required
@require_GET
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The organiser's standings, read from the organiser's view."""
    tournament = get_tournament_for_organiser(request, slug)
    awaiting = list(
        Sheet.objects.filter(table__round__tournament=tournament, status=SheetStatus.ENTERED)
        .order_by("table__round__number", "table__number")
        .values_list("table__round__number", "table__number")
    )
    context = {
        "tournament": tournament,
        "private": True,
        "public_url": reverse("standings", args=[slug]),
        "awaiting": awaiting,
    }
    state = organiser_view(tournament)
    if state is None:
        context["being_worked_out"] = True
        return render(request, "standings/standings.html", context)
    result = state.tournament_standings(tournament)
    context.update(
        {
            "result": result,
            "table": standings_table(result),
            "chain": order_in_words(result.standings.tiebreaks),
            "rounds_played": len(result.standings.round_numbers),
            "incomplete_tables": result.incomplete_tables,
        }
    )
    return render(request, "standings/standings.html", context)
