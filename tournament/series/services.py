"""A series' standings and ratings, and a person's results across tournaments.

Terms (those of ``series.facts`` too):

- *series standings*: each person's series points per counted tournament under the
  series' scheme, best ``count_best`` counted, ranked (``scoring.series``).
- *ratings*: openskill's Plackett–Luce model with its default parameters, over the
  matches of the counted tournaments in series order (date, those without one last,
  slug), then round and table number. A rating shown is ``mu − 3 × sigma``,
  provisional under ``PROVISIONAL_MATCHES`` matches.
- *checkpoint*: what the ratings of the raters who played a tournament were after it,
  kept with the tournament's stamp, in series order. When a tournament's stamp moves
  (one more round released), the ratings are computed again from the stored facts from
  that tournament on, starting from the checkpoints before it: the same numbers as a
  computation from scratch, in a fraction of the time.
- *version*: what the series' figures stand at (``series.facts.series_version``); the
  standings and ratings are cached under it.

Every function runs a fixed number of queries whatever the number of tournaments.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar, cast

from django.core.cache import cache
from openskill.models import PlackettLuce, PlackettLuceRating

from scoring.series import Placing, SeriesEntry, rank_series, scheme
from tournament.models import Person, Player, Series, SeriesTournament, Tournament
from tournament.series.facts import (
    TournamentFacts,
    TournamentStamp,
    counted_tournaments,
    current_facts,
    forget_facts,
    gather_facts,
    series_version,
    tournaments_of,
)

T = TypeVar("T")

PROVISIONAL_MATCHES = 5
# Entries outlive no change (their keys hold the version); the timeout only frees the
# memory of series nobody looks at.
TIMEOUT = 24 * 60 * 60
# Each worker also keeps the figures it last read for a few versions: a key holds the
# version, so a kept copy is right for as long as anyone asks for that key.
_KEPT_FIGURES: dict[str, object] = {}
_KEPT_CHAINS: dict[int, list[Checkpoint]] = {}
_KEPT_MAX = 8
# For threaded workers: the oldest copy is dropped while another thread may keep one.
_KEEPING = threading.Lock()


@dataclass(frozen=True, slots=True)
class EventResult:
    tournament: Tournament
    rank: int
    shared: bool
    field: int
    tournament_points: Fraction
    points: Fraction
    counted: bool


@dataclass(frozen=True, slots=True)
class SeriesRow:
    person: Person
    rank: int | None
    shared: bool
    points: Fraction
    events: int
    best: Fraction
    results: list[EventResult]


@dataclass(frozen=True, slots=True)
class SeriesStandings:
    series: Series
    rows: list[SeriesRow]
    tournaments: list[Tournament]

    @property
    def rules_in_play(self) -> list[str]:
        """The scoring systems and rule sets of its tournaments, when they are not all
        the same: their points totals are then in different units (the tournament-points
        scheme adds them up as they are; field share and placing compare places)."""
        found = sorted(
            {
                f"{tournament.scoring_system.label} under {tournament.rules.name}"
                for tournament in self.tournaments
            }
        )
        return found if len(found) > 1 else []


@dataclass(frozen=True, slots=True)
class RatingRow:
    person: Person
    rank: int
    mu: float
    sigma: float
    rating: float
    matches: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class RatingPoint:
    tournament: Tournament
    round_number: int
    rating: float


@dataclass(frozen=True, slots=True)
class SeriesRatings:
    series: Series
    rows: list[RatingRow]
    history: dict[int, list[RatingPoint]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TournamentPlacing:
    """A person's place in one tournament's public standings."""

    rank: int
    shared: bool
    points: int
    field: int


def displayed(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def _people(series: Series) -> dict[int, Person]:
    """The people linked to a player of the series' tournaments (a few more than those
    counted, which costs less than naming 1,500 ids in the query: Django prepares each
    id of an ``__in`` list on its own)."""
    return {
        person.pk: person
        for person in Person.objects.filter(
            pk__in=Player.objects.filter(tournament__series_entries__series=series).values(
                "person_id"
            )
        )
    }


def _keep(kept: dict[Any, Any], key: object, value: object) -> None:
    with _KEEPING:
        kept.pop(key, None)
        kept[key] = value
        while len(kept) > _KEPT_MAX:
            del kept[next(iter(kept))]


def _figures(key: str, make: Callable[[], T]) -> T:
    """The figures under ``key``: kept by this worker, or in the cache, or made now."""
    found = _KEPT_FIGURES.get(key)
    if found is None:
        found = cache.get(key)
        if found is None:
            found = make()
            cache.set(key, found, TIMEOUT)
        _keep(_KEPT_FIGURES, key, found)
    return found  # type: ignore[return-value]


def forget() -> None:
    """Forget what this worker keeps (tests: the database under it was rolled back)."""
    _KEPT_FIGURES.clear()
    _KEPT_CHAINS.clear()
    forget_facts()


# --- standings ----------------------------------------------------------------------


def compute_standings(series: Series) -> SeriesStandings:
    """The series standings made now (not read from the cache), from the facts."""
    counted = counted_tournaments(series)
    return _standings(series, counted, current_facts(counted))


def _standings(
    series: Series,
    counted: list[tuple[Tournament, TournamentStamp]],
    facts: dict[int, TournamentFacts],
) -> SeriesStandings:
    rule = scheme(series.scheme)
    table = tuple(series.placing)
    # Placings repeat across tournaments (rank 1 of 60, say): each is worked out once.
    worth: dict[tuple[int, int, int, int], Fraction] = {}
    results: dict[int, list[tuple[Tournament, int, int, int, Fraction, Fraction]]] = {}
    for tournament, _ in counted:
        known = facts[tournament.pk]
        for _, person_id, rank, sharing, points in known.places:
            if not person_id:
                continue
            placed = (rank, sharing, known.field, points)
            value = worth.get(placed)
            if value is None:
                value = rule.points(Placing(rank, sharing, known.field, Fraction(points)), table)
                worth[placed] = value
            results.setdefault(person_id, []).append(
                (tournament, rank, sharing, known.field, Fraction(points), value)
            )
    people = _people(series)
    ranked = rank_series(
        [
            SeriesEntry(pk, people[pk].name_key, tuple(r[5] for r in results[pk]))
            for pk in results
            if pk in people
        ],
        series.count_best,
        series.min_events,
    )
    rows = []
    for entry in ranked:
        pk = cast(int, entry.key)
        events = [
            EventResult(tournament, rank, sharing > 1, n, tournament_points, points, counted_flag)
            for (tournament, rank, sharing, n, tournament_points, points), counted_flag in zip(
                results[pk], entry.counted, strict=True
            )
        ]
        rows.append(
            SeriesRow(
                people[pk], entry.rank, entry.shared, entry.total, entry.events, entry.best, events
            )
        )
    return SeriesStandings(series, rows, [tournament for tournament, _ in counted])


def series_standings(series: Series) -> SeriesStandings:
    """The series standings, from the cache while nothing they count has changed."""
    counted = counted_tournaments(series)
    key = f"lld:series:{series.pk}:standings:{series_version(series, counted)}"
    return _figures(key, lambda: _standings(series, counted, current_facts(counted)))


# --- ratings ------------------------------------------------------------------------

# A checkpoint: a tournament's stamp, then each rater who played there: (mu, sigma,
# matches so far) after it, and the round of their last match there.
Checkpoint = tuple[TournamentStamp, dict[int, tuple[float, float, int, int]]]


def _chain_key(series: Series) -> str:
    return f"lld:series:{series.pk}:checkpoints"


def _rate(
    model: PlackettLuce,
    facts: TournamentFacts,
    state: dict[int, tuple[float, float, int]],
    ratings: dict[int, PlackettLuceRating],
) -> dict[int, tuple[float, float, int, int]]:
    """Rate the tournament's matches in order, from and into ``state``; ``ratings``
    holds openskill's objects of the raters rated so far in this computation (making
    one costs more than rating a match)."""
    after: dict[int, tuple[float, float, int, int]] = {}
    for round_number, _, raters, points in facts.matches:
        teams = []
        for rater in raters:
            rating = ratings.get(rater)
            if rating is None:
                mu, sigma, _ = state.get(rater, (model.mu, model.sigma, 0))
                rating = model.rating(mu=mu, sigma=sigma)
            teams.append([rating])
        ranks = [float(1 + sum(1 for other in points if other > mine)) for mine in points]
        for rater, (rated,) in zip(raters, model.rate(teams, ranks=ranks), strict=True):
            matches = state.get(rater, (0.0, 0.0, 0))[2] + 1
            ratings[rater] = rated
            state[rater] = (rated.mu, rated.sigma, matches)
            after[rater] = (rated.mu, rated.sigma, matches, round_number)
    return after


def rating_checkpoints(
    counted: list[tuple[Tournament, TournamentStamp]],
    facts: dict[int, TournamentFacts],
    kept: Sequence[Checkpoint] = (),
) -> list[Checkpoint]:
    """The checkpoints of the counted tournaments, reusing ``kept`` up to the first
    tournament whose stamp (or place in the order) moved."""
    model = PlackettLuce()
    state: dict[int, tuple[float, float, int]] = {}
    ratings: dict[int, PlackettLuceRating] = {}
    chain: list[Checkpoint] = []
    reusing = True
    for index, (tournament, stamp) in enumerate(counted):
        reusing = reusing and index < len(kept) and kept[index][0] == stamp
        if reusing:
            after = kept[index][1]
            for rater, (mu, sigma, matches, _) in after.items():
                state[rater] = (mu, sigma, matches)
        else:
            after = _rate(model, facts[tournament.pk], state, ratings)
        chain.append((stamp, after))
    return chain


def _ratings(
    series: Series,
    counted: list[tuple[Tournament, TournamentStamp]],
    chain: list[Checkpoint],
) -> SeriesRatings:
    latest: dict[int, tuple[float, float, int]] = {}
    history: dict[int, list[RatingPoint]] = {}
    for (tournament, _), (_, after) in zip(counted, chain, strict=True):
        for rater, (mu, sigma, matches, round_number) in after.items():
            if rater > 0:
                latest[rater] = (mu, sigma, matches)
                history.setdefault(rater, []).append(
                    RatingPoint(tournament, round_number, displayed(mu, sigma))
                )
    people = _people(series)
    order = sorted(
        (pk for pk in latest if pk in people),
        key=lambda pk: (-displayed(*latest[pk][:2]), people[pk].name_key, pk),
    )
    rows = [
        RatingRow(
            person=people[pk],
            rank=position,
            mu=latest[pk][0],
            sigma=latest[pk][1],
            rating=displayed(*latest[pk][:2]),
            matches=latest[pk][2],
            provisional=latest[pk][2] < PROVISIONAL_MATCHES,
        )
        for position, pk in enumerate(order, start=1)
    ]
    return SeriesRatings(series, rows, {pk: history[pk] for pk in order})


def ratings_before(tournament: Tournament) -> tuple[str, dict[int, float]] | None:
    """The ratings (openskill's mu, by person) of a series that counts ``tournament``, as
    they stood before it: from the series' tournaments before it in series order. The
    series' name and the ratings; None when no series counting it rates anyone before it
    (the first series by creation that does, when several count it)."""
    for series in Series.objects.filter(
        entries__tournament=tournament, entries__accepted=True
    ).order_by("pk"):
        counted = counted_tournaments(series)
        before: dict[int, float] = {}
        for (earlier, _), (_, after) in zip(counted, _current_chain(series, counted), strict=True):
            if earlier.pk == tournament.pk or (
                earlier.date and tournament.date and earlier.date > tournament.date
            ):
                break
            for rater, (mu, _sigma, _matches, _round) in after.items():
                if rater > 0:
                    before[rater] = mu
        if before:
            return series.name, before
    return None


def ratings_stamp(tournament: Tournament) -> str:
    """What the ratings ``ratings_before`` reads stand at, without working them out: the
    stamps of the tournaments before ``tournament`` in each series counting it (two
    queries a series). The podium chances are worked out again when it moves."""
    parts = []
    for series in Series.objects.filter(
        entries__tournament=tournament, entries__accepted=True
    ).order_by("pk"):
        before = []
        for earlier, stamp in counted_tournaments(series):
            if earlier.pk == tournament.pk or (
                earlier.date and tournament.date and earlier.date > tournament.date
            ):
                break
            before.append(stamp)
        parts.append((series.pk, before))
    return repr(parts)


def _current_chain(
    series: Series, counted: list[tuple[Tournament, TournamentStamp]]
) -> list[Checkpoint]:
    # Checked stamp by stamp, so a kept chain is never wrong, only shorter.
    kept: list[Checkpoint] = _KEPT_CHAINS.get(series.pk) or cache.get(_chain_key(series)) or []
    stamps = [stamp for _, stamp in counted]
    if [stamp for stamp, _ in kept] != stamps:
        kept = rating_checkpoints(counted, current_facts(counted), kept)
        cache.set(_chain_key(series), kept, TIMEOUT)
    _keep(_KEPT_CHAINS, series.pk, kept)
    return kept


def compute_ratings(series: Series) -> SeriesRatings:
    """The ratings computed from scratch, from the facts (no checkpoint reused)."""
    counted = counted_tournaments(series)
    facts = gather_facts(counted)
    return _ratings(series, counted, rating_checkpoints(counted, facts))


def series_ratings(series: Series) -> SeriesRatings:
    """The series ratings, from the cache while nothing they count has changed."""
    counted = counted_tournaments(series)
    key = f"lld:series:{series.pk}:ratings:{series_version(series, counted)}"
    return _figures(key, lambda: _ratings(series, counted, _current_chain(series, counted)))


# --- a person's tournaments and series ----------------------------------------------


def person_results(person: Person) -> list[tuple[Tournament, TournamentPlacing]]:
    """The person's places in the public standings of the published tournaments they
    played with at least one released round, in series order: six queries."""
    counted = tournaments_of(person)
    facts = current_facts(counted)
    results = []
    for tournament, _ in counted:
        known = facts[tournament.pk]
        for _, person_id, rank, sharing, points in known.places:
            if person_id == person.pk:
                results.append(
                    (tournament, TournamentPlacing(rank, sharing > 1, points, known.field))
                )
    return results


def series_of_person(person: Person) -> list[tuple[Series, SeriesRow, RatingRow | None]]:
    """The series that count a tournament the person played, with their row in each
    series' standings and ratings (the rating None while they have none). A series
    whose tournaments of theirs show nothing publicly yet (unpublished, nothing
    released) is left out: a series never tells of a tournament before it does."""
    found = []
    for series in Series.objects.filter(
        pk__in=SeriesTournament.objects.filter(
            accepted=True, tournament__players__person=person
        ).values("series")
    ).order_by("name", "pk"):
        standing = next(
            (row for row in series_standings(series).rows if row.person.pk == person.pk), None
        )
        if standing is None:
            continue
        rating = next(
            (row for row in series_ratings(series).rows if row.person.pk == person.pk), None
        )
        found.append((series, standing, rating))
    return found
