"""Photos of paper sheets go into a backup (``SLUG.photos.json``) and come back from it
byte for byte, with their readings, their tables and their senders; a photo still being
read comes back failed, saying to send it again; a photos file tampered with is refused."""

import json
import re

import pytest

from scoring.errors import UserError
from tests.backups import empty_the_database, restore, sign_again, take_backup
from tests.pages import ROWS
from tests.sheet_photos import a_reading, read_photo
from tournament.backup.folder import read_backup
from tournament.models import PhotoState, SheetPhoto, Table

FIELDS = (
    "pk",
    "for_table",
    "batch",
    "position",
    "name",
    "sent_at",
    "state",
    "reason",
    "words",
    "reading",
    "scale",
    "cells",
    "read_at",
)


def _snapshot():
    return [
        (
            *(getattr(photo, field) for field in FIELDS),
            photo.sent_by.username if photo.sent_by else None,
            bytes(photo.image),
            bytes(photo.sheet_image),
            # Rounds and tables come back with new ids (docs/tournament-file.md, "Ids kept").
            (photo.round.tournament.slug, photo.round.number),
            photo.table.number if photo.table else None,
        )
        for photo in SheetPhoto.objects.select_related(
            "sent_by", "table", "round__tournament"
        ).order_by("pk")
    ]


@pytest.mark.django_db(transaction=True)
def test_photos_come_back_identical(seated_round, scorer, tmp_path):
    tables = list(Table.objects.filter(round=seated_round).order_by("number"))
    read_photo(tables[0], scorer, a_reading(tables[0], ROWS[:2], [(2, "won", 3)]))
    read_photo(
        tables[1], scorer, None, state=PhotoState.REFUSED, reason="blurred", words="Too blurred."
    )
    before = _snapshot()
    folder = take_backup(tmp_path)
    assert (folder / "club-night.photos.json").exists()
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["counts"]["photos"] == 2
    empty_the_database()
    printed = restore(folder)
    assert "2 photos of paper sheets put back" in printed
    assert _snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_a_photo_being_read_comes_back_failed_to_send_again(seated_round, scorer, tmp_path):
    table = Table.objects.get(round=seated_round, number=1)
    read_photo(table, scorer, None, state=PhotoState.WAITING, upload=b"\xff\xd8 a photo")
    folder = take_backup(tmp_path)
    empty_the_database()
    restore(folder)
    photo = SheetPhoto.objects.get()
    assert photo.state == PhotoState.FAILED
    assert "send the photo again" in photo.words
    assert photo.upload == b""


@pytest.mark.django_db(transaction=True)
def test_a_photos_file_naming_no_tournament_of_the_backup_is_refused(
    seated_round, scorer, tmp_path
):
    table = Table.objects.get(round=seated_round, number=1)
    read_photo(table, scorer, a_reading(table, ROWS[:1]))
    folder = take_backup(tmp_path)
    path = folder / "club-night.photos.json"
    data = json.loads(path.read_text())
    data["tournament"] = "elsewhere"
    path.write_text(json.dumps(data))
    sign_again(folder, path.name)
    with pytest.raises(UserError, match="“elsewhere” is no tournament of this backup"):
        read_backup(folder)
    data["tournament"] = "club-night"
    data["photos"][0]["image"] = "not base64!"
    path.write_text(json.dumps(data))
    sign_again(folder, path.name)
    with pytest.raises(UserError, match=re.escape("club-night.photos.json: photos[0].image")):
        read_backup(folder)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("round", 9, "“club-night” has no round 9"),
        ("table", 9, "round 1 of “club-night” has no table 9"),
    ],
)
def test_a_photo_of_a_round_or_table_the_tournament_file_lacks_is_refused_in_words(
    seated_round, scorer, tmp_path, field, value, said
):
    table = Table.objects.get(round=seated_round, number=1)
    read_photo(table, scorer, a_reading(table, ROWS[:1]))
    folder = take_backup(tmp_path)
    path = folder / "club-night.photos.json"
    data = json.loads(path.read_text())
    data["photos"][0][field] = value
    path.write_text(json.dumps(data))
    sign_again(folder, path.name)
    with pytest.raises(UserError, match=re.escape(said)):
        read_backup(folder)
