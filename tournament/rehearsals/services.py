"""Rehearsals: making one, asking for a round to be played, removing one.

Terms:

- a *rehearsal* is a tournament whose ``rehearsal_of`` names the tournament it copies:
  the same settings (scoring, rules, rotations, tiebreaks, seating and clock settings,
  sheets and table entry), the same players and pairs kept apart, none of its scorers,
  rounds or sheets, never published and in no series;
- its *private link* (``private_path``) opens its public pages for whoever has it: the
  token in it is set as a cookie for the rehearsal's pages (``shared.permissions``);
- the slow part of making one and of playing a round is a task (``rehearsals.tasks``)
  queued after the commit; ``rehearsal_work`` says meanwhile what it does.

An organiser keeps at most ``MAX_REHEARSALS`` at a time.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from scoring.errors import UserError
from tournament.kernel import limits
from tournament.models import Round, Tournament
from tournament.rehearsals.tasks import fill_rehearsal, play_rehearsal_round
from tournament.shared.tasks import enqueue_after_commit
from tournament.tournament_file.loading import delete_tournament

MAX_REHEARSALS = 3
# The fewest players a rehearsal seats: one table of three.
FEWEST_PLAYERS = 3
# Copied from the tournament rehearsed, as the organiser set them.
COPIED = (
    "date",
    "venue",
    "scoring",
    "rule_set",
    "house_rules",
    "rotations_per_round",
    "tiebreaks",
    "planned_rounds",
    "table_policy",
    "table_sizes",
    "bye_score",
    "keep_clubs_apart_rounds",
    "two_person_check",
    "hold_back_rounds",
    "seating_public",
    "round_minutes",
    "table_entry",
    "table_confirm",
)
COPYING = "copying the players and seating round 1"


class RehearsalRefused(UserError):
    pass


def rehearsals_of(user: Any) -> list[Tournament]:
    """The rehearsals ``user`` organises, newest first."""
    return list(
        Tournament.objects.filter(owner=user.pk)
        .exclude(rehearsal_token="")
        .select_related("rehearsal_of")
        .order_by("-created", "-pk")
    )


def rehearse(tournament: Tournament, user: Any) -> Tournament:
    """A new rehearsal of ``tournament`` by its organiser ``user``: the row now, its
    players and round 1 by the task worker once this commits."""
    if tournament.is_rehearsal:
        raise RehearsalRefused(
            "This is a rehearsal already: rehearse the tournament itself, from its Settings."
        )
    playing = tournament.players.filter(active=True).count()
    if playing < FEWEST_PLAYERS:
        raise RehearsalRefused(
            f"“{tournament.name}” has {playing} player{'s' if playing != 1 else ''} who "
            f"play: register at least {FEWEST_PLAYERS} before rehearsing it."
        )
    with transaction.atomic():
        # One at a time an organiser: two clicks at once never make a fourth.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        kept = Tournament.objects.filter(owner=user.pk).exclude(rehearsal_token="").count()
        if kept >= MAX_REHEARSALS:
            raise RehearsalRefused(
                f"You have {kept} rehearsals, the most one organiser keeps: remove one "
                "(its Overview has “Remove this rehearsal”) before making another."
            )
        rehearsal = Tournament(
            name=_name(tournament.name),
            slug=_free_slug(tournament.slug),
            owner=user,
            rehearsal_of=tournament,
            rehearsal_token=secrets.token_urlsafe(24),
            rehearsal_work=COPYING,
            **{field: getattr(tournament, field) for field in COPIED},
        )
        rehearsal.save()
        enqueue_after_commit(fill_rehearsal, rehearsal.pk)
    return rehearsal


def _name(name: str) -> str:
    suffix = " (rehearsal)"
    return name[: limits.NAME_MAX - len(suffix)] + suffix


def _free_slug(slug: str) -> str:
    for number in range(1, 1000):
        suffix = f"-rehearsal-{number}"
        candidate = slug[: limits.SLUG_MAX - len(suffix)] + suffix
        if not Tournament.objects.filter(slug=candidate).exists():
            return candidate
    return f"rehearsal-{secrets.token_hex(8)}"


def play(rehearsal: Tournament, number: int) -> None:
    """Ask for round ``number`` to be played: every sheet nobody has begun filled with the
    simulator's deals as entered at the table, by the task worker once this commits."""
    if not rehearsal.is_rehearsal:
        # The button is on rehearsals only: a real evening is never played by the simulator.
        raise RehearsalRefused("Only a rehearsal's rounds are played by the simulator.")
    if not rehearsal.table_entry:
        raise RehearsalRefused(
            "This rehearsal's tables cannot send their sheets: entry at the table is off in "
            "its Settings. Turn it on there to have the rounds played, or type the sheets at "
            "the round desk."
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=rehearsal.pk)
        if locked.rehearsal_work:
            raise RehearsalRefused(f"Wait a moment: the rehearsal is {locked.rehearsal_work}.")
        round_ = Round.objects.filter(tournament=locked, number=number).first()
        if round_ is None:
            raise RehearsalRefused(f"The rehearsal has no round {number}.")
        if not round_.started:
            raise RehearsalRefused(
                f"Round {number} has not started: start it (as on the night), then play it."
            )
        locked.rehearsal_work = f"playing round {number}"
        locked.save(update_fields=["rehearsal_work"])
        enqueue_after_commit(play_rehearsal_round, locked.pk, number)


def work_in_hand(rehearsal: Tournament) -> str:
    """What a task is still doing to the rehearsal ("" once done): the worker may have
    done it already, or not yet started."""
    return (
        Tournament.objects.filter(pk=rehearsal.pk).values_list("rehearsal_work", flat=True).first()
        or ""
    )


def remove(rehearsal: Tournament) -> str:
    """Delete the rehearsal with its players, rounds and sheets; its name."""
    if not rehearsal.is_rehearsal:
        raise RehearsalRefused("Only a rehearsal is removed here.")
    delete_tournament(rehearsal)
    return rehearsal.name


def private_path(rehearsal: Tournament) -> str:
    """The private link's address (the site's own part of it)."""
    return reverse("rehearsal_link", args=[rehearsal.slug, rehearsal.rehearsal_token])
