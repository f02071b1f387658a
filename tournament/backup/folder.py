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

A file is read only once it is known to be what the manifest says: a file of the folder
itself (a symbolic link, there or anywhere among the folder's members, is refused by its
name: it could point out of the folder), of the size the manifest lists, and no larger
than a file of its kind may be (``MAX_BYTES``), whatever the manifest lists; a name in
the manifest is a plain name in the folder, never a path. The manifest itself is checked
the same way before it is read.

``backup --dir DIR`` writes each backup into a dated folder inside ``DIR``
(``2026-11-22T0315Z``); ``backup_in`` finds the newest of them when ``restore`` is given
``DIR`` rather than a backup folder.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import UserError
from tournament.backup import installation as installation_file
from tournament.backup import older
from tournament.backup import photos as photos_file
from tournament.backup.installation_rules import FileFacts
from tournament.backup.installation_schema import (
    FILE_NAME_MAX,
    FILE_NAME_PATTERN,
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
PHOTOS = "photos"
# The most a file of each kind may be, whatever the manifest lists: what reading it would
# refuse anyway, checked before a byte of it is read.
MAX_BYTES = {INSTALLATION: installation_file.MAX_BYTES, TOURNAMENT: file_format.MAX_BYTES}
MAX_BYTES[PHOTOS] = photos_file.MAX_BYTES
_WHAT = {INSTALLATION: "an installation file", TOURNAMENT: "a tournament file"}
_WHAT[PHOTOS] = "a photos file"
# Never through a symbolic link, where the system can say so.
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
# The dated folder ``backup`` writes: to the minute, or to the second when run twice in a
# minute (``2026-11-22T0315Z``, ``2026-11-22T031507Z``).
_DATED = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{4})(\d{2})?Z")


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
    # The photos of paper sheets: a file for each tournament that has any.
    photos: list[ListedFile] = field(default_factory=list)
    # What the restore reads otherwise than the files say (``older``), each naming its file.
    notes: list[str] = field(default_factory=list)

    def read(self, listed: ListedFile) -> tuple[Any, older.ReadBack]:
        """The file's document as this version keeps it (``older``), with what that
        changed and what it could not; read again and checked against the manifest again:
        a file changed since ``read_backup`` stops the restore (its transaction)."""
        content, problem = _content(self.folder, listed)
        if problem:
            raise BackupError(self.folder, [problem])
        kind = listed.kind
        data = file_format.parse(content, limit=MAX_BYTES[kind], what=_WHAT[kind])
        if kind == INSTALLATION:
            return data, older.installation_file(data)
        return data, older.tournament_file(data) if kind == TOURNAMENT else older.ReadBack()

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


def backup_in(path: Path) -> Path:
    """The backup folder ``path`` names: ``path`` itself when it holds a manifest (or holds
    no dated folder, so that ``read_backup`` says what is missing), else the newest of
    the dated folders ``backup --dir path`` wrote into it."""
    if not path.is_dir() or os.path.lexists(path / MANIFEST_NAME):
        return path
    try:
        dated = dated_folders(path)
    except OSError as error:
        raise UserError(f"{path}: the folder cannot be read ({error.strerror})") from None
    if not dated:
        return path
    newest = dated[-1]
    if newest.is_symlink():
        raise UserError(
            f"{newest}: the newest backup in {path} is a symbolic link (to "
            f"{os.readlink(newest)}): give the backup folder itself"
        )
    return newest


def dated_folders(root: Path) -> list[Path]:
    """The folders in ``root`` named as ``backup`` names a backup, oldest first."""
    found = []
    for member in root.iterdir():
        match = _DATED.fullmatch(member.name)
        if match is None or not (member.is_dir() or member.is_symlink()):
            continue
        try:
            minute = datetime.datetime.strptime(match[1], "%Y-%m-%dT%H%M")
        except ValueError:
            continue
        second = int(match[2] or 0)
        # Named to the second: made because its minute's folder was there already.
        found.append((minute.replace(second=second), match[2] is not None, member))
    return [member for *_, member in sorted(found)]


def read_backup(folder: Path) -> Backup:
    """The backup in ``folder``, every file checked; ``BackupError`` lists the problems."""
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder")
    problems = _Problems()
    try:
        links = _links(folder)
    except OSError as error:
        raise UserError(f"{folder}: the folder cannot be read ({error.strerror})") from None
    for name, target in links:
        problems.add(name, [_link_problem(target)])
    problems.raise_any(folder)
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
        photos=[each for each in files if each.kind == PHOTOS],
    )
    facts = _check_tournaments(backup, problems)
    for photos in backup.photos:
        try:
            problems.add(photos.name, photos_file.problems(backup.read(photos)[0], facts))
        except TournamentFileError as error:
            problems.add(photos.name, error.problems, error.total)
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


def _links(folder: Path) -> list[tuple[str, str]]:
    """The folder's members that are symbolic links, by name, with where each points."""
    with os.scandir(folder) as members:
        return sorted(
            (member.name, os.readlink(member.path)) for member in members if member.is_symlink()
        )


def _link_problem(target: str) -> str:
    return (
        f"a symbolic link (to {target}), not a file of the backup folder: a restore reads "
        "only the files inside the folder; put the file itself in place of the link"
    )


def _size_words(size: int) -> str:
    return f"{size // 1024 // 1024} MB" if size >= 1024 * 1024 else f"{size} bytes"


def _read_file(path: Path, size: int, limit: int, what: str) -> tuple[bytes, str | None]:
    """The content of the file ``path``, checked before it is read: there, a file of its
    own (not a symbolic link), ``size`` bytes where a size is given, and at most
    ``limit``; it is read no further than that, should it grow meanwhile."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return b"", f"listed in {MANIFEST_NAME}, but not in the folder"
    except OSError as error:
        return b"", f"cannot be read ({error.strerror})"
    if stat.S_ISLNK(info.st_mode):
        return b"", _link_problem(os.readlink(path))
    if not stat.S_ISREG(info.st_mode):
        return b"", "not a file (a folder, a device or a pipe): a backup holds files only"
    if size >= 0 and info.st_size != size:
        return b"", _changed_size(info.st_size, size)
    if info.st_size > limit:
        return b"", (
            f"{info.st_size} bytes, larger than {what} may be ({_size_words(limit)}): "
            "it is not one, and was not read"
        )
    try:
        descriptor = os.open(path, os.O_RDONLY | _NO_FOLLOW | getattr(os, "O_BINARY", 0))
        with open(descriptor, "rb") as file:
            content = file.read(info.st_size + 1)
    except OSError as error:
        return b"", f"cannot be read ({error.strerror})"
    if len(content) != info.st_size:
        return b"", "changed while it was read: take the backup again, or copy it again"
    return content, None


def _changed_size(found: int, listed: int) -> str:
    return (
        f"{found} bytes, where {MANIFEST_NAME} says {listed}: the file was cut short or "
        "changed after the backup"
    )


def _content(folder: Path, listed: ListedFile) -> tuple[bytes, str | None]:
    if listed.size > MAX_BYTES[listed.kind]:
        return b"", (
            f"{MANIFEST_NAME} lists it as {listed.size} bytes, larger than "
            f"{_WHAT[listed.kind]} may be ({_size_words(MAX_BYTES[listed.kind])}): it was "
            "not read"
        )
    content, problem = _read_file(
        folder / listed.name, listed.size, MAX_BYTES[listed.kind], _WHAT[listed.kind]
    )
    if problem:
        return content, problem
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
    if not os.path.lexists(path):
        hint = (
            " (a backup of tournament files only, written before backups held the whole "
            "installation: restore its files one by one with import_tournament)"
            if any(folder.glob("*.json"))
            else ", nor a folder of backups (none of its folders is named like "
            "2026-11-22T0315Z, as backup names them)"
        )
        problems.add(MANIFEST_NAME, [f"missing: this is no backup folder{hint}"])
        return "", {}, []
    content, problem = _read_file(path, -1, MANIFEST_MAX, "a manifest")
    if problem:
        problems.add(MANIFEST_NAME, [problem])
        return "", {}, []
    try:
        data = file_format.parse(content, limit=MANIFEST_MAX, what="a manifest")
    except TournamentFileError as error:
        problems.add(MANIFEST_NAME, error.problems, error.total)
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
    misnamed = dict(_file_name_problems(data))
    found = structure.problems_against(
        manifest_schema(), data, PROBLEMS_SHOWN, skip=lambda where: where in misnamed
    )
    if found or misnamed:
        problems.add(MANIFEST_NAME, [*misnamed.values(), *found.shown], found.total + len(misnamed))
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


def _file_name_problems(data: object) -> Iterable[tuple[tuple[object, ...], str]]:
    """Each name in the manifest's ``files`` that is no plain file name of the folder,
    by its place, with what is wrong with it (in place of the schema's words)."""
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return
    for index, entry in enumerate(files):
        name = entry.get("name") if isinstance(entry, dict) else None
        if isinstance(name, str) and (problem := file_name_problem(name)):
            yield ("files", index, "name"), f"files[{index}].name: {problem}"


def file_name_problem(name: str) -> str | None:
    """What makes ``name`` no name of a file in a backup folder, or None."""
    if re.fullmatch(FILE_NAME_PATTERN, name) and len(name) <= FILE_NAME_MAX:
        return None
    shown = f"“{short(name)}”"
    if not name:
        return "a file's name must not be empty"
    parts = re.split(r"[/\\]", name)
    if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name) or ".." in parts:
        return (
            f"{shown} is a path leaving the backup folder: a backup's files are inside its "
            "folder, each named by a plain file name"
        )
    if len(parts) > 1:
        return (
            f"{shown} is a path into another folder: a backup's files are in its folder "
            "itself, each named by a plain file name"
        )
    if len(name) > FILE_NAME_MAX:
        return f"{shown} is longer than {FILE_NAME_MAX} characters"
    if not name.endswith(".json"):
        return f"{shown} is not the name of a .json file: a backup holds JSON files only"
    return (
        f"{shown} is not a name backup gives a file: letters, digits, “.”, “-” and “_”, "
        "starting with a letter or digit"
    )


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
