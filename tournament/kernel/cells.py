"""The names of a score sheet's cells: the sheet form's inputs, and how a check's problems,
a derived count and two copies' differences point at them. ``cell_name`` builds every
such name and ``parse_cell`` reads one back; nothing else in Python spells them out.

Terms:

- *cell*: one input of the sheet for one deal: a seat's cards won ``d3_s2``, the cards
  ``d3_left_over`` and the seat ``d3_last_in`` (deal 3, seat 2); where the rule set
  records the lying-down order, a seat's place in it ``d3_o2`` (1 for the first out).
- Names that point at a deal without being an input: ``d3_checksum`` (the row's counts do
  not add up, so any of them may be wrong), ``d3_won`` (the row has the wrong number of
  counts), ``d3_laid_down`` (the order as a whole is wrong, so any place may be) and
  ``d3_notes`` (the line under the deal that shows its problems and offers).
- *part*: a name without its deal (``s2``, ``o2``, ``left_over``): what a row's
  ``"derived"`` list holds for the counts derived from the checksum.

static/js/sheet.js reads these names from the page (inputs' ``name``, ``data-fill``,
``data-problem-cells``) and builds none itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WON = "won"
LEFT_OVER = "left_over"
LAST_IN = "last_in"
CHECKSUM = "checksum"
NOTES = "notes"
# The lying-down order (``scoring.rules.RuleBreak``'s field): a seat's place is ``o{seat}``.
ORDER = "laid_down"

_FIELDS = (LEFT_OVER, LAST_IN, CHECKSUM, NOTES, WON, ORDER)
_NAME = re.compile(
    r"d(\d{1,3})_(?:s(\d{1,2})|o(\d{1,2})|(left_over|last_in|checksum|notes|won|laid_down))"
)
_PART = re.compile(r"(?:s(\d{1,2})|o(\d{1,2})|(left_over|last_in|checksum|notes|won|laid_down))")


def cell_part(field: str, seat: int | None = None) -> str:
    """The name of ``field`` (one of the module's constants) within a deal; a seat's cards
    won are ``s{seat}``, its place in the lying-down order ``o{seat}``."""
    if field == WON and seat is not None:
        return f"s{seat}"
    if field == ORDER and seat is not None:
        return f"o{seat}"
    if field not in _FIELDS:
        raise ValueError(f"no sheet cell is called {field!r}")
    return field


def cell_name(deal: int, field: str, seat: int | None = None) -> str:
    """The name of ``field`` of ``deal`` (``seat`` for a seat's cards won or place):
    ``d{deal}_s{seat}``, ``d{deal}_o{seat}``, ``d{deal}_left_over``, ``d{deal}_last_in``,
    ``d{deal}_checksum``."""
    return f"d{deal}_{cell_part(field, seat)}"


@dataclass(frozen=True)
class Cell:
    """A cell name read back: ``field`` is one of the module's constants, ``seat`` is set
    for a seat's cards won or place."""

    deal: int
    field: str
    seat: int | None = None

    @property
    def name(self) -> str:
        return cell_name(self.deal, self.field, self.seat)

    @property
    def part(self) -> str:
        return cell_part(self.field, self.seat)


def parse_part(part: str) -> tuple[str, int | None] | None:
    """The field and seat a part names (``"s2"`` is cards won by seat 2, ``"o2"`` its place
    in the lying-down order), or None when it names no cell (a name posted by a tampered
    form, say)."""
    match = _PART.fullmatch(part)
    if match is None:
        return None
    if match[1] is not None:
        return WON, int(match[1])
    if match[2] is not None:
        return ORDER, int(match[2])
    return match[3], None


def parse_cell(name: str) -> Cell | None:
    """The deal, field and seat that ``name`` names, or None when it names no cell."""
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    if match[2] is not None:
        return Cell(int(match[1]), WON, int(match[2]))
    if match[3] is not None:
        return Cell(int(match[1]), ORDER, int(match[3]))
    return Cell(int(match[1]), match[4])
