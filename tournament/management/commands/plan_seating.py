import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from scoring.seating import DEFAULT_SIZES, SeatingRequest, plan
from tournament.rounds.seating_plan import plan_json


def _sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CommandError(f"--sizes {text!r}: give table sizes like 4,5,6") from None


class Command(BaseCommand):
    help = (
        "Plan the seating of R rounds for players numbered 1..N (nothing is stored) and "
        "print it with its quality figures."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--sizes", type=_sizes, default=DEFAULT_SIZES)
        parser.add_argument("--byes", action="store_true", help="tables of five; the rest sit out")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: object, **options: object) -> None:
        players = options["players"]
        byes = bool(options["byes"])
        request = SeatingRequest(
            players=tuple(range(1, players + 1)),  # type: ignore[operator]
            rounds=options["rounds"],  # type: ignore[arg-type]
            sizes=(5,) if byes else options["sizes"],  # type: ignore[arg-type]
            byes=byes,
            seed=options["seed"],  # type: ignore[arg-type]
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
