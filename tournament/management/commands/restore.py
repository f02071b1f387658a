"""Restore a whole backup folder written by ``backup``: into an empty database, or with
``--replace`` in place of everything the database holds. All or nothing: the whole
folder is checked first (the manifest's format and checksums, then every file), and a
folder with any problem changes nothing; the problems name their file and their place.
What an older version wrote and this one reads otherwise (house-rule table sizes written
"05", names with invisible characters) is restored as this version keeps it, with a note
of each change. Given the folder ``backup --dir`` writes into rather than a backup, it restores the
newest backup there and says which. See docs/backup-file.md and docs/backups.md."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from scoring.errors import UserError
from tournament.backup import folder as backup_folder
from tournament.backup import restore


def _counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


class Command(BaseCommand):
    help = (
        "Restore a backup folder (manage.py backup) into an empty database, or with "
        "--replace in place of everything in this one; all or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "folder",
            help="the dated backup folder, e.g. backups/2026-11-22T0315Z, or the folder "
            "holding the dated folders (backup's --dir): its newest backup is restored",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete every tournament, person, series, account and session here and "
            "put the backup's in their place (everyone is logged out)",
        )

    def handle(self, *args: object, folder: str, replace: bool, **options: object) -> None:
        given = Path(folder)
        try:
            path = backup_folder.backup_in(given)
        except UserError as error:
            raise CommandError(f"nothing was restored: {error}") from None
        if path != given:
            self.stdout.write(f"{given} is a folder of backups: restoring the newest, {path}.")
        try:
            backup = backup_folder.read_backup(path)
            summary = restore.restore(backup, replace=replace)
        except UserError as error:
            raise CommandError(f"nothing was restored: {error}") from None
        except DatabaseError as error:
            raise CommandError(
                f"nothing was restored: the database refused the backup in {path} ({error})"
            ) from None
        verb = "Replaced everything with" if summary.replaced else "Restored"
        self.stdout.write(
            f"{verb} the backup in {path} (taken {backup.taken}): "
            f"{_counted(summary.tournaments, 'tournament', 'tournaments')} "
            f"({summary.players} players, {summary.deals} deals), "
            f"{_counted(summary.people, 'person', 'people')}, {summary.series} series, "
            f"{_counted(summary.accounts, 'account', 'accounts')}."
        )
        if summary.webhooks:
            self.stdout.write(
                f"{_counted(summary.webhooks, 'webhook', 'webhooks')} put back with their "
                "signing secrets: receivers keep verifying them."
            )
        if summary.photos:
            self.stdout.write(
                f"{_counted(summary.photos, 'photo', 'photos')} of paper sheets put back with "
                "their readings."
            )
        if summary.replaced:
            self.stdout.write("Everyone was logged out; the backup's accounts log in as before.")
        for note in summary.notes:
            self.stdout.write(f"Note: {note}.")
