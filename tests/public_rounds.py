"""A published tournament whose round 2 is being played, for the tests of what the public
pages show of a started round (tests/public/)."""

from __future__ import annotations

from tournament.models import Bye, Player, Round, Seat
from tournament.shared import public_changes


def playing(make_played, *, players=12, slug="test-open", **fields):
    """A published tournament whose round 1 is released and round 2 started and played
    (every sheet confirmed) but not released, with a late arrival sitting round 2 out."""
    tournament = make_played(players=players, rounds=2, slug=slug, **fields)
    Round.objects.filter(tournament=tournament, number=2).update(released=False)
    late = Player.objects.create(tournament=tournament, ref="late", name="Late Larkin")
    Bye.objects.create(round=Round.objects.get(tournament=tournament, number=2), player=late)
    public_changes.mark_changed(tournament.pk)
    return tournament


def seat(tournament, table, position):
    return Seat.objects.select_related("player", "table").get(
        round__tournament=tournament, round__number=2, table__number=table, position=position
    )


def html(response):
    assert response.status_code == 200
    return response.content.decode()
