"""Public pages: the standings, the projector, and the exports.

Public pages show published tournaments only, count only the rounds the organiser has
released and only confirmed sheets, and are served from the cache to anonymous visitors
(``public.cache``).
"""

from __future__ import annotations

from datetime import date

import django_tables2 as tables
from django.db.models import Exists, Max, OuterRef, Q, QuerySet
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from scoring.tiebreaks import order_in_words
from tournament.kernel.http import HtmxHttpRequest, csv_attachment, wants_fragment
from tournament.models import Round, Series, Tournament
from tournament.public import room
from tournament.public.cache import (
    cached_public_page,
    elsewhere,
    page_number,
    page_query,
    refusing_junk,
    search_text,
)
from tournament.public.projector import board as projector_board
from tournament.public.results import public_results
from tournament.public.views.pending import shows_being_worked_out
from tournament.shared.derived import ChancesView, percent
from tournament.shared.permissions import get_public_tournament
from tournament.standings.files import as_csv
from tournament.standings.tables import (
    PER_PAGE,
    StandingsTable,
    standings_sort,
    standings_table,
)
from tournament.tournament_file import writing


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    # A series is listed once one of its tournaments counts: accepted, published, and
    # with a round released.
    series = Series.objects.filter(
        entries__accepted=True,
        entries__tournament__published=True,
        entries__tournament__rounds__released=True,
    ).distinct()
    tonight, others = tonight_first(list(_public_tournaments()), timezone.localdate())
    context = {
        "tonight": tonight,
        "playing": {each.pk for each in tonight if in_play(each)},
        "tournaments": others,
        "series": series,
    }
    return render(request, "public/home.html", context)


def _public_tournaments() -> QuerySet[Tournament]:
    """The published tournaments, newest first, each with its highest released round
    (``last_released``) and whether a round has started (``any_started``): one query."""
    # Ordered here: a query that groups (the Max) leaves out the model's own ordering.
    return (
        Tournament.objects.filter(published=True)
        .annotate(
            last_released=Max("rounds__number", filter=Q(rounds__released=True)),
            any_started=Exists(Round.objects.filter(tournament=OuterRef("pk"), started=True)),
        )
        .order_by("-date", "name")
    )


def in_play(tournament: Tournament) -> bool:
    """A round has started and the standings are not final yet."""
    after = getattr(tournament, "last_released", None) or 0
    final = after > 0 and (tournament.finished or after >= tournament.planned_rounds)
    return bool(getattr(tournament, "any_started", False)) and not final


# How far from today a tournament in play may be dated and still be tonight's: an evening
# that runs past midnight, or a date typed a day out.
RECENT_DAYS = 1


def tonight_first(
    tournaments: list[Tournament], today: date
) -> tuple[list[Tournament], list[Tournament]]:
    """The home page's two lists, each keeping the given order: tonight's tournaments (in
    play, or dated today), shown first and large, and the rest. In play comes before
    merely dated today. A tournament in play dated more than a day away is not tonight's
    (one left unfinished months ago stays in the list below)."""
    playing = [
        t
        for t in tournaments
        if in_play(t) and (t.date is None or abs((t.date - today).days) <= RECENT_DAYS)
    ]
    today_only = [t for t in tournaments if t.date == today and t not in playing]
    tonight = playing + today_only
    return tonight, [t for t in tournaments if t not in tonight]


@require_safe
@cached_public_page(
    reads={"q": search_text, "sort": refusing_junk(standings_sort), "page": page_number}
)
@shows_being_worked_out
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    # Shared with the other public pages: a search or another sort recomputes nothing.
    results = public_results(tournament)
    result = results.tournament_standings(tournament)
    round_numbers = result.standings.round_numbers
    progress = room.progress(tournament, round_numbers)
    chances = results.chances_view
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
    if chances.shown:
        table = _with_chances(table, chances)
    table.link_players = True
    # A federation's thousand players come a hundred to a page; the search box finds anyone.
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    # A sort by a column these standings lack, a page past the last: the real one.
    sort = request.GET.get("sort", "")
    shown_sort = sort if sort in {str(column) for column in table.order_by or ()} else ""
    if shown_sort != sort or table.page.number != int(request.GET.get("page") or 1):
        return elsewhere(request, sort=shown_sort, page=page_query(table.page.number))
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
        "chances": chances,
        "in_ranking_order": in_ranking_order,
        "podium": [row for row in result.standings.rows if row.rank is not None and row.rank <= 3],
        "incomplete_tables": result.incomplete_tables,
        # Before any result counts, what is going on instead: one query.
        "playing": None if progress.started else room.current_round(tournament),
    }
    if wants_fragment(request):
        return render(request, "standings/standings.html#standings-table", context)
    # The round whose seating is public, for the navigation and the page's one search
    # box (Find my seat while it is played): one query.
    context["seated_number"] = room.seated_round_number(tournament)
    return render(request, "standings/standings.html", context)


def _with_chances(table: StandingsTable, chances: ChancesView) -> StandingsTable:
    """The standings with a "Win · top 3" column after the points and deals (and the same
    figures under the name on a phone), while the podium chances are shown."""
    assert chances.stored is not None
    odds = chances.stored.players
    records = list(table.data.data)
    for record in records:
        # The player's id is the last part of their page's address.
        mine = odds.get(int(record["url"].rstrip("/").rpartition("/")[2]))
        win = percent(mine.win, mine.win_reachable) if mine else ""
        top3 = percent(mine.top3, mine.top3_reachable) if mine else ""
        words = f"{win}\u00a0· {top3}" if mine else "–"
        # Under the name on a phone, each figure beside its own label and never broken
        # from it ("top 3 3 % · 25 %" would read as "top 33 %").
        phone = (
            format_html(
                '<span class="chance-figure">win {}</span> · '
                '<span class="chance-figure">top\u00a03: {}</span>',
                win,
                top3,
            )
            if mine
            else "chances –"
        )
        cells = record["cells"]
        # After the points and the deals, the first two cells.
        record["cells"] = type(cells)((*cells[:2], ("chances", words), *cells[2:]))
        extra, _, _ = str(record["extra"]).rpartition("</span>")
        record["extra"] = mark_safe(
            f'{extra} · <span class="chances">{conditional_escape(phone)}</span></span>'
        )
    title = (
        "Chance of winning · of the top three, from "
        f"{chances.stored.finishes_words} simulated finishes of {chances.stored.rounds_words}"
    )
    column = tables.Column(
        verbose_name="Win · top 3",
        orderable=False,
        attrs={"th": {"class": "num", "title": title}, "td": {"class": "chances"}},
    )
    own = set(StandingsTable.base_columns)
    columns = [(bound.name, bound.column) for bound in table.columns if bound.name not in own]
    chances_table = StandingsTable(
        records,
        extra_columns=[("chances", column), *columns],
        orderable=table.orderable,
        empty_text=table.empty_text,
    )
    return chances_table


@require_safe
@cached_public_page(reads={"page": page_number})
@shows_being_worked_out
def projector(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Large type for a screen across the room (``tournament.public.projector``): the seating and
    the clock while a round is played, the standings once it is released. Every page of
    the board comes at once and turns by itself; the page polls for changes
    (``static/js/live.js``) and swaps the board when one comes."""
    tournament = get_public_tournament(request, slug)
    asked = int(request.GET.get("page") or 1)
    context = projector_board(tournament, asked)
    if context["page"] != asked:
        # Past the board's last page: its last page.
        return elsewhere(request, page=page_query(context["page"]))
    if wants_fragment(request):
        return render(request, "public/projector.html#board", context)
    return render(request, "public/projector.html", context)


@require_safe
@cached_public_page
@shows_being_worked_out
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
