"""What ``restore`` reads of a backup folder, and when: every file's size is checked
against the manifest (and against the most a file of its kind may be) before a byte of
it is read; a symbolic link, listed or not, is refused by its name; a name in the
manifest that is a path says so; and ``restore DIR`` of the folder ``backup --dir DIR``
writes into restores the newest backup there, saying which."""

from __future__ import annotations

import datetime
import tracemalloc

import pytest
from django.core.management import CommandError

from tests.backups import edit_manifest, restore, take_backup
from tournament.backup import taking
from tournament.backup.folder import BackupError, read_backup
from tournament.models import Tournament

MB = 1024 * 1024
# Larger than any tournament file (20 MB) or manifest (50 MB) may be, and sparse: it
# costs no disk and no time until someone reads it.
HUGE = 64 * MB


@pytest.fixture
def backed_up(make_tournament, tmp_path):
    """A backup of one small tournament, ``small-open.json``."""
    make_tournament(players=6, rounds=1, slug="small-open")
    return take_backup(tmp_path / "backups")


def grow(path, size=HUGE):
    with path.open("r+b") as file:
        file.truncate(size)


def refused_reading_at_most(folder, most=8 * MB):
    """The ``BackupError`` of ``read_backup(folder)``, which allocated at most ``most``
    bytes on the way."""
    tracemalloc.start()
    try:
        with pytest.raises(BackupError) as caught:
            read_backup(folder)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < most, f"{peak // MB} MB were read"
    return str(caught.value)


# Sizes ----------------------------------------------------------------------------------


def test_a_file_larger_than_the_manifest_says_is_refused_before_it_is_read(backed_up):
    listed = (backed_up / "small-open.json").stat().st_size
    grow(backed_up / "small-open.json")
    message = refused_reading_at_most(backed_up)
    assert (
        f"small-open.json: {HUGE} bytes, where manifest.json says {listed}: the file was cut "
        "short or changed after the backup"
    ) in message


def test_a_file_the_manifest_lists_as_too_large_is_never_read(backed_up):
    grow(backed_up / "small-open.json")

    def listed_huge(data):
        (entry,) = [each for each in data["files"] if each["name"] == "small-open.json"]
        entry["bytes"] = HUGE

    edit_manifest(backed_up, listed_huge)
    message = refused_reading_at_most(backed_up)
    assert (
        f"small-open.json: manifest.json lists it as {HUGE} bytes, larger than a tournament "
        "file may be (20 MB): it was not read"
    ) in message


def test_a_manifest_too_large_to_be_one_is_never_read(backed_up):
    grow(backed_up / "manifest.json")
    message = refused_reading_at_most(backed_up)
    assert (
        f"manifest.json: {HUGE} bytes, larger than a manifest may be (50 MB): it is not one, "
        "and was not read"
    ) in message


# Symbolic links -------------------------------------------------------------------------


def test_a_listed_file_that_is_a_link_out_of_the_folder_is_refused(backed_up, tmp_path):
    # The very file, size and checksum right: only where it lies is wrong.
    outside = tmp_path / "elsewhere.json"
    (backed_up / "small-open.json").rename(outside)
    (backed_up / "small-open.json").symlink_to(outside)
    Tournament.objects.filter(slug="small-open").update(name="Changed since")
    with pytest.raises(CommandError) as caught:
        restore(backed_up, "--replace")
    assert (
        f"small-open.json: a symbolic link (to {outside}), not a file of the backup folder: "
        "a restore reads only the files inside the folder"
    ) in str(caught.value)
    assert Tournament.objects.get(slug="small-open").name == "Changed since"


@pytest.mark.parametrize("name", ["notes.json", "manifest.json", "installation.json"])
def test_any_member_of_the_folder_that_is_a_link_is_named(backed_up, tmp_path, name):
    outside = tmp_path / "outside.json"
    if (backed_up / name).exists():
        (backed_up / name).rename(outside)
    else:
        outside.write_text("{}")
    (backed_up / name).symlink_to(outside)
    message = refused_reading_at_most(backed_up)
    assert f"{name}: a symbolic link (to {outside}), not a file of the backup folder" in message


# Names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        (
            "../small-open.json",
            "“../small-open.json” is a path leaving the backup folder: a backup's files are "
            "inside its folder, each named by a plain file name",
        ),
        ("/etc/small-open.json", "“/etc/small-open.json” is a path leaving the backup folder"),
        ("..", "“..” is a path leaving the backup folder"),
        ("old/small-open.json", "“old/small-open.json” is a path into another folder"),
        ("small-open.txt", "“small-open.txt” is not the name of a .json file"),
        (".small-open.json", "“.small-open.json” is not a name backup gives a file"),
        ("", "a file's name must not be empty"),
    ],
)
def test_a_name_in_the_manifest_that_is_no_plain_file_name_says_what_it_is(
    backed_up, name, problem
):
    def renamed(data):
        (entry,) = [each for each in data["files"] if each["name"] == "small-open.json"]
        entry["name"] = name

    edit_manifest(backed_up, renamed)
    with pytest.raises(CommandError) as caught:
        restore(backed_up)
    message = str(caught.value)
    assert f"manifest.json: files[1].name: {problem}" in message
    if name:
        assert "must not be empty" not in message


# The folder of backups -------------------------------------------------------------------


@pytest.fixture
def three_backups(make_tournament, tmp_path, monkeypatch):
    """``backups/`` after three backups, each with one tournament more: the second and
    third in the same minute (so named to the second), and a backup being written."""
    root = tmp_path / "backups"
    taken = []
    for slug, minute in (("first-open", 14), ("second-open", 15), ("third-open", 15)):
        moment = datetime.datetime(2026, 11, 22, 3, minute, 7, tzinfo=datetime.UTC)
        monkeypatch.setattr(taking, "utc_now", lambda moment=moment: moment)
        make_tournament(players=6, rounds=1, slug=slug)
        taken.append(take_backup(root))
    (root / ".2026-11-22T0316Z-x1y2.partial").mkdir()
    return root, taken


def test_restore_of_the_folder_of_backups_restores_the_newest_and_says_which(three_backups):
    root, taken = three_backups
    assert [folder.name for folder in taken] == [
        "2026-11-22T0314Z",
        "2026-11-22T0315Z",
        "2026-11-22T031507Z",
    ]
    Tournament.objects.create(name="Made Since", slug="made-since")
    output = restore(root, "--replace")
    assert f"{root} is a folder of backups: restoring the newest, {taken[-1]}." in output
    assert f"Replaced everything with the backup in {taken[-1]} " in output
    assert set(Tournament.objects.values_list("slug", flat=True)) == {
        "first-open",
        "second-open",
        "third-open",
    }


def test_a_newest_backup_that_is_a_link_is_refused_by_name(three_backups, tmp_path):
    root, taken = three_backups
    newest = root / "2026-11-23T0900Z"
    newest.symlink_to(taken[0])
    with pytest.raises(CommandError) as caught:
        restore(root, "--replace")
    assert (
        f"nothing was restored: {newest}: the newest backup in {root} is a symbolic link "
        f"(to {taken[0]}): give the backup folder itself"
    ) == str(caught.value)


def test_a_folder_with_no_backup_in_it_says_so(db, tmp_path):
    with pytest.raises(CommandError) as caught:
        restore(tmp_path)
    assert (
        "manifest.json: missing: this is no backup folder, nor a folder of backups (none of "
        "its folders is named like 2026-11-22T0315Z, as backup names them)"
    ) in str(caught.value)
