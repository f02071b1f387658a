"""Rule sets: how each table size is dealt and staked, as the sources give them.

Terms (docs/rules.md tells each rule set with its source and a worked example):

- *rule set*: for each table size it allows, a ``TableParams`` row: the cards each player
  is dealt and the cards in the middle (together all 52), the stakes (the dealer's and
  the others'), the pot they make, the last-in prize and the break-even; and who takes
  the cards left over under stakes scoring (``left_over_to``: the dealer, as the sources
  have it, or the last in). Winner-advantage scoring always gives them to the last in.
- *preset*: a rule set named after its source, chosen by its ``key`` (the tournament
  file's ``"rule_set"``). ``standard`` is the table the app has always used.
- *house rules*: a rule set an organiser made by changing a preset's numbers, table size
  by table size; ``house_rules`` reads them back from the numbers (``HOUSE_FIELDS``)
  and ``table_problems`` says what is wrong with them, naming the table size.
- *size key*: how house rules name a table size, as text: ``"3"`` to ``"8"``, plain
  digits and nothing else (``size_of_key``). ``"05"``, ``"٥"`` (an Arabic-Indic five) or
  ``"²"`` name no size: two keys could otherwise name one size, and one of them be lost.
  ``older_size`` is how a restore reads what an older version accepted ("05" and "٥"
  as 5).
- *odd break-even* (du Coeur's eight): no player can end on it, as cards are won in
  pairs; a final pile above it wins ``(final - break_even + 1) / 2`` units, one below it
  loses ``(break_even - final + 1) / 2`` (``units``).
- *zero-sum*: whether the stakes scoring's nets of a deal always sum to zero
  (``balance``): they do when ``pot == prize + (52 - players * break_even) / 2``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from scoring.errors import UserError
from scoring.rules import CARDS_IN_PACK, MAX_TABLE_SIZE, MIN_TABLE_SIZE, TableParams


class LeftOverTo(StrEnum):
    DEALER = "dealer"
    LAST_IN = "last-in"


@dataclass(frozen=True)
class RuleSet:
    """One rule set; ``tables`` is one ``TableParams`` per allowed size, smallest first."""

    key: str
    name: str
    source: str
    tables: tuple[TableParams, ...]
    left_over_to: LeftOverTo = LeftOverTo.DEALER

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(table.players for table in self.tables)

    def params(self, size: int) -> TableParams:
        """The row for a table of ``size``; refused, in words, for a size not allowed."""
        for table in self.tables:
            if table.players == size:
                return table
        raise UserError(
            f"a table of {size} players cannot play under the rule set “{self.name}”, "
            "which has no row for it"
        )

    @property
    def is_house(self) -> bool:
        return self.key == HOUSE

    def as_data(self) -> dict[str, object]:
        """The house-rule numbers as the tournament file and the settings keep them."""
        return {
            "left_over_to": self.left_over_to.value,
            "tables": {
                str(table.players): {name: getattr(table, name) for name in HOUSE_FIELDS}
                for table in self.tables
            },
        }


def sizes_text(sizes: Iterable[int]) -> str:
    """``3 to 6`` for a run of sizes, else ``3, 4 or 6``; ``no`` for none."""
    ordered = sorted(sizes)
    if not ordered:
        return "no"
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    if len(ordered) == 1:
        return str(ordered[0])
    return ", ".join(str(size) for size in ordered[:-1]) + f" or {ordered[-1]}"


def _table(
    players: int,
    cards_each: int,
    middle: int,
    stakes: tuple[int, int],
    prize: int,
    break_even: int,
) -> TableParams:
    dealer, other = stakes
    pot = dealer + (players - 1) * other
    return TableParams(players, cards_each, middle, dealer, other, pot, prize, break_even)


# Willughby's five, and Parlett's three, four and six (docs/rules.md, "Table sizes").
_THREE = _table(3, 13, 13, (4, 3), 5, 14)
_FOUR = _table(4, 10, 12, (3, 2), 3, 10)
_FIVE = _table(5, 8, 12, (3, 2), 5, 8)
_SIX = _table(6, 7, 10, (3, 2), 5, 6)

HOUSE = "house"

STANDARD = RuleSet(
    "standard",
    "Willughby and Parlett's table (3 to 6)",
    "Willughby's Book of Games (c. 1665) for four and five; Parlett's three and six",
    (_THREE, _FOUR, _FIVE, _SIX),
)
WILLUGHBY_FOUR_THIRTEEN = RuleSet(
    "willughby-four-thirteen",
    "Willughby's four-handed larger pot",
    "Willughby's alternative for four: stakes 4/3, a pot of 13, 7 to the last in",
    (_THREE, _table(4, 10, 12, (4, 3), 7, 10), _FIVE, _SIX),
)
_DU_COEUR_SIX = _table(6, 6, 16, (3, 2), 5, 6)
_DU_COEUR_SEVEN = _table(7, 6, 10, (3, 2), 10, 6)
DU_COEUR = RuleSet(
    "du-coeur",
    "Justin du Coeur's larger tables (3 to 8)",
    "Justin du Coeur's reconstruction: six, seven and eight players, after Willughby",
    (_THREE, _FOUR, _FIVE, _DU_COEUR_SIX, _DU_COEUR_SEVEN, _table(8, 5, 12, (3, 2), 11, 5)),
)
DU_COEUR_LOW_STAKES = RuleSet(
    "du-coeur-low-stakes",
    "Justin du Coeur's larger tables, low stakes at eight",
    "Justin du Coeur's reconstruction, with his lower stakes for eight: 2/1, 3 to the last in",
    (_THREE, _FOUR, _FIVE, _DU_COEUR_SIX, _DU_COEUR_SEVEN, _table(8, 5, 12, (2, 1), 3, 5)),
)

RULE_SETS: dict[str, RuleSet] = {
    rule_set.key: rule_set
    for rule_set in (STANDARD, WILLUGHBY_FOUR_THIRTEEN, DU_COEUR, DU_COEUR_LOW_STAKES)
}

# The numbers an organiser may change, table size by table size, in this order.
HOUSE_FIELDS = (
    "cards_each",
    "table_cards",
    "dealer_stake",
    "other_stake",
    "last_in_prize",
    "break_even",
)
HOUSE_LABELS = {
    "cards_each": "cards each",
    "table_cards": "cards in the middle",
    "dealer_stake": "dealer's stake",
    "other_stake": "others' stake",
    "last_in_prize": "last-in prize",
    "break_even": "break-even",
}
_NUMBER_MAX = 99


def rule_set(key: str) -> RuleSet:
    """The preset ``key``; refused in words for a key that is none."""
    try:
        return RULE_SETS[key]
    except KeyError:
        known = ", ".join(f'"{known}"' for known in RULE_SETS)
        raise UserError(f'"{key}" is not a rule set; the rule sets are {known}') from None


SIZE_KEYS = tuple(str(size) for size in range(MIN_TABLE_SIZE, MAX_TABLE_SIZE + 1))


def size_of_key(key: object) -> int | None:
    """The table size a house-rule key names when written in plain ASCII digits without
    a leading zero ("5"; "12", which ``table_problems`` refuses as a size); None for any
    other text ("05", "٥", "²", "five")."""
    if not isinstance(key, str) or not (key.isascii() and key.isdigit()):
        return None
    return int(key) if key == "0" or not key.startswith("0") else None


def older_size(key: str) -> int | None:
    """The table size an older version read a house-rule key as: any decimal digits
    ("05" and "٥" as 5), within the sizes tables seat; None for what it never read
    ("²", which is a digit but not a decimal one, "five", "9")."""
    if not key.isdecimal():
        return None
    size = int(key)
    return size if MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE else None


def table_problems(size: int, numbers: Mapping[str, object]) -> list[str]:
    """Every reason ``numbers`` cannot be the row of a table of ``size``, each naming it."""
    where = f"table of {size}"
    if not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE:
        return [
            f"{where}: tables seat {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players in every rule set"
        ]
    problems = []
    values: dict[str, int] = {}
    for name in HOUSE_FIELDS:
        value = numbers.get(name)
        label = HOUSE_LABELS[name]
        if value is None or value == "":
            problems.append(f"{where}: {label} is missing")
        elif not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{where}: {label} {value!r} is not a whole number")
        elif not 0 <= value <= _NUMBER_MAX:
            problems.append(f"{where}: {label} {value} is not between 0 and {_NUMBER_MAX}")
        else:
            values[name] = value
    if problems:
        return problems
    if values["cards_each"] < 1:
        problems.append(f"{where}: each player is dealt at least 1 card")
    if values["table_cards"] < 1:
        problems.append(f"{where}: at least 1 card lies in the middle")
    dealt = size * values["cards_each"] + values["table_cards"]
    if dealt != CARDS_IN_PACK:
        problems.append(
            f"{where}: {size} × {values['cards_each']} cards each and "
            f"{values['table_cards']} in the middle deal {dealt} cards, not {CARDS_IN_PACK}"
        )
    return problems


def house_rules(data: Mapping[str, object], where: str = "house rules") -> RuleSet:
    """The rule set the numbers ``data`` make (``RuleSet.as_data``'s shape); refused with
    every problem, each naming its table size."""
    tables = data.get("tables")
    left_over_to = data.get("left_over_to", LeftOverTo.DEALER.value)
    problems = []
    if left_over_to not in {choice.value for choice in LeftOverTo}:
        problems.append(f'{where}: left_over_to is "dealer" or "last-in", not {left_over_to!r}')
    if not isinstance(tables, Mapping) or not tables:
        raise UserError(f"{where}: give the numbers of at least one table size")
    rows = []
    for key, numbers in tables.items():
        size = size_of_key(key)
        if size is None:
            shown = str(key)[:20]
            problems.append(
                f"{where}: “{shown}” is not a table size: a size is written “{SIZE_KEYS[0]}” "
                f"to “{SIZE_KEYS[-1]}”, in plain digits"
            )
            continue
        if not isinstance(numbers, Mapping):
            problems.append(f"{where}, table of {size}: give its numbers")
            continue
        found = table_problems(size, numbers)
        problems.extend(f"{where}, {problem}" for problem in found)
        if not found:
            value = {name: int(numbers[name]) for name in HOUSE_FIELDS}
            rows.append(
                _table(
                    size,
                    value["cards_each"],
                    value["table_cards"],
                    (value["dealer_stake"], value["other_stake"]),
                    value["last_in_prize"],
                    value["break_even"],
                )
            )
    if problems:
        raise UserError("; ".join(problems))
    return RuleSet(
        HOUSE,
        "House rules",
        "the organiser's own numbers",
        tuple(sorted(rows, key=lambda row: row.players)),
        LeftOverTo(str(left_over_to)),
    )


def with_table(base: RuleSet, row: TableParams) -> RuleSet:
    """``base`` with the row of one table size replaced (or added): house rules."""
    rows = [table for table in base.tables if table.players != row.players] + [row]
    return replace(
        base,
        key=HOUSE,
        name="House rules",
        source=f"the organiser's own numbers, from {base.name}",
        tables=tuple(sorted(rows, key=lambda table: table.players)),
    )


def units(final: int, break_even: int) -> int:
    """Units won (or lost, below 0) for ending a deal with ``final`` cards."""
    return (final - break_even + rounding(final, break_even)) // 2


def rounding(final: int, break_even: int) -> int:
    """+1 or -1 when the break-even is odd (a final pile is never on it), else 0."""
    if break_even % 2 == 0:
        return 0
    return 1 if final > break_even else -1


@dataclass(frozen=True)
class Balance:
    """What the stakes scoring's nets of one deal sum to at a table size: ``lowest`` to
    ``highest``; both 0 when the pay-off is zero-sum."""

    lowest: int
    highest: int

    @property
    def zero_sum(self) -> bool:
        return self.lowest == self.highest == 0

    def text(self) -> str:
        if self.zero_sum:
            return "zero-sum: the nets of every deal sum to 0"
        if self.lowest == self.highest:
            return f"not zero-sum: the nets of every deal sum to {self.highest:+d}"
        return (
            f"not zero-sum: the nets of a deal sum to {self.lowest:+d} to {self.highest:+d}, "
            "by how many players end above the break-even"
        )


def balance(params: TableParams) -> Balance:
    """Sum of the nets: -pot + prize + (52 - n * break_even) / 2, plus a half unit for
    each player above an odd break-even and less a half for each below."""
    base = -params.pot + params.last_in_prize
    n = params.players
    if params.break_even % 2 == 0:
        total = base + (CARDS_IN_PACK - n * params.break_even) // 2
        return Balance(total, total)
    # Finals are even and add up to the 52 cards: ``above`` players can end above the
    # break-even when their smallest piles fit in the pack, and the rest below when the
    # pack fits in their largest.
    over, under = params.break_even + 1, params.break_even - 1
    sums = [
        base + (CARDS_IN_PACK - n * params.break_even + above - (n - above)) // 2
        for above in range(n + 1)
        if above * over <= CARDS_IN_PACK and (above > 0 or n * under >= CARDS_IN_PACK)
    ]
    return Balance(min(sums), max(sums))
