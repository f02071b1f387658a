"""The room's state for templates every public page shares (``public/_nav.html``), so
that each public view need not load it itself."""

from __future__ import annotations

from django import template

from tournament.models import Tournament
from tournament.public import room

register = template.Library()


@register.simple_tag(takes_context=True)
def seated_round_number(context: template.Context, tournament: Tournament) -> int | None:
    """The round being played whose seating is public, not yet released: the view's
    ``seated_number`` when it knows it already, else one query."""
    if "seated_number" in context:
        known: int | None = context["seated_number"]
        return known
    return room.seated_round_number(tournament)
