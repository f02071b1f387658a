"""The rules card: one printed page per table of a round, to lie beside its score sheet.

Terms:

- *rules card*: the table's seats and players, who deals each deal, how the game is
  played and a deal counted (the wording of docs/rules.md, shortened), and a worked
  example of one deal under the tournament's scoring system.
- *worked example*: the example deal for the table's size (``scoring.examples``) with
  the table's own players in its seats; its points come from
  ``scoring.systems.score_deal``, and each seat's working shows how.

Printed by the browser (``static/css/print.css``), like the score sheets.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.examples import EXAMPLE_DEALER, example_deal
from scoring.rules import (
    CARDS_IN_PACK,
    DealFacts,
    TableParams,
    dealer_of,
    deals_per_round,
)
from scoring.rulesets import STANDARD, Balance, LeftOverTo, RuleSet, balance, rounding
from scoring.systems import ScoringSystem, final_piles, score_deal
from tournament.models import Round, Tournament
from tournament.printing.views.printouts import (
    PrintedSeat,
    PrintedTable,
    printed_tables,
    table_filter,
)
from tournament.shared.permissions import get_round, get_tournament_for_organiser


@dataclass(frozen=True)
class DealingSeat:
    seat: PrintedSeat
    deals: tuple[int, ...]


@dataclass(frozen=True)
class ExampleSeat:
    seat: PrintedSeat
    won: int
    dealer: bool
    last_in: bool
    cards: int  # the cards scored: won, plus the left over where the system puts them
    points: int
    working: str
    # The seat's place in the lying-down order (1 = first out); None for the last in.
    out: int | None = None


@dataclass(frozen=True)
class WorkedExample:
    deal: DealFacts
    seats: tuple[ExampleSeat, ...]
    system: ScoringSystem
    params: TableParams
    rule_set: RuleSet = STANDARD

    @property
    def balance(self) -> Balance:
        return balance(self.params)

    @property
    def won_total(self) -> int:
        return sum(self.deal.cards(seat) for seat in range(1, self.deal.table_size + 1))

    @property
    def points_total(self) -> int:
        return sum(seat.points for seat in self.seats)

    @property
    def gets_left_over(self) -> ExampleSeat:
        """The seat the left-over cards go to: last in under winner-advantage, else as the
        rule set says (the dealer, in every source)."""
        to_last_in = self.system is ScoringSystem.WINNER_ADVANTAGE or (
            self.system is ScoringSystem.CLASSIC_STAKES
            and self.rule_set.left_over_to is LeftOverTo.LAST_IN
        )
        wanted = "last_in" if to_last_in else "dealer"
        return next(seat for seat in self.seats if getattr(seat, wanted))


@dataclass(frozen=True)
class RulesCard:
    table: PrintedTable
    dealing: tuple[DealingSeat, ...]
    deals: int
    params: TableParams
    example: WorkedExample

    @property
    def first_out(self) -> int:
        """Caidis: the first to lie down pays every other player one stake."""
        return 1 - self.table.size

    @property
    def last_in_net(self) -> int:
        return self.table.size - 1

    @property
    def cards_in_all_deals(self) -> int:
        return CARDS_IN_PACK * self.deals


def _working(
    system: ScoringSystem,
    params: TableParams,
    seat: int,
    deal: DealFacts,
    cards: int,
    best: tuple[int, ...],
) -> str:
    """How a seat's points of the example are worked out, in the card's arithmetic;
    ``best`` are the seats with most cards scored."""
    dealer, last_in = seat == EXAMPLE_DEALER, seat == deal.last_in
    if system is ScoringSystem.WINNER_ADVANTAGE:
        return f"{cards} ÷ 2"
    if system is ScoringSystem.CAIDIS:
        n = deal.players
        if last_in:
            parts = [f"+{n - 1} (last in)"]
        else:
            k = deal.laid_down.index(seat) + 1
            parts = [f"{2 * k - n - 1:+d} ({_ordinal(k)} out)"]
        if len(best) == 1 and best[0] != EXAMPLE_DEALER:
            if dealer:
                parts.append("− 1 (stake)")
            elif seat == best[0]:
                parts.append("+ 1 (most pairs)")
        return " ".join(parts)
    parts = [f"−{params.dealer_stake if dealer else params.other_stake}"]
    if last_in:
        parts.append(f"+ {params.last_in_prize}")
    step = rounding(cards, params.break_even)
    shift = "" if not step else f" {'+' if step > 0 else '−'} 1"
    parts.append(f"+ ({cards} − {params.break_even}{shift}) ÷ 2")
    return " ".join(parts)


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def worked_example(
    table: PrintedTable, system: ScoringSystem, rule_set: RuleSet = STANDARD
) -> WorkedExample:
    """The example deal for the table's size, seated with the table's players."""
    deal = example_deal(table.size)
    params = rule_set.params(table.size)
    points = score_deal(deal, EXAMPLE_DEALER, system, rule_set)
    if system is ScoringSystem.WINNER_ADVANTAGE:
        finals = tuple(
            (won or 0) + (deal.left_over if seat == deal.last_in else 0)
            for seat, won in enumerate(deal.won, start=1)
        )
    else:
        finals = tuple(
            final or 0
            for final in final_piles(
                deal, EXAMPLE_DEALER, rule_set, to_dealer=system is ScoringSystem.CAIDIS
            )
        )
    best = tuple(seat for seat, cards in enumerate(finals, start=1) if cards == max(finals))
    seats = []
    for printed, scored in zip(table.seats, points, strict=True):
        position = printed.position
        cards = finals[position - 1]
        seats.append(
            ExampleSeat(
                printed,
                deal.cards(position),
                position == EXAMPLE_DEALER,
                position == deal.last_in,
                cards,
                scored,
                _working(system, params, position, deal, cards, best),
                deal.laid_down.index(position) + 1 if position in deal.laid_down else None,
            )
        )
    return WorkedExample(deal, tuple(seats), system, params, rule_set)


def rules_card(tournament: Tournament, table: PrintedTable) -> RulesCard:
    deals = deals_per_round(table.size, tournament.rotations_per_round)
    dealing = tuple(
        DealingSeat(
            seat,
            tuple(d for d in range(1, deals + 1) if dealer_of(d, table.size) == seat.position),
        )
        for seat in table.seats
    )
    return RulesCard(
        table=table,
        dealing=dealing,
        deals=deals,
        params=tournament.rules.params(table.size),
        example=worked_example(table, tournament.scoring_system, tournament.rules),
    )


def rules_cards_for(
    tournament: Tournament, round_: Round, only_table: int | None
) -> list[RulesCard]:
    tables = printed_tables(round_, only_table)
    if only_table is not None and not tables:
        raise Http404("No such table")
    return [rules_card(tournament, table) for table in tables]


@login_required
@require_GET
def rules_cards(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, round)
    only_table = table_filter(request)
    return render(
        request,
        "printing/rules_cards.html",
        {
            "tournament": tournament,
            "round": round_,
            "only_table": only_table,
            "cards": rules_cards_for(tournament, round_, only_table),
            "winner_advantage": tournament.scoring_system is ScoringSystem.WINNER_ADVANTAGE,
            "caidis": tournament.scoring_system is ScoringSystem.CAIDIS,
            "rule_set": tournament.rules,
        },
    )
