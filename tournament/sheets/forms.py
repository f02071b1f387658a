"""The "A player left" part of a sheet form, at the desk and on a phone: the leaves the
page shows (hidden ``left`` fields, ``"3:7"`` for seat 3 after deal 7), the one being
recorded (``leave_seat``, ``leave_after``) and the one being removed (``remove_leave``).
Whether the leaves can be is the rules' call (``sheets.leaves``); this only
reads what was posted, and says what could not be read.

Also what a sheet page posts besides its cells and its leaves (``SheetPostForm``), and
the confirmation page's choice of review or blind re-type (``ConfirmModeForm``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest

from scoring.rules import Leave, absent_seats
from tournament.models import Seat

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
