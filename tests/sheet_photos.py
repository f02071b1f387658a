"""Photos of paper sheets as the desk stores them, made without the reader: a photo of a
table already read (a reading of the ``read_sheet --format json`` shape, a straightened
sheet image to cut crops from, each cell's rectangle), for the tests of the pages, the
permissions, deletion and backups. The reader's own photos are ``tests/photos.py``'s."""

from __future__ import annotations

import uuid
from typing import Any

import cv2
import numpy as np
from django.utils import timezone

from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name
from tournament.models import PhotoState, Sheet, SheetPhoto, Table

# The straightened sheet image: this many pixels a millimetre, and this many millimetres.
SCALE = 4.0
WIDTH_MM, HEIGHT_MM = 60.0, 40.0


def a_reading(table: Table, deals: list[dict[str, Any]], doubtful=()) -> dict[str, Any]:
    """A reading of ``table``'s sheet holding ``deals`` (each ``won``, ``last_in``,
    ``left_over``), the cells ``doubtful`` ((deal, field, seat) each) marked."""
    return {
        "tournament": table.round.tournament.slug,
        "round": table.round.number,
        "table": table.number,
        "deals": deals,
        "doubtful": [{"deal": d, "field": f, "seat": s} for d, f, s in doubtful],
        "probability": {cell_name(d, f, s): 0.42 for d, f, s in doubtful},
    }


def sheet_image() -> bytes:
    """A grey sheet with a dark square in every 10 mm: each crop holds something."""
    pixels = np.full((int(HEIGHT_MM * SCALE), int(WIDTH_MM * SCALE)), 230, dtype=np.uint8)
    for x in range(0, int(WIDTH_MM), 10):
        for y in range(0, int(HEIGHT_MM), 10):
            cv2.rectangle(
                pixels,
                (int((x + 2) * SCALE), int((y + 2) * SCALE)),
                (int((x + 6) * SCALE), int((y + 6) * SCALE)),
                40,
                -1,
            )
    ok, png = cv2.imencode(".png", pixels)
    assert ok
    return png.tobytes()


def photo_jpeg(width: int = 40, height: int = 30) -> bytes:
    ok, jpeg = cv2.imencode(".jpg", np.full((height, width, 3), 200, dtype=np.uint8))
    assert ok
    return jpeg.tobytes()


def cell_rects(size: int, deals: int) -> dict[str, list[float]]:
    """A rectangle for every cell of ``deals`` deals at ``size`` seats, inside the image."""
    rects = {}
    for deal in range(1, deals + 1):
        for seat in range(1, size + 1):
            rects[cell_name(deal, WON, seat)] = [seat * 5.0, deal * 3.0, 4.0, 3.0]
        rects[cell_name(deal, LEFT_OVER)] = [45.0, deal * 3.0, 4.0, 3.0]
        rects[cell_name(deal, LAST_IN)] = [52.0, deal * 3.0, 4.0, 3.0]
    return rects


def read_photo(table: Table, user, reading: dict[str, Any] | None, **fields: Any) -> SheetPhoto:
    """A photo of ``table``'s sheet sent by ``user`` and read as ``reading`` says (None:
    not read, with ``state`` among ``fields``)."""
    now = timezone.now()
    values: dict[str, Any] = {
        "round": table.round,
        "table": table,
        "for_table": True,
        "batch": uuid.uuid4(),
        "name": "IMG_0001.jpg",
        "sent_by": user,
        "sent_at": now,
        "state": PhotoState.READ,
        "image": photo_jpeg(),
        "reading": reading,
        "sheet_image": sheet_image(),
        "scale": SCALE,
        "cells": cell_rects(table.seats.count(), len(reading["deals"])) if reading else {},
        "read_at": now,
        # As the reading task stores it: the sheet's version when the photo was read.
        "sheet_version": Sheet.objects.filter(table=table).values_list("version", flat=True).first()
        or 0,
    }
    values.update(fields)
    return SheetPhoto.objects.create(**values)


def scribbling_over(*boxes: int):
    """A hand for ``tests.photos.synthetic_photo`` writing in its font, and scribbling a
    cross over the ``boxes``-th digits it writes (1 for the first): cells the reader is
    not sure of."""
    from tests.photos import INK, font_hand

    written = [0]

    def hand(image, text, rect) -> None:
        written[0] += 1
        font_hand(image, text, rect)
        if written[0] in boxes:
            x0, y0, x1, y1 = rect
            cv2.line(image, (x0 + 2, y0 + 2), (x1 - 2, y1 - 2), INK, 3)
            cv2.line(image, (x0 + 2, y1 - 2), (x1 - 2, y0 + 2), INK, 3)

    return hand
