"""Invitations: how an organiser brings a scorer without an administrator or email.

Terms:

- an *invitation* names an account (its user name, chosen by the organiser) and one
  tournament; its *link* carries a random *secret*, shown once to the organiser (as an
  address and a QR code) and stored only as its SHA-256, so that the database, a backup
  or the admin pages open no invitation;
- it is *pending* until it is *used* (whoever opens the link sets the account's password:
  the account is made, added as a scorer of that tournament, and logged in),
  *withdrawn* by the organiser, or *expired* (``INVITATION_HOURS`` after it was made);
- an *invited scorer* is an account made by an invitation: it is in the group
  ``permissions.INVITED_SCORERS`` and may never organise, not even with
  ``ORGANISERS=anyone`` (``permissions.may_organise``), until the administrator grants it
  "may organise" or takes it out of that group. It scores the tournaments it is added to,
  like any scorer.

A backup carries the invitations as they are stored, each by its hash alone
(``backup.installation``): it opens none of them, and a link given before the backup works
after a restore until it expires, unless withdrawn.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from scoring.errors import UserError
from tournament.models import Invitation, Tournament
from tournament.shared.permissions import INVITED_SCORERS

# Long enough for an evening that starts late and ends past midnight, short enough that a
# link seen by the wrong person soon stops working.
INVITATION_HOURS = 24
USERNAME_MAX = 150  # Django's own user name length


class Closed(Enum):
    """Why an invitation's link no longer works, in the words its page says."""

    UNKNOWN = "This invitation link is not known here: check that it was copied whole."
    USED = "This invitation has been used: its account has a password already."
    WITHDRAWN = "This invitation was withdrawn by the organiser."
    EXPIRED = "This invitation has expired."


class InvitationClosed(UserError):
    def __init__(self, reason: Closed, invitation: Invitation | None = None) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.invitation = invitation


@dataclass(frozen=True)
class NewLink:
    """An invitation and its link's secret, known only until the organiser's page is shown."""

    invitation: Invitation
    secret: str


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_secret() -> tuple[str, str]:
    secret = secrets.token_urlsafe(32)
    return secret, secret_hash(secret)


def pending(now: datetime | None = None) -> QuerySet[Invitation]:
    """Every invitation whose link works now."""
    return Invitation.objects.filter(
        used_at=None, withdrawn_at=None, expires__gt=now or timezone.now()
    )


def open_invitations(tournament: Tournament) -> QuerySet[Invitation]:
    """``tournament``'s invitations neither used nor withdrawn, expired ones included (the
    Scorers page lists them with their expiry, to withdraw or renew)."""
    return tournament.invitations.filter(used_at=None, withdrawn_at=None).order_by("created")


def _username_problem(username: str) -> str | None:
    if not username:
        return "Type the user name the scorer will log in with."
    if len(username) > USERNAME_MAX:
        return f"A user name is at most {USERNAME_MAX} characters long."
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        suggestion = ".".join(username.split()).lower()
        example = f": for example “{suggestion}”" if " " in username else ""
        return "A user name holds letters, digits and @ . + - _ only, no spaces" + example + "."
    return None


def invite_scorer(
    tournament: Tournament, username: str, by: Any, now: datetime | None = None
) -> NewLink:
    """A new invitation to score ``tournament`` as the account ``username``, made by
    ``by`` (its organiser). Refused, naming the user name, when it is not a valid user
    name, when an account already has it (ignoring case: logging in ignores case too), or
    when another pending invitation holds it."""
    now = now or timezone.now()
    username = username.strip()
    problem = _username_problem(username)
    if problem:
        raise UserError(problem)
    with transaction.atomic():
        taken = get_user_model().objects.filter(username__iexact=username).first()
        if taken is not None:
            raise UserError(
                f"An account is called “{taken.get_username()}” already: add it by its user "
                "name under “Add an existing account”, or invite a new scorer by another name."
            )
        held = pending(now).filter(username__iexact=username).select_related("tournament")
        if held.filter(tournament=tournament).exists():
            raise UserError(
                f"“{username}” is invited already (listed below): withdraw that invitation "
                "or give it a new link."
            )
        if held.exists():
            raise UserError(
                f"Another pending invitation holds the user name “{username}”: choose another name."
            )
        # An expired invitation of the same name here is replaced, not listed twice.
        open_invitations(tournament).filter(username__iexact=username).update(withdrawn_at=now)
        secret, hashed = _new_secret()
        invitation = Invitation.objects.create(
            tournament=tournament,
            username=username,
            secret_hash=hashed,
            created_by=by,
            created=now,
            expires=now + timedelta(hours=INVITATION_HOURS),
        )
    return NewLink(invitation, secret)


def _open_invitation(tournament: Tournament, pk: int) -> Invitation:
    """``tournament``'s invitation ``pk``, locked, while neither used nor withdrawn."""
    invitation = Invitation.objects.select_for_update().filter(tournament=tournament, pk=pk).first()
    if invitation is None:
        raise UserError("That invitation is not one of this tournament's (any more).")
    if invitation.used_at is not None:
        raise UserError(
            f"The invitation of {invitation.username} has been used: {invitation.username} "
            "is a scorer now (remove them from the list of scorers instead)."
        )
    if invitation.withdrawn_at is not None:
        raise UserError(f"The invitation of {invitation.username} was withdrawn already.")
    return invitation


def withdraw_invitation(tournament: Tournament, pk: int, now: datetime | None = None) -> Invitation:
    """Stop the link of ``tournament``'s invitation ``pk`` from working, at once."""
    with transaction.atomic():
        invitation = _open_invitation(tournament, pk)
        invitation.withdrawn_at = now or timezone.now()
        invitation.save(update_fields=["withdrawn_at"])
    return invitation


def renew_invitation(tournament: Tournament, pk: int, now: datetime | None = None) -> NewLink:
    """A new link for ``tournament``'s invitation ``pk`` (lost, or expired), working for
    another ``INVITATION_HOURS``; its old link stops working."""
    now = now or timezone.now()
    with transaction.atomic():
        invitation = _open_invitation(tournament, pk)
        secret, invitation.secret_hash = _new_secret()
        invitation.created = now
        invitation.expires = now + timedelta(hours=INVITATION_HOURS)
        invitation.save(update_fields=["secret_hash", "created", "expires"])
    return NewLink(invitation, secret)


def _closed_reason(invitation: Invitation, now: datetime) -> Closed | None:
    if invitation.used_at is not None:
        return Closed.USED
    if invitation.withdrawn_at is not None:
        return Closed.WITHDRAWN
    if invitation.expires <= now:
        return Closed.EXPIRED
    return None


def open_link(secret: str, now: datetime | None = None) -> Invitation:
    """The pending invitation whose link carries ``secret``; ``InvitationClosed`` saying
    why when there is none."""
    invitation = (
        Invitation.objects.select_related("tournament")
        .filter(secret_hash=secret_hash(secret))
        .first()
    )
    if invitation is None:
        raise InvitationClosed(Closed.UNKNOWN)
    reason = _closed_reason(invitation, now or timezone.now())
    if reason is not None:
        raise InvitationClosed(reason, invitation)
    return invitation


def check_password(username: str, password: str) -> None:
    """Django's password validators (``AUTH_PASSWORD_VALIDATORS``) on the password chosen
    for the account ``username``: a ``ValidationError`` naming each problem."""
    password_validation.validate_password(password, get_user_model()(username=username))


def accept(secret: str, password: str, now: datetime | None = None) -> Any:
    """Use the invitation whose link carries ``secret``: make its account with
    ``password``, in the group of invited scorers, a scorer of the invitation's tournament.
    Returns the account. Raises ``InvitationClosed`` when the link no longer works, a
    ``UserError`` when the user name was taken meanwhile, and ``ValidationError`` when
    the password fails the validators."""
    now = now or timezone.now()
    user_model = get_user_model()
    with transaction.atomic():
        # Locked: two phones opening the same link make one account.
        invitation = (
            Invitation.objects.select_for_update().filter(secret_hash=secret_hash(secret)).first()
        )
        if invitation is None:
            raise InvitationClosed(Closed.UNKNOWN)
        reason = _closed_reason(invitation, now)
        if reason is not None:
            raise InvitationClosed(reason, invitation)
        check_password(invitation.username, password)
        taken = UserError(
            f"The user name “{invitation.username}” was taken after this invitation was "
            f"made: ask the organiser of {invitation.tournament.name} for an invitation by "
            "another name."
        )
        if user_model.objects.filter(username__iexact=invitation.username).exists():
            raise taken
        try:
            with transaction.atomic():
                user = user_model.objects.create_user(invitation.username, password=password)
        except IntegrityError:  # made by someone else at this very moment
            raise taken from None
        group, _ = Group.objects.get_or_create(name=INVITED_SCORERS)
        user.groups.add(group)
        invitation.tournament.scorers.add(user)
        invitation.used_at = now
        invitation.account = user
        invitation.save(update_fields=["used_at", "account"])
    return user
