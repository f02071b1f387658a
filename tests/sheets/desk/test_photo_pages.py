"""The desk's photo pages (docs/photos.md): who may open them, what sending refuses in
words, the sheet form filled from a reading (nothing saved, doubtful cells marked, each
cell's crop beside it), the crops kept by no cache, and the history listing the photos."""

import html
import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.pages import ROWS, SLUG, form, inputs, url
from tests.sheet_photos import a_reading, photo_jpeg, read_photo
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import PhotoState, Sheet, SheetPhoto, SheetStatus, Table
from tournament.sheets.saving import save_sheet
from tournament.tournament_file.loading import delete_tournament

# A reading of table 1: the first two deals of ROWS, deal 2's seat 3 and left over doubtful.
DOUBTFUL = [(2, "won", 3), (2, "left_over", None)]


def _table(number=1):
    return Table.objects.select_related("round__tournament").get(round__number=1, number=number)


def _read(user, number=1, **fields):
    table = _table(number)
    reading = fields.pop("reading", a_reading(table, ROWS[:2], DOUBTFUL))
    return read_photo(table, user, reading, **fields)


def _photo_url(name, photo, *rest):
    return reverse(f"scorer:{name}", args=[SLUG, photo.pk, *rest])


def _heic() -> bytes:
    # The box a phone's HEIC photo opens with: its size, "ftyp", the brand "heic".
    return b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64


def _upload(name="IMG_0001.jpg", data=None, content_type="image/jpeg"):
    return SimpleUploadedFile(name, photo_jpeg() if data is None else data, content_type)


# Who may see what ---------------------------------------------------------------------


def _urls(photo):
    return [
        url("read_photo"),
        reverse("scorer:read_photos", args=[SLUG, 1]),
        reverse("scorer:photos", args=[SLUG, 1, photo.batch]),
        _photo_url("photo_sheet", photo),
        _photo_url("photo_image", photo),
        _photo_url("photo_crop", photo, "d2_s3"),
    ]


def test_outsiders_are_told_nothing_exists_and_anonymous_visitors_log_in(
    client, outsider_client, scorer, seated_round
):
    photo = _read(scorer)
    for address in _urls(photo):
        assert outsider_client.get(address).status_code == 404, address
        response = client.get(address)
        assert response.status_code == 302, address
        assert response.url.startswith(reverse("login"))
    assert outsider_client.post(url("read_photo"), {"photos": _upload()}).status_code == 404
    assert SheetPhoto.objects.count() == 1


def test_the_scorers_and_the_organiser_may_open_every_photo_page(
    scorer_client, organiser_client, second_scorer, seated_round
):
    photo = _read(second_scorer)
    for address in _urls(photo):
        assert scorer_client.get(address).status_code == 200, address
        assert organiser_client.get(address).status_code == 200, address


def test_a_photo_of_another_tournament_is_not_found_through_this_one(
    scorer_client, scorer, seated_round, make_played
):
    other = make_played(rounds=1, slug="other-open")
    table = Table.objects.filter(round__tournament=other).first()
    photo = read_photo(table, scorer, a_reading(table, ROWS[:1]))
    assert scorer_client.get(_photo_url("photo_sheet", photo)).status_code == 404
    assert scorer_client.get(_photo_url("photo_crop", photo, "d1_s1")).status_code == 404


# Sending ------------------------------------------------------------------------------


def test_the_sheet_page_offers_a_photo_and_the_confirm_page_does_not(
    scorer_client, second_scorer_client, seated_round
):
    sheet_page = scorer_client.get(url("sheet")).content.decode()
    assert url("read_photo") in sheet_page
    assert "Read a photo" in sheet_page
    scorer_client.post(url("sheet"), form(ROWS))
    confirm_page = second_scorer_client.get(url("confirm")).content.decode()
    assert url("read_photo") not in confirm_page
    assert "Read a photo" not in confirm_page
    # Nor on the sheet page of whoever may still confirm it blind.
    assert url("read_photo") not in second_scorer_client.get(url("sheet")).content.decode()


def test_the_upload_opens_the_camera_on_a_phone(scorer_client, seated_round):
    for address in (url("read_photo"), reverse("scorer:read_photos", args=[SLUG, 1])):
        page = scorer_client.get(address).content.decode()
        field = re.search(r"<input[^>]*type=\"file\"[^>]*>", page)[0]
        assert 'accept="image/*"' in field
        assert 'capture="environment"' in field
    stack = scorer_client.get(reverse("scorer:read_photos", args=[SLUG, 1])).content.decode()
    assert " multiple" in re.search(r"<input[^>]*type=\"file\"[^>]*>", stack)[0]


def test_a_heic_photo_is_refused_in_words(scorer_client, seated_round):
    response = scorer_client.post(
        url("read_photo"), {"photos": _upload("IMG_0002.HEIC", _heic(), "image/heic")}
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "IMG_0002.HEIC is a HEIC photo, which cannot be read here" in page
    assert "Most Compatible" in page
    assert not SheetPhoto.objects.exists()


def test_a_photo_too_large_is_refused_in_words_unread(scorer_client, seated_round, settings):
    settings.PHOTO_MAX_BYTES = 2 * 1024 * 1024
    big = _upload("huge.jpg", b"\xff\xd8" + b"0" * (3 * 1024 * 1024))
    response = scorer_client.post(reverse("scorer:read_photos", args=[SLUG, 1]), {"photos": big})
    assert response.status_code == 422
    assert "huge.jpg is 3 MB, more than the 2 MB a photo may be" in response.content.decode()
    assert not SheetPhoto.objects.exists()


def test_one_read_at_a_time_for_each_scorer(scorer_client, scorer, second_scorer, seated_round):
    _read(scorer, state=PhotoState.WAITING, reading=None)
    response = scorer_client.post(url("read_photo", table=2), {"photos": _upload()})
    assert response.status_code == 422
    assert "are still being read: one read at a time for each scorer" in response.content.decode()
    assert SheetPhoto.objects.count() == 1
    # Another scorer's photos being read hold nobody else up: their photo is sent.
    SheetPhoto.objects.update(sent_by=second_scorer)
    response = scorer_client.post(url("read_photo", table=2), {"photos": _upload("x.png")})
    assert response.status_code == 302
    assert SheetPhoto.objects.count() == 2


def test_a_blind_confirmer_is_sent_to_type_it_by_hand(
    scorer_client, second_scorer_client, scorer, seated_round
):
    scorer_client.post(url("sheet"), form(ROWS))
    page = second_scorer_client.get(url("read_photo")).content.decode()
    assert "awaits your confirmation" in page
    assert 'type="file"' not in page
    second_scorer_client.post(url("read_photo"), {"photos": _upload()})
    assert not SheetPhoto.objects.exists()
    # A photo read by someone else meanwhile does not show them its numbers either.
    photo = _read(scorer)
    response = second_scorer_client.get(_photo_url("photo_sheet", photo))
    assert "typed by hand from the paper" in response.content.decode()
    assert "d1_s1" not in inputs(response)


# Following the reading ----------------------------------------------------------------


def test_the_following_page_polls_while_photos_wait_and_links_each_read_sheet(
    scorer_client, scorer, seated_round
):
    photo = _read(scorer, state=PhotoState.WAITING, reading=None)
    address = reverse("scorer:photos", args=[SLUG, 1, photo.batch])
    waiting = scorer_client.get(address).content.decode()
    assert "Being read…" in waiting
    assert 'hx-trigger="every 2s"' in waiting
    assert 'aria-live="polite"' in waiting
    assert f'href="{address}"' in waiting  # without JavaScript: check again
    SheetPhoto.objects.update(
        state=PhotoState.READ, reading=a_reading(_table(), ROWS[:2], DOUBTFUL)
    )
    partial = scorer_client.get(address, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in partial
    assert "hx-trigger" not in partial
    assert "All read." in partial
    assert "2 doubtful cells" in partial
    assert _photo_url("photo_sheet", photo) in partial


def test_a_refused_photo_says_why(scorer_client, scorer, seated_round):
    words = "This photo is of the sheet of round 1, table 2, not of table 1: send it from table 2's sheet, or from the round's desk."
    photo = _read(scorer, state=PhotoState.REFUSED, reason="other_table", words=words, reading=None)
    page = scorer_client.get(reverse("scorer:photos", args=[SLUG, 1, photo.batch]))
    assert words in html.unescape(page.content.decode())


# The form filled from a reading -------------------------------------------------------


def test_the_form_is_filled_from_the_reading_and_nothing_is_saved(
    scorer_client, scorer, seated_round
):
    photo = _read(scorer)
    response = scorer_client.get(_photo_url("photo_sheet", photo))
    assert response.status_code == 200
    fields = inputs(response)
    for number, row in enumerate(ROWS[:2], start=1):
        for seat, won in enumerate(row["won"], start=1):
            assert fields[cell_name(number, WON, seat)]["value"] == str(won)
        assert fields[cell_name(number, LEFT_OVER)]["value"] == str(row["left_over"])
        assert fields[cell_name(number, LAST_IN)]["value"] == str(row["last_in"])
    assert fields["d3_s1"]["value"] == ""
    assert fields["photo"]["value"] == str(photo.pk)
    assert not Sheet.objects.exists()
    page = response.content.decode()
    assert "Filled from a photo: not saved yet" in page
    assert "2 cells marked “Check”" in page


def test_doubtful_cells_are_marked_in_words_with_their_crops(scorer_client, scorer, seated_round):
    photo = _read(scorer)
    response = scorer_client.get(_photo_url("photo_sheet", photo))
    fields = inputs(response)
    page = response.content.decode()
    for name in ("d2_s3", "d2_left_over"):
        assert "doubtful" in fields[name]["class"].split()
        assert fields[name]["aria-describedby"] == f"{name}-doubtful"
        assert re.search(rf'id="{name}-doubtful">Check<', page)
    assert "doubtful" not in fields["d2_s1"]["class"]
    # Every cell read has its crop beside it, named by where it is and how sure the reader was.
    assert _photo_url("photo_crop", photo, "d1_s1") in page
    assert 'alt="The photo at deal 2, seat 3, read with 42% confidence"' in page


def test_the_crop_is_a_png_kept_by_no_cache(scorer_client, scorer, seated_round):
    photo = _read(scorer)
    response = scorer_client.get(_photo_url("photo_crop", photo, "d2_s3"))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")
    cache = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= cache
    assert scorer_client.get(_photo_url("photo_crop", photo, "d9_s9")).status_code == 404
    image = scorer_client.get(_photo_url("photo_image", photo))
    assert image["Content-Type"] == "image/jpeg"
    assert "no-store" in image["Cache-Control"]


def test_the_phones_offline_copy_keeps_no_photo_nor_crop(scorer_client, scorer, seated_round):
    """static/js/sw.js keeps only public pages, and nothing marked private or no-store."""
    worker = (settings.BASE_DIR / "static" / "js" / "sw.js").read_text()
    public_page = re.compile(re.search(r"var PUBLIC_PAGE = /(.+)/;", worker)[1])
    assert "no-store|private" in worker
    photo = _read(scorer)
    for address in (_photo_url("photo_crop", photo, "d1_s1"), _photo_url("photo_image", photo)):
        assert not public_page.match(address)
        response = scorer_client.get(address)
        assert "no-store" in response["Cache-Control"]
    assert public_page.match(f"/t/{SLUG}/")


def test_the_filled_form_saves_as_if_typed(scorer_client, scorer, seated_round):
    photo = _read(scorer)
    data = form(ROWS, action="draft") | {"photo": str(photo.pk)}
    response = scorer_client.post(url("sheet"), data)
    assert response.status_code == 302
    sheet = Sheet.objects.get()
    assert sheet.status == SheetStatus.DRAFT
    assert sheet.entered_by == scorer


def test_a_refused_save_of_a_filled_form_keeps_its_doubtful_cells_and_crops(
    scorer_client, scorer, seated_round
):
    photo = _read(scorer)
    wrong = [{**ROWS[0]}, {**ROWS[1], "left_over": 12}]
    response = scorer_client.post(url("sheet"), form(wrong) | {"photo": str(photo.pk)})
    assert response.status_code == 422
    fields = inputs(response)
    assert "doubtful" in fields["d2_left_over"]["class"].split()
    assert fields["d2_left_over"]["value"] == "12"
    assert _photo_url("photo_crop", photo, "d2_left_over") in response.content.decode()
    assert not Sheet.objects.exists()


def test_a_photo_not_read_sends_its_form_back_to_the_following_page(
    scorer_client, scorer, seated_round
):
    photo = _read(scorer, state=PhotoState.REFUSED, reading=None)
    response = scorer_client.get(_photo_url("photo_sheet", photo))
    assert response.status_code == 302
    assert response.url == reverse("scorer:photos", args=[SLUG, 1, photo.batch])


# The history, deletion ----------------------------------------------------------------


def test_the_history_lists_the_photos_read(scorer_client, scorer, seated_round):
    _read(scorer, name="IMG_0042.jpg")
    table = _table()
    save_sheet(table, scorer, ROWS, expected_version=0, final=False)
    page = scorer_client.get(url("history")).content.decode()
    assert "Photos of the paper" in page
    assert "IMG_0042.jpg" in page
    assert "2 doubtful cells" in page
    assert "The sheet as read from it" in page
    other = scorer_client.get(url("history", table=2)).content.decode()
    assert "IMG_0042.jpg" not in other
    assert "No photo of this sheet has been read" in other


def test_photos_go_with_their_tournament(scorer, seated_round):
    _read(scorer)
    _read(scorer, number=2)
    delete_tournament(seated_round.tournament)
    assert not SheetPhoto.objects.exists()


@pytest.mark.parametrize("state", [PhotoState.READ, PhotoState.REFUSED])
def test_a_photo_keeps_its_sender_gone(scorer, seated_round, state, django_user_model):
    photo = _read(scorer, state=state)
    django_user_model.objects.filter(pk=scorer.pk).delete()
    photo.refresh_from_db()
    assert photo.sent_by is None


def test_the_round_desk_offers_photos_of_a_stack_once_the_round_has_started(
    scorer_client, seated_round
):
    stack = reverse("scorer:read_photos", args=[SLUG, 1])
    assert stack in scorer_client.get(url("desk")).content.decode()
    seated_round.started = False
    seated_round.save(update_fields=["started"])
    assert stack not in scorer_client.get(url("desk")).content.decode()
    response = scorer_client.post(stack, {"photos": _upload()})
    assert response.status_code == 302
    assert not SheetPhoto.objects.exists()


def test_the_following_page_and_the_history_ask_as_many_queries_for_many_photos(
    scorer_client, scorer, seated_round
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = _read(scorer)
    pages = [
        reverse("scorer:photos", args=[SLUG, 1, first.batch]),
        url("history"),
    ]

    def counted(address):
        with CaptureQueriesContext(connection) as queries:
            assert scorer_client.get(address).status_code == 200
        return len(queries)

    few = [counted(address) for address in pages]
    for position in range(2, 7):
        _read(scorer, batch=first.batch, position=position)
    assert [counted(address) for address in pages] == few


def test_a_sheet_saved_since_the_photo_was_read_is_changed_meanwhile_not_overwritten(
    scorer_client, scorer, second_scorer, seated_round
):
    """A photo read of an empty sheet; meanwhile another scorer enters the sheet and it is
    confirmed: saving the form filled from the photo is answered as changed meanwhile, with
    both copies in view, and the confirmed sheet stays as it was."""
    from tournament.sheets.confirming import confirm_sheet

    table = _table()
    photo = read_photo(table, scorer, a_reading(table, ROWS, []))
    others = [dict(row) for row in ROWS]
    others[0] = {**others[0], "won": list(reversed(others[0]["won"]))}
    save_sheet(table, second_scorer, others, expected_version=0, final=True).or_raise()
    confirm_sheet(table, scorer, expected_version=1).or_raise()
    page = scorer_client.get(reverse("scorer:photo_sheet", args=[SLUG, photo.pk]))
    version = int(inputs(page)["expected_version"]["value"])
    assert version == 0
    response = scorer_client.post(
        url("sheet"), form(ROWS, version=version) | {"photo": str(photo.pk)}
    )
    assert response.status_code == 409
    sheet = Sheet.objects.get(table=table)
    assert (sheet.status, sheet.version) == (SheetStatus.CONFIRMED, 2)


def test_a_photo_whose_reader_stopped_holds_nobody_back_and_says_to_send_it_again(
    scorer_client, scorer, seated_round
):
    """A worker stopped half-way (or none runs): ten minutes on, the photo no longer keeps
    its scorer from sending, and its page stops waiting and says what to do."""
    from datetime import timedelta

    from django.utils import timezone

    old = timezone.now() - timedelta(minutes=11)
    photo = _read(scorer, state=PhotoState.READING, reading=None, sent_at=old)
    page = scorer_client.get(reverse("scorer:photos", args=[SLUG, 1, photo.batch]))
    text = page.content.decode()
    assert "the site stopped reading it. Send it again" in text
    assert "hx-trigger" not in text
    response = scorer_client.post(url("read_photo"), {"photos": _upload()})
    assert response.status_code == 302
    assert SheetPhoto.objects.count() == 2


def test_read_a_photo_is_never_offered_to_whoever_may_still_confirm_blind(
    scorer_client, second_scorer, seated_round
):
    """Not on the sheet as entered (?show=entered) nor on its history: the blind second
    entry is typed by hand."""
    table = _table()
    save_sheet(table, second_scorer, ROWS, expected_version=0, final=True).or_raise()
    for address in (url("sheet"), url("sheet") + "?show=entered", url("history")):
        page = scorer_client.get(address).content.decode()
        assert "Read a photo" not in page, address
