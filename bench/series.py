"""Series benchmark: a federation's ten years in one series.

Builds 500 published tournaments of 60 players and 6 released rounds at tables of five
(36,000 table matches, 180,000 per-round player results), the players drawn from a
register of 1,500 people, all in one series, with ``bulk_create`` (the seats carry their
sums over the deals, which is what the series reads; no deal rows are written). Then
reports, measured in the same run:

- the series standings computed cold (every cache empty: the facts gathered in bulk,
  every tournament's public standings computed, the series ranked);
- the ratings recomputed from scratch (``compute_ratings``: facts gathered again, then
  every match rated, no checkpoint reused), and cold through ``series_ratings``;
- the refresh after one more round of the latest tournament is released (standings and
  ratings again, as the next page view asks for them), and for comparison after one
  more round of a tournament in the middle of the ten years;
- the series page (``/s/<slug>/``) rendered through the test client, its figures cached;
- the number of queries of the cold standings and ratings at 100 and at 500
  tournaments (the same: flat).

Run from the repository root::

    .venv/bin/python bench/series.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/lld_bench .venv/bin/python bench/series.py

The PostgreSQL database named in the URL is dropped and created afresh, and analysed
after the build.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.standings import count_queries, setup_django  # noqa: E402

SLUG = "ten-years"
T = TypeVar("T")
TABLE = 5


@dataclass(frozen=True, order=True)
class Timing:
    """Wall-clock seconds, and this process's CPU seconds (with SQLite that includes
    the database's work; PostgreSQL's server works apart): on a busy machine the CPU
    time says what the code costs, the wall time what a visitor waits."""

    wall: float
    cpu: float


def timed(function: Callable[[], T]) -> tuple[Timing, T]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu), result


def profiled(function: Callable[[], T]) -> tuple[Timing, T]:
    import cProfile
    import pstats

    profile = cProfile.Profile()
    timing, result = timed(lambda: profile.runcall(function))
    pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    return timing, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=500)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--people", type=int, default=1500)
    parser.add_argument(
        "--profile", action="store_true", help="print where the refresh and the page spend time"
    )
    args = parser.parse_args()

    temp = tempfile.TemporaryDirectory()
    url = setup_django(temp.name)
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.urls import reverse

    from tournament.models import (
        Person,
        Player,
        Round,
        Seat,
        Series,
        SeriesTournament,
        Table,
        Tournament,
    )
    from tournament.public.results import public_results
    from tournament.series import facts as series_facts
    from tournament.series import services as series

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    print(f"Database: {connection.vendor} ({url.split('@')[-1]})")
    rng = random.Random(16)

    def played_seat(table: Table, round_: Round, position: int, player: Player) -> Seat:
        """A seat of one rotation's sums; stronger players (lower ids) win more."""
        skill = 1 + (player.person_id or 0) % 7
        return Seat(
            table=table,
            round=round_,
            position=position,
            player=player,
            sum_deals=TABLE,
            sum_won=2 * rng.randint(0, 8 * skill),
            sum_last_in=rng.randint(0, 2),
            sum_last_in_left_over=2 * rng.randint(0, 3),
            sum_dealt=1,
            sum_dealt_left_over=0,
        )

    def add_round(tournament: Tournament, number: int, released: bool) -> Round:
        """One round of the tournament's players at tables of five, with seat sums of
        one rotation (five deals a table), stronger players (lower ids) winning more."""
        round_ = Round.objects.create(
            tournament=tournament, number=number, started=True, released=released
        )
        field = list(Player.objects.filter(tournament=tournament).order_by("pk"))
        rng.shuffle(field)
        tables = Table.objects.bulk_create(
            Table(round=round_, number=n) for n in range(1, len(field) // TABLE + 1)
        )
        seats = []
        for table in tables:
            start = (table.number - 1) * TABLE
            for position, player in enumerate(field[start : start + TABLE], start=1):
                seats.append(played_seat(table, round_, position, player))
        Seat.objects.bulk_create(seats)
        return round_

    start = time.perf_counter()
    with transaction.atomic():
        people = Person.objects.bulk_create(
            Person(
                name=f"Person {i:04d}",
                name_key=f"person {i:04d}",
                club=f"Club {i % 40}",
                club_key=f"club {i % 40}",
                member=f"M{i:05d}" if i % 3 else "",
            )
            for i in range(args.people)
        )
        first = datetime.date(2016, 1, 1)
        tournaments = Tournament.objects.bulk_create(
            Tournament(
                name=f"Monthly {i + 1}",
                slug=f"monthly-{i + 1}",
                date=first + datetime.timedelta(days=7 * i),
                published=True,
            )
            for i in range(args.tournaments)
        )
        players = []
        for tournament in tournaments:
            for index, person in enumerate(rng.sample(people, args.players)):
                # One in twelve plays unlinked (a guest, not on the register).
                players.append(
                    Player(
                        tournament=tournament,
                        ref=f"p{index + 1}",
                        name=person.name,
                        club=person.club,
                        person=None if index % 12 == 11 else person,
                    )
                )
        Player.objects.bulk_create(players, batch_size=5000)
        by_tournament: dict[int, list[Player]] = {}
        for player in Player.objects.order_by("pk"):
            by_tournament.setdefault(player.tournament_id, []).append(player)
        rounds, tables, seats = [], [], []
        for tournament in tournaments:
            for number in range(1, args.rounds + 1):
                rounds.append(
                    Round(tournament=tournament, number=number, started=True, released=True)
                )
        Round.objects.bulk_create(rounds, batch_size=5000)
        for round_ in rounds:
            for n in range(1, args.players // TABLE + 1):
                tables.append(Table(round=round_, number=n))
        Table.objects.bulk_create(tables, batch_size=5000)
        per_round = args.players // TABLE
        for index, round_ in enumerate(rounds):
            field = list(by_tournament[round_.tournament_id])
            rng.shuffle(field)
            for offset in range(per_round):
                table = tables[index * per_round + offset]
                for position, player in enumerate(
                    field[offset * TABLE : (offset + 1) * TABLE], start=1
                ):
                    seats.append(played_seat(table, round_, position, player))
        Seat.objects.bulk_create(seats, batch_size=10000)
        ten_years = Series.objects.create(name="Ten years", slug=SLUG)
        SeriesTournament.objects.bulk_create(
            SeriesTournament(series=ten_years, tournament=t, accepted=True) for t in tournaments
        )
        hundred = Series.objects.create(name="First hundred", slug="first-hundred")
        SeriesTournament.objects.bulk_create(
            SeriesTournament(series=hundred, tournament=t, accepted=True)
            for t in tournaments[: min(100, len(tournaments))]
        )
    if connection.vendor == "postgresql":
        # As autovacuum would soon after a bulk load: plans made on empty tables'
        # statistics are not what a real database runs.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(
        f"Built {len(tournaments)} tournaments x {args.players} players x {args.rounds} rounds: "
        f"{len(tables)} table matches, {len(seats)} player results, {len(people)} people "
        f"({time.perf_counter() - start:.1f} s)"
    )

    def cold() -> None:
        cache.clear()
        series.forget()

    def fresh(made: Series) -> Series:
        return Series.objects.get(pk=made.pk)

    cold()
    standings_s, standings = timed(lambda: series.series_standings(fresh(ten_years)))
    scratch_s, scratch = timed(lambda: series.compute_ratings(fresh(ten_years)))
    ratings_cold_s, ratings = timed(lambda: series.series_ratings(fresh(ten_years)))
    assert [r.mu for r in ratings.rows] == [r.mu for r in scratch.rows]
    facts = series_facts.current_facts(series_facts.counted_tournaments(fresh(ten_years)))
    matches = sum(len(known.matches) for known in facts.values())
    print(
        f"{len(standings.rows)} people in the standings, {len(ratings.rows)} rated, "
        f"{matches} matches rated (guests included)"
    )

    def refresh_after_release(tournament: Tournament) -> tuple[Timing, Timing]:
        number = Round.objects.filter(tournament=tournament).count() + 1
        round_ = add_round(tournament, number, released=False)
        series.series_standings(fresh(ten_years))
        series.series_ratings(fresh(ten_years))
        round_.released = True
        release_s, _ = timed(round_.save)  # marks the tournament changed

        def refresh() -> object:
            made = fresh(ten_years)
            return series.series_standings(made), series.series_ratings(made)

        refresh_s, _ = profiled(refresh) if args.profile else timed(refresh)
        refreshed = series.series_ratings(fresh(ten_years))
        scratch = series.compute_ratings(fresh(ten_years))
        assert [(r.person.pk, r.mu, r.sigma) for r in refreshed.rows] == [
            (r.person.pk, r.mu, r.sigma) for r in scratch.rows
        ], "the checkpoints drifted from the facts"
        return release_s, refresh_s

    latest = tournaments[-1]
    middle = tournaments[len(tournaments) // 2]
    _, refresh_latest_s = refresh_after_release(latest)
    _, refresh_middle_s = refresh_after_release(middle)

    page_url = reverse("series", args=[SLUG])
    client = Client()

    def page() -> object:
        response = client.get(page_url, secure=True)
        assert response.status_code == 200, response.status_code
        return response

    what = f"series page {page_url} rendered (test client, figures cached)"
    page()
    if args.profile:
        profiled(page)
    page_runs = [timed(page)[0] for _ in range(7)]
    page_s = Timing(
        statistics.median(run.wall for run in page_runs),
        statistics.median(run.cpu for run in page_runs),
    )

    def queries(made: Series) -> tuple[int, int]:
        cold()
        standings_q = count_queries(connection, lambda: series.series_standings(fresh(made)))
        ratings_q = count_queries(connection, lambda: series.series_ratings(fresh(made)))
        return standings_q, ratings_q

    def through_public_results() -> None:
        # The other way to the same facts: each tournament's cached public results.
        for tournament in Tournament.objects.filter(series_entries__series=ten_years):
            public_results(tournament)

    cold()
    public_s, _ = timed(through_public_results)
    cold()
    public_q = count_queries(connection, through_public_results)

    small_q = queries(hundred)
    cold()
    small_s, _ = timed(lambda: series.series_standings(fresh(hundred)))
    large_q = queries(ten_years)

    whole, part = len(tournaments), min(100, len(tournaments))
    print()
    print(f"{'':<62} {'wall s':>7} {'CPU s':>7} {'target':>7}")
    rows = [
        (f"series standings, cold (facts gathered, {whole} standings)", standings_s, 10.0),
        ("ratings recomputed from scratch (facts gathered again)", scratch_s, 10.0),
        ("ratings, cold, through series_ratings (facts kept)", ratings_cold_s, 10.0),
        ("refresh after a round of the latest tournament released", refresh_latest_s, 1.0),
        ("refresh after a round of the middle tournament released", refresh_middle_s, None),
        (what, page_s, 0.3),
        (f"series standings, cold, {part} tournaments", small_s, None),
        (f"for comparison: {whole} tournaments' public_results, cold", public_s, None),
    ]
    for label, timing, target in rows:
        aim = f"< {target:g}" if target else ""
        print(f"{label:<62} {timing.wall:7.3f} {timing.cpu:7.3f} {aim:>7}")
    print()
    print(
        "refresh (latest) / recompute from scratch: "
        f"{refresh_latest_s.wall / scratch_s.wall:.3f} wall, "
        f"{refresh_latest_s.cpu / scratch_s.cpu:.3f} CPU; "
        f"refresh (middle) / from scratch: {refresh_middle_s.wall / scratch_s.wall:.3f} wall; "
        f"cold standings {whole} / {part} tournaments: {standings_s.wall / small_s.wall:.2f} wall"
    )
    print(
        f"queries (standings, ratings), cold: {part} tournaments {small_q}, "
        f"{whole} tournaments {large_q}; each tournament's public_results instead: {public_q}"
    )


if __name__ == "__main__":
    main()
