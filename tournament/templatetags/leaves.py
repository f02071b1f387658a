"""Template filters for the "A player left" fields of a sheet (tournament.sheets.pages.forms)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

register = template.Library()


@register.filter
def still_playing(seats: Iterable[Any], leaves: Iterable[Any]) -> list[Any]:
    """The seats that may still be chosen as leaving: those not already shown as left
    (``leaves``: ``ShownLeave`` or ``Leave``, each with its ``seat``)."""
    gone = {leave.seat for leave in leaves or ()}
    return [seat for seat in seats if seat.position not in gone]
