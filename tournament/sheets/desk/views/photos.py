"""Reading photos of paper sheets at the desk (docs/photos.md): "Read a photo" of one
table's sheet, "Read photos" of a stack from the round's desk (each routed to its table by
its QR code), the page that follows the reading, the sheet form filled from a reading
(nothing saved until the scorer saves it), and the photo and each cell's crop, served to
the tournament's scorers and organiser only, kept by no cache."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods

from tournament.kernel.http import HtmxHttpRequest
from tournament.models import UNFINISHED, PhotoState, SheetPhoto, Table, Tournament
from tournament.shared.permissions import get_round, get_tournament_for_scorer
from tournament.sheets.blind import awaits_blind_confirmation
from tournament.sheets.desk.pages import not_started, started_table, table_for
from tournament.sheets.desk.photos import filled_from, photo_context, photo_of
from tournament.sheets.desk.views.sheet import _sheet_context
from tournament.sheets.leaves import current_leaves
from tournament.sheets.photos.images import cell_crop
from tournament.sheets.photos.sending import PhotoRefused, SentFile, is_stale, send_photos
from tournament.sheets.reading import peek_sheet

# The file input's name on both sending pages.
FILES = "photos"
# While photos are being read, the following page asks again this often (seconds).
POLL_SECONDS = 2


def _sent(files: list[UploadedFile]) -> list[SentFile]:
    most = settings.PHOTO_MAX_BYTES
    # A file over the limit is named and refused without reading it into memory, and so
    # is every file of a send of more than PHOTO_MAX_FILES, refused by their count.
    if len(files) > settings.PHOTO_MAX_FILES:
        most = -1
    return [
        SentFile(f.name or "", f.size or 0, f.read() if (f.size or 0) <= most else b"")
        for f in files
    ]


def _send_page(
    request: HtmxHttpRequest,
    tournament: Tournament,
    round_number: int,
    *,
    table: Table | None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    round_ = table.round if table is not None else get_round(tournament, round_number)
    blind = table is not None and awaits_blind_confirmation(table, peek_sheet(table), request.user)
    context = {
        "tournament": tournament,
        "round": round_,
        "table": table,
        "blind": blind,
        "error": error,
        "files": FILES,
        "max_mb": settings.PHOTO_MAX_BYTES // (1024 * 1024),
        "max_files": settings.PHOTO_MAX_FILES,
    }
    return render(request, "sheets/photo_send.html", context, status=status)


def _send(
    request: HtmxHttpRequest, tournament: Tournament, round_number: int, table: Table | None
) -> HttpResponse:
    round_ = table.round if table is not None else get_round(tournament, round_number)
    try:
        batch = send_photos(
            round_, int(request.user.pk or 0), _sent(request.FILES.getlist(FILES)), table=table
        )
    except PhotoRefused as refused:
        return _send_page(
            request, tournament, round_number, table=table, error=str(refused), status=422
        )
    return redirect("scorer:photos", tournament.slug, round_.number, batch)


@login_required
@require_http_methods(["GET", "POST"])
def read_photo(request: HtmxHttpRequest, slug: str, round: int, table: int) -> HttpResponse:
    """ "Read a photo" of one table's sheet: the photo must show that table's sheet."""
    table_ = started_table(request, slug, round, table)
    if isinstance(table_, HttpResponse):
        return table_
    tournament = table_.round.tournament
    if request.method == "POST" and not awaits_blind_confirmation(
        table_, peek_sheet(table_), request.user
    ):
        return _send(request, tournament, round, table_)
    return _send_page(request, tournament, round, table=table_)


@login_required
@require_http_methods(["GET", "POST"])
def read_photos(request: HtmxHttpRequest, slug: str, round: int) -> HttpResponse:
    """ "Read photos" of a round's stack of sheets, each to the table its QR code names."""
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    if not round_.started:
        return not_started(request, tournament, round_)
    if request.method == "POST":
        return _send(request, tournament, round, None)
    return _send_page(request, tournament, round, table=None)


@login_required
@require_GET
def photos(request: HtmxHttpRequest, slug: str, round: int, batch: uuid.UUID) -> HttpResponse:
    """The page that follows a batch's reading: each photo's state, its refusal in words,
    or the way to its table's sheet filled from it."""
    tournament = get_tournament_for_scorer(request, slug)
    round_ = get_round(tournament, round)
    found = list(
        SheetPhoto.objects.filter(batch=batch, round=round_)
        .select_related("table")
        .defer("upload", "image", "sheet_image")
        .order_by("position")
    )
    if not found:
        return render(
            request,
            "sheets/photos.html",
            {"tournament": tournament, "round": round_, "found": [], "missing": True},
            status=404,
        )
    stale = {photo.pk for photo in found if is_stale(photo)}
    for photo in found:
        photo.stale = photo.pk in stale  # type: ignore[attr-defined]
    waiting = sum(1 for photo in found if photo.state in UNFINISHED and photo.pk not in stale)
    context = {
        "tournament": tournament,
        "round": round_,
        "found": found,
        "waiting": waiting,
        "read": sum(1 for photo in found if photo.state == PhotoState.READ),
        "here": request.get_full_path(),
        "poll": f"every {POLL_SECONDS}s",
    }
    if request.htmx:
        return render(request, "sheets/photos.html#progress", context)
    return render(request, "sheets/photos.html", context)


@login_required
@require_GET
def photo_sheet(request: HtmxHttpRequest, slug: str, photo: int) -> HttpResponse:
    """The desk's sheet form of the photo's table, filled from its reading: nothing is
    saved until the scorer saves it; doubtful cells marked, each cell with its crop."""
    tournament = get_tournament_for_scorer(request, slug)
    photo_ = photo_of(tournament, photo)
    batch_url = reverse("scorer:photos", args=[tournament.slug, photo_.round.number, photo_.batch])
    if photo_.state != PhotoState.READ or photo_.table is None:
        return redirect(batch_url)
    round_ = photo_.round
    if not round_.started:
        return redirect(batch_url)
    table_ = table_for(round_, photo_.table.number)
    current = peek_sheet(table_)
    if awaits_blind_confirmation(table_, current, request.user):
        # A photo reading is one entry: the second, blind, is typed by hand.
        return render(
            request,
            "sheets/photo_blind.html",
            {"tournament": tournament, "round": round_, "table": table_, "photo": photo_},
        )
    filled = filled_from(photo_, table_)
    context = _sheet_context(
        request,
        table_,
        current,
        filled.rows,
        # As the sheet was when the photo was read: one saved since is changed meanwhile.
        expected_version=photo_.sheet_version,
        stopped_early=current.stopped_early,
        leaves=current_leaves(current),
        doubtful=filled.doubtful,
        crops=filled.crops,
    )
    context.update(photo_context(photo_), blind=False, autofocus="")
    return render(request, "sheets/sheet.html", context)


def _private(response: HttpResponse) -> HttpResponse:
    # Whoever is logged in gets this anyway (PrivateWhenLoggedInMiddleware); said here
    # too, since a photo must never sit in a shared cache or the phone's offline copy.
    patch_cache_control(response, private=True, no_store=True)
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_GET
def photo_image(request: HtmxHttpRequest, slug: str, photo: int) -> HttpResponse:
    """The photo as kept (downscaled), for the sheet's history."""
    tournament = get_tournament_for_scorer(request, slug)
    found = photo_of(tournament, photo)
    image = bytes(SheetPhoto.objects.filter(pk=found.pk).values_list("image", flat=True)[0])
    if not image:
        return _private(HttpResponse("This photo could not be kept.", status=404))
    return _private(HttpResponse(image, content_type="image/jpeg"))


@login_required
@require_GET
def photo_crop(request: HtmxHttpRequest, slug: str, photo: int, cell: str) -> HttpResponse:
    """One cell of the sheet as photographed, straightened (PNG)."""
    tournament = get_tournament_for_scorer(request, slug)
    found = photo_of(tournament, photo)
    rect = found.cells.get(cell) if isinstance(found.cells, dict) else None
    if rect is None or found.state != PhotoState.READ:
        return _private(HttpResponse("No such cell on this photo.", status=404))
    sheet_image = bytes(
        SheetPhoto.objects.filter(pk=found.pk).values_list("sheet_image", flat=True)[0]
    )
    key = (found.pk, int(found.read_at.timestamp()) if found.read_at else 0)
    png = cell_crop(key, sheet_image, found.scale, rect)
    return _private(HttpResponse(png, content_type="image/png"))
