from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.services import tournament_file


class Command(BaseCommand):
    help = "Print a tournament as a tournament file (JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: object, slug: str, **options: object) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug “{slug}”")
        self.stdout.write(
            tournament_file.dumps(tournament_file.export_tournament(tournament)), ending=""
        )
