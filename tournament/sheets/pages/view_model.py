"""What a sheet page shows for a sheet's rows, at the desk and on a phone: each deal's
cells (each seat's place in the lying-down order among them, where it is typed) with the
rules' problems in place, the values offered from the checksum, the problems linked to
their deal, and where two copies of a sheet differ.

Terms: a *cell* is one input of the sheet, named by ``tournament.kernel.cells.cell_name``
(the names ``Mismatch.cell`` and ``RowCheck.problem_cells`` use too); an *offer* is a
count derived from the checksum, offered to the scorer, never filled in silently; a
*mismatch* is a cell where a blind re-type differs from the sheet as entered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules import Leave, absent_seats, dealer_at
from tournament.kernel.cells import (
    CHECKSUM,
    LAST_IN,
    LEFT_OVER,
    NOTES,
    ORDER,
    WON,
    cell_name,
    parse_cell,
    parse_part,
)
from tournament.models import Seat, Sheet, SheetStatus, Table, Tournament
from tournament.sheets.checking import SheetCheck, check_rows
from tournament.sheets.order import has_order, order_in_words, place_text, places_of
from tournament.sheets.pages.forms import LEAVE_SEAT, players_at
from tournament.sheets.reading import pending_rows
from tournament.sheets.rows import CellValue, Mismatch, Row, clean_row, compare, is_blank, trim

# Where a seat's place in the lying-down order is, as a message about it says.
WHERE_OUT = "place in the lying-down order"


def where(table: Table) -> str:
    """The table a page or a message is about, as the paper sheet names it."""
    return f"Round {table.round.number} · Table {table.number}"


def shown(value: object) -> str:
    """A cell's value as its input holds it: blank when nothing was typed."""
    return "" if value is None else str(value)


def order_typed(tournament: Tournament, rows: Sequence[Row]) -> bool:
    """Whether a sheet's pages have a box for each seat's place in the lying-down order:
    where the scoring system needs the order, and wherever the sheet's ``rows`` hold one
    (an order recorded is kept, whatever the system)."""
    return tournament.scoring_system.needs_order or any(has_order(row) for row in rows)


def cell_text(value: object) -> str:
    """A cell's value as a sentence says it: "blank" when nothing was typed."""
    return "blank" if value is None or value == "" else str(value)


# The desk's sheet -----------------------------------------------------------------------


@dataclass(frozen=True)
class ShownCell:
    name: str
    value: str
    label: str
    css: str = ""
    # Where the cell is, as a message about it says ("deal 3, seat 2").
    where: str = ""
    # On a blind re-type that does not match, or a sheet saved meanwhile by someone else:
    # what the other copy holds in this cell.
    other: str | None = None
    # The seat had left the table before this deal: its count stays blank.
    left: bool = False
    # Filled from a photo: the address of the cell's crop of it, and how sure the reader
    # was of it, in words.
    crop: str = ""
    crop_words: str = ""


@dataclass(frozen=True)
class Offer:
    """A value derived from the checksum, offered to the scorer, never filled silently."""

    cell: str
    value: int
    text: str


@dataclass(frozen=True)
class SheetRow:
    number: int
    dealer: str
    dealer_seat: int
    cells: tuple[ShownCell, ...]
    problems: tuple[str, ...] = ()
    offer: Offer | None = None
    # Dealt at a smaller size than the table's, after a player left: how many played.
    fewer_players: int | None = None
    # Each seat's place in the lying-down order, where the rule set records it.
    order: tuple[ShownCell, ...] = ()

    @property
    def first_cell(self) -> str:
        return self.cells[0].name

    @property
    def notes_id(self) -> str:
        """The id of the line under the deal that the live check swaps in."""
        return cell_name(self.number, NOTES)

    @property
    def has_notes(self) -> bool:
        return bool(self.problems or self.offer)


def offer_for(derived: tuple[str, int] | None, number: int) -> Offer | None:
    if derived is None:
        return None
    name, value = derived
    cell = parse_cell(name)
    if cell is None:
        raise ValueError(f"the check offered a value for {name!r}, which names no cell")
    where = "left over" if cell.field == LEFT_OVER else f"seat {cell.seat}"
    return Offer(name, value, f"{where}: {value} (derived so that deal {number} adds up to 52)")


def marked_cells(problem_cells: tuple[str, ...], size: int) -> set[str]:
    """The inputs to mark for a row's problems: a checksum that fails marks every count of
    the row, since any one of them may be the mistyped number."""
    marked: set[str] = set()
    for name in problem_cells:
        cell = parse_cell(name)
        if cell is not None and cell.field == CHECKSUM:
            marked.update(cell_name(cell.deal, WON, seat) for seat in range(1, size + 1))
            marked.add(cell_name(cell.deal, LEFT_OVER))
        elif cell is not None and cell.field == ORDER and cell.seat is None:
            # The order as a whole: any seat's place may be the wrong one.
            marked.update(cell_name(cell.deal, ORDER, seat) for seat in range(1, size + 1))
        else:
            marked.add(name)
    return marked


def _problem_css(name: str, value: object, bad: set[str]) -> str:
    # A blank cell of a row being typed is only not done yet: marked, but quietly.
    if name not in bad:
        return ""
    return "missing" if value is None or value == "" else "problem"


# A cell to show: its name, value, label, where a message says it is, and whether its
# seat had left the table.
Named = tuple[str, CellValue, str, str, bool]


def _shown_cells(
    number: int,
    group: list[Named],
    bad: set[str],
    marks: dict[str, str],
    others: dict[str, object],
    derived: set[str],
    crops: dict[str, tuple[str, str]],
) -> tuple[ShownCell, ...]:
    return tuple(
        ShownCell(
            name=name,
            value=shown(value),
            label=f"deal {number}, {label}",
            css=" ".join(
                c
                for c in (
                    _problem_css(name, value, bad),
                    marks.get(name),
                    "derived" if name in derived else "",
                )
                if c
            ),
            other=shown(others[name]) if name in others else None,
            where=f"deal {number}, {where}",
            left=left,
            crop=crops[name][0] if name in crops else "",
            crop_words=crops[name][1] if name in crops else "",
        )
        for name, value, label, where, left in group
    )


def sheet_rows(
    rows: list[Row],
    seats: list[Seat],
    *,
    check: SheetCheck | None = None,
    marks: dict[str, str] | None = None,
    others: dict[str, object] | None = None,
    leaves: tuple[Leave, ...] = (),
    order: bool = False,
    crops: dict[str, tuple[str, str]] | None = None,
) -> list[SheetRow]:
    """What the page shows for ``rows`` (cleaned and padded): each row's cells with the
    problems of ``check`` in place, and ``marks`` (cell name: css class) with the values of
    the ``others`` copy beside them; the cells of seats that had left (``leaves``) marked.
    With ``order``, each seat's place in the lying-down order too (``SheetRow.order``).
    Filled from a photo, ``crops`` gives a cell its crop's address and the reader's
    confidence in words."""
    size = len(seats)
    marks = marks or {}
    others = others or {}
    crops = crops or {}
    result = []
    for index, row in enumerate(rows):
        number = index + 1
        found = check.rows[index] if check and index < len(check.rows) else None
        bad = marked_cells(found.problem_cells, size) if found else set()
        dealer = seats[dealer_at(number, size, leaves) - 1]
        absent = absent_seats(number, leaves)
        derived = {
            cell_name(number, *part)
            for name in row.get("derived", ())
            if (part := parse_part(name)) is not None
        }
        named: list[Named] = [
            *(
                (
                    cell_name(number, WON, s.position),
                    row["won"][i],
                    f"{s.player.name}, cards won",
                    f"seat {s.position}",
                    s.position in absent,
                )
                for i, s in enumerate(seats)
            ),
            (cell_name(number, LEFT_OVER), row["left_over"], "left over", "left over", False),
            (
                cell_name(number, LAST_IN),
                row["last_in"],
                "last in (seat number)",
                "last in",
                False,
            ),
        ]
        placed: list[Named] = [
            (
                cell_name(number, ORDER, s.position),
                place,
                f"{s.player.name}, out (1 for the first to lie down)",
                f"seat {s.position}, {WHERE_OUT}",
                s.position in absent,
            )
            for s, place in zip(seats, places_of(row, size), strict=True)
        ]
        shown_with = (bad, marks, others, derived, crops)
        players = players_at(number, size, leaves)
        result.append(
            SheetRow(
                number=number,
                dealer=dealer.player.name,
                dealer_seat=dealer.position,
                cells=_shown_cells(number, named, *shown_with),
                problems=found.problems if found else (),
                offer=offer_for(found.derived, number) if found else None,
                fewer_players=players if players != size else None,
                order=_shown_cells(number, placed, *shown_with) if order else (),
            )
        )
    return result


def cell_values(rows: list[Row]) -> dict[str, CellValue]:
    values: dict[str, CellValue] = {}
    for number, row in enumerate(rows, start=1):
        for seat, value in enumerate(row["won"], start=1):
            values[cell_name(number, WON, seat)] = value
        values[cell_name(number, LEFT_OVER)] = row["left_over"]
        values[cell_name(number, LAST_IN)] = row["last_in"]
        for seat, place in enumerate(places_of(row, len(row["won"])), start=1):
            values[cell_name(number, ORDER, seat)] = place
    return values


def conflict_differences(mine: list[Row], theirs: list[Row], size: int) -> tuple[set[str], dict]:
    """The cells where two copies of a sheet differ, and the other copy's values."""
    mine = trim([clean_row(row, size) for row in mine])
    theirs = trim([clean_row(row, size) for row in theirs])
    cells = {m.cell for m in compare(theirs, mine)}
    return cells, cell_values(theirs)


# The deal a problem of ``SheetCheck.problems`` is about: "deal 3: …", "deals 5–8 are …".
_ABOUT_DEAL = re.compile(r"deals? (\d+)\b")


@dataclass(frozen=True)
class Problem:
    """A problem to show, with the first cell of its deal to jump to (blank if none)."""

    text: str
    cell: str = ""


def linked_problems(
    problems: tuple[str, ...], rows: list[SheetRow], about_leaves: set[str]
) -> list[Problem]:
    cells = {row.number: row.first_cell for row in rows}
    linked = []
    for text in problems:
        if text in about_leaves:
            linked.append(Problem(text, LEAVE_SEAT))
            continue
        about = _ABOUT_DEAL.match(text)
        linked.append(Problem(text, cells.get(int(about.group(1)), "") if about else ""))
    return linked


def first_empty(rows: list[SheetRow]) -> str:
    """The cell to start typing in: the first blank one."""
    return next((c.name for row in rows for c in row.cells if c.value == "" and not c.left), "")


# A phone's deal, review and differences -----------------------------------------------


@dataclass(frozen=True)
class Input:
    name: str
    value: str
    seat: Seat | None
    invalid: bool


def deal_inputs(
    number: int,
    row: Row,
    seats: list[Seat],
    leaves: Sequence[Leave],
    marked: set[str] | None = None,
    *,
    order: bool = False,
) -> dict[str, Any]:
    """What a phone's page shows to type deal ``number``, with ``row`` in its inputs (the
    ``marked`` cells marked): its dealer, who plays it, and a count for each seat still
    there; with ``order``, each one's place in the lying-down order. A seat that had left
    has no count and no place; one typed for it anyway is shown, to be cleared."""
    marked = marked or set()
    size = len(seats)
    absent = absent_seats(number, leaves)
    names = [cell_name(number, WON, seat.position) for seat in seats]
    left_over = cell_name(number, LEFT_OVER)
    placed = [cell_name(number, ORDER, seat.position) for seat in seats]
    places = [
        Input(name, shown(place), seat, name in marked)
        for name, seat, place in zip(placed, seats, places_of(row, size), strict=True)
        if seat.position not in absent or place is not None
    ]
    return {
        "number": number,
        "dealer": seats[dealer_at(number, size, leaves) - 1],
        "inputs": [
            Input(name, shown(value), seat, name in marked)
            for name, seat, value in zip(names, seats, row["won"], strict=False)
            if seat.position not in absent or value is not None
        ],
        "playing": [seat for seat in seats if seat.position not in absent],
        "players": players_at(number, size, leaves),
        "left_over": Input(left_over, shown(row["left_over"]), None, left_over in marked),
        "last_in_name": cell_name(number, LAST_IN),
        "last_in": shown(row["last_in"]),
        "places": places if order else [],
    }


def deal_check(
    table: Table, rows: list[Row], number: int, leaves: Sequence[Leave]
) -> tuple[tuple[str, ...], set[str]]:
    """The problems of deal ``number`` of ``rows`` and the cells to mark (``marked_cells``)."""
    row = rows[number - 1] if number <= len(rows) else None
    if row is None or is_blank(row):
        problem = (
            f"deal {number}: nothing typed yet — type the cards each seat won, the cards "
            "left over and who was last in"
        )
        return (problem,), set()
    found = check_rows(rows, table, final=False, leaves=leaves).rows[number - 1]
    # The checksum's and the whole order's own names stay among them: the phone's page says
    # they failed.
    return found.problems, {*found.problem_cells, *marked_cells(found.problem_cells, table.size)}


def stray_counts(
    row: Row, number: int, leaves: Sequence[Leave], seats: Sequence[Seat]
) -> list[tuple[int, str]]:
    """The counts deal ``number`` holds for seats that had left before it, each as
    ``(seat, what to say)``."""
    names = {seat.position: seat.player.name for seat in seats}
    gone = {leave.seat: leave.after_deal for leave in leaves}
    return [
        (
            seat,
            f"deal {number}: seat {seat} ({names.get(seat, '?')}) left after deal {gone[seat]}, "
            f"but this deal holds {value} cards won for them — clear that count",
        )
        for seat, value in enumerate(row["won"], start=1)
        if seat in absent_seats(number, leaves) and value not in (None, "")
    ]


@dataclass(frozen=True)
class ShownRow:
    number: int
    dealer: int
    won: list[str]
    left_over: str
    last_in: str
    problems: tuple[str, ...]
    # The seats in the order they lay down, first out first ("3, 1, 4"), or each seat's
    # place as typed while it makes no order; blank where the order is not recorded.
    order: str = ""


def order_shown(row: Row) -> str:
    """A row's lying-down order for the review: its seats first out first, or each seat's
    place as typed when they make no order."""
    if "out" in row:
        return ", ".join(
            f"seat {seat} {place_text(place)}"
            for seat, place in enumerate(row["out"], 1)
            if place is not None
        )
    return order_in_words(row.get("laid_down")) if row.get("laid_down") else ""


def shown_rows(
    table: Table, rows: list[Row], check: SheetCheck, leaves: Sequence[Leave] = ()
) -> list[ShownRow]:
    return [
        ShownRow(
            number,
            dealer_at(number, table.size, leaves),
            [
                "left" if seat in absent_seats(number, leaves) and v is None else cell_text(v)
                for seat, v in enumerate(row["won"], start=1)
            ],
            cell_text(row["left_over"]),
            cell_text(row["last_in"]),
            check.rows[number - 1].problems if number <= len(check.rows) else (),
            order_shown(row),
        )
        for number, row in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class Difference:
    where: str
    deal: int
    entered: str
    retyped: str


def mismatch_differences(table: Table, found: list[Mismatch]) -> list[Difference]:
    names = {seat.position: seat.player.name for seat in table.seats.all()}
    shown = []
    for mismatch in found:
        said: Callable[[object], str] = cell_text
        if mismatch.field == WON and mismatch.seat is not None:
            part = f"seat {mismatch.seat} ({names.get(mismatch.seat, '?')})"
        elif mismatch.field == ORDER and mismatch.seat is not None:
            part = f"seat {mismatch.seat} ({names.get(mismatch.seat, '?')}), {WHERE_OUT}"
            said = place_text
        else:
            part = mismatch.field.replace("_", " ")
        shown.append(
            Difference(
                f"Deal {mismatch.deal}, {part}",
                mismatch.deal,
                said(mismatch.entered),
                said(mismatch.retyped),
            )
        )
    return shown


def retype_differences(table: Table, sheet: Sheet) -> list[Difference]:
    """Where another phone's blind re-type of the submitted sheet differs from it."""
    if sheet.status != SheetStatus.ENTERED or not sheet.retyped:
        return []
    retyped = [clean_row(row, table.size) for row in sheet.retyped]
    return mismatch_differences(table, compare(pending_rows(sheet), trim(retyped)))
