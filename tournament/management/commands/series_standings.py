import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Series
from tournament.services import series_export
from tournament.services.series import series_standings


class Command(BaseCommand):
    help = (
        "Print a series' standings: only what its tournaments show publicly counts. "
        "See docs/series.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")

    def handle(self, *args: object, slug: str, format: str, **options: object) -> None:
        series = Series.objects.filter(slug=slug).first()
        if series is None:
            raise CommandError(f"no series with the slug “{slug}”")
        standings = series_standings(series)
        if format == "json":
            data = series_export.standings_json(standings)
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        elif format == "csv":
            text = series_export.standings_csv(standings)
        else:
            text = series_export.standings_text(standings)
        self.stdout.write(text, ending="")
