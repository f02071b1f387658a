import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.derived.refresh import at_once
from tournament.models import Tournament
from tournament.shared.derived import ORGANISER, PUBLIC, load_view
from tournament.standings import files as standings_files


class Command(BaseCommand):
    help = (
        "Print a tournament's standings with every tiebreak value, as its view holds them: "
        "the organiser's (every started round's confirmed sheets), or with --public what "
        "the public pages show (released rounds only)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")
        parser.add_argument(
            "--public", action="store_true", help="the public view: released rounds only"
        )

    def handle(
        self, *args: object, slug: str, format: str, public: bool, **options: object
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug “{slug}”")
        kind = PUBLIC if public else ORGANISER
        state = load_view(tournament, kind)
        if state is None or state.made_for < tournament.standings_version:
            # A command is not a request: what the worker would do, it does now.
            at_once(tournament, chances=False)
            state = load_view(tournament, kind)
        assert state is not None, slug
        result = state.tournament_standings(tournament)
        if format == "json":
            text = json.dumps(standings_files.as_json(result), indent=2, ensure_ascii=False) + "\n"
        elif format == "csv":
            text = standings_files.as_csv(result)
        else:
            text = standings_files.as_text(result)
        self.stdout.write(text, ending="")
