"""The round desk, where the organiser sees at a glance which sheets are missing, and the
scorer's home: the tables of a started round, each with its sheet (``tables``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Round, SheetStatus
from tournament.shared.permissions import get_round, get_tournament_for_scorer
from tournament.sheets.desk.tables import DeskTable, desk_records, progress
from tournament.sheets.status import DeskStatus


@login_required
@require_GET
def desk(request: HtmxHttpRequest, slug: str, round: int) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    records = desk_records(tournament, round_)
    context = {
        "tournament": tournament,
        "round": round_,
        "desk_table": DeskTable(records),
        "progress": progress(records),
        # Tables with no confirmed sheet, and corrections whose confirmed sheet stands.
        "missing": [
            r["number"]
            for r in records
            if r["status"] != SheetStatus.CONFIRMED and r["desk_status"] != DeskStatus.CORRECTION
        ],
        "corrections": [r["number"] for r in records if r["desk_status"] == DeskStatus.CORRECTION],
    }
    if request.htmx:
        return render(request, "sheets/desk.html#desk", context)
    return render(request, "sheets/desk.html", context)


@login_required
@require_GET
def home(request: HttpRequest, slug: str) -> HttpResponse:
    """The tables of the latest started round (or ``?round=N``), each with its sheet."""
    tournament = get_tournament_for_scorer(request, slug)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    started = [r for r in rounds if r.started]
    asked = request.GET.get("round")
    if asked:
        try:
            current: Round | None = next(r for r in rounds if r.number == int(asked))
        except (ValueError, StopIteration):
            raise Http404("No such round") from None
    else:
        current = started[-1] if started else None
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "current": current,
        "records": desk_records(tournament, current) if current and current.started else [],
    }
    return render(request, "sheets/home.html", context)
