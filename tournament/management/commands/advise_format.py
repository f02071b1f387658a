"""``manage.py advise_format``: the formats that fit an evening and how fairly each picks
out the strongest player (docs/format-advisor.md)."""

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import rulesets
from scoring.errors import UserError
from scoring.simulation.advisor import MINUTES_PER_DEAL, Advice, advise
from scoring.systems import ScoringSystem


class Command(BaseCommand):
    help = (
        "List the formats (rounds × rotations) that fit the minutes available, with the "
        "strongest player's chances from simulated tournaments, and recommend one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--minutes", type=int, required=True, help="the time available")
        parser.add_argument(
            "--scoring",
            choices=[system.value for system in ScoringSystem],
            default=ScoringSystem.WINNER_ADVANTAGE.value,
        )
        parser.add_argument("--rule-set", default="standard", help="a preset's key")
        parser.add_argument("--minutes-per-deal", type=float, default=MINUTES_PER_DEAL)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--format", choices=["json", "text"], default="text")

    def handle(
        self,
        *args: object,
        players: int,
        minutes: int,
        scoring: str,
        rule_set: str,
        minutes_per_deal: float,
        seed: int,
        format: str,
        **options: object,
    ) -> None:
        try:
            rules = rulesets.rule_set(rule_set)
            advice = advise(players, minutes, ScoringSystem(scoring), rules, minutes_per_deal, seed)
        except UserError as error:
            raise CommandError(str(error)) from None
        if format == "json":
            self.stdout.write(json.dumps(advice.as_data(), indent=1))
        else:
            self.stdout.write(as_text(advice))


def as_text(advice: Advice) -> str:
    tables = " or ".join(" + ".join(str(size) for size in split) for split in advice.splits)
    lines = [
        f"{advice.players} players at tables of {tables}; {advice.minutes_available} minutes, "
        f"{advice.minutes_per_deal:g} minutes a deal",
        "tables         rounds  rotations  minutes  strongest wins  strongest top 3  tied at top",
    ]
    for candidate in advice.formats:
        mark = "  ← recommended" if candidate == advice.recommended else ""
        split = "+".join(str(size) for size in candidate.split)
        lines.append(
            f"{split:<13}  {candidate.rounds:>6}  {candidate.rotations:>9}  "
            f"{candidate.minutes:>7}  "
            f"{candidate.strongest_wins:>14.0%}  {candidate.strongest_top3:>15.0%}  "
            f"{candidate.ties_at_top:>11.2f}{mark}"
        )
    if advice.recommended is None:
        lines.append("No format fits the time: even one round of one rotation takes longer.")
    return "\n".join(lines)
