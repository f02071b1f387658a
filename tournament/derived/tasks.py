"""The tasks of the derived state, run by the task worker (``manage.py run_worker``):

- ``derive_views``: work out a tournament's views (a page found one missing, the
  worker's sweep found one behind), then ask for the chances where they are wanted;
- ``work_out_chances``: the podium chances of a tournament's public view, one at a time
  a tournament (a claim), stopping between blocks of finishes when the view's chances
  key moved on, and working out the newest before it lets go.

Priorities: the views first, then the chances; the format advisor's questions after
both (``tournaments.advisor``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django_tasks import task

from tournament.derived.build import work_out_views
from tournament.derived.chances import work_out
from tournament.models import DerivedView, PodiumChances, Tournament
from tournament.shared import public_changes
from tournament.shared.derived import PUBLIC, load_view
from tournament.shared.tasks import beat, claim, enqueue_once

VIEWS_PRIORITY = 50
CHANCES_PRIORITY = 40


@task(priority=VIEWS_PRIORITY)
def derive_views(tournament_id: int) -> str:
    worked = work_out_views(tournament_id)
    if worked.chances_wanted:
        enqueue_once(work_out_chances, tournament_id)
    return "changed" if worked.public_changed else "unchanged"


def _wanted_key(tournament_id: int) -> str:
    return (
        DerivedView.objects.filter(tournament_id=tournament_id, kind=PUBLIC)
        .values_list("chances_key", flat=True)
        .first()
        or ""
    )


def _stored(tournament_id: int, key: str) -> bool:
    return PodiumChances.objects.filter(tournament_id=tournament_id, fingerprint=key).exists()


def chances_wanted(tournament_id: int) -> bool:
    key = _wanted_key(tournament_id)
    return bool(key) and not _stored(tournament_id, key)


@task(priority=CHANCES_PRIORITY)
def work_out_chances(tournament_id: int) -> str:
    claim_key = f"chances:{tournament_id}"
    outcome = "none wanted"
    while True:
        with claim(claim_key) as held:
            if not held:
                return "left to the task working them out"
            outcome = _until_current(tournament_id, claim_key)
        # A change that came while the claim was held found it taken and left the work
        # to this task: checked once more now the claim is free.
        if not chances_wanted(tournament_id):
            return outcome


def _until_current(tournament_id: int, claim_key: str) -> str:
    while True:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return "no such tournament"
        key = _wanted_key(tournament_id)
        if not key:
            return "none wanted"
        if _stored(tournament_id, key):
            return "stored already"

        def keep_going(key: str = key) -> bool:
            beat(claim_key)
            return _wanted_key(tournament_id) == key

        if store_chances(tournament_id, keep_going=keep_going):
            return "worked out"


def store_chances(
    tournament_id: int,
    *,
    keep_going: Callable[[], bool] | None = None,
    move_generation: bool = True,
) -> bool:
    """Work out and store the chances of the tournament's public view as it stands,
    moving the page generation so the pages show them; False when the view moved on
    meanwhile (nothing stored)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    state = load_view(tournament, PUBLIC)
    if state is None or not state.chances_key:
        return False
    key = state.chances_key
    figures = work_out(tournament, state, keep_going=keep_going)
    if figures is None:
        return False
    with transaction.atomic():
        if _wanted_key(tournament_id) != key:
            return False
        PodiumChances.objects.update_or_create(
            tournament=tournament, defaults={"fingerprint": key, "figures": figures}
        )
        if move_generation:
            public_changes.mark_page_changed(tournament_id)
    return True
