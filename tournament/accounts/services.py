"""Login lockouts: who is locked out, until when, and unlocking a scorer; and granting an
account "may organise" (``permissions.may_organise``).

django-axes keeps one *attempt* row per user name, address and browser, counting that
row's wrong passwords since its first one; ``attempt_time`` is the time of the latest.
A user name is *locked out* at an address while the rows for that pair newer than the
cool-off together hold at least the failure limit. Tries during a lockout are not
counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False``), so a lockout ends a
cool-off after the wrong password that started it, whatever is tried meanwhile.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group, Permission, PermissionsMixin
from django.db import transaction
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import Tournament
from tournament.shared.permissions import is_granted_organising

# The group the administrator adds organisers to (made by migration 0012, with the
# permission "may organise").
ORGANISERS_GROUP = "Organisers"


def _lock_ends(attempts: list[AccessAttempt]) -> datetime | None:
    """When the lock of one user name at one address ends, or None if it is not locked.

    Counting from the newest row, the lock holds until the row that brings the count up
    to the limit falls out of the cool-off window.
    """
    failures = 0
    for attempt in sorted(attempts, key=lambda attempt: attempt.attempt_time, reverse=True):
        failures += attempt.failures_since_start
        if failures >= settings.AXES_FAILURE_LIMIT:
            return attempt.attempt_time + settings.AXES_COOLOFF_TIME
    return None


def lockouts(usernames: Iterable[str], now: datetime | None = None) -> dict[str, datetime]:
    """The user names among ``usernames`` that are locked out at some address, each with
    the time its last lockout ends."""
    now = now or timezone.now()
    by_pair: dict[tuple[str, str | None], list[AccessAttempt]] = defaultdict(list)
    recent = AccessAttempt.objects.filter(
        username__in=list(usernames), attempt_time__gt=now - settings.AXES_COOLOFF_TIME
    )
    for attempt in recent:
        by_pair[attempt.username, attempt.ip_address].append(attempt)
    locked: dict[str, datetime] = {}
    for (username, _address), attempts in by_pair.items():
        ends = _lock_ends(attempts)
        if ends is not None and ends > now:
            locked[username] = max(ends, locked.get(username, ends))
    return locked


def locked_out_scorers(
    tournament: Tournament,
) -> list[tuple[AbstractBaseUser, datetime, bool]]:
    """``tournament``'s locked-out scorers by user name, each with when its lock ends and
    whether the organiser may unlock it (``organiser_may_unlock``)."""
    scorers = list(tournament.scorers.order_by("username"))
    locked = lockouts(scorer.get_username() for scorer in scorers)
    return [
        (scorer, locked[scorer.get_username()], organiser_may_unlock(tournament, scorer))
        for scorer in scorers
        if scorer.get_username() in locked
    ]


def lockout_ends(
    username: str, address: str | None, now: datetime | None = None
) -> datetime | None:
    """When the lockout of ``username`` at ``address`` ends, or None if there is none."""
    now = now or timezone.now()
    attempts = list(
        AccessAttempt.objects.filter(
            username=username,
            ip_address=address,
            attempt_time__gt=now - settings.AXES_COOLOFF_TIME,
        )
    )
    ends = _lock_ends(attempts)
    return ends if ends is not None and ends > now else None


def organiser_may_unlock(tournament: Tournament, scorer: AbstractBaseUser) -> bool:
    """Whether ``tournament``'s organiser may lift ``scorer``'s lockout: only an account
    that is a scorer and nothing more (no tournament of its own, not granted "may
    organise"), and only of tournaments that organiser organises.
    Anyone may be added as a scorer by user name, so without this an organiser could add
    an administrator's account and unlock it again and again to guess its password."""
    if getattr(scorer, "is_staff", False) or getattr(scorer, "is_superuser", False):
        return False
    if is_granted_organising(scorer):
        return False
    if Tournament.objects.filter(owner_id=scorer.pk).exists():
        return False
    return not (
        Tournament.objects.filter(scorers__pk=scorer.pk)
        .exclude(owner_id=tournament.owner_id)
        .exists()
    )


def unlock_scorer(tournament: Tournament, scorer: AbstractBaseUser) -> int:
    """Forget the wrong passwords of one of ``tournament``'s scorers, at every address.

    Returns how many attempt rows were removed (0 when the scorer was not locked out).
    """
    with transaction.atomic():
        if not tournament.scorers.filter(pk=scorer.pk).exists():
            raise UserError(f"{scorer.get_username()} is not a scorer of {tournament.name}.")
        if not organiser_may_unlock(tournament, scorer):
            raise UserError(
                f"{scorer.get_username()} also organises, scores another organiser's "
                "tournament or administers the site: only an administrator can unlock it "
                "(admin pages, Access attempts)"
            )
        removed, _ = AccessAttempt.objects.filter(username=scorer.get_username()).delete()
    return removed


def grant_organising(user: PermissionsMixin) -> None:
    """Let ``user`` organise wherever only those granted it may (``ORGANISERS=granted``):
    a member of the Organisers group, as the administrator makes them in the admin pages."""
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
        group.permissions.add(
            Permission.objects.get(content_type__app_label="tournament", codename="organise")
        )
        user.groups.add(group)


class AmbiguousUsername(UserError):
    """Two or more accounts have the typed user name, ignoring case, and none has it
    exactly."""


def canonical_username(typed: str) -> str:
    """The account's own user name for ``typed``, matched ignoring case and surrounding
    spaces ("  Sarah " finds "sarah"). An exact match (after stripping) wins over matches
    that differ only in case; several such matches and no exact one raise
    ``AmbiguousUsername``. A name no account has comes back stripped, as typed."""
    name = typed.strip()
    matches = list(
        get_user_model()
        .objects.filter(username__iexact=name)
        .order_by("username")
        .values_list("username", flat=True)[:10]
    )
    if name in matches or not matches:
        return name
    if len(matches) > 1:
        raise AmbiguousUsername(
            f"The user names {', '.join(f'“{m}”' for m in matches)} differ only in "
            "capital letters: type the one you mean exactly."
        )
    return str(matches[0])
