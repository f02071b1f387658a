"""Who may score a tournament: the organiser adds and removes its scorers by user name."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.errors import UserError
from tournament.accounts.services import canonical_username
from tournament.models import Tournament


def add_scorer(tournament: Tournament, username: str) -> Any:
    """The account called ``username`` (ignoring case and surrounding spaces, an exact
    match first: ``accounts.services.canonical_username``), now a scorer of ``tournament``."""
    username = canonical_username(username)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise UserError(
            f"No account is called “{username}”: ask the site administrator to create "
            "it (python manage.py createsuperuser, or the admin pages)."
        )
    with transaction.atomic():
        tournament.scorers.add(user)
    return user


def remove_scorer(tournament: Tournament, user: Any) -> None:
    with transaction.atomic():
        tournament.scorers.remove(user)
