"""What the desk's photo pages share with its sheet page: a tournament's photo found for a
scorer, and what the sheet form filled from it shows (the rows read, the doubtful cells,
each cell's crop and the reader's confidence in it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.urls import reverse

from tournament.models import PhotoState, SheetPhoto, Table, Tournament
from tournament.sheets.photos.filling import doubtful_cells, probability_words, read_rows
from tournament.sheets.rows import Row

# The field a sheet form filled from a photo carries, so that a refused save draws the
# doubtful cells and their crops again.
PHOTO_FIELD = "photo"


def photo_of(tournament: Tournament, pk: object) -> SheetPhoto:
    """The tournament's photo ``pk``, with its round and table, or a 404."""
    try:
        number = int(str(pk))
    except ValueError:
        raise Http404("No such photo") from None
    photo = (
        SheetPhoto.objects.filter(pk=number, round__tournament=tournament)
        .select_related("round", "table", "sent_by")
        .defer("upload", "image", "sheet_image")
        .first()
    )
    if photo is None:
        raise Http404("No such photo")
    return photo


@dataclass(frozen=True)
class Filled:
    photo: SheetPhoto
    rows: list[Row]
    doubtful: frozenset[str]
    crops: dict[str, tuple[str, str]]


def filled_from(photo: SheetPhoto, table: Table) -> Filled:
    """The sheet form of ``table`` as ``photo``'s reading fills it."""
    assert photo.state == PhotoState.READ
    assert photo.reading is not None
    slug = table.round.tournament.slug
    reading = photo.reading
    crops = {
        name: (
            reverse("scorer:photo_crop", args=[slug, photo.pk, name]),
            probability_words(reading, name),
        )
        for name in photo.cells
    }
    return Filled(
        photo,
        read_rows(reading, table.size),
        frozenset(doubtful_cells(reading)),
        crops,
    )


def posted_photo(tournament: Tournament, table: Table, value: object) -> Filled | None:
    """The photo a refused save of a filled form named, still the table's; else None."""
    if not value:
        return None
    try:
        photo = photo_of(tournament, value)
    except Http404:
        return None
    if photo.table_id != table.pk or photo.state != PhotoState.READ:
        return None
    return filled_from(photo, table)


def photo_context(photo: SheetPhoto) -> dict[str, Any]:
    """What the sheet page adds when its form is filled from ``photo``."""
    return {
        "photo": photo,
        "photo_field": PHOTO_FIELD,
        # Cells this device keeps of the form are kept apart from the typed form's.
        "keep_form": f"photo{photo.pk}",
        "batch_url": reverse(
            "scorer:photos", args=[photo.round.tournament.slug, photo.round.number, photo.batch]
        ),
    }
