"""Penalties and awards: points the organiser adds to or takes from a player's total for a
round, with the reason ("misdeal", "slow play", "dispute settled").

Terms:

- *adjustment*: one penalty (negative points) or award, in the tournament's scoring
  system, for one player in one round (``Adjustment``). The standings add it to that
  round's total (``scoring.tallies`` says which tiebreaks count it); the public pages
  count it once the round is released.
- *removed*: an adjustment taken back. Its row stays, with who removed it and when, so
  that the player's page keeps the whole history; the standings no longer count it.

Only the tournament's organiser (or a superuser) gives or removes one. A scorer enters
and confirms what a table played; a penalty is the organiser's ruling on top of it, so a
scorer may not (``may_adjust``).

Both changes hold the round as a sheet being saved holds it (``locks.hold_round``), then
the tournament row (``lock_tournaments``; ``public_changes.mark_changed`` writes it when
the round is released): a sheet confirmed at the same moment and a penalty both land,
in the order of ``shared.locks`` (rounds, then sheets, then the tournament), and a
release meanwhile waits for either. The same penalty sent twice by the same person a
moment apart (a double click) is recorded once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User as Account
from django.db import transaction
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from scoring.errors import UserError
from tournament.kernel import limits
from tournament.kernel.names import text_problem
from tournament.models import Adjustment, Player, Round, Tournament
from tournament.shared import public_changes
from tournament.shared.locks import hold_round, lock_tournaments
from tournament.shared.permissions import User, is_organiser

# What the form suggests for a reason; any other reason is fine.
SUGGESTED_REASONS = ("misdeal", "slow play", "dispute settled")
# The same penalty given (or removed) again by the same person within this many seconds
# is a double click or a form sent twice, not a second penalty.
REPEAT_SECONDS = 10


class AdjustmentError(UserError):
    """A penalty or award that cannot be recorded as given; ``field`` names the input at
    fault (``player``, ``round``, ``points``, ``reason``), empty for the whole of it."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def may_adjust(user: User, tournament: Tournament) -> bool:
    """Only the tournament's organiser (and superusers): not its scorers."""
    return is_organiser(user, tournament)


@dataclass(frozen=True)
class NewAdjustment:
    player_id: int
    round_number: int
    points: int
    reason: str


def not_started(number: int) -> str:
    """Why round ``number``, not started, takes no penalty or award (the tournament
    file's import says the same)."""
    return (
        f"round {number} has not started yet: a penalty or award is given in a round being "
        "played or already played"
    )


def _checked(tournament: Tournament, given: NewAdjustment) -> tuple[Player, Round, str]:
    """The player and round of ``given`` and its reason as stored, or the first problem."""
    player = Player.objects.filter(tournament=tournament, pk=given.player_id).first()
    if player is None:
        raise AdjustmentError("not a player of this tournament", "player")
    round_ = Round.objects.filter(tournament=tournament, number=given.round_number).first()
    if round_ is None:
        raise AdjustmentError(f"the tournament has no round {given.round_number}", "round")
    if not round_.started:
        raise AdjustmentError(not_started(round_.number), "round")
    points = given.points
    if isinstance(points, bool) or not isinstance(points, int):
        raise AdjustmentError("give a whole number of points, such as -2 or 3", "points")
    if points == 0:
        raise AdjustmentError(
            "0 points changes nothing: give a penalty below 0 (such as -2) or an award above 0",
            "points",
        )
    if abs(points) > limits.ADJUSTMENT_MAX:
        raise AdjustmentError(
            f"at most {limits.ADJUSTMENT_MAX} points either way "
            f"(from -{limits.ADJUSTMENT_MAX} to {limits.ADJUSTMENT_MAX})",
            "points",
        )
    reason = " ".join(given.reason.split())
    if not reason:
        raise AdjustmentError("say why, for example “misdeal” or “slow play”", "reason")
    if len(reason) > limits.REASON_MAX:
        raise AdjustmentError(
            f"at most {limits.REASON_MAX} characters (this one has {len(reason)})", "reason"
        )
    problem = text_problem(reason, "reason")
    if problem:
        raise AdjustmentError(problem, "reason")
    return player, round_, reason


def _refuse_unless_organiser(user: User, tournament: Tournament) -> None:
    if not may_adjust(user, tournament):
        raise AdjustmentError(
            "only the tournament's organiser gives or removes penalties and awards"
        )


@dataclass(frozen=True)
class Done:
    """A penalty or award given or removed; ``repeated`` when the same person had just
    done the very same (a double click, a form sent twice): nothing new was written."""

    adjustment: Adjustment
    repeated: bool = False


def _just_now(moment: datetime | None) -> bool:
    return moment is not None and timezone.now() - moment < timedelta(seconds=REPEAT_SECONDS)


def add_adjustment(tournament: Tournament, given: NewAdjustment, user: User) -> Done:
    """Record a penalty or award, by ``user`` now; ``AdjustmentError`` names the field at
    fault. The same one by the same person a moment ago is that one, not a second."""
    _refuse_unless_organiser(user, tournament)
    with transaction.atomic():
        player, round_, reason = _checked(tournament, given)
        round_ = hold_round(round_.pk)
        # Two of the organiser's requests at once wait here for each other (the round is
        # held first, as everywhere), so that the second sees the first.
        lock_tournaments([tournament.pk])
        account = _account(user)
        same = (
            Adjustment.objects.filter(
                player=player,
                round=round_,
                points=given.points,
                reason=reason,
                created_by=account,
                removed_at__isnull=True,
            )
            .order_by("-created")
            .first()
        )
        if same is not None and account is not None and _just_now(same.created):
            return Done(same, repeated=True)
        adjustment = Adjustment.objects.create(
            tournament=tournament,
            player=player,
            round=round_,
            points=given.points,
            reason=reason,
            created_by=account,
        )
        if round_.released:
            public_changes.mark_changed(tournament.pk)
    return Done(adjustment)


def remove_adjustment(tournament: Tournament, adjustment_id: int, user: User) -> Done:
    """Take a penalty or award back, by ``user`` now; its row stays in the history.
    Removing one already removed is refused, saying by whom and when, unless the same
    person removed it a moment ago (a double click)."""
    _refuse_unless_organiser(user, tournament)
    with transaction.atomic():
        found = Adjustment.objects.filter(tournament=tournament, pk=adjustment_id).first()
        if found is None:
            raise AdjustmentError("no such penalty or award in this tournament")
        round_ = hold_round(found.round_id)
        # Nothing joined: PostgreSQL locks no row of an outer join's nullable side.
        adjustment = Adjustment.objects.select_for_update().get(pk=found.pk)
        account = _account(user)
        if adjustment.removed_at is not None:
            by_them = account is not None and adjustment.removed_by_id == account.pk
            if by_them and _just_now(adjustment.removed_at):
                return Done(adjustment, repeated=True)
            raise AdjustmentError(
                f"the {described(adjustment)} for {adjustment.player.name} in round "
                f"{round_.number} was removed already, by {who(adjustment.removed_by)} "
                f"at {timezone.localtime(adjustment.removed_at):%H:%M on %d %b}"
            )
        adjustment.removed_at = timezone.now()
        adjustment.removed_by = account
        adjustment.save(update_fields=["removed_at", "removed_by"])
        if round_.released:
            public_changes.mark_changed(tournament.pk)
    return Done(adjustment)


def _account(user: User) -> Account | None:
    """The account to record as giving or removing (the installation's ``User``)."""
    return user if isinstance(user, Account) else None


def described(adjustment: Adjustment) -> str:
    """ "penalty of −2 (misdeal)" (a minus sign, as every page shows it) or "award of +3
    (dispute settled)"."""
    kind = "penalty" if adjustment.points < 0 else "award"
    return f"{kind} of {signed(adjustment.points)} ({adjustment.reason})"


def signed(points: int) -> str:
    """ "+3", "−2" (a minus sign, not a hyphen), "0": points as every page shows them."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def who(user: object) -> str:
    """The account's name as the history shows it; "an account since deleted" for none."""
    if user is None:
        return "an account since deleted"
    return str(getattr(user, "get_username", lambda: user)())


def with_adjustments(players: QuerySet[Player]) -> QuerySet[Player]:
    """``players``, each with ``adjusted``: the sum of their penalties and awards in force
    (None for none), in the same query."""
    return players.annotate(
        adjusted=Sum("adjustments__points", filter=Q(adjustments__removed_at__isnull=True))
    )


def player_adjustments(player: Player) -> list[Adjustment]:
    """Every penalty and award of ``player``, removed ones too, in round order: one query."""
    return list(
        Adjustment.objects.filter(player=player).select_related("round", "created_by", "removed_by")
    )
