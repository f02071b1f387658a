"""Public pages: the standings, the projector, and the exports.

Public pages show published tournaments only, count only the rounds the organiser has
released and only confirmed sheets, and are served from the cache to anonymous visitors
(``public.cache``).
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_safe
from django_tables2 import RequestConfig

from scoring.tiebreaks import order_in_words
from tournament.kernel.http import HtmxHttpRequest, csv_attachment, wants_fragment
from tournament.models import Series, Tournament
from tournament.public import room
from tournament.public.cache import cached_public_page, page_number, search_text
from tournament.public.projector import board as projector_board
from tournament.public.results import public_results
from tournament.shared.permissions import get_public_tournament
from tournament.standings.files import as_csv
from tournament.standings.tables import PER_PAGE, standings_sort, standings_table
from tournament.tournament_file import writing


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    # A series is listed once one of its tournaments counts: accepted, published, and
    # with a round released.
    series = Series.objects.filter(
        entries__accepted=True,
        entries__tournament__published=True,
        entries__tournament__rounds__released=True,
    ).distinct()
    context = {"tournaments": Tournament.objects.filter(published=True), "series": series}
    return render(request, "public/home.html", context)


@require_GET
@cached_public_page(reads={"q": search_text, "sort": standings_sort, "page": page_number})
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    # Shared with the other public pages: a search or another sort recomputes nothing.
    result = public_results(tournament).tournament_standings(tournament)
    round_numbers = result.standings.round_numbers
    progress = room.progress(tournament, round_numbers)
    query = request.GET.get("q", "").strip()
    # The highlighted tiebreak explains a row's place below the row above it, which is
    # true only of the ranking's order.
    in_ranking_order = standings_sort(request.GET.get("sort", "")) in {"", "rank"}
    table = standings_table(
        result,
        orderable=True,
        name_filter=query,
        honours=progress.final,
        highlight=in_ranking_order,
    )
    table.link_players = True
    # A federation's thousand players come a hundred to a page; the search box finds anyone.
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    context = {
        "tournament": tournament,
        "result": result,
        "table": table,
        "query": query,
        "chain": order_in_words(result.standings.tiebreaks),
        "rounds_played": len(round_numbers),
        "public_rounds": round_numbers,
        "progress": progress,
        "lead": room.lead(result.standings),
        "in_ranking_order": in_ranking_order,
        "podium": [row for row in result.standings.rows if row.rank is not None and row.rank <= 3],
        "incomplete_tables": result.incomplete_tables,
        # Before any result counts, what is going on instead: one query.
        "playing": None if progress.started else room.current_round(tournament),
    }
    if wants_fragment(request):
        return render(request, "standings/standings.html#standings-table", context)
    return render(request, "standings/standings.html", context)


@require_GET
@cached_public_page(reads={"page": page_number})
def projector(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Large type for a screen across the room (``tournament.public.projector``): the seating and
    the clock while a round is played, the standings once it is released. Every page of
    the board comes at once and turns by itself; the page polls for changes
    (``static/js/live.js``) and swaps the board when one comes."""
    tournament = get_public_tournament(request, slug)
    context = projector_board(tournament, int(request.GET.get("page") or 1))
    if wants_fragment(request):
        return render(request, "public/projector.html#board", context)
    return render(request, "public/projector.html", context)


@require_safe
@cached_public_page
def standings_csv(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The standings as a spreadsheet file (``csv_export``). The exports answer HEAD as
    well as GET: download managers and link checkers ask it first."""
    tournament = get_public_tournament(request, slug)
    standings = public_results(tournament).tournament_standings(tournament)
    return csv_attachment(as_csv(standings), f"{slug}-standings.csv")


def file_indent(value: str) -> str:
    """``?indent=2`` asks for the file indented for reading; anything else is compact."""
    return "2" if value.strip() == "2" else ""


@require_safe
@cached_public_page(reads={"indent": file_indent})
def tournament_json(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tournament file of the released rounds, for archiving: compact (28 % of the
    indented size at 1,000 players), indented with ``?indent=2``."""
    tournament = get_public_tournament(request, slug)
    with writing.consistent_read():
        data = writing.export_tournament(tournament, released_only=True)
    indent = 2 if request.GET.get("indent") else None
    response = JsonResponse(data, json_dumps_params={"indent": indent, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{slug}.json"'
    return response
