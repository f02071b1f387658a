"""A backup's photos files: the photos of a tournament's paper sheets read at the desk
(``models.photos``), one file a tournament that has any, beside its tournament file
(``SLUG.photos.json``, format ``lld-photos/1``, docs/backup-file.md).

A tournament file never holds photos (it is shared, published, imported elsewhere); a
backup must give the whole site back, so each photo comes back with its id, its bytes
(base64), its reading and its crops' rectangles, and the history of its sheet lists it as
before. Only a photo still being read when the backup was taken comes back otherwise: the
task reading it is not in the backup, so it comes back *failed*, saying to send it again.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import uuid
from collections.abc import Mapping
from functools import cache
from typing import Any

from tournament.models import UNFINISHED, PhotoState, Round, SheetPhoto, Table, Tournament
from tournament.tournament_file.schema import TIME_PATTERN, USERNAME_MAX

PHOTOS_FORMAT = "lld-photos/1"
# A tournament's photos: a few hundred kilobytes each, a few hundred an evening.
MAX_BYTES = 2 * 1024 * 1024 * 1024
# The bytes kept (a photo's upload is emptied once it is read).
_BYTES_FIELDS = ("image", "sheet_image")
NOT_BACKED_UP_WORDS = (
    "This photo was being read when the backup was taken, and the reading did not come "
    "back with it: send the photo again."
)


def file_name(tournament_file: str) -> str:
    """The photos file's name beside the tournament file ``tournament_file``."""
    return tournament_file.removesuffix(".json") + ".photos.json"


def _time(moment: datetime.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _b64(data: bytes | memoryview) -> str:
    return base64.b64encode(bytes(data)).decode("ascii")


def export_photos(tournament: Tournament) -> dict[str, Any] | None:
    """The tournament's photos file, or None when it has no photo."""
    photos = list(
        SheetPhoto.objects.filter(round__tournament=tournament)
        .select_related("round", "table", "sent_by")
        .order_by("pk")
    )
    if not photos:
        return None
    return {
        "format": PHOTOS_FORMAT,
        "tournament": tournament.slug,
        "photos": [
            {
                "id": photo.pk,
                "round": photo.round.number,
                "table": photo.table.number if photo.table else None,
                "for_table": photo.for_table,
                "batch": str(photo.batch),
                "position": photo.position,
                "name": photo.name,
                "sent_by": photo.sent_by.get_username() if photo.sent_by else None,
                "sent_at": _time(photo.sent_at),
                "state": photo.state,
                **{field: _b64(getattr(photo, field)) for field in _BYTES_FIELDS},
                "reason": photo.reason,
                "words": photo.words,
                "reading": photo.reading,
                "scale": photo.scale,
                "cells": photo.cells,
                "sheet_version": photo.sheet_version,
                "read_at": _time(photo.read_at),
            }
            for photo in photos
        ],
    }


@cache
def schema() -> dict[str, Any]:
    base64_text = {"type": "string", "pattern": "^[A-Za-z0-9+/]*={0,2}$"}
    photo = {
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "round", "table", "batch", "position", "state", "sent_at"],
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "round": {"type": "integer", "minimum": 1},
            "table": {"type": ["integer", "null"], "minimum": 1},
            "for_table": {"type": "boolean"},
            "batch": {"type": "string", "format": "uuid", "maxLength": 36},
            "position": {"type": "integer", "minimum": 1, "maximum": 32767},
            "name": {"type": "string", "maxLength": 200},
            "sent_by": {"type": ["string", "null"], "maxLength": USERNAME_MAX},
            "sent_at": {"type": "string", "pattern": TIME_PATTERN},
            "state": {"enum": [state.value for state in PhotoState]},
            **dict.fromkeys(_BYTES_FIELDS, base64_text),
            "reason": {"type": "string", "maxLength": 20},
            "words": {"type": "string"},
            "reading": {"type": ["object", "null"]},
            "scale": {"type": "number", "minimum": 0},
            "cells": {
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": "number"},
                    "minItems": 4,
                    "maxItems": 4,
                },
            },
            "sheet_version": {"type": "integer", "minimum": 0},
            "read_at": {"type": ["string", "null"], "pattern": TIME_PATTERN},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": PHOTOS_FORMAT,
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "tournament", "photos"],
        "properties": {
            "format": {"const": PHOTOS_FORMAT},
            "tournament": {"type": "string"},
            "photos": {"type": "array", "items": photo},
        },
    }


def problems(data: Any, slugs: Mapping[str, Any]) -> list[str]:
    """What a restore would refuse in a photos file that its schema lets through: a
    tournament not in the backup, a round or table its tournament file does not hold,
    bytes that are not base64."""
    from tournament.tournament_file.structure import problems_against

    found = problems_against(schema(), data, 10)
    if found:
        return list(found.shown)
    slug = data["tournament"]
    facts = slugs.get(slug)
    if facts is None:
        return [f"tournament: “{slug}” is no tournament of this backup"]
    shown: list[str] = []
    tables: Mapping[int, set[int]] = getattr(facts, "tables", {})
    for index, photo in enumerate(data["photos"]):
        held = tables.get(photo["round"])
        if held is None:
            shown.append(f"photos[{index}].round: “{slug}” has no round {photo['round']}")
        elif photo["table"] is not None and photo["table"] not in held:
            shown.append(
                f"photos[{index}].table: round {photo['round']} of “{slug}” has no table "
                f"{photo['table']}"
            )
        for field in _BYTES_FIELDS:
            try:
                base64.b64decode(photo.get(field, ""), validate=True)
            except (binascii.Error, ValueError):
                shown.append(f"photos[{index}].{field}: not base64")
    return shown


def restore_photos(data: Mapping[str, Any], accounts: Mapping[str, int]) -> int:
    """Put a photos file's photos back, each with its id; how many."""
    slug = data["tournament"]
    rounds = dict(Round.objects.filter(tournament__slug=slug).values_list("number", "pk"))
    tables = {
        (round_number, number): pk
        for round_number, number, pk in Table.objects.filter(
            round__tournament__slug=slug
        ).values_list("round__number", "number", "pk")
    }
    rows = []
    for photo in data["photos"]:
        state = photo["state"]
        unfinished = state in UNFINISHED
        rows.append(
            SheetPhoto(
                pk=photo["id"],
                round_id=rounds[photo["round"]],
                table_id=None
                if photo["table"] is None
                else tables.get((photo["round"], photo["table"])),
                for_table=photo.get("for_table", False),
                batch=uuid.UUID(photo["batch"]),
                position=photo["position"],
                name=photo.get("name", ""),
                sent_by_id=accounts.get(photo["sent_by"]) if photo.get("sent_by") else None,
                sent_at=datetime.datetime.fromisoformat(photo["sent_at"]),
                state=PhotoState.FAILED if unfinished else state,
                upload=b"",
                image=base64.b64decode(photo.get("image", "")),
                sheet_image=base64.b64decode(photo.get("sheet_image", "")),
                reason=photo.get("reason", ""),
                words=NOT_BACKED_UP_WORDS if unfinished else photo.get("words", ""),
                reading=photo.get("reading"),
                scale=photo.get("scale", 0),
                cells=photo.get("cells", {}),
                sheet_version=photo.get("sheet_version", 0),
                read_at=None
                if photo.get("read_at") is None
                else datetime.datetime.fromisoformat(photo["read_at"]),
            )
        )
    SheetPhoto.objects.bulk_create(rows)
    return len(rows)
