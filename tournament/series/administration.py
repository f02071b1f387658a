"""Creating a series and changing its tournaments, as the site administrator does it
(the ``create_series`` command): every entry is accepted at once, since the site
administrator needs no organiser's consent.

Every problem is a ``UserError`` naming the option or the tournament it is about;
nothing is written unless everything is right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring.errors import UserError
from scoring.series import DEFAULT_PLACING, SCHEMES, parse_placing
from tournament.kernel import limits
from tournament.kernel.names import text_problem
from tournament.models import Series, SeriesTournament, Tournament

# PositiveSmallIntegerField's largest value.
SETTING_MAX = 32767


@dataclass(frozen=True)
class SeriesSettings:
    """The settings given; None leaves one as it is (or at its default for a new series)."""

    name: str | None = None
    scheme: str | None = None
    placing: str | None = None
    count_best: int | None = None
    min_events: int | None = None


def check_slug(slug: str) -> None:
    for validate in limits.slug_validators():
        try:
            validate(slug)
        except ValidationError as error:
            raise UserError(f"the slug “{slug}”: {' '.join(error.messages)}") from None


def _count(option: str, value: int | None) -> None:
    if value is not None and not 1 <= value <= SETTING_MAX:
        raise UserError(f"{option} must be a whole number from 1 to {SETTING_MAX}, not {value}")


def _apply(series: Series, settings: SeriesSettings) -> None:
    if settings.name is not None:
        name = " ".join(settings.name.split())
        if not name:
            raise UserError("--name: the series needs a name")
        if len(name) > limits.NAME_MAX:
            raise UserError(f"--name: at most {limits.NAME_MAX} characters, not {len(name)}")
        if problem := text_problem(name, "name"):
            raise UserError(f"--name: {problem}")
        series.name = name
    if settings.scheme is not None:
        if settings.scheme not in SCHEMES:
            known = ", ".join(SCHEMES)
            raise UserError(f"--scheme: unknown scheme “{settings.scheme}” (known: {known})")
        series.scheme = settings.scheme
    if settings.placing is not None:
        try:
            series.placing = list(parse_placing(settings.placing))
        except UserError as error:
            raise UserError(f"--placing: {error}") from None
    _count("--count-best", settings.count_best)
    _count("--min-events", settings.min_events)
    if settings.count_best is not None:
        series.count_best = settings.count_best
    if settings.min_events is not None:
        series.min_events = settings.min_events


def _tournaments(slugs: Sequence[str]) -> list[Tournament]:
    twice = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if twice:
        raise UserError("named more than once: " + ", ".join(f"“{slug}”" for slug in twice))
    found = {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)}
    unknown = [slug for slug in slugs if slug not in found]
    if unknown:
        raise UserError("no tournament with the slug " + ", ".join(f"“{s}”" for s in unknown))
    rehearsals = [slug for slug in slugs if found[slug].is_rehearsal]
    if rehearsals:
        raise UserError(
            "a rehearsal is in no series: " + ", ".join(f"“{slug}”" for slug in rehearsals)
        )
    return [found[slug] for slug in slugs]


def create_series(slug: str, settings: SeriesSettings, tournament_slugs: Sequence[str]) -> Series:
    check_slug(slug)
    if Series.objects.filter(slug=slug).exists():
        raise UserError(
            f"a series with the slug “{slug}” exists already: use --add or --remove to "
            "change its tournaments"
        )
    if settings.name is None:
        raise UserError("--name: a new series needs a name")
    series = Series(slug=slug, placing=list(DEFAULT_PLACING))
    _apply(series, settings)
    tournaments = _tournaments(tournament_slugs)
    with transaction.atomic():
        series.save()
        SeriesTournament.objects.bulk_create(
            SeriesTournament(series=series, tournament=t, accepted=True) for t in tournaments
        )
    return series


def change_series(
    slug: str,
    settings: SeriesSettings,
    *,
    add: Sequence[str] = (),
    remove: Sequence[str] = (),
) -> Series:
    series = Series.objects.filter(slug=slug).first()
    if series is None:
        raise UserError(f"no series with the slug “{slug}”")
    _apply(series, settings)
    adding = _tournaments(add)
    removing = _tournaments(remove)
    present = dict(series.entries.values_list("tournament__slug", "accepted"))
    already = [t.slug for t in adding if present.get(t.slug)]
    if already:
        raise UserError(f"already in “{slug}”: " + ", ".join(f"“{s}”" for s in already))
    absent = [t.slug for t in removing if t.slug not in present]
    if absent:
        raise UserError(f"not in “{slug}”: " + ", ".join(f"“{s}”" for s in absent))
    # One awaiting its organiser's consent is accepted: the administrator needs none.
    waiting = [t for t in adding if t.slug in present]
    with transaction.atomic():
        series.save()
        series.entries.filter(tournament__in=waiting).update(accepted=True)
        SeriesTournament.objects.bulk_create(
            SeriesTournament(series=series, tournament=t, accepted=True)
            for t in adding
            if t.slug not in present
        )
        series.entries.filter(tournament__in=removing).delete()
    return series
