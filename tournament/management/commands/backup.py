"""Back up the whole installation into a new folder named by the UTC time.

``backups/2026-11-22T0315Z/`` holds (``backup.folder``, docs/backup-file.md):

- ``SLUG.json`` for every tournament: the whole of it (every round, released or not,
  with which are; publishing; the organiser and scorers by user name; sheets awaiting
  confirmation and their history), exactly what ``export_tournament`` prints;
- ``installation.json``: the accounts, the register of people and their links to
  players, every series with its entries and requests, and what tournament files leave
  out (table codes, clocks, the public pages' generation, the webhooks with their
  secrets);
- ``SLUG.photos.json`` for every tournament with photos of its paper sheets read at the
  desk: each photo's bytes and reading (``backup.photos``);
- ``manifest.json``: when it was read, counts, and every file's size and SHA-256.

``manage.py restore FOLDER`` reads it back into an empty database (or, with
``--replace``, in place of everything), and ``restore DIR`` the newest backup written
into ``--dir DIR``; one tournament still restores with ``import_tournament FILE
--replace``.

A backup folder appears only when it is complete: the files are written to a hidden
staging folder next to it, flushed to disk, and the folder is renamed into place at the
end. A crash leaves at most a ``.….partial`` folder, never a half-written file under a
dated name. The whole installation is read in one transaction that sees the database at
one moment (REPEATABLE READ on PostgreSQL), so a sheet confirmed or a person linked
during the backup is either wholly in it or not at all, in every file alike.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from tournament.backup import taking
from tournament.backup.installation_schema import (
    INSTALLATION_NAME,
    build_installation_schema,
    build_manifest_schema,
)
from tournament.tournament_file import file_format

SCHEMAS = {"installation": build_installation_schema, "manifest": build_manifest_schema}


class Command(BaseCommand):
    help = (
        "Write the whole installation (every tournament as a tournament file, the "
        "accounts, people and series, and a manifest) into a new folder named by the UTC "
        "time (default backups/YYYY-MM-DDTHHMMZ/). Restore it with restore."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir",
            dest="folder",
            default=str(Path(settings.BASE_DIR) / "backups"),
            help="the folder that holds the dated backup folders (default: backups/ in "
            "the project folder); created if missing",
        )
        parser.add_argument(
            "--schema",
            choices=sorted(SCHEMAS),
            help="print the JSON Schema of a backup's installation file or manifest instead "
            "(docs/installation-file.schema.json, docs/backup-manifest.schema.json)",
        )

    def handle(
        self, *args: object, folder: str, verbosity: int, schema: str | None, **options: object
    ) -> None:
        if schema:
            self.stdout.write(file_format.dumps(SCHEMAS[schema]()), ending="")
            return
        root = Path(folder)
        self._prepare(root)
        target = self._target(root)
        try:
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", suffix=".partial", dir=root))
        except OSError as error:
            raise CommandError(
                f"{root}: cannot write the backup there ({error.strerror})"
            ) from None
        try:
            written, installation = taking.write_all(staging)
            taking.sync_folder(staging)
            if target.exists():
                raise CommandError(f"{target} appeared while the backup was written; run it again")
            staging.rename(target)
            taking.sync_folder(root)
        except OSError as error:
            shutil.rmtree(staging, ignore_errors=True)
            where = error.filename or staging
            raise CommandError(
                f"{where}: cannot write the backup ({error.strerror}); no backup was kept"
            ) from None
        except DatabaseError as error:
            shutil.rmtree(staging, ignore_errors=True)
            raise CommandError(f"cannot read the database ({error}); no backup was kept") from None
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        self._report(target, written, installation, verbosity)

    def _prepare(self, root: Path) -> None:
        if root.exists() and not root.is_dir():
            raise CommandError(f"{root}: this is a file, not a folder; give a folder with --dir")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(
                f"{root}: cannot create the backup folder ({error.strerror})"
            ) from None

    def _target(self, root: Path) -> Path:
        """The dated folder: to the minute, to the second when run twice in a minute."""
        now = taking.utc_now()
        for stamp in (now.strftime("%Y-%m-%dT%H%MZ"), now.strftime("%Y-%m-%dT%H%M%SZ")):
            target = root / stamp
            if not target.exists():
                return target
        raise CommandError(f"{target} already exists: wait a second and run the backup again")

    def _report(
        self,
        target: Path,
        written: list[taking.Written],
        installation: taking.Installation,
        verbosity: int,
    ) -> None:
        if verbosity >= 1:
            for item in written:
                self.stdout.write(
                    f"{target / item.file}: “{item.name}”, {item.players} players, "
                    f"{item.rounds} rounds, {item.deals} deals"
                )
            people = _counted(installation.people, "person", "people")
            accounts = _counted(installation.accounts, "account", "accounts")
            self.stdout.write(
                f"{target / INSTALLATION_NAME}: {people}, {installation.series} series, {accounts}"
            )
            if installation.webhooks:
                hooks = _counted(installation.webhooks, "webhook", "webhooks")
                self.stdout.write(
                    f"{target / INSTALLATION_NAME}: {hooks} with their signing secrets: "
                    "keep this backup as private as the database."
                )
            count = len(written)
            self.stdout.write(
                f"Backed up {count} tournament{'s' if count != 1 else ''} to {target}."
            )
            notes = [(item.file, note) for item in written for note in item.notes]
            notes += [(INSTALLATION_NAME, note) for note in installation.notes]
            for file, note in notes:
                self.stdout.write(f"Note: {file}: {note} (a restore reads it so).")
        unrestorable = [(item.file, item.problems) for item in written if item.problems]
        if installation.problems:
            unrestorable.append((INSTALLATION_NAME, installation.problems))
        if unrestorable:
            lines = [
                f"  - {target / file}: " + "; ".join(problems[:3])
                for file, problems in unrestorable
            ]
            raise CommandError(
                f"the backup in {target} was written, but restore would refuse "
                f"{len(unrestorable)} of its files:\n" + "\n".join(lines)
            )


def _counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
