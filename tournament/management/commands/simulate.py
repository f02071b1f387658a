import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import rulesets
from scoring.errors import UserError
from scoring.simulation import SimulatedDeal, player, simulate, strategy_keys, table_params
from scoring.simulation.constants import DEFAULT_OVERSIGHT, DEFAULT_STRATEGY
from scoring.systems import ScoringSystem
from tournament.tournament_file.file_format import deal_entry

# A run is printed whole: ten million deals are about 1.5 GB of JSON, and a minute's play.
MAX_DEALS = 1_000_000


class Command(BaseCommand):
    help = (
        "Simulate deals at one table and print their facts as a tournament file's deals, "
        "each with its dealer (docs/simulator.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--scoring",
            choices=[system.value for system in ScoringSystem],
            default=ScoringSystem.WINNER_ADVANTAGE.value,
        )
        parser.add_argument("--rule-set", default="standard", help="a preset's key")
        parser.add_argument("--players", type=int, default=5)
        parser.add_argument(
            "--deals", type=int, default=None, help="default: one rotation, a deal per player"
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--format", choices=["json", "text"], default="json")
        parser.add_argument("--strategy", choices=strategy_keys(), default=DEFAULT_STRATEGY)
        parser.add_argument(
            "--oversight",
            type=float,
            default=DEFAULT_OVERSIGHT,
            help="the chance, 0 to 1, that a player misses what it could do",
        )

    def handle(
        self,
        *args: object,
        scoring: str,
        rule_set: str,
        players: int,
        deals: int | None,
        seed: int,
        format: str,
        strategy: str,
        oversight: float,
        **options: object,
    ) -> None:
        system = ScoringSystem(scoring)
        if deals is not None and deals > MAX_DEALS:
            raise CommandError(f"--deals: at most {MAX_DEALS:,} in one run, not {deals:,}")
        try:
            rules = rulesets.rule_set(rule_set)
            table_params(rules, system, players)
            table = [player(strategy, oversight)] * players
            run = list(simulate(rules, system, table, players if deals is None else deals, seed))
        except UserError as error:
            raise CommandError(str(error)) from None
        if format == "json":
            rows = [row(deal, system.needs_order) for deal in run]
            text = "[\n" + ",\n".join(json.dumps(one) for one in rows) + "\n]\n"
        else:
            heading = f"{players} players, {rules.key}, {system.value}, seed {seed}"
            lines = [f"{heading}: {len(run)} deals"]
            lines += [line(deal, system.needs_order) for deal in run]
            text = "\n".join(lines) + "\n"
        self.stdout.write(text, ending="")


def row(deal: SimulatedDeal, with_order: bool) -> dict[str, object]:
    """A deal as a tournament file's ``deals`` holds it, with its dealer."""
    return deal_entry(deal.facts, with_order) | {"dealer": deal.dealer}


def line(deal: SimulatedDeal, with_order: bool) -> str:
    facts = deal.facts
    won = " ".join(str(cards) for cards in facts.won)
    text = (
        f"deal {deal.number}, seat {deal.dealer} deals: won {won}, last in {facts.last_in}, "
        f"left over {facts.left_over}"
    )
    if with_order:
        text += ", laid down " + " ".join(str(seat) for seat in facts.laid_down)
    return text
