"""An organiser's series: creating one, and which tournaments are in it.

- the series' *owner* (or a superuser) is the only one who changes it;
- an *entry* is a tournament in a series (``SeriesTournament``). The owner's own
  tournaments are *accepted* at once; another organiser's tournament is a *request*
  (pending) until that organiser accepts it. Declining removes the entry. A pending
  entry never counts: the series figures (``series.services``) read accepted entries
  only.

Every change moves ``Series.changed``, so that what caches the series' figures knows to
compute them again.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest

from scoring.errors import UserError
from tournament.models import Series, SeriesTournament, Tournament
from tournament.shared.permissions import User


def owns(user: User, series: Series) -> bool:
    return bool(
        user.is_authenticated
        and (getattr(user, "is_superuser", False) or series.owner_id == user.pk)
    )


def series_for(user: User) -> QuerySet[Series]:
    """The series the user may change: their own (every one, for a superuser)."""
    if getattr(user, "is_superuser", False):
        return Series.objects.all()
    return Series.objects.filter(owner=user.pk)


def get_series_for_owner(request: HttpRequest, slug: str) -> Series:
    """The series ``slug`` when the user may change it; a 404 otherwise, as for a series
    that does not exist (its public page is public, but who runs it is not the point)."""
    series = Series.objects.filter(slug=slug).first()
    if series is None or not owns(request.user, series):
        raise Http404("No such series")
    return series


def create_series(series: Series, owner: User) -> Series:
    with transaction.atomic():
        series.owner_id = owner.pk
        series.save()
    return series


def save_series(series: Series) -> Series:
    with transaction.atomic():
        series.save()
    return series


def _touch(series: Series) -> None:
    series.save(update_fields=["changed"])


def add_tournament(series: Series, slug: str, user: User) -> SeriesTournament:
    """Put the tournament ``slug`` in ``series``: accepted at once when ``user`` organises
    it, else asked of its organiser (pending)."""
    slug = slug.strip()
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise UserError(f"No tournament has the address “{slug}” (the part after /t/).")
    own = _answers_for(user, tournament)
    if tournament.is_rehearsal and own:
        raise UserError(f"“{tournament.name}” is a rehearsal: a rehearsal is in no series.")
    if not own and not tournament.published:
        # A private tournament of someone else's is not revealed, not even that it exists.
        raise UserError(f"No tournament has the address “{slug}” (the part after /t/).")
    with transaction.atomic():
        entry, created = SeriesTournament.objects.get_or_create(
            series=series, tournament=tournament, defaults={"accepted": own}
        )
        if not created:
            state = "is in" if entry.accepted else "awaits its organiser's answer for"
            raise UserError(f"“{tournament.name}” already {state} this series.")
        _touch(series)
    return entry


def remove_entry(series: Series, entry_pk: int) -> Tournament:
    """Take a tournament (or a pending request) out of ``series``."""
    with transaction.atomic():
        entry = (
            SeriesTournament.objects.select_related("tournament")
            .filter(series=series, pk=entry_pk)
            .first()
        )
        if entry is None:
            raise UserError("That tournament is no longer in this series.")
        entry.delete()
        _touch(series)
    return entry.tournament


def _answers_for(user: User, tournament: Tournament) -> bool:
    """Whether ``user`` consents for ``tournament``: its organiser does. A superuser
    answers only for a tournament nobody organises (one imported from a file without an
    owner); another organiser's tournament waits for that organiser's consent, whoever
    asks."""
    if tournament.owner_id is None:
        return bool(getattr(user, "is_superuser", False))
    return tournament.owner_id == user.pk


def requests_for(user: User) -> QuerySet[SeriesTournament]:
    """Pending requests to put the user's tournaments in other organisers' series (for a
    superuser, also those for tournaments nobody organises)."""
    mine = Q(tournament__owner=user.pk)
    if getattr(user, "is_superuser", False):
        mine |= Q(tournament__owner=None)
    return (
        SeriesTournament.objects.filter(mine, accepted=False)
        .select_related("series", "series__owner", "tournament")
        .order_by("created", "pk")
    )


def _request_of(user: User, series_slug: str, entry_pk: int) -> SeriesTournament:
    entry = requests_for(user).filter(pk=entry_pk, series__slug=series_slug).first()
    if entry is None:
        raise UserError("That request has already been answered or withdrawn.")
    return entry


def accept_request(user: User, series_slug: str, entry_pk: int) -> SeriesTournament:
    with transaction.atomic():
        entry = _request_of(user, series_slug, entry_pk)
        entry.accepted = True
        entry.save(update_fields=["accepted"])
        _touch(entry.series)
    return entry


def decline_request(user: User, series_slug: str, entry_pk: int) -> SeriesTournament:
    with transaction.atomic():
        entry = _request_of(user, series_slug, entry_pk)
        entry.delete()
        _touch(entry.series)
    return entry
