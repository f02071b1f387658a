"""Back up every tournament as tournament files, in a new folder named by the UTC time.

``backups/2026-11-22T0315Z/SLUG.json`` holds the whole of one tournament (every round,
released or not, with which are; publishing; the organiser and scorers by user name;
sheets awaiting confirmation and their history), exactly what ``export_tournament``
prints; restore one with ``import_tournament FILE --replace``.

A backup folder appears only when it is complete: the files are written to a hidden
staging folder next to it, flushed to disk, and the folder is renamed into place at the
end. A crash leaves at most a ``.….partial`` folder, never a half-written file under a
dated name. Each tournament is read in one transaction that sees the database at one
moment (REPEATABLE READ on PostgreSQL), so a sheet confirmed during the backup is either
wholly in the file or not at all.
"""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from tournament.models import Tournament
from tournament.services import tournament_file


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
    # What import_tournament would refuse in this file (a backup that cannot be restored).
    problems: tuple[str, ...]


def _file_name(tournament: Tournament) -> str:
    slug = tournament.slug
    safe = slug and slug.isascii() and all(c.isalnum() or c in "-_" for c in slug)
    return f"{slug}.json" if safe else f"tournament-{tournament.pk}.json"


def _write_durably(path: Path, text: str) -> None:
    with path.open("x", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


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


class Command(BaseCommand):
    help = (
        "Write every tournament as a tournament file into a new folder named by the UTC "
        "time (default backups/YYYY-MM-DDTHHMMZ/). Restore with import_tournament."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir",
            dest="folder",
            default=str(Path(settings.BASE_DIR) / "backups"),
            help="the folder that holds the dated backup folders (default: backups/ in "
            "the project folder); created if missing",
        )

    def handle(self, *args: object, folder: str, verbosity: int, **options: object) -> None:
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
            written = self._write_all(staging)
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
        self._report(target, written, verbosity)

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

    def _write_all(self, staging: Path) -> list[Written]:
        written = []
        for pk in Tournament.objects.order_by("slug").values_list("pk", flat=True):
            with tournament_file.consistent_read():
                tournament = Tournament.objects.filter(pk=pk).first()
                if tournament is None:
                    continue  # deleted while the backup ran
                data = tournament_file.export_tournament(tournament)
            name = _file_name(tournament)
            _write_durably(staging / name, tournament_file.dumps(data))
            written.append(
                Written(
                    name=tournament.name,
                    slug=tournament.slug,
                    file=name,
                    players=len(data["players"]),
                    rounds=len(data["rounds"]),
                    deals=_deals(data),
                    problems=tournament_file.check_bounded(data, limit=3).shown,
                )
            )
        return written

    def _report(self, target: Path, written: list[Written], verbosity: int) -> None:
        if verbosity >= 1:
            for item in written:
                self.stdout.write(
                    f"{target / item.file}: “{item.name}”, {item.players} players, "
                    f"{item.rounds} rounds, {item.deals} deals"
                )
            count = len(written)
            self.stdout.write(
                f"Backed up {count} tournament{'s' if count != 1 else ''} to {target}."
            )
        unrestorable = [item for item in written if item.problems]
        if unrestorable:
            lines = [
                f"  - {target / item.file}: " + "; ".join(item.problems[:3])
                for item in unrestorable
            ]
            raise CommandError(
                f"the backup in {target} was written, but import_tournament would refuse "
                f"{len(unrestorable)} of its files:\n" + "\n".join(lines)
            )
