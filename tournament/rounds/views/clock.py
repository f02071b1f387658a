"""The organiser's round clock: one view for each button (start, pause, resume, add
minutes, clear), each a ``rounds.clock`` change.

Every view fetches the tournament through ``permissions.get_tournament_for_organiser``
(404 for outsiders, 403 for the tournament's scorers). An htmx post gets the clock's
controls back (``rounds/_clock.html``); a plain post goes back to the round page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.http import require_POST

from scoring.errors import UserError
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Round
from tournament.rounds import clock
from tournament.shared.permissions import get_round, get_tournament_for_organiser


def _clock_change(
    request: HtmxHttpRequest, slug: str, number: int, change: Callable[[Round], str]
) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    try:
        messages.success(request, change(round_))
    except UserError as error:
        text = str(error)
        named = text.casefold().startswith(f"round {number}")
        messages.error(request, capfirst(text) + "." if named else f"Round {number}: {text}.")
    if request.htmx:
        round_.refresh_from_db()
        context = {
            "tournament": tournament,
            "round": round_,
            "max_add_minutes": clock.MAX_ADD_MINUTES,
        }
        return render(request, "rounds/_clock.html", context)
    return redirect("organiser:round", slug, number)


@login_required
@require_POST
def clock_start(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def start(round_: Round) -> str:
        round_ = clock.start_clock(round_)
        return f"Round {number}'s clock is running: {round_.tournament.round_minutes} minutes."

    return _clock_change(request, slug, number, start)


@login_required
@require_POST
def clock_pause(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def pause(round_: Round) -> str:
        state = clock.clock_state(clock.pause_clock(round_))
        return f"Round {number}'s clock is paused with {state.minutes_left} min left."

    return _clock_change(request, slug, number, pause)


@login_required
@require_POST
def clock_resume(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def resume(round_: Round) -> str:
        clock.resume_clock(round_)
        return f"Round {number}'s clock is running again."

    return _clock_change(request, slug, number, resume)


def _minutes(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise UserError(
            f"type the minutes to add as a whole number from 1 to {clock.MAX_ADD_MINUTES}"
        ) from None


@login_required
@require_POST
def clock_add(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def add(round_: Round) -> str:
        minutes = _minutes(request.POST.get("minutes", "")[:20])
        clock.add_minutes(round_, minutes)
        return f"{minutes} minute{'s' if minutes != 1 else ''} added to round {number}'s clock."

    return _clock_change(request, slug, number, add)


@login_required
@require_POST
def clock_reset(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    def reset(round_: Round) -> str:
        clock.reset_clock(round_)
        return f"Round {number}'s clock is cleared: the screens no longer show it."

    return _clock_change(request, slug, number, reset)
