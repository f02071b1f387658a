"""Door check-in: the organiser's or a scorer's page that opens and closes the door,
and the door itself, the page on a tablet handed to the players (``services.door``).

The door pages are reached by the door address alone, logged in or not, and offer
nothing but finding a name, checking in and undoing it: no site header, no link to any
other page. A door address that does not open the door (forged, another tournament's,
closed, replaced, expired) gets a page saying so, with status 403.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import UserError
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import get_tournament_for_scorer
from tournament.public_cache import wants_fragment
from tournament.services import door as door_service
from tournament.views.printing import points_at_this_computer_only, qr_svg

# The staff side --------------------------------------------------------------------


@login_required
@require_GET
def setup(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    door = door_service.current_door(tournament)
    address = None
    if door is not None:
        # The address the tablet reaches, as on the printed sheets' QR codes.
        path = reverse("door:tablet", args=[slug, door.token])
        base = settings.PUBLIC_BASE_URL
        address = base + path if base else request.build_absolute_uri(path)
    context = {
        "tournament": tournament,
        "door": door,
        "address": address,
        "qr": qr_svg(address) if address else None,
        "this_computer_only": bool(address and points_at_this_computer_only(address)),
        "hours": door_service.DOOR_HOURS,
    }
    return render(request, "door/setup.html", context)


@login_required
@require_POST
def open_door(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    was_open = door_service.current_door(tournament) is not None
    door_service.open_door(tournament, request.user)  # type: ignore[arg-type]
    if was_open:
        messages.success(request, "The door has a new address: the old one no longer works.")
    else:
        messages.success(request, "The door is open: open its address on the tablet.")
    return redirect("door:setup", slug)


@login_required
@require_POST
def close_door(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    if door_service.close_door(tournament):
        messages.success(request, "The door is closed: its address no longer works.")
    else:
        messages.info(request, "The door was already closed.")
    return redirect("door:setup", slug)


@never_cache  # logged out by then, so not made private by the middleware
@login_required
@require_POST
def hand_over(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Turn this device into the door: log out here, then open the door's address, so
    that nobody at the tablet is logged in as the organiser or a scorer."""
    tournament = get_tournament_for_scorer(request, slug)
    token = door_service.door_token(tournament, request.user)  # type: ignore[arg-type]
    logout(request)
    return redirect("door:tablet", slug, token)


# The door --------------------------------------------------------------------------


def _refused(request: HtmxHttpRequest, refusal: door_service.DoorRefused) -> HttpResponse:
    response = render(request, "door/refused.html", {"reason": str(refusal)}, status=403)
    if request.htmx:
        # htmx swaps no error page: load the page again, which then says why.
        response["HX-Refresh"] = "true"
    return response


def _door_page(
    request: HtmxHttpRequest, tournament: Tournament, token: str, **context: object
) -> HttpResponse:
    context = {"tournament": tournament, "token": token, **context}
    if wants_fragment(request):
        region = "panel" if request.method == "POST" else "results"
        return render(request, f"door/tablet.html#{region}", context)
    return render(request, "door/tablet.html", context)


@never_cache
@require_GET
def tablet(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    try:
        tournament = door_service.tournament_at_door(slug, token)
    except door_service.DoorRefused as refusal:
        return _refused(request, refusal)
    query = request.GET.get("q", "")
    search = door_service.find_players(tournament, query) if query.strip() else None
    return _door_page(request, tournament, token, search=search)


def _tap(request: HtmxHttpRequest, slug: str, token: str, undo: bool) -> HttpResponse:
    try:
        tournament = door_service.tournament_at_door(slug, token)
    except door_service.DoorRefused as refusal:
        return _refused(request, refusal)
    act = door_service.undo_check_in if undo else door_service.check_in
    try:
        arrival = act(tournament, request.POST.get("player", ""))
    except UserError as mistake:
        return _door_page(request, tournament, token, mistake=str(mistake))
    return _door_page(request, tournament, token, arrival=arrival)


@never_cache
@require_POST
def check_in(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    return _tap(request, slug, token, undo=False)


@never_cache
@require_POST
def undo(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    return _tap(request, slug, token, undo=True)
