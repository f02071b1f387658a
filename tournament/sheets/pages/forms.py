"""What a sheet form posted, read, at the desk and on a phone: its cells, its players who
left, and the rest of its fields. This only reads what was posted and says what could
not be read; whether it can be saved is the rules' call (``sheets.checking``,
``sheets.leaves``).

- The rows: the cells of the desk's whole sheet or of a phone's one deal, read into rows
  (``rows.Row``), merged into the sheet and padded with the blank lines of the paper. A
  *cell* is one input of the sheet, named by ``tournament.kernel.cells.cell_name``; a
  *line* is a row the page shows, typed or blank.
- The "A player left" part: the leaves the page shows (hidden ``left`` fields, ``"3:7"``
  for seat 3 after deal 7), the one being recorded (``leave_seat``, ``leave_after``) and
  the one being removed (``remove_leave``).
- What a sheet page posts besides (``SheetPostForm``: its version, its key, the deal being
  typed), and the confirmation page's choice of review or blind re-type
  (``ConfirmModeForm``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest

from scoring.rules import Leave, absent_seats
from tournament.kernel.cells import LAST_IN, LEFT_OVER, ORDER, WON, cell_name, parse_cell
from tournament.models import Seat
from tournament.sheets.rows import Row, clean_row, trim

LEFT = "left"
LEAVE_SEAT = "leave_seat"
LEAVE_AFTER = "leave_after"
REMOVE_LEAVE = "remove_leave"

_STORED = re.compile(r"(\d{1,2}):(\d{1,3})")
_NUMBER = re.compile(r"\d{1,3}")


@dataclass(frozen=True)
class PostedLeaves:
    """The leaves a sheet form sent, the one just recorded among them; ``problems`` says
    what could not be read, and ``typed`` keeps the new leave's fields as typed."""

    leaves: tuple[Leave, ...]
    problems: tuple[str, ...] = ()
    typed_seat: str = ""
    typed_after: str = ""


def posted_leaves(data: Any, *, with_new: bool = True) -> PostedLeaves:
    """The leaves in a sheet form's ``data``: those the page showed, without the one whose
    Remove was pressed, and (``with_new``) the one typed into the "A player left" fields."""
    leaves: dict[int, Leave] = {}
    problems = []
    for value in data.getlist(LEFT)[:10] if hasattr(data, "getlist") else []:
        stored = _STORED.fullmatch(value.strip())
        if stored is None:
            problems.append(f"a player who left could not be read (“{value}”): reload the sheet")
            continue
        leaves[int(stored[1])] = Leave(after_deal=int(stored[2]), seat=int(stored[1]))
    removed = str(data.get(REMOVE_LEAVE, "")).strip()
    if removed.isdigit():
        leaves.pop(int(removed), None)
        # Removing one is all that button does, whatever the fields below still hold.
        with_new = False
    seat = str(data.get(LEAVE_SEAT, "")).strip()
    after = str(data.get(LEAVE_AFTER, "")).strip()
    if with_new and (seat or after):
        if not seat:
            problems.append(f"a player left after deal {after}: choose which player")
        elif not after:
            problems.append(f"seat {seat} left: type the deal after which they left")
        elif not (_NUMBER.fullmatch(seat) and _NUMBER.fullmatch(after)):
            problems.append(f"seat {seat} left after deal “{after}”: the deal is a whole number")
        else:
            leaves[int(seat)] = Leave(after_deal=int(after), seat=int(seat))
    return PostedLeaves(tuple(sorted(leaves.values())), tuple(problems), seat, after)


@dataclass(frozen=True)
class ShownLeave:
    seat: int
    name: str
    after_deal: int
    # Recorded on the sheet as saved; False: only on this page until it is saved.
    saved: bool

    @property
    def value(self) -> str:
        return f"{self.seat}:{self.after_deal}"

    @property
    def text(self) -> str:
        return f"Seat {self.seat} ({self.name}) left after deal {self.after_deal}"


def shown_leaves(
    leaves: Sequence[Leave], seats: Sequence[Seat], saved: Sequence[Leave]
) -> list[ShownLeave]:
    names = {seat.position: seat.player.name for seat in seats}
    return [
        ShownLeave(
            leave.seat, names.get(leave.seat, "no such seat"), leave.after_deal, leave in saved
        )
        for leave in sorted(leaves)
    ]


def players_at(deal: int, size: int, leaves: Sequence[Leave]) -> int:
    """How many played deal ``deal``: the size it was dealt at."""
    return size - len(absent_seats(deal, leaves) & set(range(1, size + 1)))


class SheetPostForm(forms.Form):
    """What a sheet page posts besides its cells (the cells are checked by the rules of
    a deal, in ``sheets.checking``)."""

    expected_version = forms.IntegerField(min_value=0, max_value=2**31 - 1)
    # "Save sheet" (final) or "Save draft".
    action = forms.ChoiceField(choices=[("draft", "draft"), ("final", "final")], required=False)
    stopped_early = forms.BooleanField(required=False)
    # The deal whose row is being typed, sent with the live check.
    typing = forms.IntegerField(required=False, min_value=1, max_value=999)
    # The submission's idempotency key (static/js/keep.js makes one per submission): a
    # retry carrying it again is recorded once (sheets.versions). Blank without script.
    key = forms.RegexField(regex=r"\A[A-Za-z0-9_-]{8,64}\Z", required=False)


class ConfirmModeForm(forms.Form):
    mode = forms.ChoiceField(choices=[("review", "review"), ("retype", "retype")], required=False)


def sheet_post(request: HttpRequest) -> dict[str, Any]:
    """The sheet form's own fields as ``request`` posted them (``SheetPostForm``), each
    left out when missing or malformed: a bad live-check hint is ignored, a bad version
    refuses the save."""
    form = SheetPostForm(request.POST)
    form.is_valid()
    return form.cleaned_data


def expected_version(request: HttpRequest) -> int | None:
    """The sheet's version the form was drawn from; None when the form lost it."""
    return sheet_post(request).get("expected_version")


# A tampered form must not make us build a million rows; a real sheet has at most 36.
MAX_ROWS = 100


def blank_row(size: int) -> Row:
    """An unused line of the paper sheet of a table of ``size``."""
    return Row(won=[None] * size, last_in=None, left_over=None)


def typed_rows(data: Any, size: int, most: int) -> list[Row]:
    """The rows as typed, every cell a string; as many rows as the form showed (a sheet
    saved with more deals than a round has shows them all, so that they can be removed)."""
    numbers = [cell.deal for key in data if (cell := parse_cell(key))]
    count = min(max([most, *numbers]), MAX_ROWS)
    derived: dict[int, list[str]] = {}
    marked = data.getlist("derived") if hasattr(data, "getlist") else []
    for name in marked[: MAX_ROWS * 8]:
        # A count the scorer filled in from the checksum offer: a seat's or the left over.
        cell = parse_cell(name)
        if cell and (cell.field == LEFT_OVER or (cell.field == WON and cell.seat is not None)):
            derived.setdefault(cell.deal, []).append(cell.part)
    rows = []
    for deal in range(1, count + 1):
        row: Row = {
            "won": [data.get(cell_name(deal, WON, seat), "") for seat in range(1, size + 1)],
            "left_over": data.get(cell_name(deal, LEFT_OVER), ""),
            "last_in": data.get(cell_name(deal, LAST_IN), ""),
        }
        if deal in derived:
            row["derived"] = derived[deal]
        _read_places(data, deal, size, row)
        rows.append(row)
    return rows


def _read_places(data: Any, deal: int, size: int, row: Row) -> None:
    """Each seat's place in the lying-down order, where the page has its cells (a rule set
    that records the order): into ``row["out"]``, as typed (``sheets.order``)."""
    names = [cell_name(deal, ORDER, seat) for seat in range(1, size + 1)]
    if any(name in data for name in names):
        row["out"] = [data.get(name, "") for name in names]


def posted_row(data: Any, number: int, size: int) -> Row:
    """Deal ``number`` as a phone's deal page posted it, cleaned."""
    row: Row = {
        "won": [data.get(cell_name(number, WON, seat), "") for seat in range(1, size + 1)],
        "left_over": data.get(cell_name(number, LEFT_OVER), ""),
        "last_in": data.get(cell_name(number, LAST_IN), ""),
    }
    _read_places(data, number, size, row)
    return clean_row(row, size)


def posted_deals(data: Any, deals: int, size: int) -> list[Row]:
    """Deals 1 to ``deals`` as a phone's blind re-type posted them, cleaned."""
    return [posted_row(data, number, size) for number in range(1, deals + 1)]


def merged(rows: list[Row], number: int, row: Row, size: int) -> list[Row]:
    """``rows`` with deal ``number`` replaced by ``row`` (blank lines up to it if needed),
    without the blank rows at the end."""
    lines = list(rows) + [blank_row(size)] * max(0, number - len(rows))
    lines[number - 1] = row
    return trim(lines)


def padded(rows: list[Row], size: int, count: int) -> list[Row]:
    """Cleaned rows, with blank ones up to ``count`` (the unused lines of the paper)."""
    cleaned = [clean_row(row, size) for row in rows]
    return cleaned + [blank_row(size) for _ in range(count - len(cleaned))]


def deal_lines(rows: list[Row], size: int, most: int) -> list[Row]:
    """The lines a sheet shows for ``rows`` as posted: ``most`` deals, or as many as are
    filled in. Blank rows past the round's last deal are the lines of a page drawn before
    a leave shortened the round: not deals."""
    filled = trim([clean_row(row, size) for row in rows])
    return padded(filled, size, max(most, len(filled)))
