"""Public pages of the series and the people in them: a series' standings and ratings
with their CSV downloads, a person's career, and a club's people.

They show only what the tournaments show publicly (published tournaments, released
rounds, confirmed sheets), as ``series.services`` counts it; a series page is open to
any visitor. The series' figures are cached by the service, so these pages are not put in
the tournaments' public page cache (which is keyed by one tournament).
"""

from __future__ import annotations

from fractions import Fraction

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe

from tournament.kernel.http import HtmxHttpRequest, csv_attachment
from tournament.models import Series, SeriesScheme
from tournament.series import careers
from tournament.series import export as series_export
from tournament.series import services as series_service
from tournament.series.chart import rating_chart

# A federation's thousands of people come a hundred to a page.
PER_PAGE = 100


def show_points(value: Fraction | float | int) -> str:
    """Series points as shown: two decimals at most ("87.5", "33.33", "100")."""
    hundredths = round(Fraction(value) * 100)
    whole, part = divmod(abs(hundredths), 100)
    sign = "-" if hundredths < 0 else ""
    return f"{sign}{whole}" if not part else f"{sign}{whole}.{part:02d}".rstrip("0")


def place(rank: int, shared: bool, field: int) -> str:
    return f"{'=' if shared else ''}{rank} of {field}"


def _public_series(slug: str) -> Series:
    series = Series.objects.filter(slug=slug).first()
    if series is None:
        raise Http404("No such series")
    return series


def _results_list(row: series_service.SeriesRow) -> SafeString:
    """A person's results in the series as a list, the dropped ones struck through and
    saying so in words (built here: a page of a hundred people has thousands)."""
    items = []
    for result in row.results:
        text = conditional_escape(
            f"{result.tournament.name}: {show_points(result.points)} "
            f"({place(result.rank, result.shared, result.field)})"
        )
        if result.counted:
            items.append(f"<li>{text}</li>")
        else:
            items.append(f'<li class="dropped"><s>{text}</s> <em>not counted</em></li>')
    return mark_safe(f'<ul class="series-results">{"".join(items)}</ul>')


def _career_url(identifier: str) -> str:
    return reverse("career", args=[identifier])


@require_safe
def series_page(request: HtmxHttpRequest, series: str) -> HttpResponse:
    found = _public_series(series)
    standings = series_service.series_standings(found)
    ranked = [row for row in standings.rows if row.rank is not None]
    unranked = [row for row in standings.rows if row.rank is None]
    page = Paginator(ranked, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "series": found,
        "standings": standings,
        "scheme": SeriesScheme(found.scheme),
        "page": page,
        "rows": [_row(row) for row in page.object_list],
        "unranked": [_row(row) for row in unranked] if not page.has_next() else [],
        "unranked_count": len(unranked),
        "placing": ", ".join(str(points) for points in found.placing),
    }
    return render(request, "series/series.html", context)


def _row(row: series_service.SeriesRow) -> dict[str, object]:
    counted = sum(1 for result in row.results if result.counted)
    return {
        "rank": "–" if row.rank is None else f"{'=' if row.shared else ''}{row.rank}",
        "name": row.person.name,
        "club": row.person.club,
        "url": _career_url(row.person.identifier),
        "points": show_points(row.points),
        "events": row.events,
        "best": show_points(row.best),
        "counted": counted,
        "results": _results_list(row),
    }


@require_safe
def series_ratings(request: HtmxHttpRequest, series: str) -> HttpResponse:
    found = _public_series(series)
    ratings = series_service.series_ratings(found)
    page = Paginator(ratings.rows, PER_PAGE).get_page(request.GET.get("page"))
    rows = [
        {
            "rank": row.rank,
            "name": row.person.name,
            "club": row.person.club,
            "url": _career_url(row.person.identifier),
            "rating": f"{row.rating:.1f}",
            "mu": f"{row.mu:.2f}",
            "sigma": f"{row.sigma:.2f}",
            "matches": row.matches,
            "provisional": row.provisional,
        }
        for row in page.object_list
    ]
    context = {"series": found, "page": page, "rows": rows}
    return render(request, "series/series_ratings.html", context)


@require_safe
def series_standings_csv(request: HtmxHttpRequest, series: str) -> HttpResponse:
    """The series standings as the ``series_standings`` command writes them as CSV."""
    found = _public_series(series)
    text = series_export.standings_csv(series_service.series_standings(found))
    return csv_attachment(text, f"{found.slug}-standings.csv")


@require_safe
def series_ratings_csv(request: HtmxHttpRequest, series: str) -> HttpResponse:
    """The ratings as the ``ratings`` command writes them as CSV."""
    found = _public_series(series)
    text = series_export.ratings_csv(series_service.series_ratings(found))
    return csv_attachment(text, f"{found.slug}-ratings.csv")


@require_safe
def career(request: HtmxHttpRequest, identifier: str) -> HttpResponse:
    person = careers.person_by_identifier(identifier)
    if person is None:
        raise Http404("No such person")
    tournaments = [
        {
            "tournament": tournament,
            "place": place(row.rank, row.shared, row.field),
            "points": row.points,
        }
        for tournament, row in series_service.person_results(person)
    ]
    series_rows = []
    for number, (series, row, rating) in enumerate(
        series_service.series_of_person(person), start=1
    ):
        history = series_service.series_ratings(series).history.get(person.pk, [])
        named = [(point.tournament.name, point.rating) for point in history]
        series_rows.append(
            {
                "series": series,
                "row": row,
                "rank": row.rank,
                "shared": row.shared,
                "points": show_points(row.points),
                "rating": rating,
                "rating_shown": f"{rating.rating:.1f}" if rating is not None else "",
                "chart": rating_chart(named),
                "chart_id": f"rating-{number}",
                "chart_title": f"Rating of {person.name} after each tournament of {series.name}",
                "history": [(name, f"{value:.1f}") for name, value in named],
            }
        )
    context = {
        "person": person,
        "club_slug": careers.club_slug(person.club_key),
        "tournaments": tournaments,
        "series_rows": series_rows,
    }
    return render(request, "series/career.html", context)


@require_safe
def club(request: HtmxHttpRequest, club: str) -> HttpResponse:
    found = careers.club(club)
    if found is None:
        raise Http404("No such club")
    members = [
        {
            "person": member.person,
            "url": _career_url(member.person.identifier),
            "ranks": [
                (
                    series,
                    "unranked" if row.rank is None else f"{'=' if row.shared else ''}{row.rank}",
                    show_points(row.points),
                )
                for series, row in member.ranks
            ],
        }
        for member in found.members
    ]
    return render(request, "series/club.html", {"club": found, "members": members})
