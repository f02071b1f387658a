"""The round clock: how long the players have left in a started round.

Terms:

- *running*: the clock ends at ``Round.clock_ends``; every screen counts down to that
  time, correcting for its own clock's offset from the server's.
- *paused*: ``Round.clock_left`` seconds remain; resuming sets a new end that far from now.
- *not started*: both are empty. Only a started round's clock may be set going, for the
  tournament's ``round_minutes``.
- *over*: a running clock whose end has passed: "Time — finish the rotation you are in".
  Play is not stopped by the clock; the rotation in progress is finished.

Each change locks the round (``locks.lock_round``) and saves the two clock fields with
``update_fields``, which clears the public pages' cache (``shared.public_changes``), so every screen
sees the change at its next poll.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import Round
from tournament.shared.locks import lock_round

# "Add minutes" takes 1 to this many at a time: two hours is past any pub's closing.
MAX_ADD_MINUTES = 120
_CLOCK_FIELDS = ["clock_ends", "clock_left"]


@dataclass(frozen=True)
class ClockState:
    """The clock of one round at one moment, as every screen shows it."""

    # Whole seconds left (0 once over); None when the clock has not been started.
    remaining: int | None
    # When a running clock ends; None when paused or not started.
    ends_at: datetime | None
    paused: bool

    @property
    def started(self) -> bool:
        return self.remaining is not None

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    @property
    def over(self) -> bool:
        return self.running and self.remaining == 0

    @property
    def minutes_left(self) -> int:
        """Minutes left, rounded up: "12 min left" until the last second of the 12th."""
        return -(-(self.remaining or 0) // 60)


def clock_state(round_: Round, now: datetime | None = None) -> ClockState:
    now = now or timezone.now()
    if round_.clock_ends is not None:
        left = (round_.clock_ends - now).total_seconds()
        return ClockState(
            remaining=max(0, int(-(-left // 1))), ends_at=round_.clock_ends, paused=False
        )
    if round_.clock_left is not None:
        return ClockState(remaining=round_.clock_left, ends_at=None, paused=True)
    return ClockState(remaining=None, ends_at=None, paused=False)


def _changed_clock(round_id: int, change: str) -> Round:
    """The round locked for a clock change, refused unless it has started."""
    round_ = lock_round(round_id)
    if not round_.started:
        raise UserError(
            f"round {round_.number} has not started: start the round before its clock "
            f"(the clock cannot {change} yet)"
        )
    return round_


def start_clock(round_: Round) -> Round:
    """Set the clock going for the tournament's round length from now; starting it again
    starts it afresh."""
    with transaction.atomic():
        round_ = _changed_clock(round_.pk, "start")
        if round_.released:
            raise UserError(
                f"round {round_.number}'s results are released: its play is over, so no "
                "screen shows its clock"
            )
        minutes = round_.tournament.round_minutes
        round_.clock_ends = timezone.now() + timedelta(minutes=minutes)
        round_.clock_left = None
        round_.save(update_fields=_CLOCK_FIELDS)
    return round_


def pause_clock(round_: Round) -> Round:
    with transaction.atomic():
        round_ = _changed_clock(round_.pk, "be paused")
        state = clock_state(round_)
        if state.paused:
            raise UserError(f"round {round_.number}'s clock is already paused")
        if not state.running:
            raise UserError(f"round {round_.number}'s clock has not been started: start it first")
        if state.over:
            raise UserError(f"round {round_.number}'s time is already up: add minutes instead")
        round_.clock_ends, round_.clock_left = None, state.remaining
        round_.save(update_fields=_CLOCK_FIELDS)
    return round_


def resume_clock(round_: Round) -> Round:
    with transaction.atomic():
        round_ = _changed_clock(round_.pk, "be resumed")
        if round_.clock_left is None:
            raise UserError(f"round {round_.number}'s clock is not paused")
        round_.clock_ends = timezone.now() + timedelta(seconds=round_.clock_left)
        round_.clock_left = None
        round_.save(update_fields=_CLOCK_FIELDS)
    return round_


def add_minutes(round_: Round, minutes: int) -> Round:
    """More time, running or paused; a clock whose time is up runs again from now."""
    if not 1 <= minutes <= MAX_ADD_MINUTES:
        raise UserError(
            f"add between 1 and {MAX_ADD_MINUTES} minutes to round {round_.number}'s clock, "
            f"not {minutes}"
        )
    with transaction.atomic():
        round_ = _changed_clock(round_.pk, "have minutes added")
        state = clock_state(round_)
        if state.paused:
            round_.clock_left = (round_.clock_left or 0) + minutes * 60
        elif state.running:
            base = max(round_.clock_ends or timezone.now(), timezone.now())
            round_.clock_ends = base + timedelta(minutes=minutes)
        else:
            raise UserError(f"round {round_.number}'s clock has not been started: start it first")
        round_.save(update_fields=_CLOCK_FIELDS)
    return round_


def reset_clock(round_: Round) -> Round:
    """Back to not started: the screens stop showing a clock."""
    with transaction.atomic():
        round_ = _changed_clock(round_.pk, "be reset")
        round_.clock_ends = round_.clock_left = None
        round_.save(update_fields=_CLOCK_FIELDS)
    return round_
