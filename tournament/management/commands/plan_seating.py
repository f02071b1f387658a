import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from scoring.rulesets import RULE_SETS, STANDARD, RuleSet, sizes_text
from scoring.seating import DEFAULT_SIZES, SeatingRequest, plan
from tournament.management.arguments import rule_set_named, table_sizes
from tournament.rounds.seating_plan import plan_json


def _allowed(sizes: tuple[int, ...], rules: RuleSet, given: bool) -> tuple[int, ...]:
    """``sizes``, refused in words when the rule set does not seat one of them; when no
    rule set was given, the message names those that seat them."""
    refused = sorted({size for size in sizes if size not in rules.sizes})
    if not refused:
        return sizes
    others = [key for key, other in RULE_SETS.items() if set(sizes) <= set(other.sizes)]
    hint = f"; --rule-set {' or '.join(others)} seats them" if others and not given else ""
    raise CommandError(
        f'--sizes {",".join(map(str, sizes))}: the rule set "{rules.key}" seats tables of '
        f"{sizes_text(rules.sizes)} players, not {sizes_text(refused)}{hint}"
    )


class Command(BaseCommand):
    help = (
        "Plan the seating of R rounds for players numbered 1..N (nothing is stored) and "
        "print it with its quality figures."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument(
            "--rule-set",
            type=rule_set_named,
            default=None,
            help=f"the rule set whose table sizes may be seated ({', '.join(RULE_SETS)}; "
            f"{STANDARD.key} unless given)",
        )
        parser.add_argument(
            "--sizes",
            type=table_sizes,
            default=None,
            help="the table sizes allowed, like 4,5,6 (default: 4,5,6, or every size of "
            "the rule set given)",
        )
        parser.add_argument("--byes", action="store_true", help="tables of five; the rest sit out")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: object, **options: object) -> None:
        players = options["players"]
        byes = bool(options["byes"])
        given = options["rule_set"]
        rules = given if isinstance(given, RuleSet) else STANDARD
        sizes = options["sizes"]
        if not isinstance(sizes, tuple):
            sizes = rules.sizes if given else DEFAULT_SIZES
        request = SeatingRequest(
            players=tuple(range(1, players + 1)),  # type: ignore[operator]
            rounds=options["rounds"],  # type: ignore[arg-type]
            sizes=(5,) if byes else _allowed(sizes, rules, given is not None),
            byes=byes,
            seed=options["seed"],  # type: ignore[arg-type]
            rule_sizes=rules.sizes,
        )
        try:
            result = plan(request)
        except UserError as error:
            raise CommandError(str(error)) from None
        if options["format"] == "json":
            data = plan_json(players, result.rounds, result.quality, byes)  # type: ignore[arg-type]
            self.stdout.write(json.dumps(data))
            return
        for number, seated in enumerate(result.rounds, start=1):
            self.stdout.write(f"Round {number}")
            for table, seats in enumerate(seated.tables, start=1):
                self.stdout.write(f"  table {table}: " + " ".join(str(p) for p in seats))
            if seated.byes:
                self.stdout.write("  byes: " + " ".join(str(p) for p in seated.byes))
        figures = result.quality
        self.stdout.write(
            f"Repeat meetings: {figures.repeat_meetings} (counting lower bound "
            f"{figures.lower_bound}); most meetings of any pair: {figures.max_meetings}."
        )
