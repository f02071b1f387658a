"""What the tests of backup folders share: taking one, emptying the database, restoring
it, and changing one of its files by hand (an older version's file, a manifest, or a
tampering that knows how to sign it again)."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from tournament.models import Tournament


def backup_folder(tmp_path):
    call_command("backup", "--dir", str(tmp_path), stdout=io.StringIO())
    (folder,) = tmp_path.iterdir()
    return folder


def take_backup(root: Path) -> Path:
    """Run ``backup --dir root``; the folder it wrote."""
    before = set(root.iterdir()) if root.exists() else set()
    call_command("backup", "--dir", str(root), stdout=io.StringIO())
    (folder,) = set(root.iterdir()) - before
    return folder


def empty_the_database():
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        # The test's transaction holds foreign keys checked at its end; TRUNCATE needs
        # them checked first.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists()
    assert not get_user_model().objects.exists()


def restore(folder: Path, *args: str) -> str:
    """What ``restore folder`` printed."""
    out = io.StringIO()
    call_command("restore", str(folder), *args, stdout=out)
    return out.getvalue()


def sign_again(folder: Path, name: str) -> None:
    """Make the manifest agree with a file changed by hand (a tampering that knows how)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    content = (folder / name).read_bytes()
    for entry in manifest["files"]:
        if entry["name"] == name:
            entry["bytes"] = len(content)
            entry["sha256"] = hashlib.sha256(content).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))


def edit_json(folder, name, change):
    data = json.loads((folder / name).read_text())
    change(data)
    (folder / name).write_text(json.dumps(data, indent=2))


def edit_manifest(folder: Path, change) -> None:
    """Change the manifest's document by ``change(data)``."""
    data = json.loads((folder / "manifest.json").read_text())
    change(data)
    (folder / "manifest.json").write_text(json.dumps(data, indent=2))
