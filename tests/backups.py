"""Backup folders as the tests of backups take them, change them by hand and restore them
(``manage.py backup`` and ``restore``)."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

from django.core.management import call_command


def take_backup(root: Path) -> Path:
    """Run ``backup --dir root``; the folder it wrote."""
    before = set(root.iterdir()) if root.exists() else set()
    call_command("backup", "--dir", str(root), stdout=io.StringIO())
    (folder,) = set(root.iterdir()) - before
    return folder


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


def edit_manifest(folder: Path, change) -> None:
    """Change the manifest's document by ``change(data)``."""
    data = json.loads((folder / "manifest.json").read_text())
    change(data)
    (folder / "manifest.json").write_text(json.dumps(data, indent=2))
