"""A player's public page: the player's own tables of the released rounds with their
confirmed deals, and their part in each released round (``shared.derived`` has the
terms).

Every figure of the player's standing comes from the tournament's public view (the
rank after each round, each round's total, table win and cards from the view's round
tables, the penalties and awards with the tally); the page adds only two queries, for
the player's own tables and their deals, shown deal by deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import groupby

from scoring.plays import TablePlay
from scoring.rules import DealFacts, Leave, dealer_at, deals_in_round
from scoring.systems import score_deal
from scoring.tiebreaks import Adjusted
from tournament.models import DealResult, Seat, Tournament
from tournament.shared.derived import (
    DerivedState,
    PublicSeat,
    RoundRank,
    RoundTable,
    SeatResult,
    rounds_results,
)
from tournament.sheets.leaves import stored_leaves
from tournament.sheets.order import ordinal
from tournament.standings.services import bye_points


@dataclass(frozen=True)
class PublicTable:
    tournament: Tournament
    round_number: int
    number: int
    seats: tuple[PublicSeat, ...]
    # (deal number, facts) pairs in deal order.
    deals: tuple[tuple[int, DealFacts], ...]
    # The seats that left the table mid-round.
    leaves: tuple[Leave, ...] = ()

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def expected_deals(self) -> int:
        return deals_in_round(self.size, self.tournament.rotations_per_round, self.leaves)

    @property
    def stopped_early(self) -> bool:
        # Confirmed deals are only ever written for a complete sheet, so fewer deals than a
        # round has (but some) means the sheet was confirmed as stopped early.
        return 0 < len(self.deals) < self.expected_deals

    @property
    def play(self) -> TablePlay:
        return TablePlay(
            self.round_number,
            tuple(s.player_id for s in self.seats),
            tuple(self.deals),
            leaves=self.leaves,
        )

    def dealer(self, deal_number: int) -> PublicSeat:
        return self.seats[dealer_at(deal_number, self.size, self.leaves) - 1]

    def left_after(self, seat: PublicSeat) -> int | None:
        """The deal after which ``seat`` left the table, None if it stayed."""
        return next(
            (leave.after_deal for leave in self.leaves if leave.seat == seat.position), None
        )

    @cached_property
    def deal_points(self) -> tuple[tuple[int, ...], ...]:
        """Each deal's points in seat order, under the tournament's scoring system."""
        system, rules = self.tournament.scoring_system, self.tournament.rules
        return tuple(
            score_deal(facts, dealer_at(number, self.size, self.leaves), system, rules)
            for number, facts in self.deals
        )


def player_tables(tournament: Tournament, player_id: int) -> list[PublicTable]:
    """The tables of the released rounds where ``player_id`` sat, with their confirmed
    deals, in round order: two queries."""
    tables = Seat.objects.filter(
        round__tournament=tournament, round__released=True, player_id=player_id
    ).values("table_id")
    seats: dict[int, tuple[int, int, list[PublicSeat]]] = {}
    left: dict[int, tuple[Leave, ...]] = {}
    for table_id, round_no, table_no, position, seated_id, name, table_left in (
        Seat.objects.filter(table_id__in=tables)
        .order_by("round__number", "table__number", "position")
        .values_list(
            "table_id",
            "round__number",
            "table__number",
            "position",
            "player_id",
            "player__name",
            "table__left",
        )
    ):
        seats.setdefault(table_id, (round_no, table_no, []))[2].append(
            PublicSeat(position, seated_id, name)
        )
        left[table_id] = stored_leaves(table_left)

    rows = (
        DealResult.objects.filter(deal__table_id__in=tables)
        .order_by("deal__table_id", "deal__number", "seat")
        .values_list(
            "deal__table_id",
            "deal__number",
            "deal__last_in",
            "deal__left_over",
            "deal__laid_down",
            "seat",
            "won",
        )
    )
    deals: dict[int, list[tuple[int, DealFacts]]] = {}
    for (table_id, number, last_in, left_over), group in groupby(rows, key=lambda r: r[:4]):
        # A seat that had left has no count in the deal.
        won: list[int | None] = [None] * len(seats[table_id][2])
        laid_down: list[int] = []
        for *_, order, seat, count in group:
            won[seat - 1] = count
            laid_down = order or []
        facts = DealFacts(tuple(won), last_in, left_over, tuple(laid_down))
        deals.setdefault(table_id, []).append((number, facts))

    return [
        PublicTable(
            tournament,
            round_no,
            table_no,
            tuple(seated),
            tuple(deals.get(table_id, ())),
            left.get(table_id, ()),
        )
        for table_id, (round_no, table_no, seated) in seats.items()
    ]


@dataclass(frozen=True)
class PlayerRound:
    """A player's part in one released round: a table, a bye, or neither (absent)."""

    round_number: int
    table: PublicTable | None
    seat: PublicSeat | None
    bye_points: int | None
    rank_after: RoundRank
    # The penalties and awards of the round, counted in the standings.
    adjustments: tuple[Adjusted, ...] = ()
    # The round's total in the standings (the table's points, a bye's, and the
    # penalties and awards), None while it has no result.
    standings_total: int | None = None
    # The player's table as the public view holds it: the round's points, cards, deals
    # last in and table win come from there.
    view_table: RoundTable | None = None

    @property
    def result(self) -> SeatResult | None:
        if self.view_table is None or self.seat is None:
            return None
        return self.view_table.result_of(self.seat.player_id)

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
                # The player had left the table before this deal.
                "left": facts.won[index] is None,
                "last_in": facts.last_in == self.seat.position,
                # Where the player lay down ("2nd"), where the order is recorded.
                "out": ordinal(facts.laid_down.index(self.seat.position) + 1)
                if self.seat.position in facts.laid_down
                else None,
                "points": points[index],
            }
            for (number, facts), points in zip(
                self.table.deals, self.table.deal_points, strict=True
            )
        ]


def player_rounds(
    tournament: Tournament, player_id: int, results: DerivedState
) -> list[PlayerRound]:
    """The player's part in each released round: two queries, for their own tables (the
    view's round tables come from the cache)."""
    seated = {
        table.round_number: (table, seat)
        for table in player_tables(tournament, player_id)
        for seat in table.seats
        if seat.player_id == player_id
    }
    sat_out = results.byes.get(player_id, frozenset())
    points_for_bye = bye_points(tournament)
    tally = results.rows[player_id].tally
    totals = dict(zip(results.standings.round_numbers, tally.rounds, strict=True))
    # The view's tables of the rounds the player sat at: the cache, or one query.
    played_in = rounds_results(tournament, sorted(seated))
    rounds = []
    for rank in results.history_of(player_id):
        table, seat = seated.get(rank.round_number, (None, None))
        played = played_in.get(rank.round_number) if table is not None else None
        adjusted = tuple(a for a in tally.adjustments if a.round_number == rank.round_number)
        rounds.append(
            PlayerRound(
                round_number=rank.round_number,
                table=table,
                seat=seat,
                bye_points=points_for_bye if rank.round_number in sat_out else None,
                rank_after=rank,
                adjustments=adjusted,
                standings_total=totals.get(rank.round_number),
                view_table=played.table_of(player_id) if played is not None else None,
            )
        )
    return rounds
