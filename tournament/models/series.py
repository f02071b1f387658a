"""Series: tournaments whose public results add up to standings and ratings of people."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournament.kernel import limits
from tournament.models.tournaments import Tournament


class SeriesScheme(models.TextChoices):
    """How a series scores a tournament (``scoring.series`` computes each)."""

    FIELD_SHARE = "field-share", "Field share: the share of the field finishing below"
    PLACING = "placing", "Placing: points by place from a list"
    TOURNAMENT_POINTS = "tournament-points", "Tournament points: the tournament's own total"


def default_placing() -> list[int]:
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Series(models.Model):
    """A season, a league or "all time": tournaments whose public results add up to a
    series standings and ratings of the people who played them (``series.services``)."""

    name = models.CharField(max_length=limits.NAME_MAX)
    slug = models.SlugField(
        max_length=limits.SLUG_MAX, unique=True, validators=limits.slug_validators()
    )
    scheme = models.CharField(
        max_length=20, choices=SeriesScheme.choices, default=SeriesScheme.FIELD_SHARE
    )
    # Points by place under the placing scheme (1st, 2nd, …; later places score 0).
    placing = models.JSONField(default=default_placing)
    # Each person's best results counted; None counts them all.
    count_best = models.PositiveSmallIntegerField(null=True, blank=True)
    # People with fewer tournaments are listed after the ranked ones, unranked.
    min_events = models.PositiveSmallIntegerField(default=1)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organised_series",
    )
    tournaments: "models.ManyToManyField[Tournament, SeriesTournament]" = models.ManyToManyField(
        Tournament, through="SeriesTournament", related_name="series"
    )
    created = models.DateTimeField(auto_now_add=True)
    # Moves at every save of the series or of its tournaments (``series.services``).
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(scheme__in=SeriesScheme.values), name="series_known_scheme"
            ),
            models.CheckConstraint(condition=Q(count_best__gte=1), name="series_count_best"),
            models.CheckConstraint(condition=Q(min_events__gte=1), name="series_min_events"),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesTournament(models.Model):
    """A tournament in a series. One of another organiser's tournaments counts only once
    that organiser has accepted (``accepted``); the series' own organiser's, and those
    added by the site administrator's command, are accepted at once."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series_entries"
    )
    accepted = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.series}"
