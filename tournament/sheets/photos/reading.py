"""Reading one photo of a paper sheet, as the task does it: the reader finds the sheet and
its QR code, the app checks that it is a sheet of the tournament and round it was sent
into (and of the table, when sent from a table's page), tells the reader the rules and
facts of that table, and stores what was read.

Terms:

- *rules of a table* (``SheetRules``): what the reader's decoding must respect, from the
  app's facts: the table's seats, the deals its round holds (leaves counted), whether its
  scoring system needs the lying-down order, and the seats absent from each deal (a player
  who left: their boxes are blank, never 0).
- *refused*: a photo that is not one of our sheets, of another tournament, round or
  table, or that cannot be read (blurred, dark, cut off, not a photo, a sheet printed on
  two pages); ``reason`` is one of the reader's ``REFUSALS`` (or ``two_pages``) and
  ``words`` says which, to the scorer.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scoring.errors import UserError
from scoring.rules import absent_seats, deals_in_round
from scoring.sheet_reading.layout import SheetLayout
from tournament.kernel.cells import cell_name
from tournament.models import PhotoState, Round, SheetPhoto, Table, Tournament
from tournament.sheets.leaves import current_leaves
from tournament.sheets.photos.images import downscaled, kept, png_as_jpeg
from tournament.sheets.photos.layouts import layout_of
from tournament.sheets.reading import peek_sheet

if TYPE_CHECKING:
    from scoring.sheet_reading.reader import Located, SheetRules

logger = logging.getLogger(__name__)

# The refusal of a photo of a sheet printed on more than one page (printing says why).
TWO_PAGES = "two_pages"


@dataclass(frozen=True)
class Refused:
    reason: str
    words: str


def rules_for(table: Table) -> SheetRules:
    """The rules of ``table`` as the reader's decoding respects them (module docstring)."""
    from scoring.sheet_reading.reader import SheetRules

    tournament = table.round.tournament
    leaves = current_leaves(peek_sheet(table))
    size = table.size
    deals = deals_in_round(size, tournament.rotations_per_round, leaves)
    return SheetRules(
        seats=size,
        deals=deals,
        order_needed=tournament.scoring_system.needs_order,
        absent=tuple(absent_seats(number, leaves) for number in range(1, deals + 1)),
    )


def _table_named(photo: SheetPhoto, located: Located) -> Table | Refused:
    """The table of the sheet the photo shows, if it is one the photo was sent for."""
    identity = located.identity
    round_ = photo.round
    tournament = round_.tournament
    sheet = f"the sheet of round {identity.round}, table {identity.table}"
    if identity.tournament != tournament.slug:
        return Refused(
            "other_tournament",
            f"This photo is of a sheet of another tournament (“{identity.tournament}”), not "
            f"of {tournament.name}: read it into its own tournament.",
        )
    if identity.round != round_.number:
        return Refused(
            "other_round",
            f"This photo is of {sheet}, not of round {round_.number}: send it from round "
            f"{identity.round}'s desk.",
        )
    if photo.for_table and photo.table is not None and identity.table != photo.table.number:
        return Refused(
            "other_table",
            f"This photo is of {sheet}, not of table {photo.table.number}: send it from "
            f"table {identity.table}'s sheet, or from the round's desk.",
        )
    table = (
        Table.objects.filter(round=round_, number=identity.table)
        .select_related("round__tournament")
        .first()
    )
    if table is None:
        return Refused(
            "other_table",
            f"This photo is of {sheet}, but round {round_.number} has no table "
            f"{identity.table}: was the round seated again after the sheets were printed?",
        )
    return table


def cell_rects(layout: SheetLayout) -> dict[str, list[float]]:
    """Each cell's rectangle on the sheet (mm), by its form name: the boxes of its digits
    (or its tick box) together."""
    rects: dict[str, list[float]] = {}
    for box in layout.boxes:
        name = cell_name(box.deal, box.field, box.seat)
        x, y, width, height = box.rect
        if name not in rects:
            rects[name] = [x, y, width, height]
            continue
        left, top, w, h = rects[name]
        right, bottom = max(left + w, x + width), max(top + h, y + height)
        left, top = min(left, x), min(top, y)
        rects[name] = [left, top, right - left, bottom - top]
    return rects


def _reading_json(reading: Any, as_json: Any) -> dict[str, Any]:
    """What is stored of a reading: the ``read_sheet --format json`` shape, and each
    cell's probability after decoding by its form name."""
    stored = dict(as_json(reading))
    stored["probability"] = {
        cell_name(cell.deal, cell.field, cell.seat): round(float(p), 4)
        for cell, p in reading.probability.items()
    }
    return stored


def read_file(data: bytes) -> dict[str, Any] | Refused:
    """What ``manage.py read_sheet`` prints of a photo: the reading of the sheet its QR
    code names, of a tournament of this site, or why it was refused."""
    from scoring.sheet_reading import reader

    located = reader.locate(
        data, max_bytes=settings.PHOTO_MAX_BYTES, max_pixels=settings.PHOTO_MAX_PIXELS
    )
    if isinstance(located, reader.PhotoRefusal):
        return Refused(located.reason, located.words)
    identity = located.identity
    sheet = f"round {identity.round}, table {identity.table}"
    table = (
        Table.objects.filter(
            round__tournament__slug=identity.tournament,
            round__number=identity.round,
            number=identity.table,
        )
        .select_related("round__tournament")
        .first()
    )
    if table is None:
        if not Tournament.objects.filter(slug=identity.tournament).exists():
            return Refused(
                "other_tournament",
                f"This is a sheet of the tournament “{identity.tournament}”, which this site "
                "does not hold.",
            )
        if not Round.objects.filter(
            tournament__slug=identity.tournament, number=identity.round
        ).exists():
            return Refused(
                "other_round",
                f"This is the sheet of {sheet} of “{identity.tournament}”, which has no round "
                f"{identity.round}.",
            )
        return Refused(
            "other_table",
            f"This is the sheet of {sheet} of “{identity.tournament}”, whose round "
            f"{identity.round} has no table {identity.table}.",
        )
    try:
        layout = layout_of(table)
    except UserError as refused:
        return Refused(TWO_PAGES, str(refused))
    reading = reader.read(located, layout, rules_for(table))
    return dict(reader.as_json(reading))


def read_photo(photo_id: int) -> str:
    """Read the photo ``photo_id`` and store what came of it; its state, in a word."""
    from scoring.sheet_reading import reader

    with transaction.atomic():
        photo = (
            SheetPhoto.objects.select_for_update(of=("self",))
            .select_related("round__tournament", "table")
            .filter(pk=photo_id)
            .first()
        )
        if photo is None or photo.finished:
            return "gone" if photo is None else photo.state
        photo.state = PhotoState.READING
        photo.save(update_fields=["state"])
    data = bytes(photo.upload)
    located = reader.locate(
        data, max_bytes=settings.PHOTO_MAX_BYTES, max_pixels=settings.PHOTO_MAX_PIXELS
    )
    if isinstance(located, reader.PhotoRefusal):
        kept_photo = downscaled(
            data, max_bytes=settings.PHOTO_MAX_BYTES, max_pixels=settings.PHOTO_MAX_PIXELS
        )
        return _finish(photo, kept_photo, refused=Refused(located.reason, located.words))
    table = _table_named(photo, located)
    if isinstance(table, Refused):
        return _finish(photo, kept(located.photo), refused=table)
    try:
        layout = layout_of(table)
    except UserError as refused:
        return _finish(photo, kept(located.photo), refused=Refused(TWO_PAGES, str(refused)))
    reading = reader.read(located, layout, rules_for(table))
    sheet = (0.0, 0.0, layout.width_mm, layout.height_mm)
    photo.table = table
    photo.reading = _reading_json(reading, reader.as_json)
    photo.sheet_image = png_as_jpeg(reader.crop(located, sheet, scale=located.px_per_mm))
    photo.scale = located.px_per_mm
    photo.cells = cell_rects(layout)
    photo.sheet_version = peek_sheet(table).version
    return _finish(photo, kept(located.photo))


def _finish(photo: SheetPhoto, image: bytes, *, refused: Refused | None = None) -> str:
    photo.image = image
    photo.upload = b""
    photo.read_at = timezone.now()
    if refused is not None:
        photo.state = PhotoState.REFUSED
        photo.reason, photo.words = refused.reason, refused.words
    else:
        photo.state = PhotoState.READ
    photo.save()
    return photo.state


def failed(photo_id: int, error: BaseException) -> None:
    """The reader stopped on an error of ours: the photo says so, and lets its scorer
    send the next; the error is logged for whoever keeps the site."""
    logger.exception("reading photo %s failed", photo_id, exc_info=error)
    SheetPhoto.objects.filter(pk=photo_id).update(
        state=PhotoState.FAILED,
        upload=b"",
        read_at=timezone.now(),
        words=(
            "This photo could not be read: an error of the site, not of the photo. Type the "
            "sheet in by hand, and tell the organiser."
        ),
    )
