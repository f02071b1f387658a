"""Changing a tournament's settings once its rounds are under way.

A setting that the rounds' sheets depend on (the rotations per round: how many deals a
table plays) is checked against every sheet with every round locked (``services.locks``),
and saved before the locks are let go: a sheet saved at the same moment is either counted
by the check, or waits and is then checked against the new setting.

The other settings (scoring, tiebreaks, table policy and sizes, bye score, keeping clubs
apart) invalidate no stored sheet: the table policy and sizes apply to rounds seated
afterwards, the rest is applied when the standings are computed.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from scoring.errors import UserError
from tournament.models import Tournament
from tournament.services import sheets
from tournament.services.locks import lock_rounds


class SettingsRefusedError(UserError):
    """A setting that cannot be saved as it is; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(message)


def save_settings(tournament: Tournament, fields: Sequence[str]) -> Tournament:
    """Save ``fields`` of ``tournament`` as changed in memory (by the settings form). The
    other fields stay as stored: publishing in another tab meanwhile is not undone."""
    with transaction.atomic():
        lock_rounds(tournament.pk)
        stored = Tournament.objects.values_list("rotations_per_round", flat=True).get(
            pk=tournament.pk
        )
        if tournament.rotations_per_round < stored:
            too_many = sheets.deals_beyond_rotations(tournament, tournament.rotations_per_round)
            if too_many:
                raise SettingsRefusedError(
                    "rotations_per_round", sheets.rotations_refusal(stored, too_many)
                )
        tournament.save(update_fields=list(fields))
    return tournament


def set_published(tournament: Tournament, published: bool) -> None:
    """Show the tournament's released rounds to everyone, or to its organiser and scorers
    only. Only this field is written: a settings save meanwhile is not undone."""
    with transaction.atomic():
        tournament.published = published
        tournament.save(update_fields=["published"])
