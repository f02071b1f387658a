from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from scoring.series import SCHEMES
from tournament.series import administration


class Command(BaseCommand):
    help = (
        "Create a series of tournaments (a season, a league, all time), or add and remove "
        "tournaments of one (--add, --remove). Acts as the site administrator: every "
        "tournament is accepted without its organiser's consent. See docs/series.md."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        # Options may come between the tournaments' slugs ("season --name S month-1").
        parser.parse_args = parser.parse_intermixed_args  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the series' slug, as in its address /s/<slug>/")
        parser.add_argument("tournaments", nargs="*", metavar="TOURNAMENT_SLUG")
        parser.add_argument("--name", help="the series' name (needed for a new series)")
        parser.add_argument("--scheme", choices=list(SCHEMES), help="default: field-share")
        parser.add_argument(
            "--placing", help="points by place for the placing scheme, as in 25,18,15,12"
        )
        parser.add_argument(
            "--count-best", type=int, help="count each person's best N results (default: all)"
        )
        parser.add_argument(
            "--min-events", type=int, help="tournaments needed to be ranked (default: 1)"
        )
        change = parser.add_mutually_exclusive_group()
        change.add_argument(
            "--add", action="store_true", help="add the tournaments to an existing series"
        )
        change.add_argument(
            "--remove", action="store_true", help="remove the tournaments from an existing series"
        )

    def handle(
        self,
        *args: object,
        slug: str,
        tournaments: list[str],
        add: bool,
        remove: bool,
        **options: object,
    ) -> None:
        settings = administration.SeriesSettings(
            name=options["name"],  # type: ignore[arg-type]
            scheme=options["scheme"],  # type: ignore[arg-type]
            placing=options["placing"],  # type: ignore[arg-type]
            count_best=options["count_best"],  # type: ignore[arg-type]
            min_events=options["min_events"],  # type: ignore[arg-type]
        )
        try:
            if add or remove:
                if not tournaments:
                    verb = "add" if add else "remove"
                    raise UserError(f"--{verb}: name the tournaments to {verb} by their slugs")
                series = administration.change_series(
                    slug,
                    settings,
                    add=tournaments if add else (),
                    remove=tournaments if remove else (),
                )
                verb = "Added to" if add else "Removed from"
            else:
                series = administration.create_series(slug, settings, tournaments)
                verb = "Created"
        except UserError as error:
            raise CommandError(f"series “{slug}”: nothing was changed: {error}") from None
        count = series.entries.count()
        best = "all" if series.count_best is None else f"best {series.count_best}"
        self.stdout.write(
            f"{verb} “{series.name}” ({series.slug}): {series.scheme}, {count} tournament"
            f"{'' if count == 1 else 's'}, {best} results count, ranked from "
            f"{series.min_events} tournament{'' if series.min_events == 1 else 's'}."
        )
