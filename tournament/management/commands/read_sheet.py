import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.sheets.photos.reading import Refused, read_file

# A photo refused: its reason and words on stderr, and this exit status (1 is an error of
# the command's use: no such file).
REFUSED_STATUS = 2
# The command's refusals are six codes (docs/photos.md): the app's finer ones are said as
# the one a script checking the command knows — a file that is no photo of ours, or too
# large to be read, is not our sheet; a table its round does not have is of another
# round's seating; a sheet running on to a page not in the photo is cut off. The words say
# exactly what is wrong.
COMMAND_REASON = {"unreadable_file": "not_our_sheet", "too_large": "not_our_sheet"}
COMMAND_REASON |= {"other_table": "other_round", "two_pages": "cut_off"}


def _value(value: object) -> str:
    return "?" if value is None else str(value)


def as_text(reading: dict[str, Any]) -> str:
    """The reading for a person: one line a deal, the doubtful cells marked with ``*``."""
    doubtful = {(c["deal"], c["field"], c.get("seat")) for c in reading["doubtful"]}

    def shown(deal: int, field: str, seat: int | None, value: object) -> str:
        return _value(value) + ("*" if (deal, field, seat) in doubtful else "")

    lines = [
        f"Tournament {reading['tournament']}, round {reading['round']}, table {reading['table']}"
    ]
    for number, deal in enumerate(reading["deals"], start=1):
        won = " ".join(
            shown(number, "won", seat, value) for seat, value in enumerate(deal["won"], start=1)
        )
        line = (
            f"Deal {number}: won {won}; last in {shown(number, 'last_in', None, deal['last_in'])}"
            f"; left over {shown(number, 'left_over', None, deal['left_over'])}"
        )
        if deal.get("laid_down") is not None:
            places = " ".join(
                shown(number, "laid_down", seat, value)
                for seat, value in enumerate(deal["laid_down"], start=1)
            )
            line += f"; laid down {places}"
        lines.append(line)
    count = len(reading["doubtful"])
    lines.append(
        f"{count} doubtful cell{'s' if count != 1 else ''} (marked *)" if count else "None doubtful"
    )
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = (
        "Read a photo of a printed score sheet: the tournament, round and table its QR code "
        "names, each deal as read (null where a value could not be read) and the doubtful "
        "cells. A photo refused exits 2, its reason code and words on stderr."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("photo", type=Path)
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: object, photo: Path, format: str, **options: object) -> None:
        try:
            data = photo.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {photo}: {error.strerror}") from None
        result = read_file(data)
        if isinstance(result, Refused):
            reason = COMMAND_REASON.get(result.reason, result.reason)
            self.stderr.write(f"{reason}: {result.words}")
            raise SystemExit(REFUSED_STATUS)
        if format == "json":
            self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(as_text(result), ending="")
