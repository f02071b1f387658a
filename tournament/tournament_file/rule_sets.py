"""What version 4 of the tournament file (``lld-tournament/4``) adds: the rule set the
tournament plays under, Caidis scoring and each deal's lying-down order (``schema_v4``
describes their structure). Their checks, their export and their import sit here;
``checking``, ``table_rules``, ``writing`` and ``loading`` call them where a file's top
level, tables and deals are read and written.

Terms: the *file's rules* (``FileRules``) are the rule set and the scoring system a file
names, as far as they can be read: a file without ``"rule_set"`` (every file of an older
version) plays under ``standard``; a rule set or a scoring that is wrong is reported by
its own check and checks nothing else. A table *seats* the sizes both allow
(``scoring.systems.allowed_sizes``); a deal after a seat left is *dealt at* fewer
players, a size the rule set must have too, as its numbers stake the deal.

Problems of the rule set are located by its key (``rule_set, table of 4: …``), those of
a table the way the score sheets are (``round 2, table 3: …``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE, Leave, absent_seats
from scoring.rulesets import (
    HOUSE,
    RULE_SETS,
    STANDARD,
    RuleSet,
    house_rules,
    size_of_key,
    sizes_text,
    table_problems,
)
from scoring.systems import ScoringSystem, allowed_sizes
from tournament.models import Tournament, default_table_sizes
from tournament.tournament_file.problems import NOT_A_SIZE_KEY, json_key, short
from tournament.tournament_file.schema_v4 import FORMAT_4
from tournament.tournament_file.schema_v4 import house_rules as house_schema
from tournament.tournament_file.structure import problems_against

RULE_SET = "rule_set"
LAID_DOWN = "laid_down"


@dataclass(frozen=True)
class FileRules:
    """The rule set (None: the file's is wrong) and the scoring system (None: the file's
    is not one) a file names."""

    rule_set: RuleSet | None
    system: ScoringSystem | None

    @property
    def order_needed(self) -> bool:
        """Whether every deal must carry its lying-down order."""
        return self.system is not None and self.system.needs_order

    @property
    def sizes(self) -> tuple[int, ...] | None:
        """The table sizes the file's tables may have; None when they cannot be known."""
        if self.rule_set is None:
            return None
        if self.system is None:
            return self.rule_set.sizes
        return allowed_sizes(self.system, self.rule_set) or None

    def named(self) -> str:
        """The rule set as a message names it, with its verb: "the house rules seat"."""
        assert self.rule_set is not None
        if self.rule_set.is_house:
            return "the house rules seat"
        return f"the rule set “{self.rule_set.key}” seats"

    def size_problem(self, size: int) -> str | None:
        """Why a table of ``size`` cannot play under these rules, or None."""
        sizes = self.sizes
        if sizes is None or size in sizes:
            return None
        assert self.rule_set is not None
        if size not in self.rule_set.sizes:
            return (
                f"a table of {size} cannot play: {self.named()} "
                f"{sizes_text(self.rule_set.sizes)} players"
            )
        assert self.system is not None
        return (
            f"a table of {size} cannot play under “{self.system.value}” scoring, which seats "
            f"{sizes_text(sizes)} players here"
        )


def file_rules(data: Mapping[str, Any]) -> FileRules:
    scoring = data.get("scoring", ScoringSystem.WINNER_ADVANTAGE.value)
    systems = {system.value: system for system in ScoringSystem}
    system = systems.get(scoring) if isinstance(scoring, str) else None
    return FileRules(_rule_set(data.get(RULE_SET, STANDARD.key)), system)


def _rule_set(value: object) -> RuleSet | None:
    if isinstance(value, str):
        return RULE_SETS.get(value)
    if isinstance(value, dict) and _readable(value) and not list(_house_problems(value)):
        return house_rules(value, RULE_SET)
    return None


def _readable(value: dict[str, Any]) -> bool:
    """Whether house-rule numbers have the structure the schema gives them (what it
    finds wrong is the structure check's to report, not said twice)."""
    return not problems_against(house_schema(), value, limit=1)


def _house_problems(value: dict[str, Any]) -> Iterator[str]:
    """The problems of readable house-rule numbers, each naming its table size. Their
    keys are the sizes "3" to "8" (the schema's ``propertyNames``); any other is named
    here too, should the schema ever let one through."""
    for key, numbers in value["tables"].items():
        size = size_of_key(key)
        if size is None:
            yield f"{RULE_SET}.tables[{json_key(key)}]: {NOT_A_SIZE_KEY.format(key=short(key))}"
        else:
            yield from (f"{RULE_SET}, {problem}" for problem in table_problems(size, numbers))


def rule_set_problems(data: Mapping[str, Any], rules: FileRules) -> Iterator[str]:
    """The house-rule numbers' problems, each naming its table size, and a rule set that
    seats no table the scoring can; then each of ``table_sizes`` that cannot play."""
    value = data.get(RULE_SET)
    if isinstance(value, dict) and _readable(value):
        yield from _house_problems(value)
    if rules.rule_set is not None and rules.system is not None and rules.sizes is None:
        yield (
            f"{RULE_SET}: “{rules.system.value}” scoring seats tables of "
            f"{sizes_text(rules.system.sizes or ())} players, and {rules.named()} none of them"
        )
    sizes = data.get("table_sizes")
    if isinstance(sizes, list):
        for index, size in enumerate(sizes):
            # One no rule set seats is the structure check's to report.
            within = isinstance(size, int) and MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE
            if within and (problem := rules.size_problem(size)):
                yield f"table_sizes[{index}]: {problem}"


def dealt_size_problems(
    deal_at: str, deals: int, size: int, leaves: tuple[Leave, ...], rules: FileRules
) -> Iterator[str]:
    """Deals (the first ``deals`` of a table of ``size`` with ``leaves``) dealt, after a
    leave, at a size the rule set has no numbers for; once for each such size, the first
    deal named by ``deal_at`` (``"round 1, table 2, deal {}"``)."""
    rule_set = rules.rule_set
    if rule_set is None or not leaves:
        return
    told: set[int] = set()
    for number in range(1, deals + 1):
        players = size - len(absent_seats(number, leaves))
        if players not in rule_set.sizes and players not in told:
            told.add(players)
            yield (
                f"{deal_at.format(number)}: dealt at {players} players after a leave, but "
                f"{rules.named()} {sizes_text(rule_set.sizes)} players"
            )


def table_sizes(data: Mapping[str, Any], rules: FileRules) -> dict[str, list[int]]:
    """A file without ``table_sizes`` takes the default sizes its rules seat (all they seat
    when they seat none of the default)."""
    if "table_sizes" in data or rules.sizes is None:
        return {}
    sizes = rules.sizes
    return {"table_sizes": [size for size in default_table_sizes() if size in sizes] or [*sizes]}


# Older formats ---------------------------------------------------------------------------


def _dicts(value: object) -> Iterator[tuple[int, dict[str, Any]]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item


def version_4_places(data: Mapping[str, Any]) -> Iterator[str]:
    """Where a file holds what only a version-4 file may."""
    if RULE_SET in data:
        yield RULE_SET
    if data.get("scoring") == ScoringSystem.CAIDIS.value:
        yield "scoring"
    for round_index, round_ in _dicts(data.get("rounds")):
        for table_index, table in _dicts(round_.get("tables")):
            where = f"rounds[{round_index}].tables[{table_index}]"
            rows = [(f"{where}.deals", table.get("deals"))]
            sheet = table.get("sheet")
            if isinstance(sheet, dict):
                rows.append((f"{where}.sheet.pending", sheet.get("pending")))
                rows += [
                    (f"{where}.sheet.history[{index}].deals", version.get("deals"))
                    for index, version in _dicts(sheet.get("history"))
                ]
            for path, items in rows:
                for index, row in _dicts(items):
                    if LAID_DOWN in row:
                        yield f"{path}[{index}].{LAID_DOWN}"


def version_4_problems(data: Mapping[str, Any], version: str) -> Iterator[str]:
    for where in version_4_places(data):
        yield f"{where}: only a file of format “{FORMAT_4}” holds this; the file says “{version}”"


# Loading and writing ---------------------------------------------------------------------


def stored(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tournament's ``rule_set`` and ``house_rules`` as a checked file gives them."""
    value = data.get(RULE_SET, STANDARD.key)
    if isinstance(value, str):
        return {"rule_set": value, "house_rules": None}
    return {"rule_set": HOUSE, "house_rules": house_rules(value, RULE_SET).as_data()}


def exported(tournament: Tournament) -> dict[str, object]:
    """The file's ``rule_set``: the preset's key, or the house-rule numbers."""
    rules = tournament.rules
    return {RULE_SET: rules.as_data() if rules.is_house else rules.key}
