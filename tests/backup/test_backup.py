"""``manage.py backup``: every tournament as a tournament file in a new dated folder, and
restoring them with ``import_tournament``."""

import datetime
import errno
import io
import json
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection

from tournament.backup import taking as backup
from tournament.models import Player, Round, Sheet, Tournament
from tournament.rounds import seating
from tournament.rounds import services as rounds
from tournament.sheets.saving import save_sheet
from tournament.tournament_file import file_format, writing

MOMENT = datetime.datetime(2026, 11, 22, 3, 15, 7, tzinfo=datetime.UTC)


@pytest.fixture
def at_a_fixed_time(monkeypatch):
    monkeypatch.setattr(backup, "utc_now", lambda: MOMENT)


def run_backup(folder, *args):
    out = io.StringIO()
    call_command("backup", "--dir", str(folder), *args, stdout=out)
    return out.getvalue()


def folders(path):
    return sorted(p.name for p in path.iterdir())


@pytest.fixture
def tournaments(make_tournament, scorer):
    """Three tournaments: one played with a round seated as a draft and a sheet being
    typed, one played and finished, and one with nobody registered yet."""
    busy = make_tournament(players=12, rounds=2, slug="busy-night")
    draft = seating.seat_next_round(busy)
    rounds.start_round(draft)
    table = draft.tables.select_related("round__tournament").get(number=1)
    typed = [{"won": [10, 10, 10, 10], "last_in": 1, "left_over": 12}]
    save_sheet(table, scorer, typed, expected_version=0, final=False)
    finished = make_tournament(players=9, rounds=3, rotations=2, slug="finished-open")
    empty = Tournament.objects.create(
        name="Next Month", slug="next-month", date=datetime.date(2026, 12, 20)
    )
    return [busy, finished, empty]


def test_backup_then_restore_into_an_empty_database_gives_identical_files(
    tournaments, tmp_path, at_a_fixed_time
):
    exported = {t.slug: writing.export_tournament(t) for t in tournaments}

    output = run_backup(tmp_path)

    assert folders(tmp_path) == ["2026-11-22T0315Z"]
    folder = tmp_path / "2026-11-22T0315Z"
    assert folders(folder) == [
        "busy-night.json",
        "finished-open.json",
        "installation.json",
        "manifest.json",
        "next-month.json",
    ]
    for slug, data in exported.items():
        # Byte for byte what ``export_tournament SLUG`` prints: every round, released or not.
        assert (folder / f"{slug}.json").read_text(encoding="utf-8") == file_format.dumps(data)
        assert f"{folder / slug}.json: " in output
    assert "Backed up 3 tournaments to" in output
    assert '"number": 3' in (folder / "busy-night.json").read_text()  # the draft round

    Round.objects.all().delete()
    Tournament.objects.all().delete()
    for slug in exported:
        call_command("import_tournament", str(folder / f"{slug}.json"), stdout=io.StringIO())

    assert Tournament.objects.count() == 3
    for slug, data in exported.items():
        restored = writing.export_tournament(Tournament.objects.get(slug=slug))
        assert restored == data
        assert restored == json.loads((folder / f"{slug}.json").read_text(encoding="utf-8"))


def test_restoring_over_a_tournament_needs_replace(tournaments, tmp_path, at_a_fixed_time):
    run_backup(tmp_path)
    path = tmp_path / "2026-11-22T0315Z" / "finished-open.json"
    with pytest.raises(CommandError, match=r"already exists\. Use --replace"):
        call_command("import_tournament", str(path))
    Player.objects.filter(tournament__slug="finished-open").update(name="Changed since")
    call_command("import_tournament", str(path), "--replace", stdout=io.StringIO())
    restored = Tournament.objects.get(slug="finished-open")
    assert not restored.players.filter(name="Changed since").exists()


def test_a_second_backup_in_the_same_minute_gets_a_folder_to_the_second(
    make_tournament, tmp_path, at_a_fixed_time
):
    make_tournament(players=6, rounds=1)
    run_backup(tmp_path)
    run_backup(tmp_path)
    assert folders(tmp_path) == ["2026-11-22T031507Z", "2026-11-22T0315Z"]
    with pytest.raises(CommandError, match="2026-11-22T031507Z already exists"):
        run_backup(tmp_path)
    assert folders(tmp_path) == ["2026-11-22T031507Z", "2026-11-22T0315Z"]


def test_the_default_folder_is_backups_in_the_project(db, settings, tmp_path):
    settings.BASE_DIR = tmp_path
    # The default is computed when the command's options are built, from the settings.
    out = io.StringIO()
    call_command("backup", stdout=out)
    (folder,) = (tmp_path / "backups").iterdir()
    assert f"Backed up 0 tournaments to {folder}." in out.getvalue()


def test_quiet_backups_print_nothing(make_tournament, tmp_path):
    make_tournament(players=6, rounds=1)
    assert run_backup(tmp_path, "--verbosity", "0") == ""
    (folder,) = tmp_path.iterdir()
    assert folders(folder) == ["installation.json", "manifest.json", "test-open.json"]


def test_a_folder_that_is_a_file_is_a_clear_error(db, tmp_path):
    a_file = tmp_path / "backups"
    a_file.write_text("not a folder")
    with pytest.raises(CommandError, match="backups: this is a file, not a folder"):
        run_backup(a_file)


def test_a_folder_that_cannot_be_created_is_a_clear_error(db, tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(
        CommandError, match=r"file/backups: cannot create the backup folder \(Not a directory\)"
    ):
        run_backup(tmp_path / "file" / "backups")


def test_a_failure_while_writing_keeps_no_backup_at_all(
    tournaments, tmp_path, monkeypatch, at_a_fixed_time
):
    real = backup._write_durably
    calls = []

    def disk_full_on_the_second_file(path, text):
        calls.append(path)
        if len(calls) == 2:
            real(path, text[: len(text) // 2])
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(backup, "_write_durably", disk_full_on_the_second_file)
    with pytest.raises(CommandError) as caught:
        run_backup(tmp_path)
    message = str(caught.value)
    assert "finished-open.json: cannot write the backup (No space left on device)" in message
    assert "no backup was kept" in message
    # Neither a dated folder with half the files nor the staging folder is left behind.
    assert folders(tmp_path) == []


def test_a_backup_that_import_would_refuse_is_reported(make_tournament, tmp_path):
    make_tournament(players=6, rounds=1)
    # The organiser's form accepts underscores in a slug; tournament files do not.
    Tournament.objects.create(name="Club night", slug="club_night")
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("backup", "--dir", str(tmp_path), stdout=out)
    (folder,) = tmp_path.iterdir()
    assert folders(folder) == [
        "club_night.json",
        "installation.json",
        "manifest.json",
        "test-open.json",
    ]
    assert "Backed up 2 tournaments" in out.getvalue()
    message = str(caught.value)
    assert "restore would refuse 1 of its files" in message
    assert "club_night.json: slug: “club_night” is not a valid slug" in message
    assert "test-open" not in message


@pytest.mark.django_db(transaction=True)
def test_each_file_is_read_at_one_moment(make_tournament, tmp_path, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite transactions always read one moment; this checks PostgreSQL's")
    tournament = make_tournament(players=6, rounds=1, slug="live-night")
    real = writing.export_tournament

    def export_while_a_player_is_renamed(exported, **kwargs):
        # Committed by another connection after the backup's transaction began.
        def rename():
            Player.objects.filter(tournament=exported, ref="p1").update(name="Renamed")
            connection.close()

        thread = threading.Thread(target=rename)
        thread.start()
        thread.join(timeout=30)
        return real(exported, **kwargs)

    monkeypatch.setattr(writing, "export_tournament", export_while_a_player_is_renamed)
    run_backup(tmp_path)

    assert Player.objects.get(tournament=tournament, ref="p1").name == "Renamed"
    (folder,) = tmp_path.iterdir()
    data = json.loads((folder / "live-night.json").read_text(encoding="utf-8"))
    first = Player.objects.get(tournament=tournament, ref="p1")
    assert data["players"][0] == {
        "id": "p1",
        "key": first.pk,
        "name": "Player 0000",
        "club": "Club 0",
    }


def test_sheets_being_typed_are_not_in_the_backup(tournaments, tmp_path):
    # Tournament files hold confirmed facts only: a draft is the scorer's, not yet a fact.
    assert Sheet.objects.filter(status="draft").count() == 1
    run_backup(tmp_path)
    (folder,) = tmp_path.iterdir()
    data = json.loads((folder / "busy-night.json").read_text(encoding="utf-8"))
    draft_round = data["rounds"][2]
    assert draft_round["tables"]
    assert all(table["deals"] == [] for table in draft_round["tables"])


def test_a_database_that_cannot_be_read_is_a_clear_error(make_tournament, tmp_path, monkeypatch):
    make_tournament(players=6, rounds=1)

    def unreachable(tournament, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 failed")

    monkeypatch.setattr(writing, "export_tournament", unreachable)
    with pytest.raises(CommandError, match=r"cannot read the database \(connection to server"):
        run_backup(tmp_path)
    assert folders(tmp_path) == []


@pytest.mark.django_db(transaction=True)
def test_export_tournament_reads_one_moment(seated_round, scorer, monkeypatch):
    """A sheet confirmed while the export runs is wholly in the file or not at all, as in
    a backup: never confirmed in the sheet's status but missing its deals."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite transactions always read one moment; this checks PostgreSQL's")
    from tests.concurrency import complete_rows, load_table
    from tournament.models import Table

    tournament = seated_round.tournament
    tournament.two_person_check = False
    tournament.save(update_fields=["two_person_check"])
    table = Table.objects.get(round=seated_round, number=1)
    real = writing._sheets

    def confirmed_meanwhile(*args, **kwargs):
        def other():
            save_sheet(
                load_table(table.pk), scorer, complete_rows(4), expected_version=0, final=True
            )
            connection.close()

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        return real(*args, **kwargs)

    monkeypatch.setattr(writing, "_sheets", confirmed_meanwhile)
    out = io.StringIO()
    call_command("export_tournament", tournament.slug, stdout=out)
    first = json.loads(out.getvalue())["rounds"][0]["tables"][0]
    assert first.get("sheet", {}).get("status") != "confirmed" or first["deals"], first
