from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.tournament_file import file_format, writing
from tournament.tournament_file.schema import build_schema


class Command(BaseCommand):
    help = "Print a tournament as a tournament file (JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?")
        parser.add_argument(
            "--schema",
            action="store_true",
            help="print the JSON Schema of tournament files instead "
            "(docs/tournament-file.schema.json is this)",
        )

    def handle(self, *args: object, slug: str | None, schema: bool, **options: object) -> None:
        if schema:
            self.stdout.write(file_format.dumps(build_schema()), ending="")
            return
        if slug is None:
            raise CommandError("give the slug of the tournament to export (or --schema)")
        with writing.consistent_read():
            tournament = Tournament.objects.filter(slug=slug).first()
            if tournament is None:
                raise CommandError(f"no tournament with the slug “{slug}”")
            data = writing.export_tournament(tournament)
        self.stdout.write(file_format.dumps(data), ending="")
