"""Registering players: one at a time or from a CSV list (name, club).

A CSV import is all or nothing: every bad line is reported with its line number and
nothing is imported, unless the organiser chooses to skip the bad lines. Names that are
already registered (or appear twice in the list) are warnings, not errors: two people
may share a name, but an organiser should look twice.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from scoring.errors import UserError
from tournament.models import KeepApart, Player, Tournament
from tournament.public_cache import mark_changed

NAME_MAX = 200
CLUB_MAX = 200
MAX_LINES = 2000


@dataclass(frozen=True)
class CsvLine:
    line: int
    name: str
    club: str


@dataclass(frozen=True)
class CsvCheck:
    good: tuple[CsvLine, ...]
    errors: tuple[str, ...]
    warnings: tuple[str, ...]


def _is_header(cells: list[str]) -> bool:
    return [c.strip().casefold() for c in cells[:2]] in (["name"], ["name", "club"])


def _records(text: str) -> list[tuple[int, list[str]]]:
    """The CSV records, each with the line it starts on (a quoted name may span lines)."""
    # newline="": the csv module reads \r, \n and \r\n line ends itself.
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error:
        # In practice a stray quote: everything after it reads as one huge field.
        raise UserError(
            f'line {start}: a quote (") is never closed, or the line is far too long'
        ) from None
    return records


def check_csv(tournament: Tournament, text: str) -> CsvCheck:
    """Every line checked: ``name`` (required) and ``club`` (optional), comma-separated;
    a first line ``name,club`` is a header."""
    rows = _records(text)
    if len(rows) > MAX_LINES:
        raise UserError(f"the list has {len(rows)} lines; import at most {MAX_LINES} at a time")
    existing = {
        name.casefold()
        for name in Player.objects.filter(tournament=tournament).values_list("name", flat=True)
    }
    good: list[CsvLine] = []
    errors: list[str] = []
    warnings: list[str] = []
    seen: dict[str, int] = {}
    for number, cells in rows:
        if not any(cell.strip() for cell in cells):
            continue
        if number == 1 and _is_header(cells):
            continue
        if any("\x00" in cell for cell in cells):
            # PostgreSQL cannot store it; it is a sign of a binary or UTF-16 file.
            errors.append(f"line {number}: contains a NUL character; is this a text file?")
            continue
        if len(cells) > 2:
            errors.append(
                f"line {number}: {len(cells)} columns; give a name and, optionally, a club"
            )
            continue
        name = " ".join(cells[0].split())
        club = " ".join(cells[1].split()) if len(cells) > 1 else ""
        if not name:
            errors.append(f"line {number}: the name is empty")
            continue
        if len(name) > NAME_MAX:
            errors.append(f"line {number}: the name is longer than {NAME_MAX} characters")
            continue
        if len(club) > CLUB_MAX:
            errors.append(f"line {number}: the club is longer than {CLUB_MAX} characters")
            continue
        key = name.casefold()
        if key in existing:
            warnings.append(f"line {number}: {name} is already registered")
        elif key in seen:
            warnings.append(f"line {number}: {name} is also on line {seen[key]}")
        seen.setdefault(key, number)
        good.append(CsvLine(number, name, club))
    if not good and not errors:
        errors.append("the list is empty: give one player a line, as name,club")
    return CsvCheck(tuple(good), tuple(errors), tuple(warnings))


def _next_refs(tournament: Tournament, count: int) -> list[str]:
    """Fresh ids for tournament files: p1, p2, ... after the highest used."""
    refs = Player.objects.filter(tournament=tournament, ref__regex=r"^p[0-9]+$").values_list(
        "ref", flat=True
    )
    highest = max((int(ref[1:]) for ref in refs), default=0)
    return [f"p{highest + i}" for i in range(1, count + 1)]


def import_csv(tournament: Tournament, text: str, *, skip_bad: bool = False) -> list[Player]:
    """Register the players of a CSV list; refused whole while any line is bad unless
    ``skip_bad``."""
    check = check_csv(tournament, text)
    if check.errors and not skip_bad:
        raise UserError("; ".join(check.errors))
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        refs = _next_refs(tournament, len(check.good))
        players = Player.objects.bulk_create(
            Player(tournament=tournament, ref=ref, name=line.name, club=line.club)
            for ref, line in zip(refs, check.good, strict=True)
        )
        # bulk_create sends no signals: the public pages' cache is cleared here, in the
        # same transaction, so the new players are never behind a stale page.
        mark_changed(tournament.pk)
        return players


def duplicate_warning(tournament: Tournament, name: str, exclude: int | None = None) -> str | None:
    same = Player.objects.filter(tournament=tournament, name__iexact=name.strip())
    if exclude is not None:
        same = same.exclude(pk=exclude)
    if same.exists():
        return (
            f"another player is already registered as {name.strip()}: "
            "check it is not the same person"
        )
    return None


def add_player(tournament: Tournament, name: str, club: str = "") -> Player:
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        (ref,) = _next_refs(tournament, 1)
        return Player.objects.create(tournament=tournament, ref=ref, name=name, club=club)


def has_played(tournament: Tournament) -> bool:
    return tournament.rounds.aggregate(last=Max("number"))["last"] is not None


def keep_apart(tournament: Tournament, first: Player, second: Player) -> tuple[Player, Player]:
    """Never seat ``first`` and ``second`` at one table; the pair in a fixed order (a
    pair is stored once, whichever way round it was chosen)."""
    low, high = sorted([first, second], key=lambda player: player.pk)
    with transaction.atomic():
        KeepApart.objects.get_or_create(tournament=tournament, first=low, second=high)
    return low, high


def allow_together(pair: KeepApart) -> None:
    with transaction.atomic():
        pair.delete()
