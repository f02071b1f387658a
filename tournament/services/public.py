"""What the public pages show of a tournament: released rounds and confirmed facts only.

Terms:

- *released round*: a round the organiser has released (``Round.released``). Nothing of
  an unreleased round (seating, results, byes) is loaded here.
- *confirmed deal*: a ``Deal`` row with its ``DealResult`` rows. Sheets awaiting
  confirmation live in ``Sheet.pending`` and are never read here.
- *table result*: one table of a released round: its seating (seat 1 deals first), its
  confirmed deals, and what each seat made of them.
- *rank history*: a player's rank after each released round k, i.e. in the standings
  computed over the released rounds up to and including k. It is made for the whole
  field at once from the seats' sums (``public_ranks``) and cached until something public
  changes, so that a player's page then reads only that player's own tables: a crawler
  walking every player's page does not redo the field's work on each.

Every loader runs a fixed number of queries whatever the number of players, rounds or
deals; everything else is computed in Python with ``scoring``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby

from django.core.cache import cache
from django.db.models import Q

from scoring.rules import DealFacts, dealer_of, deals_per_round
from scoring.standings import Entrant, StandingRow, Standings, TablePlay, compute_standings
from scoring.systems import score_deal
from tournament.models import Bye, DealResult, Player, Round, Seat, Tournament
from tournament.public_cache import public_version
from tournament.services.standings import PlayerInfo, bye_points, rank_label, released_plays

# The rank history outlives no public change (its key holds ``public_version``); the
# timeout only frees the memory of tournaments nobody looks at any more.
RANKS_TIMEOUT = 60 * 60


@dataclass(frozen=True)
class PublicSeat:
    position: int
    player_id: int
    name: str


@dataclass(frozen=True)
class SeatResult:
    """One seat's part in a table's round."""

    seat: PublicSeat
    points: int
    cards_won: int
    last_in: int
    winner: bool


@dataclass(frozen=True)
class PublicTable:
    tournament: Tournament
    round_number: int
    number: int
    seats: tuple[PublicSeat, ...]
    # (deal number, facts) pairs in deal order.
    deals: tuple[tuple[int, DealFacts], ...]

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def expected_deals(self) -> int:
        return deals_per_round(self.size, self.tournament.rotations_per_round)

    @property
    def stopped_early(self) -> bool:
        # Confirmed deals are only ever written for a complete sheet, so fewer deals than a
        # round has (but some) means the sheet was confirmed as stopped early.
        return 0 < len(self.deals) < self.expected_deals

    @property
    def play(self) -> TablePlay:
        return TablePlay(
            self.round_number, tuple(s.player_id for s in self.seats), tuple(self.deals)
        )

    def dealer(self, deal_number: int) -> PublicSeat:
        return self.seats[dealer_of(deal_number, self.size) - 1]

    @cached_property
    def deal_points(self) -> tuple[tuple[int, ...], ...]:
        """Each deal's points in seat order, under the tournament's scoring system."""
        system = self.tournament.scoring_system
        return tuple(
            score_deal(facts, dealer_of(number, self.size), system) for number, facts in self.deals
        )

    @cached_property
    def results(self) -> tuple[SeatResult, ...]:
        totals = [sum(points[i] for points in self.deal_points) for i in range(self.size)]
        top = max(totals) if self.deals else None
        return tuple(
            SeatResult(
                seat=seat,
                points=totals[index],
                cards_won=sum(facts.won[index] for _, facts in self.deals),
                last_in=sum(1 for _, facts in self.deals if facts.last_in == seat.position),
                winner=totals[index] == top,
            )
            for index, seat in enumerate(self.seats)
        )

    @property
    def winners(self) -> list[PublicSeat]:
        return [result.seat for result in self.results if result.winner]


@dataclass(frozen=True)
class ByeInfo:
    round_number: int
    player_id: int
    name: str


def released_round_numbers(tournament: Tournament) -> list[int]:
    return list(
        Round.objects.filter(tournament=tournament, released=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def released_tables(
    tournament: Tournament, round_number: int | None = None, *, player_id: int | None = None
) -> list[PublicTable]:
    """The tables of the released rounds (or of one of them, or only those where
    ``player_id`` sat) with their confirmed deals, in round and table order: two queries."""
    where: dict[str, object] = {"released": True}
    if round_number is not None:
        where["number"] = round_number
    if player_id is None:
        seats_of = Q(round__tournament=tournament, **_on("round__", where))
        results_of = Q(
            deal__table__round__tournament=tournament, **_on("deal__table__round__", where)
        )
    else:
        tables = Seat.objects.filter(
            round__tournament=tournament, player_id=player_id, **_on("round__", where)
        ).values("table_id")
        seats_of, results_of = Q(table_id__in=tables), Q(deal__table_id__in=tables)
    seats: dict[int, tuple[int, int, list[PublicSeat]]] = {}
    for table_id, round_no, table_no, position, player_id_, name in (
        Seat.objects.filter(seats_of)
        .order_by("round__number", "table__number", "position")
        .values_list(
            "table_id", "round__number", "table__number", "position", "player_id", "player__name"
        )
    ):
        seats.setdefault(table_id, (round_no, table_no, []))[2].append(
            PublicSeat(position, player_id_, name)
        )

    rows = (
        DealResult.objects.filter(results_of)
        .order_by("deal__table_id", "deal__number", "seat")
        .values_list("deal__table_id", "deal__number", "deal__last_in", "deal__left_over", "won")
    )
    deals: dict[int, list[tuple[int, DealFacts]]] = {}
    for (table_id, number, last_in, left_over), group in groupby(rows, key=lambda r: r[:4]):
        facts = DealFacts(tuple(row[4] for row in group), last_in, left_over)
        deals.setdefault(table_id, []).append((number, facts))

    return [
        PublicTable(tournament, round_no, table_no, tuple(seated), tuple(deals.get(table_id, ())))
        for table_id, (round_no, table_no, seated) in seats.items()
    ]


def released_byes(tournament: Tournament, round_number: int | None = None) -> list[ByeInfo]:
    where: dict[str, object] = {"released": True}
    if round_number is not None:
        where["number"] = round_number
    return [
        ByeInfo(*row)
        for row in Bye.objects.filter(round__tournament=tournament, **_on("round__", where))
        .order_by("round__number", "player__name", "player_id")
        .values_list("round__number", "player_id", "player__name")
    ]


def _on(path: str, where: dict[str, object]) -> dict[str, object]:
    return {f"{path}{key}": value for key, value in where.items()}


@dataclass(frozen=True)
class RoundRank:
    round_number: int
    rank: int
    shared: bool
    points: int

    @property
    def label(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass(frozen=True)
class PlayerRound:
    """A player's part in one released round: a table, a bye, or neither (absent)."""

    round_number: int
    table: PublicTable | None
    seat: PublicSeat | None
    bye_points: int | None
    rank_after: RoundRank

    @property
    def result(self) -> SeatResult | None:
        if self.table is None or self.seat is None:
            return None
        return self.table.results[self.seat.position - 1]

    @property
    def opponents(self) -> list[PublicSeat]:
        if self.table is None:
            return []
        return [seat for seat in self.table.seats if seat != self.seat]

    @property
    def deals(self) -> list[dict[str, object]]:
        """The player's deal-by-deal results at their table."""
        if self.table is None or self.seat is None:
            return []
        index = self.seat.position - 1
        return [
            {
                "number": number,
                "dealer": self.table.dealer(number),
                "won": facts.won[index],
                "last_in": facts.last_in == self.seat.position,
                "points": points[index],
            }
            for (number, facts), points in zip(
                self.table.deals, self.table.deal_points, strict=True
            )
        ]


@dataclass(frozen=True)
class PublicRanks:
    """Every player's public standing: their row over all released rounds, their rank
    after each released round, and the released rounds they sat out.

    Made for the whole field at once (``public_ranks``) and kept in the cache until the
    public pages change, so that a player's page costs only that player's own tables.
    """

    round_numbers: tuple[int, ...]
    players: dict[int, PlayerInfo]
    rows: dict[int, StandingRow]
    history: dict[int, tuple[RoundRank, ...]]
    byes: dict[int, frozenset[int]]

    @property
    def field_size(self) -> int:
        return len(self.players)


def _ranks_after_each_round(tournament: Tournament) -> PublicRanks:
    """Four queries (players, released rounds, their seats' sums, their byes), then one
    standings computation per released round, over the rounds up to it."""
    players = {
        pk: PlayerInfo(ref, name, club)
        for pk, ref, name, club in Player.objects.filter(tournament=tournament).values_list(
            "pk", "ref", "name", "club"
        )
    }
    round_numbers = tuple(released_round_numbers(tournament))
    plays = released_plays(tournament)
    byes = [(bye.round_number, bye.player_id) for bye in released_byes(tournament)]
    entrants = [Entrant(pk, info.name) for pk, info in players.items()]

    def standings_after(last: int | None) -> Standings:
        def counts(number: int) -> bool:
            return last is None or number <= last

        return compute_standings(
            entrants,
            [play for play in plays if counts(play.round_number)],
            tournament.scoring_system,
            tournament.tiebreaks,
            [number for number in round_numbers if counts(number)],
            [(number, key) for number, key in byes if counts(number)],
            bye_points(tournament),
        )

    history: dict[int, list[RoundRank]] = {pk: [] for pk in players}
    final = standings_after(None)
    for number in round_numbers:
        after = final if number == round_numbers[-1] else standings_after(number)
        for row in after.rows:
            history[row.key].append(  # type: ignore[index]
                RoundRank(number, row.rank, row.shared, row.points)
            )
    sat_out: dict[int, set[int]] = {}
    for number, key in byes:
        sat_out.setdefault(key, set()).add(number)
    return PublicRanks(
        round_numbers=round_numbers,
        players=players,
        rows={row.key: row for row in final.rows},  # type: ignore[misc]
        history={pk: tuple(ranks) for pk, ranks in history.items()},
        byes={pk: frozenset(numbers) for pk, numbers in sat_out.items()},
    )


def public_ranks(tournament: Tournament) -> PublicRanks:
    """``PublicRanks`` of ``tournament``, from the cache while nothing public has changed
    (the key holds ``public_version``, as the public pages' keys do)."""
    key = f"lld:ranks:{tournament.pk}:{public_version(tournament)}"
    ranks = cache.get(key)
    if ranks is None:
        ranks = _ranks_after_each_round(tournament)
        cache.set(key, ranks, RANKS_TIMEOUT)
    return ranks


def player_rounds(tournament: Tournament, player_id: int, ranks: PublicRanks) -> list[PlayerRound]:
    """The player's part in each released round: two queries, for their own tables."""
    seated = {
        table.round_number: (table, seat)
        for table in released_tables(tournament, player_id=player_id)
        for seat in table.seats
        if seat.player_id == player_id
    }
    sat_out = ranks.byes.get(player_id, frozenset())
    points_for_bye = bye_points(tournament)
    rounds = []
    for rank in ranks.history.get(player_id, ()):
        table, seat = seated.get(rank.round_number, (None, None))
        rounds.append(
            PlayerRound(
                round_number=rank.round_number,
                table=table,
                seat=seat,
                bye_points=points_for_bye if rank.round_number in sat_out else None,
                rank_after=rank,
            )
        )
    return rounds


def podium(rows: Iterable[StandingRow]) -> list[tuple[str, StandingRow]]:
    """The winner and runners-up (ranks 1 to 3) with their rank labels ("=2")."""
    return [(rank_label(row), row) for row in rows if row.rank <= 3]
