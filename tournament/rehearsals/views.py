"""A rehearsal's pages: making one (from the new tournament page or Settings), playing a
round, removing one (after asking), and the private link that opens its public pages.

Every organiser's page fetches the tournament through
``permissions.get_tournament_for_organiser`` (404 for outsiders, 403 for its scorers);
writes go through ``rehearsals.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET, require_POST

from tournament.kernel.http import HtmxHttpRequest
from tournament.kernel.middleware import keep_private
from tournament.models import Tournament
from tournament.rehearsals import services as rehearsals
from tournament.rehearsals.forms import RehearseForm, RemoveForm
from tournament.shared.permissions import (
    REHEARSAL_COOKIE,
    check_may_organise,
    get_tournament_for_organiser,
)

# How long a phone that followed the private link keeps seeing the rehearsal.
LINK_DAYS = 30


@login_required
@require_POST
def rehearse(request: HtmxHttpRequest) -> HttpResponse:
    """Make a rehearsal of the tournament the form names; back where the button was when
    refused, with the reason."""
    check_may_organise(request)
    form = RehearseForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of your tournaments to rehearse.")
        return redirect("organiser:create")
    tournament = get_tournament_for_organiser(request, form.cleaned_data["tournament"])
    try:
        rehearsal = rehearsals.rehearse(tournament, request.user)
    except rehearsals.RehearsalRefused as refused:
        messages.error(request, str(refused))
        if form.cleaned_data["came_from"] == RehearseForm.SETTINGS:
            return redirect("organiser:edit", tournament.slug)
        return redirect("organiser:create")
    made = f"Made “{rehearsal.name}”, a private copy of “{tournament.name}”."
    if rehearsals.work_in_hand(rehearsal):
        messages.success(request, f"{made} Its players and round 1 are being worked out.")
    else:
        messages.success(
            request,
            f"{made} Start round 1, then “Play this round” fills its sheets as the tables would.",
        )
    return redirect("organiser:dashboard", rehearsal.slug)


@login_required
@require_POST
def play(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    rehearsal = get_tournament_for_organiser(request, slug)
    try:
        rehearsals.play(rehearsal, number)
    except rehearsals.RehearsalRefused as refused:
        messages.error(request, str(refused))
    else:
        if rehearsals.work_in_hand(rehearsal):
            messages.success(request, f"Round {number} is being played by the tables.")
        else:
            messages.success(
                request,
                f"Round {number} is played: its sheets are entered, awaiting your confirmation "
                "at the round desk.",
            )
    return redirect("organiser:round", slug, number)


@login_required
@require_POST
def remove(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Remove the rehearsal once the organiser has said yes on the page this asks."""
    rehearsal = get_tournament_for_organiser(request, slug)
    if not rehearsal.is_rehearsal:
        raise Http404("No such rehearsal")
    form = RemoveForm(request.POST)
    if not (form.is_valid() and form.cleaned_data["confirm"]):
        return render(request, "rehearsals/remove.html", {"tournament": rehearsal})
    original = rehearsal.rehearsal_of
    name = rehearsals.remove(rehearsal)
    messages.success(request, f"Removed “{name}”.")
    if original is not None:
        return redirect("organiser:edit", original.slug)
    return redirect("organiser:home")


@require_GET
def private_link(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    """The rehearsal's private link: remembers it (a cookie for the rehearsal's pages) and
    opens its standings. Any other token is a 404, as a tournament that does not exist."""
    rehearsal = Tournament.objects.filter(slug=slug).exclude(rehearsal_token="").first()
    if rehearsal is None or not constant_time_compare(token, rehearsal.rehearsal_token):
        raise Http404("No such tournament")
    keep_private(request)
    response = redirect("standings", rehearsal.slug)
    response.set_cookie(
        REHEARSAL_COOKIE,
        rehearsal.rehearsal_token,
        max_age=LINK_DAYS * 24 * 60 * 60,
        path=f"/t/{rehearsal.slug}/",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response
