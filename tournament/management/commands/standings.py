import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.standings import files as standings_files
from tournament.standings.services import tournament_standings


class Command(BaseCommand):
    help = "Print a tournament's standings with every tiebreak value."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")

    def handle(self, *args: object, slug: str, format: str, **options: object) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug “{slug}”")
        result = tournament_standings(tournament)
        if format == "json":
            text = json.dumps(standings_files.as_json(result), indent=2, ensure_ascii=False) + "\n"
        elif format == "csv":
            text = standings_files.as_csv(result)
        else:
            text = standings_files.as_text(result)
        self.stdout.write(text, ending="")
