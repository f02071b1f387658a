"""Back up the whole installation into a new folder named by the UTC time.

``backups/2026-11-22T0315Z/`` holds (``backup.folder``, docs/backup-file.md):

- ``SLUG.json`` for every tournament: the whole of it (every round, released or not,
  with which are; publishing; the organiser and scorers by user name; sheets awaiting
  confirmation and their history), exactly what ``export_tournament`` prints;
- ``installation.json``: the accounts, the register of people and their links to
  players, every series with its entries and requests, and what tournament files leave
  out (table codes, clocks, the public pages' generation);
- ``manifest.json``: when it was read, counts, and every file's size and SHA-256.

``manage.py restore FOLDER`` reads it back into an empty database (or, with
``--replace``, in place of everything); one tournament still restores with
``import_tournament FILE --replace``.

A backup folder appears only when it is complete: the files are written to a hidden
staging folder next to it, flushed to disk, and the folder is renamed into place at the
end. A crash leaves at most a ``.….partial`` folder, never a half-written file under a
dated name. The whole installation is read in one transaction that sees the database at
one moment (REPEATABLE READ on PostgreSQL), so a sheet confirmed or a person linked
during the backup is either wholly in it or not at all, in every file alike.
"""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from tournament.backup import folder as backup_folder
from tournament.backup import installation as installation_file
from tournament.backup.folder import INSTALLATION, TOURNAMENT, ListedFile
from tournament.backup.installation_rules import FileFacts
from tournament.backup.installation_schema import (
    INSTALLATION_NAME,
    MANIFEST_NAME,
    build_installation_schema,
    build_manifest_schema,
)
from tournament.models import Tournament
from tournament.tournament_file import checking, file_format, writing


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


@dataclass(frozen=True)
class Written:
    name: str
    slug: str
    file: str
    players: int
    rounds: int
    deals: int
    # What restore would refuse in this file (a backup that cannot be restored).
    problems: tuple[str, ...]


@dataclass(frozen=True)
class Installation:
    people: int
    series: int
    accounts: int
    problems: tuple[str, ...]


def _write_durably(path: Path, text: str) -> None:
    with path.open("x", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


def _write_listed(folder: Path, name: str, kind: str, data: Mapping[str, Any]) -> ListedFile:
    """Write ``data`` as the file ``name``; the file as the manifest lists it."""
    text = file_format.dumps(data)
    _write_durably(folder / name, text)
    return ListedFile.of(name, kind, text.encode("utf-8"))


def _sync_folder(path: Path) -> None:
    """Make a rename inside ``path`` survive a power cut (POSIX; a no-op elsewhere)."""
    if os.name != "posix":
        return
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _deals(data: dict) -> int:
    return sum(len(t["deals"]) for r in data["rounds"] for t in r["tables"])


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
            written, installation = self._write_all(staging)
            _sync_folder(staging)
            if target.exists():
                raise CommandError(f"{target} appeared while the backup was written; run it again")
            staging.rename(target)
            _sync_folder(root)
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
        now = utc_now()
        for stamp in (now.strftime("%Y-%m-%dT%H%MZ"), now.strftime("%Y-%m-%dT%H%M%SZ")):
            target = root / stamp
            if not target.exists():
                return target
        raise CommandError(f"{target} already exists: wait a second and run the backup again")

    def _write_all(self, staging: Path) -> tuple[list[Written], Installation]:
        """Every file, read in one transaction: the installation at one moment."""
        written, files, facts = [], [], {}
        with writing.consistent_read():
            taken = utc_now()
            tournaments = list(Tournament.objects.order_by("slug"))
            names = backup_folder.file_names(tournaments)
            for tournament in tournaments:
                data = writing.export_tournament(tournament)
                name = names[tournament.pk]
                files.append(_write_listed(staging, name, TOURNAMENT, data))
                problems = checking.check_bounded(data, limit=3).shown
                # The installation file refers to every tournament, right or not.
                facts[tournament.slug] = FileFacts.of(name, data)
                written.append(
                    Written(
                        name=tournament.name,
                        slug=tournament.slug,
                        file=name,
                        players=len(data["players"]),
                        rounds=len(data["rounds"]),
                        deals=_deals(data),
                        problems=problems,
                    )
                )
            installation = installation_file.export_installation()
        files.insert(0, _write_listed(staging, INSTALLATION_NAME, INSTALLATION, installation))
        counts = {
            "tournaments": len(written),
            "players": sum(item.players for item in written),
            "deals": sum(item.deals for item in written),
            "people": len(installation["people"]),
            "series": len(installation["series"]),
            "accounts": len(installation["accounts"]),
        }
        _write_durably(
            staging / MANIFEST_NAME,
            file_format.dumps(backup_folder.manifest(taken, files, counts)),
        )
        # A tournament file restore would refuse is reported by its own name above; the
        # installation file is checked against the others.
        checked = installation_file.check_bounded(installation, facts, limit=3)
        return written, Installation(
            people=counts["people"],
            series=counts["series"],
            accounts=counts["accounts"],
            problems=checked.shown,
        )

    def _report(
        self, target: Path, written: list[Written], installation: Installation, verbosity: int
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
            count = len(written)
            self.stdout.write(
                f"Backed up {count} tournament{'s' if count != 1 else ''} to {target}."
            )
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
