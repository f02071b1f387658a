"""The organiser's rounds: seating the next round, a round's page with its seating and
quality (and, with table entry on, each table's code), and one view for each change to a
round (regenerate, swap, start, release, withhold, new table codes). Start and release
ask first, on a page of their own, when tables of the round before (Start) or of the
round itself (release) have no confirmed sheet.

Every view fetches the tournament through ``permissions.get_tournament_for_organiser``
(404 for outsiders, 403 for the tournament's scorers); seating is written by
``rounds.seating``, a round's start and release by ``rounds.services``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.errors import UserError
from tournament.kernel.codes import shown_code
from tournament.kernel.forms import player_label, shared_names
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Bye, Player, Round, Seat, SheetStatus, Table, Tournament
from tournament.rounds import seating, seating_quality, swaps
from tournament.rounds import services as round_service
from tournament.rounds.forms import ReleaseRoundForm, SeatRoundForm, StartRoundForm, SwapForm
from tournament.shared.permissions import get_round, get_tournament_for_organiser
from tournament.sheets import at_table as table_service
from tournament.sheets.status import sheet_labels, status_label


@login_required
@require_http_methods(["GET", "POST"])
def rounds(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = SeatRoundForm(request.POST or None, splits=seating.splits_for(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            round_ = seating.seat_next_round(
                tournament,
                method=form.cleaned_data["method"],
                seed=form.cleaned_data["seed"],
                split=form.cleaned_data["split"],
            )
        except UserError as error:
            messages.error(request, f"Could not seat the next round: {error}")
        else:
            messages.success(request, f"Round {round_.number} is seated. Check it, then start it.")
            return redirect("organiser:round", slug, round_.number)
    rounds = list(tournament.rounds.annotate(tables_count=Count("tables")).order_by("number"))
    context = {
        "tournament": tournament,
        "form": form,
        "rounds": rounds,
        "active_players": tournament.players.filter(active=True).count(),
        # Seating a draft is harmless, so this only warns; Start asks (round_start).
        "unfinished": (
            round_service.PreviousRoundUnfinished(rounds[-1].number + 1, tables)
            if rounds
            and rounds[-1].started
            and (tables := round_service.unconfirmed_tables(rounds[-1]))
            else None
        ),
    }
    return render(request, "rounds/rounds.html", context)


def _round_context(tournament: Tournament, round_: Round, **extra: object) -> dict[str, Any]:
    everyone = Player.objects.filter(tournament=tournament).values_list("pk", "name", "club")
    shared = shared_names([name for _, name, _ in everyone])
    names = {
        pk: player_label(name, club) if name.casefold() in shared else name
        for pk, name, club in everyone
    }
    tables: dict[int, dict[str, Any]] = {}
    for table_number, table_id, code, position, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "table_id", "table__code", "position", "player_id")
    ):
        entry = tables.setdefault(
            table_number,
            {"number": table_number, "id": table_id, "code": shown_code(code), "seats": []},
        )
        entry["seats"].append((position, names[player_id]))
    labels = sheet_labels(round_)
    not_started = (SheetStatus.NOT_STARTED, status_label(SheetStatus.NOT_STARTED))
    for entry in tables.values():
        status, entry["status"] = labels.get(entry["id"], not_started)
        entry["has_scores"] = status != SheetStatus.NOT_STARTED
    byes = [
        names[pk] for pk in Bye.objects.filter(round=round_).values_list("player_id", flat=True)
    ]
    in_round = (
        Player.objects.filter(Q(seats__round=round_) | Q(byes__round=round_), tournament=tournament)
        .order_by("name")
        .distinct()
    )
    return {
        "tournament": tournament,
        "round": round_,
        "tables": list(tables.values()),
        "byes": sorted(byes),
        "quality": seating_quality.round_quality(round_),
        "held_back": round_service.held_back(round_),
        "regenerate_form": SeatRoundForm(
            initial={"seed": round_.seed + 1},
            splits=seating.splits_for(tournament),
        ),
        "swap_form": SwapForm(players=in_round),
        "seating_token": swaps.seating_token(round_),
        **extra,
    }


@login_required
@require_GET
def round_detail(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    return render(request, "rounds/round.html", _round_context(tournament, round_))


def _about_round(number: int, error: str) -> str:
    """``error`` as a sentence that names the round once."""
    if error.casefold().startswith(f"round {number} "):
        return capfirst(error) + "."
    return f"Round {number}: {error}."


def _round_change(
    request: HtmxHttpRequest, slug: str, number: int, change: Callable[[Tournament, Round], str]
) -> HttpResponse:
    """Make one change to the round (``change`` says what was done, or raises a
    ``UserError`` naming what was not), then show the round as it now stands."""
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    extra: dict[str, object] = {}
    try:
        messages.success(request, change(tournament, round_))
    except UserError as error:
        messages.error(request, _about_round(number, str(error)))
        extra["failed"] = True
    round_.refresh_from_db()
    if request.htmx:
        return render(
            request, "rounds/round.html#seating", _round_context(tournament, round_, **extra)
        )
    return redirect("organiser:round", slug, number)


@login_required
@require_POST
def round_regenerate(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat a draft round again, by another method, seed or table split."""

    def regenerate(tournament: Tournament, round_: Round) -> str:
        form = SeatRoundForm(request.POST, splits=seating.splits_for(tournament))
        if not form.is_valid():
            raise UserError("choose a seating method and a seed (a whole number)")
        seed = form.cleaned_data["seed"]
        seating.regenerate_round(
            round_,
            method=form.cleaned_data["method"],
            seed=seed if seed is not None else round_.seed + 1,
            split=form.cleaned_data["split"],
        )
        return f"Round {number} seated again."

    return _round_change(request, slug, number, regenerate)


@login_required
@require_POST
def round_swap(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Swap two players of a draft round, or re-seat a started round's table."""

    def swap(tournament: Tournament, round_: Round) -> str:
        form = SwapForm(request.POST, players=Player.objects.filter(tournament=tournament))
        if not form.is_valid():
            raise UserError("choose the two players to swap")
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        swaps.swap_players(
            round_, first, second, reseat=form.cleaned_data["reseat"], by=request.user
        )
        return f"Swapped {first.name} and {second.name}."

    return _round_change(request, slug, number, swap)


@login_required
@require_POST
def round_start(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Start the round. While the round before has tables with no confirmed sheet, the
    first press shows the round again asking to confirm, naming those tables; the second
    press (``confirm`` set) starts it. Works without JavaScript: two plain POSTs."""
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    form = StartRoundForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("the seating on your page could not be read: reload the page")
        round_service.start_round(
            round_,
            seating=form.cleaned_data["seating"] or None,
            despite_unfinished=form.cleaned_data["confirm"],
        )
    except round_service.PreviousRoundUnfinished as unfinished:
        context = _round_context(tournament, round_, confirm_start=unfinished)
        return render(request, "rounds/round.html", context)
    except UserError as error:
        messages.error(request, _about_round(number, str(error)))
    else:
        messages.success(request, f"Round {number} has started: print the score sheets.")
    return redirect("organiser:round", slug, number)


@login_required
@require_POST
def round_release(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Release the round's results. While tables of the round have no confirmed sheet,
    the first press shows the round again asking to confirm, naming those tables (their
    players would show as "no result yet"); the second press (``confirm`` set) releases
    it. Works without JavaScript: two plain POSTs, as Start does."""
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    form = ReleaseRoundForm(request.POST)
    confirmed = form.is_valid() and form.cleaned_data["confirm"]
    extra: dict[str, object] = {}
    try:
        round_service.release_round(round_, despite_missing=confirmed)
    except round_service.TablesWithoutResult as missing:
        extra["confirm_release"] = missing
    except UserError as error:
        messages.error(request, _about_round(number, str(error)))
        extra["failed"] = True
    else:
        messages.success(request, f"Round {number}'s confirmed results are now public.")
    round_.refresh_from_db()
    if request.htmx:
        return render(
            request, "rounds/round.html#seating", _round_context(tournament, round_, **extra)
        )
    if "confirm_release" in extra:
        return render(request, "rounds/round.html", _round_context(tournament, round_, **extra))
    return redirect("organiser:round", slug, number)


@login_required
@require_POST
def round_withhold(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def withhold(tournament: Tournament, round_: Round) -> str:
        round_service.withhold_round(round_)
        return f"Round {number}'s results are hidden from the public."

    return _round_change(request, slug, number, withhold)


def _reprint(tournament: Tournament, round_: Round, table: int | None = None) -> str:
    url = reverse("print:sheets", args=[tournament.slug, round_.number])
    return f"{url}?table={table}" if table is not None else url


@login_required
@require_POST
def table_new_code(request: HtmxHttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A new code for one table, say after its sheet's code was seen by the wrong table."""

    def renew(tournament: Tournament, round_: Round) -> SafeString:
        table_ = Table.objects.filter(round=round_, number=table).first()
        if table_ is None:
            raise Http404("No such table")
        code = shown_code(table_service.renew_code(table_))
        return format_html(
            'Round {round}, table {table} has a new code: <strong class="table-code">{code}'
            "</strong>. The old code no longer opens its sheet: "
            '<a href="{url}">print table {table}’s score sheet again</a>.',
            round=number,
            table=table,
            code=code,
            url=_reprint(tournament, round_, table),
        )

    return _round_change(request, slug, number, renew)


@login_required
@require_POST
def round_new_codes(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """New codes for every table of the round."""

    def renew(tournament: Tournament, round_: Round) -> SafeString:
        count = table_service.renew_codes(round_)
        return format_html(
            "Every table of round {round} has a new code ({count} table{s}). The old codes "
            'no longer open their sheets: <a href="{url}">print the score sheets again</a>.',
            round=number,
            count=count,
            s="" if count == 1 else "s",
            url=_reprint(tournament, round_),
        )

    return _round_change(request, slug, number, renew)
