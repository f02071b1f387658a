"""Taking a backup: every file of the installation written into a staging folder, read in
one transaction (``tournament_file.writing.consistent_read``) so that the installation is
seen at one moment, each file flushed to disk; ``manage.py backup`` then renames the
folder into place (docs/backup-file.md).

Over a command's arguments, ``write_all`` returns what it wrote, for the command to
report, with the problems that would make ``restore`` refuse a file and what a restore
would read otherwise than the file says (``older``: a name an older version let through)."""

from __future__ import annotations

import datetime
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournament.backup import folder as backup_folder
from tournament.backup import installation as installation_file
from tournament.backup import older
from tournament.backup import photos as photos_file
from tournament.backup.folder import INSTALLATION, PHOTOS, TOURNAMENT, ListedFile
from tournament.backup.installation_rules import FileFacts
from tournament.backup.installation_schema import (
    INSTALLATION_NAME,
    MANIFEST_NAME,
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
    # What restore would read otherwise than the file says (``older``).
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Installation:
    people: int
    series: int
    accounts: int
    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()
    # Kept with their signing secrets (docs/webhooks.md).
    webhooks: int = 0


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


def sync_folder(path: Path) -> None:
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


def write_all(staging: Path) -> tuple[list[Written], Installation]:
    """Every file, read in one transaction: the installation at one moment."""
    written, files, facts = [], [], {}
    photo_count = 0
    with writing.consistent_read():
        taken = utc_now()
        tournaments = list(Tournament.objects.order_by("slug"))
        names = backup_folder.file_names(tournaments)
        for tournament in tournaments:
            data = writing.export_tournament(tournament)
            name = names[tournament.pk]
            files.append(_write_listed(staging, name, TOURNAMENT, data))
            photos = photos_file.export_photos(tournament)
            if photos is not None:
                photo_count += len(photos["photos"])
                files.append(_write_listed(staging, photos_file.file_name(name), PHOTOS, photos))
            # Checked as restore reads it back (the file as written is kept).
            read = older.tournament_file(data)
            problems = tuple(read.problems) or checking.check_bounded(data, limit=3).shown
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
                    notes=tuple(read.notes),
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
        "photos": photo_count,
    }
    _write_durably(
        staging / MANIFEST_NAME,
        file_format.dumps(backup_folder.manifest(taken, files, counts)),
    )
    # A tournament file restore would refuse is reported by its own name above; the
    # installation file is checked against the others.
    read = older.installation_file(installation)
    checked = tuple(read.problems) or installation_file.check_bounded(installation, facts, 3).shown
    return written, Installation(
        people=counts["people"],
        series=counts["series"],
        accounts=counts["accounts"],
        problems=checked,
        notes=tuple(read.notes),
        webhooks=sum(len(entry.get("webhooks", [])) for entry in installation["tournaments"]),
    )
