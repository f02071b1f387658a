"""What the read API answers of the series and the people in them, read from what their
public pages read: the series' cached standings and ratings (``series.services``) as
their files have them (``series.export``), and a public person's career
(``series.careers``). Nothing here works out a series point or a rating.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest

from tournament.api.pagination import Keyed
from tournament.api.reading import Data, absolute
from tournament.models import Series, SeriesScheme, Tournament
from tournament.series import careers
from tournament.series import export as series_export
from tournament.series import services as series_service

# Series and careers --------------------------------------------------------------------


def public_series_list(request: HttpRequest) -> Keyed:
    """The series the home page lists (one of their tournaments counts: accepted,
    published, with a round released), by name, each with its key: one query."""
    found = Series.objects.filter(
        Exists(
            Tournament.objects.filter(
                series_entries__series=OuterRef("pk"),
                series_entries__accepted=True,
                published=True,
                rounds__released=True,
            )
        )
    ).order_by("name", "pk")
    return sorted(
        (((series.name.casefold(), series.pk), _series(request, series)) for series in found),
        key=lambda pair: pair[0],
    )


def _series(request: HttpRequest, series: Series) -> Data:
    return {
        "slug": series.slug,
        "name": series.name,
        "scheme": series.scheme,
        "scheme_label": SeriesScheme(series.scheme).label,
        "count_best": series.count_best,
        "min_events": series.min_events,
        "url": absolute(request, "api:series", series.slug),
        "page": absolute(request, "series", series.slug),
    }


def series_by_slug(slug: str) -> Series:
    found = Series.objects.filter(slug=slug).first()
    if found is None:
        raise Http404(f"No series has the address “{slug}”.")
    return found


def series(request: HttpRequest, slug: str) -> Data:
    """A series with the tournaments it counts and the addresses of its standings and
    ratings."""
    found = series_by_slug(slug)
    standings = series_service.series_standings(found)
    return _series(request, found) | {
        "placing": list(found.placing) if found.scheme == SeriesScheme.PLACING else None,
        "tournaments": [
            {
                "slug": each.slug,
                "name": each.name,
                "date": each.date,
                "url": absolute(request, "api:tournament", each.slug),
            }
            for each in standings.tournaments
        ],
        "standings": absolute(request, "api:series_standings", found.slug),
        "ratings": absolute(request, "api:series_ratings", found.slug),
    }


def _career_url(request: HttpRequest, identifier: str) -> str:
    return absolute(request, "api:career", identifier)


def series_standings(request: HttpRequest, slug: str) -> Keyed:
    """The rows of the series standings file (``series.export.standings_json``) in its
    order, each with the person's club, career address and results per tournament."""
    found = series_by_slug(slug)
    standings = series_service.series_standings(found)
    rows = series_export.standings_json(standings)["rows"]
    return [
        (
            (place,),
            row
            | {
                "club": each.person.club,
                "career": _career_url(request, each.person.identifier),
                "results": [
                    {
                        "tournament": result.tournament.slug,
                        "rank": result.rank,
                        "shared": result.shared,
                        "field": result.field,
                        "points": series_export.figure(result.points),
                        "counted": result.counted,
                    }
                    for result in each.results
                ],
            },
        )
        for place, (row, each) in enumerate(zip(rows, standings.rows, strict=True))
    ]


def series_ratings(request: HttpRequest, slug: str) -> Keyed:
    """The rows of the ratings file (``series.export.ratings_json``) in its order, each
    with the person's club and career address."""
    found = series_by_slug(slug)
    ratings = series_service.series_ratings(found)
    rows = series_export.ratings_json(ratings)["rows"]
    return [
        (
            (place,),
            row
            | {"club": each.person.club, "career": _career_url(request, each.person.identifier)},
        )
        for place, (row, each) in enumerate(zip(rows, ratings.rows, strict=True))
    ]


def career(request: HttpRequest, identifier: str) -> Data:
    """A public person's career, as their page shows it: their places in published
    tournaments and their rows in the series, with their rating's history."""
    person = careers.person_by_identifier(identifier)
    if person is None:
        raise Http404(f"Nobody public has the identifier “{identifier}”.")
    series_rows = []
    for found, row, rating in series_service.series_of_person(person):
        history = series_service.series_ratings(found).history.get(person.pk, [])
        series_rows.append(
            {
                "series": found.slug,
                "name": found.name,
                "url": absolute(request, "api:series", found.slug),
                "rank": row.rank,
                "shared": row.shared,
                "points": series_export.figure(row.points),
                "events": row.events,
                "rating": None
                if rating is None
                else {
                    "rank": rating.rank,
                    "rating": series_export.figure(rating.rating),
                    "mu": series_export.figure(rating.mu),
                    "sigma": series_export.figure(rating.sigma),
                    "matches": rating.matches,
                    "provisional": rating.provisional,
                },
                "rating_history": [
                    {
                        "tournament": point.tournament.slug,
                        "round": point.round_number,
                        "rating": series_export.figure(point.rating),
                    }
                    for point in history
                ],
            }
        )
    return {
        "identifier": person.identifier,
        "name": person.name,
        "club": person.club,
        "tournaments": [
            {
                "slug": found.slug,
                "name": found.name,
                "date": found.date,
                "rank": placing.rank,
                "shared": placing.shared,
                "field": placing.field,
                "points": placing.points,
                "url": absolute(request, "api:tournament", found.slug),
            }
            for found, placing in series_service.person_results(person)
        ],
        "series": series_rows,
        "page": absolute(request, "career", person.identifier),
    }
