"""The standings widget for a guild's own site and the broadcast overlay for a stream
(``tournament.public.embed``).

Both show published tournaments only, to everyone alike (a rehearsal never, nor a
tournament not published, even to its organiser: what a stream or another site shows
is what the public sees), need no cookie, and are served from the public page cache.
The widget is the one address any site may frame (``frame-ancestors *``, no
``X-Frame-Options``): the override is a header of the response, so the cache stores it
with the page and a cached copy keeps it. Every other page stays unframeable.
"""

from __future__ import annotations

from csp.decorators import csp_replace
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.public import embed as widgets
from tournament.public.cache import cached_public_page, elsewhere
from tournament.public.results import BeingWorkedOut

# Any site may frame the widget (a guild's site is anyone's).
FRAMED_BY_ANY_SITE = {"frame-ancestors": ["*"]}


def published_tournament(slug: str) -> Tournament:
    """The published tournament of ``slug``, for everyone alike; 404 for any other (a
    rehearsal is never published)."""
    tournament = Tournament.objects.filter(slug=slug, published=True).first()
    if tournament is None or tournament.is_rehearsal:
        raise Http404("No such tournament")
    return tournament


@require_safe
@xframe_options_exempt
@csp_replace(FRAMED_BY_ANY_SITE)
@cached_public_page
def embed(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The standings, compact, for an ``<iframe>`` on another site; it follows the
    evening by itself (``static/js/live.js`` swaps ``#embed``)."""
    tournament = published_tournament(slug)
    try:
        context = widgets.standings_context(tournament)
    except BeingWorkedOut:
        context = {"tournament": tournament, "being_worked_out": True}
    return render(request, "public/embed.html", context)


@require_safe
@cached_public_page(
    reads={
        "show": widgets.show_choice,
        "top": widgets.top_rows,
        "round": widgets.round_number,
        "table": widgets.table_number,
    }
)
def overlay(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Large type on a transparent page for streaming software: ``?show=standings&top=N``
    (the default) or ``?show=table&round=R&table=T``. The numbers come clamped
    (``public.embed``); a parameter the chosen view does not read is dropped by a
    redirect, so that each page shown is one cache entry."""
    tournament = published_tournament(slug)
    show = request.GET.get("show") or widgets.SHOW_STANDINGS
    context = {
        "tournament": tournament,
        "show": show,
        "top_range": widgets.TOP,
        "top_default": widgets.TOP_DEFAULT,
    }
    if show == widgets.SHOW_STANDINGS:
        if request.GET.get("round") or request.GET.get("table"):
            return elsewhere(request, round="", table="")
        top = int(request.GET.get("top") or widgets.TOP_DEFAULT)
        try:
            context |= widgets.standings_context(tournament, top)
        except BeingWorkedOut:
            context["being_worked_out"] = True
        context["size"] = "l" if top <= 10 else "m" if top <= 20 else "s"
        return render(request, "public/overlay.html", context)
    if request.GET.get("top"):
        return elsewhere(request, top="")
    table = request.GET.get("table")
    if not table:
        context["problem"] = (
            "Which table? Add the table’s number to the address: "
            "?show=table&table=1 (and &round=2 for a round other than the one being played)."
        )
        return render(request, "public/overlay.html", context, status=400)
    number = request.GET.get("round")
    try:
        context |= widgets.table_context(tournament, int(number) if number else None, int(table))
    except widgets.NoSuchTable as missing:
        context["problem"] = str(missing)
        return render(request, "public/overlay.html", context, status=404)
    except BeingWorkedOut:
        context["being_worked_out"] = True
    return render(request, "public/overlay.html", context)
