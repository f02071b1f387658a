"""Template filters for points as pages show them."""

from __future__ import annotations

from django import template

from tournament.kernel.numbers import shown
from tournament.players.adjustments import signed as signed_points

register = template.Library()


@register.filter
def signed(points: int) -> str:
    """A penalty's or an award's points with their sign: "+3", "−2" (a minus sign, as the
    standings show it, not a hyphen)."""
    return signed_points(points)


@register.filter
def minus(value: object) -> object:
    """A number as pages show it: "−3", not "-3" (``kernel.numbers.shown``)."""
    return shown(value)
