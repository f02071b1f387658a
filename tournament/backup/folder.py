"""A backup folder, as ``backup`` writes it and ``restore`` reads it.

- *tournament files*: one a tournament (``SLUG.json``), each what ``export_tournament``
  prints (docs/tournament-file.md);
- the *installation file* (``installation.json``): accounts, people, series, and what
  tournament files leave out (``backup.installation``);
- the *manifest* (``manifest.json``, format ``lld-backup/1``): when the installation was
  read, how many of each thing the backup holds, and every file with its size and
  SHA-256, so that a folder missing a file, or with a file changed or damaged since, is
  refused before anything is read into the database.

Reading a folder (``read_backup``) checks all of it first, file by file, and names each
problem by its file and its place in it: ``installation.json: people[3].players[0]: …``,
``red-lion.json: line 12, column 5: not valid JSON``. Tournament files are read one at a
time, so that the check of a large installation does not hold every file at once. What
an older version let into a file and this one no longer takes (house-rule table sizes
written "05", names with invisible characters) is read back as this version keeps it,
each change kept as a note of the backup (``older``), before the file is checked.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import UserError
from tournament.backup import installation as installation_file
from tournament.backup import older
from tournament.backup.installation_rules import FileFacts
from tournament.backup.installation_schema import (
    INSTALLATION_NAME,
    MANIFEST_FORMAT,
    MANIFEST_NAME,
    build_manifest_schema,
)
from tournament.models import Tournament
from tournament.tournament_file import checking, file_format, structure
from tournament.tournament_file.problems import PROBLEMS_SHOWN, TournamentFileError, short

# A manifest lists file names and checksums: a few hundred bytes a tournament.
MANIFEST_MAX = 50 * 1024 * 1024
INSTALLATION = "installation"
TOURNAMENT = "tournament"


class BackupError(UserError):
    """A backup folder that cannot be restored: its first problems, each naming its file."""

    def __init__(self, folder: Path, problems: Iterable[str], total: int | None = None) -> None:
        self.problems = list(problems)
        self.total = len(self.problems) if total is None else total
        more = self.total - len(self.problems)
        plural = "s" if self.total != 1 else ""
        super().__init__(
            f"{self.total} problem{plural} in the backup {folder}:\n"
            + "\n".join(f"  - {problem}" for problem in self.problems)
            + (f"\n  … and {more} more" if more else "")
        )


@cache
def manifest_schema() -> dict[str, Any]:
    return build_manifest_schema()


@dataclass(frozen=True)
class ListedFile:
    name: str
    kind: str
    size: int
    sha256: str

    @classmethod
    def of(cls, name: str, kind: str, content: bytes) -> ListedFile:
        return cls(name, kind, len(content), hashlib.sha256(content).hexdigest())

    def entry(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "bytes": self.size, "sha256": self.sha256}


def file_names(tournaments: Iterable[Tournament]) -> dict[int, str]:
    """Each tournament's file name in a backup folder, by tournament id: its slug, unless
    that could not be a file's name or is taken (by the installation file, the manifest,
    or another tournament's name)."""
    taken = {MANIFEST_NAME, INSTALLATION_NAME}
    named = {}
    for tournament in tournaments:
        slug = tournament.slug
        safe = slug and slug.isascii() and all(c.isalnum() or c in "-_" for c in slug)
        name = f"{slug}.json" if safe else f"tournament-{tournament.pk}.json"
        number = 2
        while name in taken:
            name = f"tournament-{tournament.pk}-{number}.json"
            number += 1
        taken.add(name)
        named[tournament.pk] = name
    return named


def manifest(
    taken: datetime.datetime, files: list[ListedFile], counts: dict[str, int]
) -> dict[str, Any]:
    return {
        "format": MANIFEST_FORMAT,
        "taken": taken.isoformat(),
        "counts": counts,
        "files": [listed.entry() for listed in files],
    }


@dataclass
class Backup:
    """A backup folder whose every file was found whole and right."""

    folder: Path
    taken: str
    installation: ListedFile
    tournaments: list[ListedFile]
    counts: dict[str, int] = field(default_factory=dict)
    # What the restore reads otherwise than the files say (``older``), each naming its file.
    notes: list[str] = field(default_factory=list)

    def read(self, listed: ListedFile) -> tuple[Any, older.ReadBack]:
        """The file's document as this version keeps it (``older``), with what that
        changed and what it could not; read again and checked against the manifest again:
        a file changed since ``read_backup`` stops the restore (its transaction)."""
        content, problem = _content(self.folder, listed)
        if problem:
            raise BackupError(self.folder, [problem])
        if listed.kind == INSTALLATION:
            data = file_format.parse(
                content, limit=installation_file.MAX_BYTES, what="an installation file"
            )
            return data, older.installation_file(data)
        data = file_format.parse(content)
        return data, older.tournament_file(data)

    def load(self, listed: ListedFile) -> Any:
        """The file's document as this version keeps it (``read``), which ``read_backup``
        found right."""
        data, read = self.read(listed)
        if read.problems:
            raise BackupError(self.folder, [f"{listed.name}: {each}" for each in read.problems])
        return data


class _Problems:
    def __init__(self) -> None:
        self.shown: list[str] = []
        self.total = 0

    def add(self, name: str, problems: Iterable[str], total: int | None = None) -> None:
        count = 0
        for problem in problems:
            count += 1
            if len(self.shown) < PROBLEMS_SHOWN:
                self.shown.append(f"{name}: {problem}")
        self.total += count if total is None else max(total, count)

    def raise_any(self, folder: Path) -> None:
        if self.total:
            raise BackupError(folder, self.shown, self.total)


def read_backup(folder: Path) -> Backup:
    """The backup in ``folder``, every file checked; ``BackupError`` lists the problems."""
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder")
    problems = _Problems()
    listed = _read_manifest(folder, problems)
    problems.raise_any(folder)
    taken, counts, files = listed
    for each in files:
        problems.add(each.name, _present(_content(folder, each)[1]))
    problems.raise_any(folder)
    backup = Backup(
        folder=folder,
        taken=taken,
        installation=next(each for each in files if each.kind == INSTALLATION),
        tournaments=[each for each in files if each.kind == TOURNAMENT],
        counts=counts,
    )
    facts = _check_tournaments(backup, problems)
    name = backup.installation.name
    try:
        data, read = backup.read(backup.installation)
    except TournamentFileError as error:
        problems.add(name, error.problems, error.total)
    else:
        backup.notes += [f"{name}: {note}" for note in read.notes]
        if read.problems:
            problems.add(name, read.problems)
        else:
            found = installation_file.check_bounded(data, facts)
            problems.add(name, found.shown, found.total)
    problems.raise_any(folder)
    return backup


def _present(problem: str | None) -> list[str]:
    return [problem] if problem else []


def _content(folder: Path, listed: ListedFile) -> tuple[bytes, str | None]:
    try:
        content = (folder / listed.name).read_bytes()
    except FileNotFoundError:
        return b"", f"listed in {MANIFEST_NAME}, but not in the folder"
    except OSError as error:
        return b"", f"cannot be read ({error.strerror})"
    if len(content) != listed.size:
        return content, (
            f"{len(content)} bytes, where {MANIFEST_NAME} says {listed.size}: the file was "
            "cut short or changed after the backup"
        )
    if hashlib.sha256(content).hexdigest() != listed.sha256:
        return content, (
            f"its SHA-256 is not the one {MANIFEST_NAME} gives: the file was changed or "
            "damaged after the backup"
        )
    return content, None


def _read_manifest(
    folder: Path, problems: _Problems
) -> tuple[str, dict[str, int], list[ListedFile]]:
    path = folder / MANIFEST_NAME
    if not path.is_file():
        hint = (
            " (a backup of tournament files only, written before backups held the whole "
            "installation: restore its files one by one with import_tournament)"
            if any(folder.glob("*.json"))
            else ""
        )
        problems.add(MANIFEST_NAME, [f"missing: this is no backup folder{hint}"])
        return "", {}, []
    try:
        data = file_format.parse(path.read_bytes(), limit=MANIFEST_MAX, what="a manifest")
    except TournamentFileError as error:
        problems.add(MANIFEST_NAME, error.problems, error.total)
        return "", {}, []
    except OSError as error:
        problems.add(MANIFEST_NAME, [f"cannot be read ({error.strerror})"])
        return "", {}, []
    version = data.get("format") if isinstance(data, dict) else None
    if (
        isinstance(version, str)
        and version.startswith("lld-backup/")
        and version != MANIFEST_FORMAT
    ):
        problems.add(
            MANIFEST_NAME,
            [
                f"format: “{short(version)}” is not a format this version of the app reads "
                f"(“{MANIFEST_FORMAT}”): restore it with the version that wrote it, or a newer one"
            ],
        )
        return "", {}, []
    found = structure.problems_against(manifest_schema(), data, PROBLEMS_SHOWN)
    if found:
        problems.add(MANIFEST_NAME, found.shown, found.total)
        return "", {}, []
    files = [
        ListedFile(entry["name"], entry["kind"], entry["bytes"], entry["sha256"])
        for entry in data["files"]
    ]
    names = [each.name for each in files]
    for index, name in enumerate(names):
        if name in names[:index]:
            problems.add(MANIFEST_NAME, [f"files[{index}]: “{name}” is listed twice"])
        if name == MANIFEST_NAME:
            problems.add(MANIFEST_NAME, [f"files[{index}]: the manifest lists itself"])
    if [each.kind for each in files].count(INSTALLATION) != 1:
        problems.add(MANIFEST_NAME, ["files: a backup lists one installation file"])
    return data["taken"], data.get("counts", {}), files


def _check_tournaments(backup: Backup, problems: _Problems) -> dict[str, FileFacts]:
    facts: dict[str, FileFacts] = {}
    keys: dict[int, str] = {}
    player_keys: dict[int, str] = {}
    for listed in backup.tournaments:
        try:
            data, read = backup.read(listed)
        except TournamentFileError as error:
            problems.add(listed.name, error.problems, error.total)
            continue
        backup.notes += [f"{listed.name}: {note}" for note in read.notes]
        if read.problems:
            problems.add(listed.name, read.problems)
            continue
        found = checking.check_bounded(data)
        if found:
            problems.add(listed.name, found.shown, found.total)
            continue
        each = FileFacts.of(listed.name, data)
        if each.slug in facts:
            problems.add(listed.name, [f"slug: “{each.slug}” is also {facts[each.slug].file}'s"])
            continue
        facts[each.slug] = each
        if each.key is not None:
            if each.key in keys:
                problems.add(listed.name, [f"key: {each.key} is also {keys[each.key]}'s"])
            keys.setdefault(each.key, listed.name)
        for key in sorted(each.player_keys):
            if key in player_keys:
                problems.add(
                    listed.name,
                    [f"a player's key, {key}, is also a player's key in {player_keys[key]}"],
                )
            player_keys.setdefault(key, listed.name)
    return facts
