"""What the ``series_standings`` and ``ratings`` commands share: a series named by its
slug, its figures written as text, CSV or JSON (``series.export``)."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Series


@dataclass(frozen=True)
class SeriesFile:
    """How a command gathers a series' figures and writes them in each format."""

    figures: Callable[[Series], Any]
    json: Callable[[Any], dict[str, Any]]
    csv: Callable[[Any], str]
    text: Callable[[Any], str]


class SeriesFileCommand(BaseCommand):
    file: ClassVar[SeriesFile]

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")

    def handle(self, *args: object, slug: str, format: str, **options: object) -> None:
        series = Series.objects.filter(slug=slug).first()
        if series is None:
            raise CommandError(f"no series with the slug “{slug}”")
        figures = self.file.figures(series)
        if format == "json":
            text = json.dumps(self.file.json(figures), indent=2, ensure_ascii=False) + "\n"
        else:
            text = self.file.csv(figures) if format == "csv" else self.file.text(figures)
        self.stdout.write(text, ending="")
