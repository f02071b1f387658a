"""Checking a parsed tournament file before anything is stored, in two layers, in the
order docs/tournament-file.md describes:

- *structure*, by the JSON Schema (``structure``): keys, types, required fields. These
  problems are located by JSON path with 0-based indexes, e.g. ``players[5].name``.
- *rules*, by ``scoring``: unique ids, seats that name known players once per round,
  tables of the sizes the rule set and the scoring seat (``rule_sets``), deals per round,
  and every deal's own rules with its lying-down order (``table_rules``). These problems
  are located the way the score sheets are: ``round 2, table 3, deal 4``.

Every problem is counted, the first ``PROBLEMS_SHOWN`` worded (``problems``).
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from scoring.errors import UserError
from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournament.kernel import limits
from tournament.kernel.names import text_problem
from tournament.people import services as people
from tournament.sheets.leaves import stored_leaves
from tournament.tournament_file import leaves_adjustments as version_3
from tournament.tournament_file import rule_sets as version_4
from tournament.tournament_file.problems import PROBLEMS_SHOWN, Problems, short
from tournament.tournament_file.schema import FORMAT_1, FORMAT_2
from tournament.tournament_file.schema_v3 import FORMAT_3
from tournament.tournament_file.structure import structure_problems, unstorable_text
from tournament.tournament_file.table_rules import deal_problems, dicts, sheet_problems


class _Tally:
    """Keeps the first ``limit`` problems and counts the others."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.shown: list[str] = []
        self.total = 0

    def add(self, problems: Iterable[str]) -> None:
        for problem in problems:
            self.total += 1
            if len(self.shown) < self.limit:
                self.shown.append(problem)

    def result(self) -> Problems:
        return Problems(tuple(self.shown), self.total)


def _number(item: Mapping[str, Any], default: int) -> int:
    value = item.get("number")
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def slug_for(data: Mapping[str, Any]) -> str:
    slug = data.get("slug")
    if isinstance(slug, str) and slug:
        return slug
    name = data.get("name")
    return limits.slug_from_name(name) if isinstance(name, str) else ""


# What only a version-2 file holds, at the top, in a round, in a table and in a player.
_VERSION_2_KEYS = (
    (
        "published",
        "hold_back_rounds",
        "two_person_check",
        "seating_public",
        "round_minutes",
        "finished",
        "table_entry",
        "table_confirm",
        "owner",
        "scorers",
        "key",
    ),
    ("started", "released"),
    ("sheet",),
    ("checked_in", "key"),
)


def _version_2_places(data: dict[str, Any]) -> Iterator[str]:
    top, in_round, in_table, in_player = _VERSION_2_KEYS
    yield from (key for key in top if key in data)
    for index, player in dicts(data.get("players")):
        yield from (f"players[{index}].{key}" for key in in_player if key in player)
    for index, round_ in dicts(data.get("rounds")):
        yield from (f"rounds[{index}].{key}" for key in in_round if key in round_)
        for table_index, table in dicts(round_.get("tables")):
            yield from (
                f"rounds[{index}].tables[{table_index}].{key}" for key in in_table if key in table
            )


def _version_2_problems(data: dict[str, Any]) -> Iterator[str]:
    for where in _version_2_places(data):
        yield f"{where}: only a file of format “{FORMAT_2}” holds this; the file says “{FORMAT_1}”"


def rule_problems(data: object) -> Iterator[str]:
    if not isinstance(data, dict):
        return
    if data.get("format") == FORMAT_1:
        yield from _version_2_problems(data)
    if data.get("format") in (FORMAT_1, FORMAT_2):
        yield from version_3.version_3_problems(data, data["format"])
    if data.get("format") in (FORMAT_1, FORMAT_2, FORMAT_3):
        yield from version_4.version_4_problems(data, data["format"])
    rules = version_4.file_rules(data)
    yield from version_4.rule_set_problems(data, rules)
    name = data.get("name")
    # The one rule for every name, as the tournament's form and the players' below (a
    # name of spaces alone is the schema's to refuse).
    if isinstance(name, str) and name.strip() and (wrong := text_problem(name, "name")):
        yield f"name: {wrong}"
    if isinstance(name, str) and name.strip() and "slug" not in data:
        derived = slug_for(data)
        if not derived:
            yield "name: no slug can be made from this name; give a “slug”"
        elif derived in limits.reserved_slugs():
            yield (
                f"name: the slug made from this name, “{derived}”, is the name of one of the "
                "app's own pages; give a “slug”"
            )
    date = data.get("date")
    if isinstance(date, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            yield f"date: “{date}” is not a real day"
    rotations = data.get("rotations_per_round", 1)
    if not isinstance(rotations, int) or isinstance(rotations, bool) or rotations < 1:
        rotations = None

    # Seats are checked against the players only when the players list is readable.
    players_readable = isinstance(data.get("players"), list)
    players: dict[str, str] = {}
    members: dict[str, int] = {}
    keys: dict[int, int] = {}
    for index, player in dicts(data.get("players")):
        # The same rule as a name typed or imported from a list: nothing invisible or
        # direction-changing, which could show as an empty or a spoofed row.
        for what in ("name", "club"):
            text = player.get(what)
            if isinstance(text, str) and (wrong := text_problem(text, what)):
                yield f"players[{index}].{what}: {wrong}"
        member = player.get("member")
        if isinstance(member, str) and member:
            yield from _member_problems(index, player, member, members)
        key = player.get("key")
        if isinstance(key, int) and not isinstance(key, bool):
            if key in keys:
                yield f"players[{index}].key: {key} is also players[{keys[key]}]'s key"
            keys.setdefault(key, index)
        player_id = player.get("id")
        if not isinstance(player_id, str):
            continue
        if player_id in players:
            yield f"players[{index}]: id “{short(player_id)}” is used twice"
        players[player_id] = short(str(player.get("name", player_id)))

    round_numbers: set[int] = set()
    # Each round's number, and whether it has started (a version-1 file's all have).
    started: dict[int, bool] = {}
    for round_index, round_ in dicts(data.get("rounds")):
        round_number = _number(round_, round_index + 1)
        if round_number in round_numbers:
            yield f"rounds[{round_index}]: round {round_number} appears twice"
        round_numbers.add(round_number)
        started.setdefault(round_number, round_.get("started") is not False)
        if round_.get("released") is True and round_.get("started") is False:
            yield f"rounds[{round_index}]: round {round_number} is released but not started"
        seated_at: dict[str, int] = {}
        table_numbers: set[int] = set()
        byes = round_.get("byes")
        for table_index, table in dicts(round_.get("tables")):
            table_number = _number(table, table_index + 1)
            where = f"round {round_number}, table {table_number}"
            if table_number in table_numbers:
                yield f"{where}: table {table_number} appears twice in this round"
            table_numbers.add(table_number)
            seats = table.get("seats")
            seats = seats if isinstance(seats, list) else []
            for position, player_id in enumerate(seats, start=1):
                if not isinstance(player_id, str) or not players_readable:
                    continue
                if player_id not in players:
                    yield f"{where}, seat {position}: unknown player id “{short(player_id)}”"
                elif player_id in seated_at:
                    yield (
                        f"{where}, seat {position}: {players[player_id]} (“{short(player_id)}”) "
                        f"is already seated at table {seated_at[player_id]} in this round"
                    )
                else:
                    seated_at[player_id] = table_number
            size = len(seats)
            deals = table.get("deals")
            if not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE or not isinstance(deals, list):
                continue
            wrong_size = rules.size_problem(size)
            if wrong_size:
                yield f"{where}: {wrong_size}"
            path = f"rounds[{round_index}].tables[{table_index}]"
            # Deals are read by their table's leaves: wrong leaves would make every
            # deal after them look wrong too.
            wrong_leaves = list(
                version_3.leave_problems(
                    f"{path}.left", table.get("left"), size, rotations, len(deals)
                )
            )
            yield from wrong_leaves
            if not wrong_leaves:
                leaves = stored_leaves(table.get("left"))
                yield from deal_problems(
                    where, path, deals, size, rotations, leaves, rules.order_needed
                )
                if not wrong_size:
                    deal_at = f"{where}, deal {{}}"
                    yield from version_4.dealt_size_problems(
                        deal_at, len(deals), size, leaves, rules
                    )
            sheet = table.get("sheet")
            if isinstance(sheet, dict):
                yield from sheet_problems(where, path, sheet, size, rotations, bool(deals), rules)
        if isinstance(byes, list) and players_readable:
            yield from _bye_problems(round_number, byes, players, seated_at)
    if players_readable:
        yield from _keep_apart_problems(data.get("keep_apart"), players)
    yield from version_3.adjustment_problems(
        data, set(players) if players_readable else None, started
    )


def _member_problems(
    index: int, player: dict[str, Any], member: str, members: dict[str, int]
) -> Iterator[str]:
    where = f"players[{index}].member ({short(str(player.get('name', '')))})"
    try:
        cleaned = people.clean_member(member, where)
    except UserError as problem:
        yield str(problem)
        return
    if not cleaned:
        yield f"{where}: the member number is blank; give one, or leave “member” out"
        return
    if cleaned in members:
        yield (
            f"{where}: “{short(cleaned)}” is also players[{members[cleaned]}]'s member number; "
            "a person plays at most once in a tournament"
        )
    members.setdefault(cleaned, index)


def _bye_problems(
    round_number: int, byes: list[object], players: dict[str, str], seated_at: dict[str, int]
) -> Iterator[str]:
    for index, player_id in enumerate(byes):
        if not isinstance(player_id, str):
            continue
        where = f"round {round_number}, byes[{index}]"
        if player_id not in players:
            yield f"{where}: unknown player id “{short(player_id)}”"
        elif player_id in seated_at:
            yield (
                f"{where}: {players[player_id]} (“{short(player_id)}”) sits out this round but "
                f"is also seated at table {seated_at[player_id]}"
            )


def _keep_apart_problems(pairs: object, players: dict[str, str]) -> Iterator[str]:
    if not isinstance(pairs, list):
        return
    seen: set[frozenset[str]] = set()
    for index, pair in enumerate(pairs):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(p, str) for p in pair)
        ):
            continue
        where = f"keep_apart[{index}]"
        unknown = [p for p in pair if p not in players]
        if unknown:
            yield f"{where}: unknown player id “{short(unknown[0])}”"
        elif pair[0] == pair[1]:
            yield f"{where}: a player cannot be kept apart from themselves"
        elif frozenset(pair) in seen:
            yield f"{where}: this pair is listed twice"
        seen.add(frozenset(pair))


def check_bounded(data: object, limit: int = PROBLEMS_SHOWN) -> Problems:
    """The first ``limit`` problems of a parsed tournament file, structure first, and how
    many there are in all."""
    tally = _Tally(limit)
    tally.add(unstorable_text(data))
    if tally.total:
        # Alone: the other checks would quote these characters back in their messages.
        return tally.result()
    structure = structure_problems(data, limit)
    tally.add(structure.shown)
    tally.total += structure.total - len(structure.shown)
    tally.add(rule_problems(data))
    return tally.result()


def check(data: object) -> list[str]:
    """Every problem of a parsed tournament file, structure first."""
    return list(check_bounded(data, sys.maxsize).shown)
