"""What the public pages show of a tournament's results: its public view, read.

The public view (``shared.derived``: released rounds and confirmed sheets only, worked
out once per change by ``derived``) holds every number these pages show: the standings,
each player's rank after each round, each released round's tables, the tables without
a result and the podium chances. A page reads it and never works out a rank, points or
chances itself. While it is missing (a new installation, a worker behind) the page says
the results are being worked out and asks for them (``BeingWorkedOut``).
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.standings import StandingRow
from tournament.models import Round, Tournament
from tournament.shared.derived import (
    DerivedState,
    RoundResults,
    ask_for_views,
    public_view,
    rank_label,
    round_results,
)


class BeingWorkedOut(Exception):
    """The tournament's public view is not worked out yet: the page says so."""

    def __init__(self, tournament: Tournament) -> None:
        super().__init__(tournament.slug)
        self.tournament = tournament


def public_results(tournament: Tournament) -> DerivedState:
    """The public view of ``tournament`` (asked for when missing or behind);
    ``BeingWorkedOut`` while there is none."""
    state = public_view(tournament)
    if state is None:
        raise BeingWorkedOut(tournament)
    return state


def public_round_results(tournament: Tournament, number: int) -> RoundResults:
    """The tables and byes of released round ``number``; ``BeingWorkedOut`` while the
    public view does not hold them yet (a round released a moment ago)."""
    public_results(tournament)
    found = round_results(tournament, number)
    if found is None:
        ask_for_views(tournament.pk)
        raise BeingWorkedOut(tournament)
    return found


def released_round_numbers(tournament: Tournament) -> list[int]:
    return list(
        Round.objects.filter(tournament=tournament, released=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def podium(rows: Iterable[StandingRow]) -> list[tuple[str, StandingRow]]:
    """The winner and runners-up (ranks 1 to 3) with their rank labels ("=2")."""
    return [(rank_label(row), row) for row in rows if row.rank is not None and row.rank <= 3]
