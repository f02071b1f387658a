"""The README's Operations section and docs/tournament-file.md tell an administrator how to
back up and restore: the tournament files, a database dump beside them, a restore drill,
and what the ``--replace`` loop replaces. The file format's documentation names every key
the schema knows."""

import re
from pathlib import Path

from tournament.file_schema import build_schema

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
FILE_DOC = (ROOT / "docs" / "tournament-file.md").read_text(encoding="utf-8")


def operations() -> str:
    start = README.index("## Operations")
    return README[start : README.index("\n## ", start + 1)]


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
    drill = section[section.index("### Restore drill") :]
    (commands, *_) = code_blocks(drill)
    assert "createdb lld_drill" in commands
    assert "pg_restore" in commands
    assert "import_tournament" in commands
    assert "| cmp - " in commands
    assert "dropdb lld_drill" in commands


def test_the_replace_loop_warns_what_it_replaces():
    section = operations()
    loop = next(block for block in code_blocks(section) if block.startswith("# Replaces"))
    assert "for f in " in loop
    assert "--replace" in loop
    before = section[: section.index(loop)]
    assert "**replaces every tournament in it with\nthe backup's copy**" in before
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
