"""factory-boy factories: the rows a test needs, built directly rather than imported from
a tournament file (the file tests import files; the rest of the suite should not depend
on the file format to get its data).

- ``TableFactory(players=[...])`` or ``TableFactory(size=4)`` seats a table;
- ``DealFactory(table=..., row={"won": [...], "last_in": ..., "left_over": ...})`` records
  one confirmed deal with its per-seat results and keeps the seats' stored sums right
  (the standings read those sums, not the deals);
- ``TableFactory(..., deals=[row, ...])`` records a table's whole sheet at once, confirmed;
- ``seated_round`` seats a round (optionally with confirmed deals), ``played_tournament``
  a whole tournament of played rounds.
"""

import datetime
from collections.abc import Sequence
from typing import Any

import factory
from django.db import transaction

from scoring.rules import deals_per_round
from tournament.demo import synthetic_rounds, table_sizes
from tournament.models import (
    Deal,
    DealResult,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    Table,
    Tournament,
)
from tournament.shared import public_changes
from tournament.sheets.facts import write_seat_sums
from tournament.sheets.reading import confirmed_rows
from tournament.sheets.rows import seat_sums

Row = dict[str, Any]


class TournamentFactory(factory.django.DjangoModelFactory):
    """``scorers=[user, ...]`` makes them the tournament's scorers."""

    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")

    @factory.post_generation
    def scorers(self, create, extracted, **kwargs):
        if create and extracted:
            self.scorers.set(extracted)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    # Not "p1", "p2", ...: those are make_players' ids, and a table of a size adds
    # players to a tournament that may have them.
    ref = factory.Sequence(lambda n: f"player-{n}")
    name = factory.Faker("name")
    club = ""


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    """A table of ``round``; ``players=[...]`` seats them in order (seat 1 first),
    ``size=n`` seats n new players of the round's tournament instead, and with either,
    ``deals=[row, ...]`` records those rows as the table's confirmed sheet."""

    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)
    players = None
    size = None
    deals = None

    @classmethod
    def _create(cls, model_class, *args, players, size, deals, **kwargs):
        table = super()._create(model_class, *args, **kwargs)
        if size is not None:
            if players is not None:
                raise ValueError("give a table either players or a size, not both")
            players = PlayerFactory.create_batch(size, tournament=table.round.tournament)
        if players is not None:
            fill_tables([(table, players, deals)])
        elif deals is not None:
            raise ValueError("a table's deals need its players: give players or a size")
        return table

    @classmethod
    def _build(cls, model_class, *args, players, size, deals, **kwargs):
        if (players, size, deals) != (None, None, None):
            raise ValueError("a built table is not saved: seat it with fill_tables")
        return super()._build(model_class, *args, **kwargs)


class SheetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Sheet

    table = factory.SubFactory(TableFactory, size=5)
    status = SheetStatus.NOT_STARTED


def a_deal(size: int) -> Row:
    """A valid deal for a table of ``size``: seat 1 wins every pair, the last seat is
    last in."""
    return {"won": [40] + [0] * (size - 1), "last_in": size, "left_over": 12}


class DealFactory(factory.django.DjangoModelFactory):
    """One confirmed deal of ``table`` from ``row`` (default: ``a_deal``), numbered after
    the table's last deal unless ``number`` is given. Its per-seat results are written
    with it and the seats' stored sums follow, as the sheet services keep them."""

    class Meta:
        model = Deal

    table = factory.SubFactory(TableFactory, size=5)
    number = factory.LazyAttribute(lambda o: o.table.deals.count() + 1)
    row = factory.LazyAttribute(lambda o: a_deal(o.table.seats.count()))
    last_in = factory.LazyAttribute(lambda o: o.row["last_in"])
    left_over = factory.LazyAttribute(lambda o: o.row["left_over"])

    @classmethod
    def _create(cls, model_class, *args, row, **kwargs):
        deal = super()._create(model_class, *args, **kwargs)
        DealResult.objects.bulk_create(
            DealResult(deal=deal, seat=seat, won=won) for seat, won in enumerate(row["won"], 1)
        )
        write_seat_sums(deal.table, confirmed_rows(deal.table))
        _changed([deal.table.round.tournament_id])
        return deal


def seat_table(table, players):
    """Seat ``players`` at ``table`` in order (seat 1 first)."""
    return fill_tables([(table, players, None)])


def record_deal(table, number, won, last_in, left_over):
    return DealFactory(
        table=table, number=number, row={"won": won, "last_in": last_in, "left_over": left_over}
    )


@transaction.atomic
def fill_tables(tables: Sequence[tuple[Table, Sequence[Player], Sequence[Row] | None]]):
    """Seat each saved, empty table's players in order (seat 1 first) and, where rows are
    given, record them as its confirmed sheet, with the seats' sums over them: what
    ``TableFactory(players=..., deals=...)`` does for one table, in five bulk inserts
    however many tables. A sheet of fewer deals than a round has is marked stopped early,
    as one confirmed that way is."""
    seats = Seat.objects.bulk_create(
        Seat(table=table, round=table.round, position=position, player=player, **sums)
        for table, players, rows in tables
        for position, (player, sums) in enumerate(
            zip(players, map(Seat.sum_values, seat_sums(rows or (), len(players))), strict=True),
            start=1,
        )
    )
    played = [(table, players, rows) for table, players, rows in tables if rows is not None]
    numbered = [(table, n, row) for table, _, rows in played for n, row in enumerate(rows, 1)]
    deals = Deal.objects.bulk_create(
        Deal(table=table, number=number, last_in=row["last_in"], left_over=row["left_over"])
        for table, number, row in numbered
    )
    DealResult.objects.bulk_create(
        DealResult(deal=deal, seat=seat, won=won)
        for deal, (_, _, row) in zip(deals, numbered, strict=True)
        for seat, won in enumerate(row["won"], start=1)
    )
    Sheet.objects.bulk_create(
        SheetFactory.build(
            table=table,
            status=SheetStatus.CONFIRMED if rows else SheetStatus.NOT_STARTED,
            stopped_early=0
            < len(rows)
            < deals_per_round(len(players), table.round.tournament.rotations_per_round),
        )
        for table, players, rows in played
    )
    # Bulk writes send no signal: marked as the services' bulk writes mark them.
    _changed(table.round.tournament_id for table, _, _ in tables)
    return seats


def _changed(tournament_ids) -> None:
    for tournament_id in sorted(set(tournament_ids)):
        public_changes.mark_changed(tournament_id)


@transaction.atomic
def clear_deals(tournament):
    """Delete every deal of ``tournament``, and the seats' sums with them."""
    for table in Table.objects.filter(round__tournament=tournament):
        Deal.objects.filter(table=table).delete()
        write_seat_sums(table, [])
    _changed([tournament.pk])


@transaction.atomic
def make_players(tournament, count: int) -> list[Player]:
    """``count`` players named "Player 0000" on, of three clubs in turn, ids p1 on."""
    players = Player.objects.bulk_create(
        PlayerFactory.build(
            tournament=tournament, ref=f"p{i + 1}", name=f"Player {i:04d}", club=f"Club {i % 3}"
        )
        for i in range(count)
    )
    _changed([tournament.pk])
    return players


@transaction.atomic
def seated_round(
    tournament, players: Sequence[Player], *, number=1, started=True, released=False, deals=None
) -> Round:
    """Round ``number`` of ``tournament`` with ``players`` seated in order at tables as
    close to five as possible (12 → 4, 4, 4). ``deals(table number, size)`` gives each table's
    confirmed rows; without it no sheet is entered yet."""
    round_ = RoundFactory(tournament=tournament, number=number, started=started, released=released)
    seating, start = [], 0
    for size in table_sizes(len(players)):
        seating.append(players[start : start + size])
        start += size
    play_round(
        round_,
        seating,
        None if deals is None else [deals(n, len(s)) for n, s in enumerate(seating, 1)],
    )
    return round_


@transaction.atomic
def play_round(round_, seating: Sequence[Sequence[Player]], deals=None) -> list[Table]:
    """Tables 1, 2, ... of ``round_`` with ``seating``'s players, each table's confirmed
    rows from ``deals`` (a list in table order) when given: a round's rows in a few bulk
    inserts, however many tables."""
    tables = Table.objects.bulk_create(
        TableFactory.build(round=round_, number=number) for number in range(1, len(seating) + 1)
    )
    fill_tables(list(zip(tables, seating, deals or [None] * len(seating), strict=True)))
    return tables


@transaction.atomic
def played_tournament(
    *,
    players=12,
    rounds=2,
    rotations=1,
    seed=1,
    slug="test-open",
    name="Test Open",
    published=True,
    date=None,
    absent: dict[int, Sequence[int]] | None = None,
    stopped_early: dict[int, tuple[int, int]] | None = None,
    **fields,
) -> Tournament:
    """A tournament of ``players`` (``make_players``) and ``rounds`` started and released
    rounds, each seated by the seating engine and every table's sheet confirmed with
    ``rotations`` rounds of deals played by the simulator from ``seed`` (players of
    different skill), as the demo's evening is made. ``absent`` maps a round to player indexes who miss it,
    ``stopped_early`` a round to (table number, deals played)."""
    tournament = TournamentFactory(
        name=name,
        slug=slug,
        date=datetime.date.fromisoformat(date) if isinstance(date, str) else date,
        rotations_per_round=rotations,
        published=published,
        **fields,
    )
    field = make_players(tournament, players)
    # The demo's evening (tournament.demo.synthetic_rounds), so that a seed gives the
    # evening its file would (tests/project/test_factories.py): tests written against a seed's
    # outcome (a countback, a tie) keep testing the same thing.
    by_ref = {player.ref: player for player in field}
    evening = synthetic_rounds(
        [player.ref for player in field],
        rounds,
        rotations,
        seed,
        absent=absent,
        stopped_early=stopped_early,
        scoring=fields.get("scoring", "winner-advantage"),
        rule_set=fields.get("rule_set", "standard"),
    )
    for number, tables in evening:
        round_ = RoundFactory(tournament=tournament, number=number, started=True, released=True)
        play_round(
            round_,
            [[by_ref[ref] for ref in refs] for refs, _ in tables],
            [deals for _, deals in tables],
        )
    return tournament


# Four deals at a table of four (one rotation) under Caidis scoring, each with its
# lying-down order (``laid_down``: the seats first out first); every row adds up to 52.
# The dealer (seat d deals deal d) takes the left over; the tests score them by hand.
CAIDIS_ROWS: list[Row] = [
    {"won": [10, 4, 10, 0], "last_in": 4, "left_over": 28, "laid_down": [2, 3, 1]},
    {"won": [24, 4, 10, 4], "last_in": 1, "left_over": 10, "laid_down": [4, 2, 3]},
    {"won": [8, 8, 8, 8], "last_in": 2, "left_over": 20, "laid_down": [1, 4, 3]},
    {"won": [20, 0, 20, 2], "last_in": 3, "left_over": 10, "laid_down": [2, 4, 1]},
]

# Eight deals at a table of eight (one rotation): the same counts every deal, seat d last
# in in deal d; every row adds up to 52.
EIGHT_ROWS: list[Row] = [
    {"won": [10, 8, 6, 6, 4, 4, 2, 2], "last_in": deal, "left_over": 10} for deal in range(1, 9)
]


@transaction.atomic
def table_of(size: int, **fields: Any) -> Table:
    """Table 1 of the started round 1 of a new tournament (``fields``: its own, such as
    ``scoring="caidis"`` or ``rule_set="du-coeur"``), seating ``size`` players of
    ``make_players``, no sheet entered yet."""
    tournament = TournamentFactory(**fields)
    round_ = RoundFactory(tournament=tournament, number=1, started=True)
    return TableFactory(round=round_, number=1, players=make_players(tournament, size))


def player_of(tournament, round_number, table_number, position) -> Player:
    """Who sat at ``position`` of table ``table_number`` in round ``round_number``."""
    return Seat.objects.get(
        round__tournament=tournament,
        round__number=round_number,
        table__number=table_number,
        position=position,
    ).player


def link(tournament, people) -> None:
    """Link the tournament's players, in order, to ``people`` (None leaves one unlinked)."""
    for player, person in zip(
        Player.objects.filter(tournament=tournament).order_by("pk"), people, strict=False
    ):
        if person is not None:
            player.person = person
            player.save()
