"""The round clock on a page (``rounds.clock``): its state for a round, and the
server's time for the page's script to correct the screen's clock by."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from tournament.models import Round, Tournament
from tournament.public.cache import NOW_MARKER, instant
from tournament.rounds.clock import ClockState, clock_state

register = template.Library()


@register.simple_tag
def clock_of(round_: Round) -> ClockState:
    return clock_state(round_)


@register.simple_tag
def public_round_clock(
    tournament: Tournament, number: int, round_: Any = None
) -> ClockState | None:
    """The clock of the tournament's round ``number`` while it is being played (started,
    results not released): from ``round_`` when the page has it, else one query."""
    if not isinstance(round_, Round):
        round_ = (
            Round.objects.filter(tournament=tournament, number=number)
            .only("started", "released", "clock_ends", "clock_left")
            .first()
        )
    if round_ is None or not round_.started or round_.released:
        return None
    return clock_state(round_)


register.filter("instant", instant)


@register.simple_tag(takes_context=True)
def server_now(context: dict[str, Any]) -> str:
    """Now, as the server sees it. A page served from the public cache writes a marker
    the cache replaces at each serving (``public.cache``): the page's own time would be
    as old as the cached copy."""
    request = context.get("request")
    if getattr(request, "stamps_now", False):
        return NOW_MARKER
    return instant(timezone.now())
