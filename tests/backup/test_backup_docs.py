"""The guide's backups page (docs/backups.md), docs/tournament-file.md and
docs/backup-file.md tell an administrator how to back up and restore: the backup folder, a database dump beside it, a
restore drill, and what ``restore --replace`` replaces. The formats' documentation names
every key their schemas know."""

import re
from pathlib import Path

from tournament.backup.installation_schema import build_installation_schema, build_manifest_schema
from tournament.tournament_file.schema import build_schema

ROOT = Path(__file__).resolve().parents[2]
BACKUPS_DOC = (ROOT / "docs" / "backups.md").read_text(encoding="utf-8")
FILE_DOC = (ROOT / "docs" / "tournament-file.md").read_text(encoding="utf-8")
BACKUP_DOC = (ROOT / "docs" / "backup-file.md").read_text(encoding="utf-8")


def operations() -> str:
    return BACKUPS_DOC


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)


def test_operations_give_a_database_dump_recipe_beside_backup():
    commands = "\n".join(code_blocks(operations()))
    assert "manage.py backup" in commands
    assert re.search(r"^pg_dump --format=custom .*\"\$DATABASE_URL\"$", commands, re.M)
    assert re.search(r"^pg_restore --clean --if-exists .*--dbname=", commands, re.M)
    assert 'sqlite3 db.sqlite3 ".backup ' in commands
    assert "a plain cp of db.sqlite3 only while it is stopped" in commands


def test_operations_give_a_restore_drill_into_a_scratch_database():
    section = operations()
    drill = section[section.index("## Restore drill") :]
    (commands, *_) = code_blocks(drill)
    assert "createdb lld_drill" in commands
    assert "pg_restore" in commands
    assert re.search(r"^\.venv/bin/python manage\.py restore /srv/lld/backups/\S+$", commands, re.M)
    assert "diff -r -x manifest.json" in commands
    assert "dropdb lld_drill" in commands


def test_operations_restore_a_whole_backup_with_one_command():
    commands = "\n".join(code_blocks(operations()))
    assert "manage.py restore backups/2026-11-22T0315Z\n" in commands
    assert "import_tournament" in commands  # one tournament, on its own
    assert "for f in " not in commands


def test_the_replacing_restore_warns_what_it_replaces():
    section = operations()
    block = next(block for block in code_blocks(section) if block.startswith("# Replaces"))
    assert "manage.py restore " in block
    assert "--replace" in block
    before = section[: section.index(block)]
    assert "**replaces everything in the database with the backup's\ncopy**" in before
    assert "is lost" in before


def test_the_file_docs_say_what_a_pg_dump_adds_with_the_commands():
    part = FILE_DOC[FILE_DOC.index("## A backup file and a database dump") :]
    for what in ("accounts and their passwords", "sessions", "login attempts", "check-ins"):
        assert what in part
    assert "pg_dump --format=custom" in part
    assert "pg_restore --clean --if-exists" in part


def test_the_file_docs_name_every_key_of_the_schema():
    schema = build_schema()
    round_ = schema["properties"]["rounds"]["items"]
    table = round_["properties"]["tables"]["items"]
    sheet = table["properties"]["sheet"]
    version = sheet["properties"]["history"]["items"]
    for properties in (schema, round_, table, sheet, version):
        for key in properties["properties"]:
            assert f"`{key}`" in FILE_DOC or f"`{key}[]`" in FILE_DOC, key


def test_the_backup_docs_name_every_key_of_the_installation_file_and_manifest():
    def keys(schema):
        for name, value in schema.get("properties", {}).items():
            yield name
            yield from keys(value)
        if isinstance(schema.get("items"), dict):
            yield from keys(schema["items"])

    for schema in (build_installation_schema(), build_manifest_schema()):
        for key in keys(schema):
            assert f"`{key}`" in BACKUP_DOC or f"`{key}[]`" in BACKUP_DOC, key
