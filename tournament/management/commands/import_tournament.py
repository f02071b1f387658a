import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.backup.installation_schema import INSTALLATION_FORMAT, MANIFEST_FORMAT
from tournament.tournament_file import file_format, loading
from tournament.tournament_file.loading import TournamentExistsError
from tournament.tournament_file.problems import TournamentFileError

BACKUP_FILES = {INSTALLATION_FORMAT: "installation file", MANIFEST_FORMAT: "manifest"}


class Command(BaseCommand):
    help = "Import a tournament file (all or nothing). See docs/tournament-file.md."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the tournament file (JSON); - reads standard input")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace a tournament that already has this slug",
        )
        parser.add_argument(
            "--publish",
            action="store_true",
            help="publish the tournament as it is imported (a version-1 file's rounds are "
            "released too: such a file does not say, and they were played)",
        )

    def handle(
        self, *args: object, path: str, replace: bool, publish: bool, **options: object
    ) -> None:
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as error:
            raise CommandError(f"{path}: cannot read the file ({error.strerror})") from None
        try:
            data = file_format.parse(text)
            if isinstance(data, dict) and data.get("format") in BACKUP_FILES:
                raise CommandError(
                    f"{path}: nothing was imported: this is a backup's "
                    f"{BACKUP_FILES[data['format']]}, not a tournament file; restore the "
                    "whole backup folder with manage.py restore"
                )
            summary = loading.import_tournament(data, replace=replace, publish=publish)
        except TournamentFileError as error:
            raise CommandError(f"{path}: nothing was imported. {error}") from None
        except TournamentExistsError as error:
            raise CommandError(
                f"{path}: nothing was imported: {error}. Use --replace to overwrite it."
            ) from None
        verb = "Replaced" if summary.replaced else "Imported"
        tournament = summary.tournament
        self.stdout.write(
            f"{verb} “{tournament.name}” ({tournament.slug}): "
            f"{summary.players} players, {summary.rounds} rounds, {summary.deals} deals."
        )
        released = tournament.rounds.filter(released=True).count()
        self.stdout.write(
            f"{'Published' if tournament.published else 'Not published'}; "
            f"{released} of {summary.rounds} rounds released."
        )
        for name in summary.missing_users:
            self.stdout.write(
                f"No account is called “{name}” here: the file names it as the organiser, a "
                "scorer, a sheet's author or who gave or removed a penalty or award; create the "
                "account and add it on the tournament's pages."
            )
        for note in summary.notes:
            self.stdout.write(f"Note: {note}.")
