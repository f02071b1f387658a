"""The facts of one deal and the rules they must obey.

Terms (docs/rules.md tells the rules in full):

- *table size* ``n``: players at a table, 3 to 6. Seats are numbered 1..n clockwise.
- *deal number* ``d``: 1, 2, ... at one table in one round. Seat 1 deals deal 1 and the
  deal passes to the left, so seat ``((d - 1) mod n) + 1`` deals deal ``d``.
- *rotation*: n deals, one dealt by each seat. A round of k rotations is ``k * n`` deals.
- *won*: the cards each seat won during play, in seat order. Always even, never negative.
- *last in*: the seat still holding cards when play stopped.
- *left over*: the cards not won during play (the last-in hand plus the table). Even, >= 2.
- *checksum*: ``sum(won) + left_over == 52``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import UserError

CARDS_IN_PACK = 52


@dataclass(frozen=True)
class TableParams:
    """How one table size is dealt and staked (the table sizes of docs/rules.md)."""

    players: int
    cards_each: int
    table_cards: int
    dealer_stake: int
    other_stake: int
    pot: int
    last_in_prize: int
    break_even: int

    def stake(self, seat: int, dealer: int) -> int:
        return self.dealer_stake if seat == dealer else self.other_stake


TABLE_PARAMS: dict[int, TableParams] = {
    3: TableParams(3, 13, 13, 4, 3, 10, 5, 14),
    4: TableParams(4, 10, 12, 3, 2, 9, 3, 10),
    5: TableParams(5, 8, 12, 3, 2, 11, 5, 8),
    6: TableParams(6, 7, 10, 3, 2, 13, 5, 6),
}
TABLE_SIZES: tuple[int, ...] = tuple(sorted(TABLE_PARAMS))
MIN_TABLE_SIZE = TABLE_SIZES[0]
MAX_TABLE_SIZE = TABLE_SIZES[-1]


class DealError(UserError):
    """A deal that breaks the rules; ``problems`` lists every broken rule at once."""

    def __init__(self, problems: Sequence[RuleBreak]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class RuleBreak:
    """One broken rule of a deal. ``field`` is ``won``, ``last_in``, ``left_over`` or
    ``checksum``; ``seat`` is set when the problem belongs to one seat's count."""

    field: str
    message: str
    seat: int | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class DealFacts:
    """The facts of one deal as written on the score sheet, already validated."""

    won: tuple[int, ...]
    last_in: int
    left_over: int

    @property
    def table_size(self) -> int:
        return len(self.won)


def table_params(size: int) -> TableParams:
    try:
        return TABLE_PARAMS[size]
    except KeyError:
        raise UserError(
            f"a table of {size} players cannot play; tables seat "
            f"{MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players"
        ) from None


def dealer_of(deal_number: int, table_size: int) -> int:
    """The seat that deals deal ``deal_number`` (seat 1 deals first, the deal passes left)."""
    return (deal_number - 1) % table_size + 1


def deals_per_round(table_size: int, rotations: int) -> int:
    return table_size * rotations


def _whole_number(value: object) -> int | None:
    # bool is an int in Python, but True is not a count of cards.
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


# Longest typed value quoted in a message: a message must stay readable whatever was
# pasted into a cell or a file.
_SHOWN_MAX = 40


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    if len(text) > _SHOWN_MAX:
        text = text[: _SHOWN_MAX - 1] + "…"
    return f"“{text}”" if isinstance(value, str) else text


def validate_deal(
    won: Sequence[object], last_in: object, left_over: object, table_size: int
) -> list[RuleBreak]:
    """Every rule this deal breaks, in sheet order (seats, left over, last in, checksum)."""
    problems: list[RuleBreak] = []
    counts: list[int] = []
    if len(won) != table_size:
        problems.append(
            RuleBreak(
                "won",
                f"{len(won)} counts of cards won for a table of {table_size}; "
                f"give one count per seat",
            )
        )
    for seat, value in enumerate(won, start=1):
        if value is None or value == "":
            problems.append(RuleBreak("won", f"seat {seat}: cards won is missing", seat))
            continue
        count = _whole_number(value)
        if count is None:
            problems.append(
                RuleBreak("won", f"seat {seat}: {_shown(value)} is not a whole number", seat)
            )
        elif count < 0:
            problems.append(RuleBreak("won", f"seat {seat}: {count} cards won is negative", seat))
        elif count % 2:
            problems.append(
                RuleBreak(
                    "won", f"seat {seat}: {count} cards won is odd — cards are won in pairs", seat
                )
            )
        else:
            counts.append(count)

    leftover: int | None = None
    if left_over is None or left_over == "":
        problems.append(RuleBreak("left_over", "left over: missing"))
    elif (leftover := _whole_number(left_over)) is None:
        problems.append(
            RuleBreak("left_over", f"left over: {_shown(left_over)} is not a whole number")
        )
    elif leftover % 2:
        problems.append(
            RuleBreak("left_over", f"left over: {leftover} is odd — cards are left over in pairs")
        )
        leftover = None
    elif leftover < 2:
        problems.append(
            RuleBreak(
                "left_over",
                f"left over: {leftover} is less than 2 — the last-in player always "
                "still holds cards",
            )
        )
        leftover = None

    if last_in is None or last_in == "":
        problems.append(RuleBreak("last_in", "last in: missing — which seat was last in?"))
    elif (seat_in := _whole_number(last_in)) is None:
        problems.append(RuleBreak("last_in", f"last in: {_shown(last_in)} is not a seat number"))
    elif not 1 <= seat_in <= table_size:
        problems.append(
            RuleBreak(
                "last_in",
                f"last in: seat {seat_in} is not a seat at this table (seats 1–{table_size})",
            )
        )

    all_counts_usable = len(counts) == len(won) == table_size
    if all_counts_usable and leftover is not None and sum(counts) + leftover != CARDS_IN_PACK:
        total = sum(counts) + leftover
        problems.append(
            RuleBreak("checksum", f"cards won plus left over is {total}, not {CARDS_IN_PACK}")
        )
    return problems


def make_deal(
    won: Sequence[object], last_in: object, left_over: object, table_size: int
) -> DealFacts:
    """A validated ``DealFacts``, or ``DealError`` listing every problem."""
    problems = validate_deal(won, last_in, left_over, table_size)
    if problems:
        raise DealError(problems)
    return DealFacts(tuple(won), last_in, left_over)  # type: ignore[arg-type]


def missing_value(
    won: Sequence[int | None], left_over: int | None
) -> tuple[str, int | None, int] | None:
    """When exactly one count (a seat's cards won, or the left over) is blank and the rest
    are whole numbers, the value that makes the row add up to 52: ``(field, seat, value)``.
    None when there is no single blank or the value would not be a valid count."""
    blanks = [seat for seat, value in enumerate(won, start=1) if value is None]
    if left_over is None:
        blanks.append(0)
    if len(blanks) != 1:
        return None
    known = sum(v for v in won if v is not None) + (left_over or 0)
    value = CARDS_IN_PACK - known
    if value < 0 or value % 2:
        return None
    if blanks[0] == 0:
        return ("left_over", None, value) if value >= 2 else None
    return ("won", blanks[0], value)
