"""Reading photos of paper sheets, as the task does it: photos made in software from the
printed layout (tests/photos.py), read with the table's facts, stored; photos of another
table, round or tournament refused in words; a stack routed to its tables by their QR
codes; ``manage.py read_sheet``'s JSON and exit codes; no OpenCV when the app starts."""

import io
import json
import uuid

import cv2
import numpy as np
import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.rules import Leave, validate_deal
from scoring.sheet_reading.decode import DealReading
from scoring.sheet_reading.identity import SheetIdentity
from tests.environment import environment, run
from tests.pages import ROWS
from tests.photos import synthetic_photo
from tournament.models import PhotoState, SheetPhoto, Table
from tournament.sheets.photos.layouts import layout_of
from tournament.sheets.photos.reading import read_photo, rules_for
from tournament.sheets.photos.sending import PhotoRefused, SentFile, send_photos
from tournament.sheets.saving import save_sheet

ENTRY = "https://scores.example.org/t/ABCD/"
# Four deals at a table of four, each adding up to 52.
DEALS = (
    DealReading((10, 4, 10, 0), 4, 28, None),
    DealReading((12, 10, 10, 10), 1, 10, None),
    DealReading((8, 8, 8, 8), 2, 20, None),
    DealReading((20, 0, 4, 6), 3, 22, None),
)


def _table(number=1, round_number=1):
    return Table.objects.select_related("round__tournament").get(
        round__number=round_number, number=number
    )


def _photo(table, deals=DEALS, *, slug=None, round_number=None, number=None, **camera):
    identity = SheetIdentity(
        slug or table.round.tournament.slug,
        round_number or table.round.number,
        number or table.number,
    )
    return synthetic_photo(layout_of(table), identity, ENTRY, deals, **camera)


def _send(table, data, user, *, for_table=True, name="IMG_0001.jpg"):
    batch = send_photos(
        table.round,
        user.pk,
        [SentFile(name, len(data), data)],
        table=table if for_table else None,
    )
    return SheetPhoto.objects.get(batch=batch)


def test_the_rules_come_from_the_tables_facts(scorer, seated_round):
    table = _table()
    rules = rules_for(table)
    assert (rules.seats, rules.deals, rules.order_needed) == (4, 4, False)
    assert rules.absent == (frozenset(),) * 4
    # Seat 3 left after deal 2 (recorded in a draft): its boxes are blank from deal 3 on,
    # and the round holds one deal less (seat 3 would have dealt deal 3).
    outcome = save_sheet(
        table, scorer, ROWS[:2], expected_version=0, final=False, left=(Leave(2, 3),)
    )
    assert outcome.saved
    rules = rules_for(_table())
    assert rules.deals == 3
    assert rules.absent == (frozenset(), frozenset(), frozenset({3}))


def test_a_photo_is_read_into_its_table_and_nothing_is_saved(scorer, seated_round):
    table = _table()
    photo = _send(table, _photo(table, rotate=4, perspective=0.3), scorer)
    photo.refresh_from_db()
    assert photo.state == PhotoState.READ, photo.words
    assert photo.table == table
    assert photo.upload == b""
    assert bytes(photo.image).startswith(b"\xff\xd8")
    assert bytes(photo.sheet_image).startswith(b"\xff\xd8")
    reading = photo.reading
    assert (reading["tournament"], reading["round"], reading["table"]) == ("club-night", 1, 1)
    checked = 0
    for number, (read, written) in enumerate(zip(reading["deals"], DEALS, strict=True), 1):
        if any(cell["deal"] == number for cell in reading["doubtful"]):
            continue
        checked += 1
        assert read["won"] == list(written.won), number
        assert (read["last_in"], read["left_over"]) == (written.last_in, written.left_over)
        assert not validate_deal(read["won"], read["last_in"], read["left_over"], 4)
    # A clean photo in print: most deals are read sure, and right.
    assert checked >= 3
    assert set(photo.cells) >= {"d1_s1", "d4_left_over", "d4_last_in"}
    assert not table.deals.exists()
    assert not hasattr(_table(), "sheet") or _table().sheet.version == 0


@pytest.mark.parametrize(
    ("where", "reason", "words"),
    [
        (
            {"number": 2},
            "other_table",
            "This photo is of the sheet of round 1, table 2, not of table 1",
        ),
        (
            {"round_number": 2},
            "other_round",
            "This photo is of the sheet of round 2, table 1, not of round 1",
        ),
        (
            {"slug": "red-lion"},
            "other_tournament",
            "another tournament (“red-lion”), not of Test Open",
        ),
    ],
)
def test_a_photo_of_another_sheet_is_refused_naming_it(scorer, seated_round, where, reason, words):
    table = _table()
    photo = _send(table, _photo(table, **where), scorer)
    photo.refresh_from_db()
    assert photo.state == PhotoState.REFUSED
    assert photo.reason == reason
    assert words in photo.words
    assert photo.reading is None
    # The photo itself is kept for the history, downscaled.
    assert bytes(photo.image).startswith(b"\xff\xd8")


def test_a_photo_that_is_no_sheet_is_refused_by_the_reader_in_words(scorer, seated_round):
    table = _table()
    # A page of writing, but no sheet of ours: no corner squares.
    page = np.full((900, 1200), 200, np.uint8)
    rng = np.random.default_rng(1)
    for line in range(60):
        at = (int(rng.integers(0, 900)), int(rng.integers(20, 880)))
        cv2.putText(page, f"Pub quiz night {line}", at, cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 2)
    ok, other = cv2.imencode(".jpg", page)
    assert ok
    photo = _send(table, other.tobytes(), scorer)
    photo.refresh_from_db()
    assert photo.state == PhotoState.REFUSED
    assert photo.reason == "not_our_sheet"
    assert "No printed score sheet was found in this photo" in photo.words


def test_a_stack_is_routed_to_its_tables_by_their_qr_codes(scorer, seated_round):
    tables = [_table(2), _table(3), _table(1)]
    files = [
        SentFile(f"sheet-{t.number}.jpg", len(data), data)
        for t in tables
        for data in [_photo(t, seed=t.number)]
    ]
    batch = send_photos(seated_round, scorer.pk, files)
    photos = list(SheetPhoto.objects.filter(batch=batch).order_by("position"))
    assert [p.state for p in photos] == [PhotoState.READ] * 3
    assert [p.table.number for p in photos] == [2, 3, 1]
    assert [p.name for p in photos] == ["sheet-2.jpg", "sheet-3.jpg", "sheet-1.jpg"]


def test_a_stack_refuses_a_sheet_of_another_round(scorer, seated_round):
    table = _table()
    data = _photo(table, round_number=3)
    batch = send_photos(seated_round, scorer.pk, [SentFile("x.jpg", len(data), data)])
    photo = SheetPhoto.objects.get(batch=batch)
    assert (photo.state, photo.reason) == (PhotoState.REFUSED, "other_round")


def test_an_error_of_ours_fails_the_photo_and_frees_its_scorer(
    scorer, seated_round, monkeypatch, caplog
):
    from tournament.sheets.photos import reading

    def broken(table):
        raise RuntimeError("no layout today")

    monkeypatch.setattr(reading, "layout_of", broken)
    table = _table()
    photo = _send(table, _photo(table), scorer)
    photo.refresh_from_db()
    assert photo.state == PhotoState.FAILED
    assert "an error of the site, not of the photo" in photo.words
    assert "reading photo" in caplog.text
    # The next may be sent: the failed one is finished.
    monkeypatch.undo()
    assert _send(_table(2), _photo(_table(2)), scorer).pk


def test_a_photo_already_read_is_not_read_again(scorer, seated_round):
    table = _table()
    photo = _send(table, _photo(table), scorer)
    assert read_photo(photo.pk) == PhotoState.READ
    assert read_photo(10**9) == "gone"


def test_sending_nothing_or_too_many_is_refused(scorer, seated_round, settings):
    with pytest.raises(PhotoRefused, match="No photo was sent"):
        send_photos(seated_round, scorer.pk, [])
    settings.PHOTO_MAX_FILES = 2
    one = SentFile("a.jpg", 3, b"abc")
    with pytest.raises(PhotoRefused, match="3 photos were sent at once; send at most 2"):
        send_photos(seated_round, scorer.pk, [one, one, one])
    with pytest.raises(PhotoRefused, match="one photo of table 1's sheet at a time"):
        send_photos(seated_round, scorer.pk, [one, one], table=_table())
    assert not SheetPhoto.objects.exists()


def test_the_desk_flow_through_the_pages(scorer_client, seated_round):
    """Sent from a sheet's page, read by the task, followed, and the form filled."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    table = _table()
    data = _photo(table)
    address = reverse("scorer:read_photo", args=["club-night", 1, 1])
    response = scorer_client.post(address, {"photos": SimpleUploadedFile("p.jpg", data)})
    assert response.status_code == 302
    following = scorer_client.get(response.url).content.decode()
    photo = SheetPhoto.objects.get()
    assert "All read." in following, photo.words
    sheet = scorer_client.get(reverse("scorer:photo_sheet", args=["club-night", photo.pk]))
    assert sheet.status_code == 200
    assert 'value="28"' in sheet.content.decode()


# manage.py read_sheet -------------------------------------------------------------------


def test_read_sheet_prints_the_reading_as_json(seated_round, tmp_path):
    table = _table()
    path = tmp_path / "sheet.jpg"
    path.write_bytes(_photo(table))
    out = io.StringIO()
    call_command("read_sheet", str(path), "--format", "json", stdout=out)
    printed = json.loads(out.getvalue())
    assert set(printed) == {"tournament", "round", "table", "deals", "doubtful"}
    assert (printed["tournament"], printed["round"], printed["table"]) == ("club-night", 1, 1)
    assert len(printed["deals"]) == 4
    assert {"won", "last_in", "left_over"} <= set(printed["deals"][0])
    for cell in printed["doubtful"]:
        assert set(cell) == {"deal", "field", "seat"}
    text = io.StringIO()
    call_command("read_sheet", str(path), stdout=text)
    assert text.getvalue().startswith("Tournament club-night, round 1, table 1\nDeal 1: won ")


def test_read_sheet_refuses_with_exit_2_and_the_reason_first(seated_round, tmp_path):
    table = _table()
    path = tmp_path / "other.jpg"
    path.write_bytes(_photo(table, slug="red-lion"))
    err = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("read_sheet", str(path), "--format", "json", stderr=err)
    assert stopped.value.code == 2
    assert err.getvalue().startswith("other_tournament: ")
    path.write_bytes(_photo(table, crop=(0.0, 0.0, 0.55, 0.55)))
    err = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("read_sheet", str(path), stderr=err)
    assert stopped.value.code == 2
    assert err.getvalue().split(":")[0] in {"cut_off", "not_our_sheet"}


def test_read_sheet_as_a_process_says_its_refusal_on_the_first_line_of_stderr(tmp_path):
    """What a script sees of ``manage.py read_sheet``: exit 2, and stderr opening with the
    reason, nothing logged at start before it."""
    import cv2
    import numpy as np

    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((300, 400), 255, dtype=np.uint8))
    result = run(
        ["manage.py", "read_sheet", str(path), "--format", "json"],
        environment(DJANGO_SETTINGS_MODULE="config.settings"),
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines()[0].startswith("not_our_sheet: "), result.stderr


def test_read_sheet_says_a_file_that_is_no_photo_is_not_our_sheet(tmp_path):
    """The command speaks the six codes a script knows; its words say what is wrong."""
    path = tmp_path / "notes.txt"
    path.write_text("not a photo")
    err = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("read_sheet", str(path), "--format", "json", stderr=err)
    assert stopped.value.code == 2
    assert err.getvalue().startswith("not_our_sheet: This file is not a photo")


def test_the_app_starts_without_opencv_or_numpy():
    """``manage.py check`` and every URL's view load neither OpenCV nor numpy (some 100 MB
    a process): only reading a photo, or a simulation, does."""
    code = (
        "import sys, django; django.setup(); "
        "from django.core.management import call_command; call_command('check'); "
        "import tournament.urls, tournament.sheets.desk.views.photos, "
        "tournament.sheets.photos.tasks; "
        "print(sorted({'cv2', 'numpy'} & set(sys.modules)))"
    )
    result = run(["-c", code], environment(DJANGO_SETTINGS_MODULE="config.settings"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_a_batch_of_photos_names_an_unknown_batch_404(scorer_client, seated_round):
    address = reverse("scorer:photos", args=["club-night", 1, uuid.uuid4()])
    assert scorer_client.get(address).status_code == 404


def test_a_sheet_printed_on_two_pages_is_refused_in_words(scorer, seated_round):
    table = _table()
    data = _photo(table)  # photographed as printed at four deals...
    tournament = table.round.tournament
    tournament.rotations_per_round = 8  # ...but the round now holds 32: two pages
    tournament.save(update_fields=["rotations_per_round"])
    photo = _send(_table(), data, scorer)
    photo.refresh_from_db()
    assert (photo.state, photo.reason) == (PhotoState.REFUSED, "two_pages")
    assert "runs to 2 pages" in photo.words
    assert "Type it in instead" in photo.words
