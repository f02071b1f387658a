"""Tournament files: a whole tournament as JSON, to archive, move and restore.

Over 400 lines: the format's checks (structure, the rules of a deal, sheets and their
history) sit with its import and export, because a change to the format changes all of
them in step; the checks come first, in the order docs/tournament-file.md describes.

The format is ``lld-tournament/3`` (``lld-tournament/1`` and ``/2`` files still import),
described by ``docs/tournament-file.schema.json`` (built by ``tournament_file.schema`` from
the same limits as the models and forms) and ``docs/tournament-file.md``. Version 3 adds
the seats that left a table after a deal and the penalties and awards
(``services.file_leaves_adjustments``). Version 2 adds what
decides what the public sees (publishing, started and released rounds, the hold-back),
who runs the tournament (owner and scorers, by user name) and each table's sheet as it
stands with its history. A version-1 file has none of these: its rounds are restored
started but not released, and the tournament unpublished, so that a restore never shows
more than before. Checking a file happens in two layers:

- *structure*, by the JSON Schema: keys, types, required fields. These problems are
  located by JSON path with 0-based indexes, e.g. ``players[5].name``.
- *rules*, by ``scoring``: unique ids, seats that name known players once per round,
  deals per round, and every deal's own rules. These problems are located the way the
  score sheets are: ``round 2, table 3, deal 4``.

A file with any problem changes nothing; every problem is counted at once, and the
first ``PROBLEMS_SHOWN`` are worded (a file of 200,000 bad players must not make
600,000 messages).
"""

from __future__ import annotations

import datetime
import heapq
import json
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Q

from scoring.errors import UserError
from scoring.rules import (
    DealFacts,
    Leave,
    absent_seats,
    deals_in_round,
    leaves_of,
    validate_deal,
)
from scoring.systems import ScoringSystem, SeatSums, table_sums
from scoring.tiebreaks import DEFAULT_TIEBREAKS
from tournament.kernel import limits
from tournament.kernel.names import text_problem
from tournament.models import (
    Adjustment,
    Bye,
    Deal,
    DealResult,
    KeepApart,
    Person,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    SheetVersion,
    Table,
    TablePhone,
    Tournament,
)
from tournament.people import services as people
from tournament.services import kept_ids
from tournament.shared import public_changes
from tournament.shared.locks import lock_rounds
from tournament.sheets.leaves import stored_leaves
from tournament.sheets.rows import Row
from tournament.tournament_file import leaves_adjustments as version_3
from tournament.tournament_file import schema as file_schema
from tournament.tournament_file.schema import FORMAT_1, FORMAT_2, build_schema
from tournament.tournament_file.schema_v3 import FORMAT_3
from tournament.tournaments import links as tournament_links

FORMAT = FORMAT_3
# A person reads the first problems and fixes the cause; the rest are counted.
PROBLEMS_SHOWN = 100
# A real tournament file is a few hundred KB (200 players, 10 rounds of deals); anything
# this large is not one, and is refused before it is parsed.
MAX_BYTES = 20 * 1024 * 1024
# Deal values are checked by scoring.rules.validate_deal, which words problems for scorers.
_DEAL_FIELDS = {"won", "last_in", "left_over"}
_TYPE_WORDS = {
    "object": "an object {…}",
    "array": "a list […]",
    "string": "text",
    "integer": "a whole number",
}


def _problems(count: int) -> str:
    return f"{count} problem{'s' if count != 1 else ''}"


class TournamentFileError(UserError):
    """A tournament file that cannot be imported: ``problems`` lists the first problems
    (every one, unless there are more than ``PROBLEMS_SHOWN``), ``total`` counts all."""

    def __init__(self, problems: Iterable[str], total: int | None = None) -> None:
        self.problems = list(problems)
        self.total = len(self.problems) if total is None else total
        more = self.total - len(self.problems)
        super().__init__(
            f"{_problems(self.total)} in the tournament file:\n"
            + "\n".join(f"  - {p}" for p in self.problems)
            + (f"\n  … and {more} more problem{'s' if more != 1 else ''}" if more else "")
        )


@dataclass(frozen=True)
class Problems:
    """The first problems of a file, worded, and how many there are in all."""

    shown: tuple[str, ...]
    total: int

    def __bool__(self) -> bool:
        return self.total > 0

    def error(self) -> TournamentFileError:
        return TournamentFileError(self.shown, self.total)


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


class TournamentExistsError(UserError):
    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(f"a tournament with the slug “{slug}” already exists")


@cache
def schema() -> dict[str, Any]:
    return build_schema()


def parse(text: str | bytes, *, limit: int = MAX_BYTES, what: str = "a tournament file") -> Any:
    """The JSON document ``text`` holds; problems say where (line and column), and a
    document larger than ``limit`` bytes is refused as no ``what``."""
    if len(text) > limit:
        raise TournamentFileError(
            [f"the file is larger than {limit // 1024 // 1024} MB: is it {what}?"]
        )
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        return json.loads(text)
    except UnicodeDecodeError:
        raise TournamentFileError(["the file is not UTF-8 text"]) from None
    except json.JSONDecodeError as error:
        raise TournamentFileError(
            [f"line {error.lineno}, column {error.colno}: not valid JSON ({error.msg})"]
        ) from None
    except RecursionError:
        raise TournamentFileError(
            ["the file is nested too deeply: lists or objects inside one another hundreds of times"]
        ) from None
    except ValueError:
        # Python refuses to read whole numbers of more than 4300 digits.
        raise TournamentFileError([_long_number(str(text))]) from None


def _long_number(text: str) -> str:
    found = re.search(r"[0-9]{4301,}", text)
    if found is None:
        return "the file holds a number too long to read"
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - text.rfind("\n", 0, found.start())
    digits = len(found[0])
    return f"line {line}, column {column}: a number of {digits} digits is too long to read"


# Text that cannot be stored --------------------------------------------------------------

# JSON's \u escapes can write both: PostgreSQL refuses NUL in text, and a lone half of a
# UTF-16 surrogate pair cannot be encoded as UTF-8 at all (not even into an error message).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _unstorable(text: str) -> str | None:
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    return f"a character that cannot be stored (U+{ord(found[0]):04X})"


def unstorable_text(data: object) -> Iterator[str]:
    """Every string (or key) of a parsed file holding a character no database stores."""
    # A loop, not recursion: a file may nest as deep as the JSON parser allows.
    todo: list[tuple[tuple[object, ...], object]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, str):
            if what := _unstorable(value):
                yield f"{json_path(path)}: contains {what}"
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                if what := _unstorable(str(key)):
                    yield f"{json_path(path)}: a key contains {what}"
                else:
                    todo.append(((*path, key), item))
        elif isinstance(value, list):
            todo.extend(((*path, index), item) for index, item in reversed(list(enumerate(value))))


# Structure ------------------------------------------------------------------------------


def short(text: str, limit: int = 40) -> str:
    """Text from the file quoted in a problem, cut short (a 10 MB name must not make a
    10 MB message), its control and invisible characters shown by their codes (a name
    that is only a line break must not make a message that seems to say nothing)."""
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return "".join(
        f"U+{ord(char):04X}" if unicodedata.category(char) in ("Cc", "Cf") else char
        for char in text
    )


def json_path(path: Iterable[object]) -> str:
    text = ""
    for part in path:
        shown = short(str(part))
        text += f"[{part}]" if isinstance(part, int) else (f".{shown}" if text else shown)
    return text or "the file"


def _is_whole_number(checker: object, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# JSON Schema counts 1.0 as an integer, but Python reads it as a float, which the rules
# (unique round and table numbers, deals per round) would then not recognise as a number.
_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number),
)


def _describe(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    for kind, words in _TYPE_WORDS.items():
        if _Validator.TYPE_CHECKER.is_type(value, kind):
            return f"{words} {short(json.dumps(value))}" if kind in ("string", "integer") else words
    return short(json.dumps(value))


def _expected(kinds: str | list[str]) -> str:
    words = {**_TYPE_WORDS, "null": "null", "boolean": "true or false"}
    return " or ".join(
        words.get(kind, kind) for kind in ([kinds] if isinstance(kinds, str) else kinds)
    )


def _schema_message(error: jsonschema.ValidationError) -> str:
    where = json_path(error.absolute_path)
    value = error.instance
    match error.validator:
        case "type":
            return f"{where}: expected {_expected(error.validator_value)}, found {_describe(value)}"
        case "required":
            missing = [key for key in error.validator_value if key not in value]
            return f"{where}: “{missing[0]}” is missing"
        case "additionalProperties":
            known = set(error.schema.get("properties", {}))
            extra = sorted(key for key in value if key not in known)
            return f"{where}: unknown key{'s' if len(extra) > 1 else ''} " + ", ".join(
                f"“{short(key)}”" for key in extra
            )
        case "not" if error.absolute_path and error.absolute_path[-1] == "slug":
            return f"{where}: “{short(value)}” is the name of one of the app's own pages"
        case "const" | "enum":
            allowed = error.validator_value
            allowed = [allowed] if error.validator == "const" else allowed
            choices = ", ".join(json.dumps(a) for a in allowed)
            return f"{where}: {short(json.dumps(value))} is not one of: {choices}"
        case "minLength" | "pattern" if error.absolute_path and error.absolute_path[-1] == "name":
            return f"{where}: a name must not be empty"
        case "pattern" if error.absolute_path and error.absolute_path[-1] == "at":
            return f"{where}: “{short(value)}” is not a time written like 2026-11-22T03:15:07+00:00"
        case "pattern" if error.absolute_path and error.absolute_path[-1] == "date":
            return f"{where}: “{short(value)}” is not a date written YYYY-MM-DD"
        case "pattern" if error.absolute_path and error.absolute_path[-1] == "slug":
            return (
                f"{where}: “{short(value)}” is not a valid slug "
                "(lower-case letters, digits and single hyphens)"
            )
        case "minimum":
            return f"{where}: {short(str(value))} is less than {error.validator_value}"
        case "maximum":
            return f"{where}: {short(str(value))} is more than {error.validator_value}"
        case "minItems" | "maxItems" if error.absolute_path[-1] == "seats":
            return f"{where}: {len(value)} seats — a table seats 3 to 6 players"
        case "uniqueItems":
            return f"{where}: a key is listed twice"
        case "maxLength":
            return f"{where}: longer than {error.validator_value} characters"
    return f"{where}: {short(error.message, 200)}"


def _inside_a_deal(path: tuple[object, ...]) -> bool:
    return len(path) >= 7 and path[4] == "deals" and path[6] in _DEAL_FIELDS


def _path_order(error: jsonschema.ValidationError) -> list[tuple[int, int | str]]:
    """Problems in the file's order: players[2] before players[10]."""
    return [(0, p) if isinstance(p, int) else (1, str(p)) for p in error.absolute_path]


def structure_problems(data: object, limit: int = sys.maxsize) -> Problems:
    """The first ``limit`` problems of structure in path order, worded, and their count:
    only the ones shown are kept and worded, however many there are."""
    return problems_against(schema(), data, limit, skip=_inside_a_deal)


def problems_against(
    against: Mapping[str, Any],
    data: object,
    limit: int = sys.maxsize,
    skip: Callable[[tuple[object, ...]], bool] = lambda path: False,
) -> Problems:
    """The first ``limit`` problems of ``data`` against the JSON Schema ``against`` (this
    format's or another's, such as a backup's installation file), in path order, worded
    as a tournament file's are; problems at a path ``skip`` accepts are left out."""
    validator = _Validator(against)
    total = 0

    def counted() -> Iterator[jsonschema.ValidationError]:
        nonlocal total
        for error in validator.iter_errors(data):
            if not skip(tuple(error.absolute_path)):
                total += 1
                yield error

    first = heapq.nsmallest(limit, counted(), key=_path_order)
    return Problems(tuple(_schema_message(error) for error in first), total)


# Rules ----------------------------------------------------------------------------------


def _dicts(value: object) -> Iterator[tuple[int, dict[str, Any]]]:
    """The (index, item) pairs of a list that are objects; anything else was reported by
    the structure check already."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item


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
    for index, player in _dicts(data.get("players")):
        yield from (f"players[{index}].{key}" for key in in_player if key in player)
    for index, round_ in _dicts(data.get("rounds")):
        yield from (f"rounds[{index}].{key}" for key in in_round if key in round_)
        for table_index, table in _dicts(round_.get("tables")):
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
    name = data.get("name")
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
    for index, player in _dicts(data.get("players")):
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
    for round_index, round_ in _dicts(data.get("rounds")):
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
        for table_index, table in _dicts(round_.get("tables")):
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
            if not 3 <= size <= 6 or not isinstance(deals, list):
                continue
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
                yield from _deal_problems(where, path, deals, size, rotations, leaves)
            sheet = table.get("sheet")
            if isinstance(sheet, dict):
                yield from _sheet_problems(where, path, sheet, size, rotations, bool(deals))
        if isinstance(byes, list) and players_readable:
            yield from _bye_problems(round_number, byes, players, seated_at)
    if players_readable:
        yield from _keep_apart_problems(data.get("keep_apart"), players)
    yield from version_3.adjustment_problems(
        data, set(players) if players_readable else None, started
    )


def _deal_problems(
    where: str,
    path: str,
    deals: list[object],
    size: int,
    rotations: int | None,
    leaves: tuple[Leave, ...],
) -> Iterator[str]:
    """A table's deals: how many the round holds, and each deal's own rules, a seat that
    had left having no count (``null``) and never being last in."""
    if rotations is not None and len(deals) > deals_in_round(size, rotations, leaves):
        yield f"{where}: {_too_many(len(deals), 'deals', size, rotations, leaves)}"
    for deal_index, deal in _dicts(deals):
        won = deal.get("won")
        if "won" in deal and not isinstance(won, list):
            # The schema's own message about it is dropped with the deal's others.
            yield (
                f"{where}, deal {deal_index + 1}: cards won: expected a list of counts, "
                f"one per seat, found {_describe(won)}"
            )
        if not isinstance(won, list):
            continue
        number = deal_index + 1
        yield from version_3.absent_counts(f"{path}.deals[{deal_index}]", won, number, leaves)
        for problem in validate_deal(
            version_3.blanked(won, number, leaves),
            deal.get("last_in"),
            deal.get("left_over"),
            size,
            absent_seats(number, leaves),
        ):
            yield f"{where}, deal {number}: {problem}"


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


def _too_many(
    count: int, what: str, size: int, rotations: int, leaves: tuple[Leave, ...] = ()
) -> str:
    plural = "s" if rotations > 1 else ""
    left = "".join(
        f", seat {leave.seat} having left after deal {leave.after_deal}" for leave in leaves
    )
    return (
        f"{count} {what}, but a table of {size} plays at most "
        f"{deals_in_round(size, rotations, leaves)} in a round ({rotations} rotation{plural}"
        f"{left})"
    )


_TIME = file_schema.TIME_PATTERN


def _sheet_problems(
    where: str,
    path: str,
    sheet: dict[str, Any],
    size: int,
    rotations: int | None,
    has_deals: bool,
) -> Iterator[str]:
    """A table's sheet as it stands: what is typed fits the table, what awaits
    confirmation passes the rules (confirming it writes it as the table's deals); ``path``
    is the table's JSON path, for its leaves."""
    status = sheet.get("status")
    pending = sheet.get("pending")
    pending = [row for _, row in _dicts(pending)] if isinstance(pending, list) else []
    wrong_leaves = list(version_3.pending_left_problems(path, sheet, size, rotations))
    yield from wrong_leaves
    leaves = stored_leaves(sheet.get("pending_left"))
    # Rows awaiting confirmation are read by the sheet's leaves, once those are right.
    checked = status == SheetStatus.ENTERED and not wrong_leaves
    if status == SheetStatus.NOT_STARTED and (pending or has_deals):
        yield f"{where}: the sheet is “not_started”, but it holds deals"
    if status == SheetStatus.CONFIRMED and pending:
        yield f"{where}: the sheet is “confirmed”, but it holds rows awaiting confirmation"
    # A draft may hold more rows than a round has deals (the scorer removes them before
    # saving it complete); a sheet awaiting confirmation may not.
    if checked and rotations is not None and len(pending) > deals_in_round(size, rotations, leaves):
        many = _too_many(len(pending), "deals awaiting confirmation", size, rotations, leaves)
        yield f"{where}: {many}"
    for number, row in enumerate(pending, start=1):
        won = row.get("won")
        if not isinstance(won, list):
            continue
        if len(won) != size:
            yield (
                f"{where}: row {number} of its sheet has {len(won)} counts of cards won for a "
                f"table of {size}"
            )
        elif checked:
            yield from version_3.absent_counts(
                f"{path}.sheet.pending[{number - 1}]", won, number, leaves
            )
            for problem in validate_deal(
                version_3.blanked(won, number, leaves),
                row.get("last_in"),
                row.get("left_over"),
                size,
                absent_seats(number, leaves),
            ):
                yield f"{where}: deal {number} awaiting confirmation: {problem}"
    yield from version_3.history_left_problems(path, sheet, size, rotations)
    numbers: set[int] = set()
    for _, version in _dicts(sheet.get("history")):
        version_number = version.get("number")
        if not isinstance(version_number, int):
            continue
        if version_number in numbers:
            yield (f"{where}: version {version_number} of its sheet appears twice in its history")
        numbers.add(version_number)
        at = version.get("at")
        if isinstance(at, str) and re.fullmatch(_TIME, at):
            try:
                datetime.datetime.fromisoformat(at)
            except ValueError:
                yield (
                    f"{where}: version {version_number} of its sheet: “{short(at)}” is not a time"
                )


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


# Import and export ----------------------------------------------------------------------


@contextmanager
def consistent_read() -> Iterator[None]:
    """A read-only transaction whose queries all see the database at one moment: an
    export read inside it never holds half of a sheet confirmed meanwhile."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        # PostgreSQL's default READ COMMITTED gives each query its own moment; SQLite's
        # transactions already read one moment. Inside an outer transaction (tests) the
        # isolation level can no longer be changed.
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


@dataclass(frozen=True)
class ImportSummary:
    tournament: Tournament
    players: int
    rounds: int
    deals: int
    replaced: bool
    # User names the file gives (owner, scorers, sheets' authors) with no account here.
    missing_users: tuple[str, ...] = ()
    # What the person restoring should know (what a version-1 file could not say).
    notes: tuple[str, ...] = ()


VERSION_1_NOTE = (
    f"a “{FORMAT_1}” file does not say which rounds were released, whether the tournament "
    "was published, nor who organises and scores it: every round is restored started but "
    "not released, the tournament is not published and has no organiser (a superuser "
    "can release the rounds, publish it and give it an organiser)"
)


VERSION_1_PUBLISHED_NOTE = (
    f"a “{FORMAT_1}” file does not say who organises and scores the tournament: it has no "
    "organiser (a superuser can give it one); its played rounds were released as it was "
    "published"
)


def import_tournament(
    data: object, *, replace: bool = False, publish: bool = False
) -> ImportSummary:
    """Store a whole tournament file, all or nothing; ``publish`` publishes it as well
    (see ``_publish``).

    Raises ``TournamentFileError`` listing the first problems, or ``TournamentExistsError``
    when the slug is taken and ``replace`` is false; the database is then unchanged. A
    replace keeps what the file does not hold: the tournament's series entries and its
    players' people (``tournament_links``).
    """
    problems = check_bounded(data)
    if problems:
        raise problems.error()
    assert isinstance(data, dict)
    slug = slug_for(data)
    # One mark of the public pages at the end, not a cache receiver's query for each of
    # the thousands of rows deleted and written.
    with public_changes.quietly(), transaction.atomic():
        # The rounds before the tournament row, in the order of ``kernel.locks``: a sheet
        # save holds its round and then marks the tournament's public pages changed.
        found = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
        if found is not None and replace:
            lock_rounds(found)
        existing = Tournament.objects.select_for_update().filter(slug=slug).first()
        if existing is not None and not replace:
            raise TournamentExistsError(slug)
        links = None
        if existing is not None:
            # Its series entries and its players' people are no part of the file.
            links = tournament_links.links_of(existing)
            _delete(existing)
        summary = _create(data, slug)
        if links is not None:
            tournament_links.give_back(links, summary["tournament"])
        if publish:
            _publish(summary["tournament"], data["format"])
    notes: tuple[str, ...] = ()
    if data["format"] == FORMAT_1:
        notes = (VERSION_1_PUBLISHED_NOTE if publish else VERSION_1_NOTE,)
    return ImportSummary(replaced=existing is not None, notes=notes, **summary)


def create_checked(data: dict[str, Any]) -> ImportSummary:
    """Store a tournament file that ``check_bounded`` found right and whose slug is free,
    in the caller's transaction: one of the files of a whole backup (``services.restore``)."""
    return ImportSummary(replaced=False, **_create(data, slug_for(data)))


def _publish(tournament: Tournament, version: str) -> None:
    """Publish an imported tournament (``import_tournament --publish``: archives put
    together by hand, to count in a series). A version-2 file says which rounds were
    released, and that stands; a version-1 file does not, and its rounds were played, so
    they are released. Sheets count publicly only when confirmed, as ever."""
    tournament.published = True
    tournament.save(update_fields=["published"])
    if version == FORMAT_1:
        Round.objects.filter(tournament=tournament, started=True).update(released=True)
    public_changes.mark_changed(tournament.pk)


def delete_tournament(tournament: Tournament) -> None:
    """Delete a tournament and everything in it, in bulk: the public pages' cache is
    told once (``public_changes.quietly``), not once for every player, round and seat."""
    with public_changes.quietly(), transaction.atomic():
        _delete(tournament)


def _delete(tournament: Tournament) -> None:
    # The rows of the tables first, leaves before what they point to, one statement a
    # model and none of the tens of thousands of rows loaded: Django's collector would
    # fetch every deal and seat to cascade from them. Nothing else points at these rows,
    # and the caller is quiet (``public_changes.quietly``), so no receiver is owed them.
    of_tables = Q(table__round__tournament=tournament)
    for rows in (
        Adjustment.objects.filter(tournament=tournament),
        DealResult.objects.filter(deal__table__round__tournament=tournament),
        Deal.objects.filter(of_tables),
        SheetVersion.objects.filter(sheet__table__round__tournament=tournament),
        Sheet.objects.filter(of_tables),
        TablePhone.objects.filter(of_tables),
        Seat.objects.filter(round__tournament=tournament),
        Bye.objects.filter(round__tournament=tournament),
        Table.objects.filter(round__tournament=tournament),
    ):
        rows._raw_delete(rows.db)
    # Seats protect players from deletion, so remove the rounds before the tournament.
    Round.objects.filter(tournament=tournament).delete()
    tournament.delete()


# Tournament settings stored under the same name in a file and on the model.
_SETTINGS = (
    "venue",
    "planned_rounds",
    "table_policy",
    "table_sizes",
    "bye_score",
    "keep_clubs_apart_rounds",
)
# Version 2: what decides what the public sees and how sheets are typed in, under the
# same name in a file and on the model. Table codes and phones are not in a file: a
# restored tournament's tables get new codes (the old paper sheets' codes stop working).
_PUBLIC_SETTINGS = (
    "published",
    "hold_back_rounds",
    "two_person_check",
    "seating_public",
    "round_minutes",
    "finished",
    "table_entry",
    "table_confirm",
)


def _user_names(data: dict[str, Any]) -> set[str]:
    names = {data.get("owner"), *data.get("scorers", [])}
    for round_ in data["rounds"]:
        for table in round_["tables"]:
            sheet = table.get("sheet", {})
            names |= {sheet.get("entered_by"), sheet.get("confirmed_by")}
            names |= {version.get("by") for version in sheet.get("history", [])}
    names |= version_3.user_names(data)
    names.discard(None)
    return names


def _create(data: dict[str, Any], slug: str) -> dict[str, Any]:
    date = data.get("date")
    names = _user_names(data)
    users = {user.username: user for user in get_user_model().objects.filter(username__in=names)}
    key = _kept(Tournament, [data.get("key")])
    tournament = Tournament.objects.create(
        pk=data.get("key") if key else None,
        name=data["name"],
        slug=slug,
        date=datetime.date.fromisoformat(date) if date else None,
        scoring=data.get("scoring", ScoringSystem.WINNER_ADVANTAGE.value),
        rotations_per_round=data.get("rotations_per_round", 1),
        tiebreaks=list(data.get("tiebreaks", DEFAULT_TIEBREAKS)),
        owner=users.get(data.get("owner")),  # type: ignore[arg-type]
        **{key: data[key] for key in (*_SETTINGS, *_PUBLIC_SETTINGS) if key in data},
    )
    tournament.scorers.set([users[name] for name in data.get("scorers", []) if name in users])
    keys = _kept(Player, [p.get("key") for p in data["players"]])
    players = Player.objects.bulk_create(
        Player(
            pk=p.get("key") if p.get("key") in keys else None,
            tournament=tournament,
            ref=p["id"],
            name=p["name"],
            club=p.get("club", ""),
            active=p.get("active", True),
            checked_in=p.get("checked_in", False),
            fixed_table=p.get("fixed_table"),
        )
        for p in data["players"]
    )
    player_by_ref = {player.ref: player for player in players}
    _link_members(players, [p.get("member", "") for p in data["players"]])
    KeepApart.objects.bulk_create(
        KeepApart(tournament=tournament, first=player_by_ref[a], second=player_by_ref[b])
        for a, b in data.get("keep_apart", [])
    )
    # Never more public than the file says: a version-1 file does not say, so its rounds
    # are started (they were played) but not released.
    rounds = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=r["number"],
            started=r.get("started", True),
            released=r.get("released", False),
        )
        for r in data["rounds"]
    )
    # Flatten the file's tree into (round, table data) and (table, deal data) lists so
    # that each level is one bulk insert.
    round_tables = [
        (round_, t) for round_, r in zip(rounds, data["rounds"], strict=True) for t in r["tables"]
    ]
    tables = Table.objects.bulk_create(
        Table(round=round_, number=t["number"], left=t.get("left", []))
        for round_, t in round_tables
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round=round_,
            position=position,
            player=player_by_ref[ref],
            **Seat.sum_values(sums),
        )
        for table, (round_, t) in zip(tables, round_tables, strict=True)
        for position, (ref, sums) in enumerate(zip(t["seats"], _seat_sums(t), strict=True), start=1)
    )
    Bye.objects.bulk_create(
        Bye(round=round_, player=player_by_ref[ref])
        for round_, r in zip(rounds, data["rounds"], strict=True)
        for ref in r.get("byes", [])
    )
    table_deals = [
        (table, number, d)
        for table, (_, t) in zip(tables, round_tables, strict=True)
        for number, d in enumerate(t["deals"], start=1)
    ]
    deals = Deal.objects.bulk_create(
        Deal(table=table, number=number, last_in=d["last_in"], left_over=d["left_over"])
        for table, number, d in table_deals
    )
    DealResult.objects.bulk_create(
        DealResult(deal=deal, seat=seat, won=won)
        for deal, (_, _, d) in zip(deals, table_deals, strict=True)
        for seat, won in enumerate(d["won"], start=1)
        # A seat that had left the table has no count in the deal.
        if won is not None
    )
    sheets = Sheet.objects.bulk_create(
        _sheet(table, t, tournament.rotations_per_round, users)
        for table, (_, t) in zip(tables, round_tables, strict=True)
    )
    _create_history(sheets, [t for _, t in round_tables], users)
    version_3.create_adjustments(tournament, data, player_by_ref, rounds, users)
    return {
        "tournament": tournament,
        "players": len(players),
        "rounds": len(rounds),
        "deals": len(deals),
        "missing_users": tuple(sorted(names - set(users))),
    }


def _seat_sums(table: dict[str, Any]) -> tuple[SeatSums, ...]:
    """Each seat's sums over a file's table, for the deals it took part in."""
    deals = [DealFacts(tuple(d["won"]), d["last_in"], d["left_over"]) for d in table["deals"]]
    return table_sums(deals, len(table["seats"]), leaves_of(table.get("left", [])))


def _link_members(players: list[Player], members: list[str]) -> None:
    """Link each player given a member number to the person who has it, made from the
    player when nobody has it yet."""
    given = {player: member.strip() for player, member in zip(players, members, strict=True)}
    given = {player: member for player, member in given.items() if member}
    if not given:
        return
    found = {p.member: p for p in Person.objects.filter(member__in=set(given.values()))}
    for player, member in given.items():
        if member not in found:
            found[member] = people.add_person(player.name, player.club, member)
        player.person = found[member]
    Player.objects.bulk_update(list(given), ["person"])


def _sheet(table: Table, data: dict[str, Any], rotations: int, users: dict[str, Any]) -> Sheet:
    deals = data["deals"]
    leaves = leaves_of(data.get("left", []))
    stopped_early = 0 < len(deals) < deals_in_round(len(data["seats"]), rotations, leaves)
    saved = data.get("sheet")
    if saved is None:
        # Without a sheet (a version-1 file, or nobody saved one), the deals are the
        # official facts: the sheet is confirmed.
        status = SheetStatus.CONFIRMED if deals else SheetStatus.NOT_STARTED
        return Sheet(table=table, status=status, stopped_early=stopped_early)
    history = saved.get("history", [])
    return Sheet(
        table=table,
        status=saved["status"],
        version=max((version["number"] for version in history), default=0),
        pending=saved.get("pending", []),
        pending_left=saved.get("pending_left", []),
        stopped_early=saved.get("stopped_early", stopped_early),
        entered_by=users.get(saved.get("entered_by")),
        confirmed_by=users.get(saved.get("confirmed_by")),
        entered_by_phone=saved.get("entered_by_phone"),
        confirmed_by_phone=saved.get("confirmed_by_phone"),
    )


def _create_history(
    sheets: list[Sheet], tables: list[dict[str, Any]], users: dict[str, Any]
) -> None:
    versions = SheetVersion.objects.bulk_create(
        SheetVersion(
            sheet=sheet,
            number=version["number"],
            action=version["action"],
            status=version["status"],
            deals=version["deals"],
            changes=version.get("changes", []),
            left=version.get("left", []),
            by=users.get(version.get("by")),
            phone=version.get("phone"),
        )
        for sheet, table in zip(sheets, tables, strict=True)
        for version in table.get("sheet", {}).get("history", [])
    )
    saved_at = [
        version.get("at")
        for table in tables
        for version in table.get("sheet", {}).get("history", [])
    ]
    # ``at`` is set to now on insert; the file's times are put back after, and a sheet was
    # last saved when its last version was (what the desk's "4 minutes ago" reads).
    dated = []
    last_saved: dict[int, datetime.datetime] = {}
    for version, at in zip(versions, saved_at, strict=True):
        if at is not None:
            version.at = datetime.datetime.fromisoformat(at)
            dated.append(version)
            last_saved[version.sheet_id] = max(
                version.at, last_saved.get(version.sheet_id, version.at)
            )
    SheetVersion.objects.bulk_update(dated, ["at"], batch_size=500)
    saved_sheets = [sheet for sheet in sheets if sheet.pk in last_saved]
    for sheet in saved_sheets:
        sheet.updated = last_saved[sheet.pk]
    Sheet.objects.bulk_update(saved_sheets, ["updated"], batch_size=500)


def _kept(model: type[Tournament] | type[Player], keys: list[int | None]) -> set[int]:
    """Of the ids a file keeps for ``model``'s rows, those free here, with the database
    told never to hand them out (``kept_ids``)."""
    free = kept_ids.free_ids(model, keys)
    if free:
        kept_ids.make_room(model, max(free))
    return free


def export_tournament(tournament: Tournament, *, released_only: bool = False) -> dict[str, Any]:
    """The tournament as a file: its confirmed facts, what the public sees and who runs
    it, and its sheets as they stand; importing it and exporting again gives the same
    file. ``released_only`` keeps only the rounds released to the public, and leaves out
    what is private to the organiser (players kept apart, fixed tables, the organiser and
    scorers, sheets)."""
    rounds: dict[str, object] = {"released": True} if released_only else {}

    def on(path: str) -> dict[str, object]:
        return {f"{path}{key}": value for key, value in rounds.items()}

    players = list(
        Player.objects.filter(tournament=tournament).values_list(
            "pk", "ref", "name", "club", "active", "checked_in", "fixed_table", "person__member"
        )
    )
    refs = {pk: ref for pk, ref, *_ in players}
    byes: dict[int, list[str]] = {}
    for round_id, player_id in (
        Bye.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("round_id", "player_id")
        .order_by("round_id", "player_id")
    ):
        byes.setdefault(round_id, []).append(refs[player_id])
    seats: dict[int, list[str]] = {}
    for table_id, player_id in (
        Seat.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("table_id", "player_id")
        .order_by("table_id", "position")
    ):
        seats.setdefault(table_id, []).append(refs[player_id])
    results: dict[int, dict[int, int]] = {}
    for deal_id, seat, won in DealResult.objects.filter(
        deal__table__round__tournament=tournament, **on("deal__table__round__")
    ).values_list("deal_id", "seat", "won"):
        results.setdefault(deal_id, {})[seat] = won
    deals: dict[int, list[Row]] = {}
    for deal_id, table_id, last_in, left_over in (
        Deal.objects.filter(table__round__tournament=tournament, **on("table__round__"))
        .values_list("pk", "table_id", "last_in", "left_over")
        .order_by("table_id", "number")
    ):
        # A seat that had left the table has no count: null.
        counts = results.get(deal_id, {})
        cells: list[int | str | None] = [
            counts.get(seat) for seat in range(1, len(seats.get(table_id, [])) + 1)
        ]
        deals.setdefault(table_id, []).append(Row(won=cells, last_in=last_in, left_over=left_over))
    sheets = {} if released_only else _sheets(tournament)
    tables: dict[int, list[dict[str, Any]]] = {}
    for table_id, round_id, number, left in (
        Table.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("pk", "round_id", "number", "left")
        .order_by("round_id", "number")
    ):
        tables.setdefault(round_id, []).append(
            {
                "number": number,
                "seats": seats.get(table_id, []),
                "deals": deals.get(table_id, []),
                **({"left": left} if left else {}),
                **({"sheet": sheets[table_id]} if table_id in sheets else {}),
            }
        )
    return {
        "format": FORMAT,
        "name": tournament.name,
        **({} if released_only else {"key": tournament.pk}),
        "slug": tournament.slug,
        **({"date": tournament.date.isoformat()} if tournament.date else {}),
        "scoring": tournament.scoring,
        "rotations_per_round": tournament.rotations_per_round,
        "tiebreaks": list(tournament.tiebreaks),
        **{key: getattr(tournament, key) for key in (*_SETTINGS, *_PUBLIC_SETTINGS)},
        **({} if released_only else _people(tournament)),
        **({} if released_only else {"keep_apart": _keep_apart_refs(tournament, refs)}),
        "players": [
            {
                "id": ref,
                **({} if released_only else {"key": pk}),
                "name": name,
                "club": club,
                **({} if active else {"active": False}),
                # Who is here tonight decides who the next round seats; not public.
                **({"checked_in": True} if checked_in and not released_only else {}),
                **({"fixed_table": fixed} if fixed and not released_only else {}),
                **({"member": member} if member else {}),
            }
            for pk, ref, name, club, active, checked_in, fixed, member in players
        ],
        "rounds": [
            {
                "number": number,
                "started": started,
                "released": released,
                "tables": tables.get(round_id, []),
                **({"byes": byes[round_id]} if round_id in byes else {}),
            }
            for round_id, number, started, released in Round.objects.filter(
                tournament=tournament, **rounds
            )
            .values_list("pk", "number", "started", "released")
            .order_by("number")
        ],
        **version_3.export_adjustments(tournament, refs, released_only=released_only),
    }


def _people(tournament: Tournament) -> dict[str, Any]:
    return {
        "owner": tournament.owner.get_username() if tournament.owner else None,
        "scorers": sorted(user.get_username() for user in tournament.scorers.all()),
    }


def _sheets(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """The sheets someone has saved, by table id, each with its history."""
    history: dict[int, list[dict[str, Any]]] = {}
    for sheet_id, number, action, status, rows, changes, left, by, phone, at in (
        SheetVersion.objects.filter(sheet__table__round__tournament=tournament)
        .values_list(
            "sheet_id",
            "number",
            "action",
            "status",
            "deals",
            "changes",
            "left",
            "by__username",
            "phone",
            "at",
        )
        .order_by("sheet_id", "number")
    ):
        history.setdefault(sheet_id, []).append(
            {
                "number": number,
                "action": action,
                "status": status,
                "deals": rows,
                "changes": changes,
                **({"left": left} if left else {}),
                "by": by,
                **_phone("phone", phone),
                "at": at.isoformat(),
            }
        )
    sheets = {}
    for (
        sheet_id,
        table_id,
        status,
        pending,
        pending_left,
        stopped_early,
        entered_by,
        confirmed_by,
        entered_by_phone,
        confirmed_by_phone,
    ) in (
        Sheet.objects.filter(table__round__tournament=tournament)
        .filter(Q(version__gt=0) | Q(status__in=[SheetStatus.DRAFT, SheetStatus.ENTERED]))
        .values_list(
            "pk",
            "table_id",
            "status",
            "pending",
            "pending_left",
            "stopped_early",
            "entered_by__username",
            "confirmed_by__username",
            "entered_by_phone",
            "confirmed_by_phone",
        )
    ):
        sheets[table_id] = {
            "status": status,
            "stopped_early": stopped_early,
            "pending": pending,
            **({"pending_left": pending_left} if pending_left else {}),
            "entered_by": entered_by,
            "confirmed_by": confirmed_by,
            # Saved at the table, not by a user: "table 4, phone 2" in the history.
            **_phone("entered_by_phone", entered_by_phone),
            **_phone("confirmed_by_phone", confirmed_by_phone),
            "history": history.get(sheet_id, []),
        }
    return sheets


def _phone(key: str, number: int | None) -> dict[str, int]:
    return {} if number is None else {key: number}


def _keep_apart_refs(tournament: Tournament, refs: dict[int, str]) -> list[list[str]]:
    return [
        [refs[first], refs[second]]
        for first, second in KeepApart.objects.filter(tournament=tournament)
        .values_list("first_id", "second_id")
        .order_by("pk")
    ]


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
