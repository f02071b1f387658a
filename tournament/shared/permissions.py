"""Who may do what with a tournament.

- the *organiser* owns a tournament (superusers count as organisers of every one);
- a *scorer* is added to a tournament by its organiser and may enter and confirm its
  sheets, nothing else;
- everyone else sees only what is published.

Who may *organise* (create tournaments and series) is the installation's choice,
``settings.ORGANISERS``: ``anyone`` with an account (a laptop whose owner makes every
account), or only those ``granted`` "may organise" (the permission ``tournament.organise``,
held by the Organisers group; superusers always may). The register of people is kept by
those granted it, and with ``anyone`` also by whoever organises a tournament here: a
scorer who organises nothing never reaches it, and with ``granted`` cannot make
themselves an organiser by creating a tournament. An account that owns a tournament but
may not keep the register (with ``granted``, one that owned it before) still runs that
tournament's players, never reaching the register through them: no search of it, no
linking of players to people, no person made from a player (``may_keep_people`` is
asked by every such page). An account made by an organiser's
invitation (``accounts.invitations``, in the group ``INVITED_SCORERS``) never organises,
whatever ``ORGANISERS`` says, until the administrator grants it "may organise".

Views fetch tournaments through these helpers so that the check is never forgotten:
a tournament the user has no role in is a 404 (its existence is not revealed), a
scorer asking for an organiser's page gets a 403.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest
from django.utils.crypto import constant_time_compare

from tournament.kernel.middleware import keep_private
from tournament.models import Round, Tournament

User = AbstractBaseUser | AnonymousUser

ORGANISE = "tournament.organise"
# The group of accounts made by an organiser's invitation: scorers and nothing more.
INVITED_SCORERS = "Invited scorers"


def is_organiser(user: User, tournament: Tournament) -> bool:
    return bool(
        user.is_authenticated
        and (getattr(user, "is_superuser", False) or tournament.owner_id == user.pk)
    )


def is_scorer(user: User, tournament: Tournament) -> bool:
    """Organisers may do everything scorers may."""
    if not user.is_authenticated:
        return False
    return is_organiser(user, tournament) or tournament.scorers.filter(pk=user.pk).exists()


def tournaments_for(user: User) -> QuerySet[Tournament]:
    """Tournaments the user organises or scores."""
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    return Tournament.objects.filter(Q(owner=user) | Q(scorers=user)).distinct()


def get_tournament_for_organiser(request: HttpRequest, slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament")
    if is_organiser(request.user, tournament):
        return tournament
    if is_scorer(request.user, tournament):
        raise PermissionDenied("Only the tournament's organiser may do this.")
    raise Http404("No such tournament")


def get_tournament_for_scorer(request: HttpRequest, slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not is_scorer(request.user, tournament):
        raise Http404("No such tournament")
    return tournament


def get_public_tournament(request: HttpRequest, slug: str) -> Tournament:
    """A tournament its public pages may show to this visitor: published, or theirs to
    organise or score, or a rehearsal whose private link they followed (404 otherwise,
    as for a tournament that does not exist). A rehearsal's pages are kept by no cache
    and no search engine (``kernel.middleware.keep_private``)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not (
        can_see(request.user, tournament) or holds_private_link(request, tournament)
    ):
        raise Http404("No such tournament")
    if tournament.is_rehearsal:
        keep_private(request)
    return tournament


# The cookie the private link of a rehearsal sets, for its pages only (its path is the
# rehearsal's ``/t/<slug>/``): the link's token.
REHEARSAL_COOKIE = "lld_rehearsal"


def holds_private_link(request: HttpRequest, tournament: Tournament) -> bool:
    """Whether the visitor followed the rehearsal's private link (its cookie holds the
    token)."""
    held = request.COOKIES.get(REHEARSAL_COOKIE, "")
    return bool(
        tournament.is_rehearsal and held and constant_time_compare(held, tournament.rehearsal_token)
    )


def can_see(user: User, tournament: Tournament) -> bool:
    """Published tournaments are public; private ones are seen by their organiser and
    scorers."""
    return tournament.published or is_scorer(user, tournament)


def visible_tournaments(user: User) -> QuerySet[Tournament]:
    """The tournaments ``can_see`` lets the user see, in one query: the published ones and
    those they organise or score (every one, for a superuser)."""
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    if not user.is_authenticated:
        return Tournament.objects.filter(published=True)
    scored = Tournament.scorers.through.objects.filter(user_id=user.pk)
    return Tournament.objects.filter(
        Q(published=True) | Q(owner=user.pk) | Q(pk__in=scored.values("tournament_id"))
    )


def get_round(tournament: Tournament, number: int) -> Round:
    """The tournament's round ``number`` (404 when there is none), for a view that has
    already checked who may see the tournament."""
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise Http404("No such round")
    return round_


def is_granted_organising(user: User) -> bool:
    """Given "may organise" (the Organisers group), or a superuser."""
    if not user.is_authenticated:
        return False
    # Superusers hold every permission (PermissionsMixin.has_perm).
    has_perm = getattr(user, "has_perm", None)
    return bool(has_perm is not None and has_perm(ORGANISE))


def may_organise(user: User) -> bool:
    """May create tournaments and series: any account with ``ORGANISERS=anyone`` but an
    invited scorer's, only those granted it with ``granted``."""
    if not user.is_authenticated:
        return False
    if settings.ORGANISERS == "anyone" and not is_invited_scorer(user):
        return True
    return is_granted_organising(user)


def is_invited_scorer(user: User) -> bool:
    """Made by an organiser's invitation (``accounts.invitations``): an organiser may
    bring a scorer, never another organiser."""
    groups = getattr(user, "groups", None)
    return bool(groups is not None and groups.filter(name=INVITED_SCORERS).exists())


def check_may_organise(request: HttpRequest) -> None:
    """403 for a logged-in user who may not create tournaments and series."""
    if not may_organise(request.user):
        raise PermissionDenied(
            "Only organisers may create tournaments and series here: ask the administrator "
            "to add your account to the Organisers group."
        )


def may_keep_people(user: User) -> bool:
    """The register of people is the installation's, shared by its organisers: those
    granted "may organise" (and superusers), and with ``ORGANISERS=anyone`` whoever
    organises a tournament here, may search, add, edit and merge people; a scorer who
    organises nothing may not."""
    # One query for an organiser with ``anyone``, before the two of the permissions.
    if (
        user.is_authenticated
        and settings.ORGANISERS == "anyone"
        and Tournament.objects.filter(owner=user.pk).exists()
    ):
        return True
    return is_granted_organising(user)


# Why an account is kept out of the register, wherever it is told.
NOT_A_PEOPLE_KEEPER = (
    "Only organisers may keep the register of people: searching it, linking players to "
    "people and adding people are theirs. Ask the administrator to add your account to "
    "the Organisers group."
)


def check_people_keeper(request: HttpRequest) -> None:
    """403 for a logged-in user who may not keep the register (views are login_required):
    the register's own pages, and linking a tournament's players to it."""
    if not may_keep_people(request.user):
        raise PermissionDenied(NOT_A_PEOPLE_KEEPER)
