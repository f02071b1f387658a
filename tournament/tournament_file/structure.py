"""The structure of a tournament file, checked by its JSON Schema: keys, types, required
fields, and text no database can store.

These problems are located by JSON path with 0-based indexes, e.g. ``players[5].name``,
and worded for a person (``_schema_message``); only the ones shown are worded. The rules
(``checking``) come after, on whatever the structure check let through.
"""

from __future__ import annotations

import heapq
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import jsonschema

from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.rulesets import RULE_SETS
from tournament.tournament_file.problems import (
    NOT_A_SIZE_KEY,
    Problems,
    json_key,
    json_path,
    short,
)
from tournament.tournament_file.schema import build_schema

# Deal values are checked by scoring.rules.validate_deal, which words problems for scorers.
_DEAL_FIELDS = {"won", "last_in", "left_over", "laid_down"}
_TYPE_WORDS = {
    "object": "an object {…}",
    "array": "a list […]",
    "string": "text",
    "integer": "a whole number",
}


@cache
def schema() -> dict[str, Any]:
    return build_schema()


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


def _is_whole_number(checker: object, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# JSON Schema counts 1.0 as an integer, but Python reads it as a float, which the rules
# (unique round and table numbers, deals per round) would then not recognise as a number.
_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number),
)


def describe(value: object) -> str:
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
            return f"{where}: expected {_expected(error.validator_value)}, found {describe(value)}"
        case "required":
            # One error per key missing; its message names it ("'name' is a required …").
            missing = [key for key in error.validator_value if key not in value]
            named = [key for key in missing if error.message.startswith(f"{key!r} ")]
            return f"{where}: “{(named or missing)[0]}” is missing"
        case "additionalProperties":
            known = set(error.schema.get("properties", {}))
            extra = sorted(key for key in value if key not in known)
            return f"{where}: unknown key{'s' if len(extra) > 1 else ''} " + ", ".join(
                f"“{short(key)}”" for key in extra
            )
        case "not" if error.absolute_path and error.absolute_path[-1] == "slug":
            return f"{where}: “{short(value)}” is the name of one of the app's own pages"
        case "enum" if list(error.absolute_path) == ["rule_set"]:
            presets = ", ".join(f"“{key}”" for key in RULE_SETS)
            return (
                f"{where}: “{short(str(value))}” is not a rule set; the rule sets are {presets}, "
                "or house rules as an object of numbers per table size"
            )
        case "enum" if "propertyNames" in error.schema_path:
            # The house rules' table sizes: the key is the value checked, not a place.
            key = str(value)
            return f"{where}[{json_key(key)}]: {NOT_A_SIZE_KEY.format(key=short(key))}"
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
            return (
                f"{where}: {len(value)} seats — a table seats {MIN_TABLE_SIZE} to "
                f"{MAX_TABLE_SIZE} players"
            )
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
