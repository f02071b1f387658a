"""A series' standings and ratings as files: JSON (the data contract of the
``series_standings`` and ``ratings`` commands, kept stable), CSV (the commands and the
public pages' downloads) and plain text.

Terms: *figure*: a number shown, rounded to ``DECIMALS`` places only here (the series
keeps exact fractions); *member*: the person's member number, or their stable id where
they have none (``Person.identifier``). A shared rank is "7=" in CSV and text, as the
tournaments' files write it (a spreadsheet would read "=7" as a formula); the JSON
says ``"shared": true``. Unranked people (under the series' minimum of tournaments)
come last, with no rank.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from scoring.series import scheme
from tournament.kernel.csv_export import neutralised
from tournament.series.services import (
    PROVISIONAL_MATCHES,
    SeriesRatings,
    SeriesRow,
    SeriesStandings,
)

DECIMALS = 4

FileCell = str | int | float | None


def figure(value: Fraction | float) -> float:
    """``value`` rounded to ``DECIMALS`` places, as files write it: a half rounds away
    from zero (0.78125 → 0.7813), as a person rounds, not to the even digit as Python's
    ``round`` does. A float (a rating) is taken as it prints, so 0.00005 is a half."""
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    scaled = abs(exact) * 10**DECIMALS
    rounded = math.floor(scaled + Fraction(1, 2))
    return math.copysign(rounded / 10**DECIMALS, exact) if rounded else 0.0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _rank(row: SeriesRow) -> int | str | None:
    if row.rank is None:
        return None
    return f"{row.rank}=" if row.shared else row.rank


def _csv(header: Sequence[str], rows: Iterable[Sequence[FileCell]]) -> str:
    """CSV with text quoted and neutralised (``csv_export``), numbers bare."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([neutralised(cell) for cell in header])
    for row in rows:
        writer.writerow(
            [
                "" if cell is None else neutralised(cell) if isinstance(cell, str) else cell
                for cell in row
            ]
        )
    return out.getvalue()


def _text(title: Sequence[str], header: Sequence[str], rows: Sequence[Sequence[FileCell]]) -> str:
    cells = [list(header), *(["" if cell is None else str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = [*title, ""]
    for row in cells:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return "\n".join(line.rstrip() for line in lines) + "\n"


# --- standings ----------------------------------------------------------------------


def standings_json(standings: SeriesStandings) -> dict[str, Any]:
    return {
        "series": standings.series.slug,
        "scheme": standings.series.scheme,
        "rows": [
            {
                "rank": row.rank,
                "shared": row.shared,
                "member": row.person.identifier,
                "name": row.person.name,
                "points": figure(row.points),
                "events": row.events,
                "counted": [result.tournament.slug for result in row.results if result.counted],
                "best": figure(row.best),
            }
            for row in standings.rows
        ],
    }


def _standings_rows(standings: SeriesStandings) -> tuple[list[str], list[list[FileCell]]]:
    slugs = [tournament.slug for tournament in standings.tournaments]
    header = ["rank", "member", "name", "club", "points", "events", "best", "dropped", *slugs]
    rows: list[list[FileCell]] = []
    for row in standings.rows:
        by_slug = {result.tournament.slug: result for result in row.results}
        rows.append(
            [
                _rank(row),
                row.person.identifier,
                row.person.name,
                row.person.club,
                figure(row.points),
                row.events,
                figure(row.best),
                " ".join(result.tournament.slug for result in row.results if not result.counted),
                *(figure(by_slug[slug].points) if slug in by_slug else None for slug in slugs),
            ]
        )
    return header, rows


def standings_csv(standings: SeriesStandings) -> str:
    """One row a person: rank, member, name, club, counted points, tournaments played, best
    result, the tournaments dropped (best-N), then their series points in each tournament
    (empty where they did not play)."""
    return _csv(*_standings_rows(standings))


def standings_text(standings: SeriesStandings) -> str:
    series = standings.series
    header, rows = _standings_rows(standings)
    best = "all results count" if series.count_best is None else f"best {series.count_best} count"
    title = [
        f"{series.name} — {scheme(series.scheme).label}",
        f"{_count(len(standings.tournaments), 'tournament')}; {best}; ranked from "
        f"{_count(series.min_events, 'tournament')}.",
    ]
    return _text(title, header[:8], [row[:8] for row in rows])


# --- ratings ------------------------------------------------------------------------


def ratings_json(ratings: SeriesRatings) -> dict[str, Any]:
    return {
        "series": ratings.series.slug,
        "rows": [
            {
                "rank": row.rank,
                "member": row.person.identifier,
                "name": row.person.name,
                "mu": figure(row.mu),
                "sigma": figure(row.sigma),
                "rating": figure(row.rating),
                "matches": row.matches,
                "provisional": row.provisional,
            }
            for row in ratings.rows
        ],
    }


def _ratings_rows(ratings: SeriesRatings) -> tuple[list[str], list[list[FileCell]]]:
    header = ["rank", "member", "name", "club", "rating", "mu", "sigma", "matches", "provisional"]
    rows: list[list[FileCell]] = [
        [
            row.rank,
            row.person.identifier,
            row.person.name,
            row.person.club,
            figure(row.rating),
            figure(row.mu),
            figure(row.sigma),
            row.matches,
            "yes" if row.provisional else "no",
        ]
        for row in ratings.rows
    ]
    return header, rows


def ratings_csv(ratings: SeriesRatings) -> str:
    """One row a person, by rating: rank, member, name, club, rating (mu − 3 × sigma), mu,
    sigma, matches rated, and whether the rating is still provisional."""
    return _csv(*_ratings_rows(ratings))


def ratings_text(ratings: SeriesRatings) -> str:
    title = [
        f"{ratings.series.name} — ratings (mu − 3 × sigma; provisional under "
        f"{PROVISIONAL_MATCHES} matches)",
    ]
    return _text(title, *_ratings_rows(ratings))
