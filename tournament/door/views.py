"""Door check-in: the organiser's or a scorer's page that opens and closes the door,
and the door itself, the page on a tablet handed to the players (``door.services``).

The door pages are reached by the door address alone, logged in or not, and offer
nothing but finding a name, checking in and undoing it: no site header, no link to any
other page. A door address that does not open the door (forged, another tournament's,
closed, replaced, expired) gets a page saying so, with status 403; a network that has
searched or tapped too often gets the door page saying so, with status 429 (htmx swaps
it in: templates/door/base.html). The tablet's session remembers which players the door has
just checked in, and when, so that Undo takes back only those (``door.services``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import UserError
from tournament.door import limits as door_limits
from tournament.door import services as door_service
from tournament.kernel.http import HtmxHttpRequest, wants_fragment
from tournament.printing.qr import points_at_this_computer_only, qr_svg
from tournament.shared.permissions import get_tournament_for_scorer

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
    now = timezone.now()
    context = {
        "tournament": tournament,
        "door": door,
        "address": address,
        "qr": qr_svg(address) if address else None,
        "this_computer_only": bool(address and points_at_this_computer_only(address)),
        "hours": door_service.DOOR_HOURS,
        # When a door opened now would close itself, for each choice.
        "closes_today": door_service.closing_time(now, door_service.Closing.TODAY),
        "closes_in_hours": door_service.closing_time(now, door_service.Closing.HOURS),
    }
    return render(request, "door/setup.html", context)


# What the open form's "closes" field may say; "same" is the New address button's.
_CLOSINGS = {closing.value: closing for closing in door_service.Closing}


@login_required
@require_POST
def open_door(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_scorer(request, slug)
    closes = request.POST.get("closes", door_service.Closing.TODAY.value)
    if closes == "same":
        if door_service.new_address(tournament, request.user) is None:  # type: ignore[arg-type]
            messages.error(request, "The door had closed: open it again below.")
        else:
            messages.success(request, "The door has a new address: the old one no longer works.")
        return redirect("door:setup", slug)
    if closes not in _CLOSINGS:
        messages.error(
            request,
            "Door check-in: choose when the door closes itself (at midnight or after "
            f"{door_service.DOOR_HOURS} hours), then open it.",
        )
        return redirect("door:setup", slug)
    was_open = door_service.current_door(tournament) is not None
    door = door_service.open_door(tournament, request.user, _CLOSINGS[closes])  # type: ignore[arg-type]
    closes_at = timezone.localtime(door.closes_at)
    until = f"it closes itself at {closes_at:%H:%M}"
    if was_open:
        messages.success(
            request, f"The door has a new address ({until}): the old one no longer works."
        )
    else:
        messages.success(request, f"The door is open ({until}): open its address on the tablet.")
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

# The players this tablet checked in, and when: {player id: ISO time}.
_CHECKED_IN = "door_checked_in"
_REMEMBERED_MINUTES = 10


def _checked_in_here(request: HtmxHttpRequest) -> dict[int, datetime]:
    """The door's own check-ins from this tablet in the last ten minutes (older ones
    are forgotten). Undo takes back only those of the last ``UNDO_SECONDS``; the rest
    are kept so that a late Undo says it is too late."""
    since = timezone.now() - timedelta(minutes=_REMEMBERED_MINUTES)
    recent: dict[int, datetime] = {}
    for pk, when in (request.session.get(_CHECKED_IN) or {}).items():
        try:
            at = datetime.fromisoformat(when)
        except (TypeError, ValueError):
            continue
        if at >= since:
            recent[int(pk)] = at
    return recent


def _remember(request: HtmxHttpRequest, recent: dict[int, datetime]) -> None:
    request.session[_CHECKED_IN] = {str(pk): at.isoformat() for pk, at in recent.items()}


def _refused(request: HtmxHttpRequest, refusal: door_service.DoorRefused) -> HttpResponse:
    response = render(request, "door/refused.html", {"reason": str(refusal)}, status=403)
    if request.htmx:
        # htmx swaps no error page: load the page again, which then says why.
        response["HX-Refresh"] = "true"
    return response


def _door_page(
    request: HtmxHttpRequest, at: door_service.AtDoor, status: int = 200, **context: object
) -> HttpResponse:
    context = {
        "tournament": at.tournament,
        "token": at.door.token,
        "as_typed": door_service.names_as_typed(at.tournament),
        "return_after": door_service.UNDO_SECONDS,
        "too_late": door_service.TOO_LATE,
        **context,
    }
    if wants_fragment(request):
        region = "panel" if request.method == "POST" else "results"
        return render(request, f"door/tablet.html#{region}", context, status=status)
    return render(request, "door/tablet.html", context, status=status)


@never_cache
@require_GET
def tablet(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    try:
        at = door_service.tournament_at_door(slug, token)
    except door_service.DoorRefused as refusal:
        return _refused(request, refusal)
    query = request.GET.get("q", "")
    if not query.strip():
        return _door_page(request, at, search=None)
    too_many = door_limits.search_limit(request, at)
    if too_many:
        return _door_page(request, at, status=429, too_many=too_many)
    return _door_page(request, at, search=door_service.find_players(at, query))


@never_cache
@require_POST
def check_in(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    try:
        at = door_service.tournament_at_door(slug, token)
    except door_service.DoorRefused as refusal:
        return _refused(request, refusal)
    too_many = door_limits.tap_limit(request, at, door_limits.Tap.CHECK_IN)
    if too_many:
        return _door_page(request, at, status=429, mistake=too_many)
    try:
        arrival = door_service.check_in(at, request.POST.get("player", ""))
    except UserError as mistake:
        return _door_page(request, at, mistake=str(mistake))
    if arrival.outcome == "checked_in":
        # The time of the check-in itself: a tap on another tablet just after it is later.
        when = arrival.checked_in_at or timezone.now()
        _remember(request, {**_checked_in_here(request), arrival.player.pk: when})
    return _door_page(request, at, arrival=arrival)


@never_cache
@require_POST
def undo(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    try:
        at = door_service.tournament_at_door(slug, token)
    except door_service.DoorRefused as refusal:
        return _refused(request, refusal)
    too_many = door_limits.tap_limit(request, at, door_limits.Tap.UNDO)
    if too_many:
        return _door_page(request, at, status=429, mistake=too_many)
    recent = _checked_in_here(request)
    try:
        arrival = door_service.undo_check_in(at, request.POST.get("player", ""), recent)
    except UserError as mistake:
        return _door_page(request, at, mistake=str(mistake))
    if arrival.outcome == "undone":
        recent.pop(arrival.player.pk, None)
        _remember(request, recent)
    return _door_page(request, at, arrival=arrival)
