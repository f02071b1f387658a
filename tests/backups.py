"""What the tests of backup folders share: taking one, emptying the database, restoring
it, and changing one of its files by hand (an older version's file, or a tampering that
knows how to sign it again)."""

import hashlib
import io
import json

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from tournament.models import Tournament


def backup_folder(tmp_path):
    call_command("backup", "--dir", str(tmp_path), stdout=io.StringIO())
    (folder,) = tmp_path.iterdir()
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


def restore(folder, *args):
    out = io.StringIO()
    call_command("restore", str(folder), *args, stdout=out)
    return out.getvalue()


def sign_again(folder, name):
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
