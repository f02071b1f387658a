"""The series pages' CSV downloads: the series standings and the ratings, in the columns
of the ``series_standings`` and ``ratings`` commands' files (rank, shared, member, name,
points, events, counted, best; rank, member, name, mu, sigma, rating, matches,
provisional). Figures are rounded to 4 decimals; people are named by
``Person.identifier`` (``member``); counted tournaments by their slugs, space-separated;
yes/no for the flags; an unranked person's rank is empty."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from tournament.services.csv_export import csv_text
from tournament.services.series import SeriesRatings, SeriesStandings

STANDINGS_COLUMNS = ("rank", "shared", "member", "name", "points", "events", "counted", "best")
RATINGS_COLUMNS = ("rank", "member", "name", "mu", "sigma", "rating", "matches", "provisional")


def rounded(value: Fraction | float) -> float:
    exact = Fraction(value)
    decimal = Decimal(exact.numerator) / Decimal(exact.denominator)
    return float(decimal.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


def standings_rows(standings: SeriesStandings) -> list[dict[str, object]]:
    return [
        {
            "rank": row.rank,
            "shared": row.shared,
            "member": row.person.identifier,
            "name": row.person.name,
            "points": rounded(row.points),
            "events": row.events,
            "counted": [r.tournament.slug for r in row.results if r.counted],
            "best": rounded(row.best),
        }
        for row in standings.rows
    ]


def ratings_rows(ratings: SeriesRatings) -> list[dict[str, object]]:
    return [
        {
            "rank": row.rank,
            "member": row.person.identifier,
            "name": row.person.name,
            "mu": rounded(row.mu),
            "sigma": rounded(row.sigma),
            "rating": rounded(row.rating),
            "matches": row.matches,
            "provisional": row.provisional,
        }
        for row in ratings.rows
    ]


def _cell(value: object) -> str | int | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    assert value is None or isinstance(value, (str, int)), value
    return value


def standings_csv(standings: SeriesStandings) -> str:
    rows = standings_rows(standings)
    return csv_text(STANDINGS_COLUMNS, ([_cell(r[c]) for c in STANDINGS_COLUMNS] for r in rows))


def ratings_csv(ratings: SeriesRatings) -> str:
    rows = ratings_rows(ratings)
    return csv_text(RATINGS_COLUMNS, ([_cell(r[c]) for c in RATINGS_COLUMNS] for r in rows))
