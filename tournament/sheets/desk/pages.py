"""What the scorer's sheet pages share: the table of a started round (or the way back
to the scorer's home, saying the round has not started) and the addresses of a table's
pages.

Every page fetches its tournament through ``get_tournament_for_scorer`` (organisers pass
too, anyone else gets a 404)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from tournament.kernel.http import HtmxHttpRequest, resent
from tournament.models import Round, Seat, Table, Tournament
from tournament.shared.permissions import get_round, get_tournament_for_scorer


def table_for(round_: Round, number: int) -> Table:
    table = (
        Table.objects.filter(round=round_, number=number)
        .select_related("round__tournament")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .first()
    )
    if table is None:
        raise Http404("No such table")
    return table


def started_table(
    request: HtmxHttpRequest, slug: str, round: int, table: int
) -> Table | HttpResponse:
    """The table of a started round, with its round and tournament, for a scorer; or
    the way back to the scorer's home, saying that the round has not started."""
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    if not round_.started:
        return not_started(request, tournament, round_)
    return table_for(round_, table)


def not_started(request: HtmxHttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    messages.error(
        request,
        f"Round {round_.number} has not started yet: its sheets can be entered once the "
        "organiser starts it.",
    )
    url = reverse("scorer:home", args=[tournament.slug])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def table_url(name: str, table: Table) -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def round_home_url(tournament: Tournament, round_: Round) -> str:
    return f"{reverse('scorer:home', args=[tournament.slug])}?round={round_.number}"


def resent_note(request: HttpRequest) -> str:
    """What a save adds when static/js/keep.js sent it again by itself, once the network
    was back: the desk saw "Waiting for the network…", and now learns it went through."""
    return " It was sent again when the network came back." if resent(request) else ""
