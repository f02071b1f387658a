"""What version 3 of the tournament file (``lld-tournament/3``) adds: the seats that left
a table after a deal, and the penalties and awards the organiser gave
(``schema_v3`` describes their structure). Their checks, their export and their import
sit here; ``checking``, ``table_rules``, ``writing`` and ``loading`` call them where a
file's tables, sheets and top level are read and written.

Terms: a *leave* is ``{"seat": 3, "after_deal": 7}`` (``scoring.rules.Leave``): the seat
has no count in the deals after deal 7 (``null`` in their ``won``), is never last in
in them, and its later turns to deal are skipped, so the round holds
``deals_in_round(size, rotations, leaves)`` deals. An *adjustment* is
``{"player": "p3", "round": 2, "points": -2, "reason": "misdeal"}``: points in the
tournament's scoring system added to the player's total for that round. A removed one
is kept under ``adjustments_removed`` with who removed it and when, so that a backup
gives back the whole history.

Problems are located by JSON path, counting from 0: ``rounds[1].tables[2].left[0].seat``,
``rounds[1].tables[2].deals[7].won[2]``, ``adjustments[0].player``.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeGuard

from scoring.rules import Leave, absent_seats, validate_leaves
from tournament.kernel.names import text_problem
from tournament.models import Adjustment, Player, Round, SheetStatus, Tournament
from tournament.players.adjustments import not_started
from tournament.tournament_file.schema import TIME_PATTERN
from tournament.tournament_file.schema_v3 import FORMAT_3

ADJUSTMENTS = "adjustments"
REMOVED = "adjustments_removed"


def _quoted(text: str) -> str:
    # Quoted as JSON, so that control characters show as escapes; cut short.
    return json.dumps(text if len(text) <= 40 else text[:39] + "…", ensure_ascii=False)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _items(value: object) -> Iterator[tuple[int, dict[str, Any]]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item


# Older formats ---------------------------------------------------------------------------


def version_3_places(data: Mapping[str, Any]) -> Iterator[str]:
    """Where a file holds what only a version-3 file may."""
    yield from (key for key in (ADJUSTMENTS, REMOVED) if key in data)
    for round_index, round_ in _items(data.get("rounds")):
        for table_index, table in _items(round_.get("tables")):
            where = f"rounds[{round_index}].tables[{table_index}]"
            if "left" in table:
                yield f"{where}.left"
            sheet = table.get("sheet")
            if not isinstance(sheet, dict):
                continue
            if "pending_left" in sheet:
                yield f"{where}.sheet.pending_left"
            for index, version in _items(sheet.get("history")):
                if "left" in version:
                    yield f"{where}.sheet.history[{index}].left"


def version_3_problems(data: Mapping[str, Any], version: str) -> Iterator[str]:
    for where in version_3_places(data):
        yield f"{where}: only a file of format “{FORMAT_3}” holds this; the file says “{version}”"


# Leaves ---------------------------------------------------------------------------------


def leave_problems(
    where: str, items: object, size: int, rotations: int | None, played: int | None = None
) -> Iterator[str]:
    """The problems of the leaves at ``where`` (``rounds[1].tables[2].left``) at a table
    of ``size``: the rules of leaving, and (``played``: the deals of a complete sheet, the
    table's confirmed ones or those awaiting confirmation) that a deal came after each, as
    a sheet saved complete has it."""
    given = [
        (index, Leave(item["after_deal"], item["seat"]))
        for index, item in _items(items)
        if _whole(item.get("seat")) and _whole(item.get("after_deal"))
    ]
    indexes: dict[Leave, list[int]] = {}
    for index, leave in given:
        indexes.setdefault(leave, []).append(index)
    wrong: set[int] = set()
    if rotations is not None:
        for problem in validate_leaves([leave for _, leave in given], size, rotations):
            # The leave a problem is about is the last one it names before its colon
            # (too few left names every leaver, the last of them last).
            found = re.match(r"(?:[^:]* and )?seat (-?\d+) left after deal (-?\d+): ", problem)
            assert found is not None, problem
            same = indexes[Leave(int(found[2]), int(found[1]))]
            # A leave given twice: the second is the one that has "already left".
            index = same.pop(1) if "already left" in problem and len(same) > 1 else same[0]
            wrong.add(index)
            field = "seat" if "no seat" in problem or "already left" in problem else "after_deal"
            yield f"{where}[{index}].{field}: {problem}"
    if played is None:
        return
    for index, leave in given:
        if index not in wrong and leave.after_deal >= played:
            yield (
                f"{where}[{index}].after_deal: seat {leave.seat} left after deal "
                f"{leave.after_deal}, but the table has {played} deal{'s' if played != 1 else ''}, "
                "so no deal came after it"
            )


def pending_left_problems(
    path: str, sheet: Mapping[str, Any], size: int, rotations: int | None
) -> Iterator[str]:
    """The leaves of its own (``pending_left``) of the sheet of the table at ``path``
    (``rounds[1].tables[2]``): only a draft or a sheet awaiting confirmation has them,
    the latter with a deal after each."""
    status = sheet.get("status")
    left = sheet.get("pending_left")
    where = f"{path}.sheet.pending_left"
    if status in (SheetStatus.NOT_STARTED, SheetStatus.CONFIRMED) and left:
        yield f"{where}: only a sheet being typed or awaiting confirmation has leaves of its own"
    else:
        complete = status == SheetStatus.ENTERED
        yield from leave_problems(where, left, size, rotations, _rows(sheet, "pending", complete))


def history_left_problems(
    path: str, sheet: Mapping[str, Any], size: int, rotations: int | None
) -> Iterator[str]:
    """The leaves of each version in the history of the sheet of the table at ``path``: a
    version saved complete or confirmed has a deal after each."""
    for index, version in _items(sheet.get("history")):
        saved = version.get("status") in (SheetStatus.ENTERED, SheetStatus.CONFIRMED)
        yield from leave_problems(
            f"{path}.sheet.history[{index}].left",
            version.get("left"),
            size,
            rotations,
            _rows(version, "deals", saved),
        )


def _rows(item: Mapping[str, Any], key: str, complete: bool) -> int | None:
    # How many rows a complete sheet holds (those the structure check can read); None
    # for one still being typed, whose leaves may come after the rows typed so far.
    return sum(1 for _ in _items(item.get(key))) if complete else None


def absent_counts(
    where: str, won: Sequence[object], number: int, leaves: Sequence[Leave]
) -> Iterator[str]:
    """A count given in deal ``number`` (at ``where``, e.g. ``rounds[0].tables[1].deals[7]``)
    for a seat that had left before it."""
    for leave in leaves:
        seat = leave.seat
        if leave.after_deal < number and 1 <= seat <= len(won) and won[seat - 1] is not None:
            yield (
                f"{where}.won[{seat - 1}]: seat {seat} left after deal {leave.after_deal} — "
                "null expected"
            )


def blanked(won: Sequence[object], number: int, leaves: Sequence[Leave]) -> list[object]:
    """``won`` with the seats absent from deal ``number`` blank (``absent_counts`` names
    any count given for them), for ``validate_deal``."""
    absent = absent_seats(number, leaves)
    return [None if seat in absent else value for seat, value in enumerate(won, start=1)]


# Adjustments ----------------------------------------------------------------------------


def adjustment_problems(
    data: Mapping[str, Any], players: set[str] | None, rounds: Mapping[int, bool]
) -> Iterator[str]:
    """Each adjustment names a player (``players``: the file's ids, None when the list is
    unreadable) and a round of the file that has started (``rounds``: whether each round
    of the file has), gives points other than 0, and says why."""
    for key in (ADJUSTMENTS, REMOVED):
        for index, item in _items(data.get(key)):
            where = f"{key}[{index}]"
            player = item.get("player")
            if isinstance(player, str) and players is not None and player not in players:
                yield f"{where}.player: no player {_quoted(player)}"
            number = item.get("round")
            if _whole(number) and number not in rounds:
                yield f"{where}.round: the file has no round {number}"
            elif _whole(number) and not rounds[number]:
                yield f"{where}.round: {not_started(number)}"
            if _whole(item.get("points")) and item["points"] == 0:
                yield (
                    f"{where}.points: 0 points changes nothing: a penalty is negative, "
                    "an award positive"
                )
            reason = item.get("reason")
            if isinstance(reason, str):
                if not reason.strip():
                    yield f"{where}.reason: give a reason"
                elif wrong := text_problem(reason, "reason"):
                    yield f"{where}.reason: {wrong}"
            for field in ("at", "removed_at"):
                yield from _time_problems(f"{where}.{field}", item.get(field))


def _time_problems(where: str, at: object) -> Iterator[str]:
    if isinstance(at, str) and re.fullmatch(TIME_PATTERN, at):
        try:
            datetime.datetime.fromisoformat(at)
        except ValueError:
            yield f"{where}: “{at[:40]}” is not a time"


def user_names(data: Mapping[str, Any]) -> set[object]:
    """The user names the file's adjustments give."""
    return {
        item.get(field)
        for key in (ADJUSTMENTS, REMOVED)
        for _, item in _items(data.get(key))
        for field in ("by", "removed_by")
    }


def export_adjustments(
    tournament: Tournament, refs: Mapping[int, str], *, released_only: bool
) -> dict[str, Any]:
    """The file's ``adjustments`` (and ``adjustments_removed`` when any were). The public
    file holds those in force in released rounds, without who gave them."""
    rows = Adjustment.objects.filter(tournament=tournament).order_by(
        "round__number", "created", "pk"
    )
    if released_only:
        rows = rows.filter(round__released=True, removed_at__isnull=True)
    active: list[dict[str, Any]] = []
    removed: list[dict[str, Any]] = []
    for player_id, round_number, points, reason, by, at, removed_by, removed_at in rows.values_list(
        "player_id",
        "round__number",
        "points",
        "reason",
        "created_by__username",
        "created",
        "removed_by__username",
        "removed_at",
    ):
        item: dict[str, Any] = {
            "player": refs[player_id],
            "round": round_number,
            "points": points,
            "reason": reason,
        }
        if not released_only:
            item |= {"by": by, "at": at.isoformat()}
        if removed_at is None:
            active.append(item)
        else:
            removed.append(item | {"removed_by": removed_by, "removed_at": removed_at.isoformat()})
    return {ADJUSTMENTS: active, **({REMOVED: removed} if removed else {})}


def create_adjustments(
    tournament: Tournament,
    data: Mapping[str, Any],
    players: Mapping[str, Player],
    rounds: Sequence[Round],
    users: Mapping[str, Any],
) -> None:
    """The file's adjustments as rows, each given by its author when the account exists
    here (else by nobody), at the time the file says."""
    by_number = {round_.number: round_ for round_ in rounds}
    items = [item for key in (ADJUSTMENTS, REMOVED) for item in data.get(key, [])]
    Adjustment.objects.bulk_create(
        Adjustment(
            tournament=tournament,
            player=players[item["player"]],
            round=by_number[item["round"]],
            points=item["points"],
            reason=item["reason"],
            created_by=users.get(item.get("by")),
            **_at("created", item.get("at")),
            removed_by=users.get(item.get("removed_by")),
            removed_at=_time(item.get("removed_at")),
        )
        for item in items
    )


def _time(at: str | None) -> datetime.datetime | None:
    return None if at is None else datetime.datetime.fromisoformat(at)


def _at(field: str, at: str | None) -> dict[str, datetime.datetime]:
    # Without a time, the row's default (now).
    return {} if at is None else {field: datetime.datetime.fromisoformat(at)}
