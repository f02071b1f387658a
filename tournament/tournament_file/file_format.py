"""The tournament file as a whole: its format, its settings and its JSON text.

The format is ``lld-tournament/4`` (``lld-tournament/1`` to ``/3`` files still import),
described by ``docs/tournament-file.schema.json`` (built by ``schema`` from the same
limits as the models and forms) and ``docs/tournament-file.md``. Version 4 adds the rule
set (a preset's key or the house-rule numbers), Caidis scoring and each deal's
lying-down order (``rule_sets``); an older file plays under the standard rule set.
Version 3 adds the seats that left a table after a deal and the penalties and awards
(``leaves_adjustments``). Version 2 adds what decides what the public sees (publishing,
started and released rounds, the hold-back), who runs the tournament (owner and
scorers, by user name) and each table's sheet as it stands with its history. A
version-1 file has none of these: its rounds are restored started but not released, and
the tournament unpublished, so that a restore never shows more than before.

``parse`` reads a file's text (``checking`` then checks what it holds), ``dumps``
writes it. A key given twice in one object is refused, naming the object's place: JSON
readers keep one of the two silently, and which one the file meant cannot be known.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from scoring.rules import DealFacts
from tournament.tournament_file.problems import (
    PROBLEMS_SHOWN,
    TournamentFileError,
    json_key,
    json_path,
)
from tournament.tournament_file.schema_v4 import FORMAT_4

# The format a file is written in; the older ones still import.
FORMAT = FORMAT_4
# A real tournament file is a few hundred KB (200 players, 10 rounds of deals); anything
# this large is not one, and is refused before it is parsed.
MAX_BYTES = 20 * 1024 * 1024


def deal_entry(facts: DealFacts, with_order: bool) -> dict[str, Any]:
    """A deal as a file's ``deals`` hold it: cards won, last in, left over and, where the
    scoring needs it (``with_order``), the lying-down order."""
    entry: dict[str, Any] = {
        "won": list(facts.won),
        "last_in": facts.last_in,
        "left_over": facts.left_over,
    }
    if with_order:
        entry["laid_down"] = list(facts.laid_down)
    return entry


def parse(text: str | bytes, *, limit: int = MAX_BYTES, what: str = "a tournament file") -> Any:
    """The JSON document ``text`` holds; problems say where (line and column), and a
    document larger than ``limit`` bytes is refused as no ``what``."""
    if len(text) > limit:
        raise TournamentFileError(
            [f"the file is larger than {limit // 1024 // 1024} MB: is it {what}?"]
        )
    repeated: list[tuple[dict[str, Any], list[str]]] = []

    def object_of(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(pairs)
        if len(found) < len(pairs):
            keys = [key for key, _ in pairs]
            repeated.append((found, sorted({key for key in keys if keys.count(key) > 1})))
        return found

    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        data = json.loads(text, object_pairs_hook=object_of)
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
    if repeated:
        problems = list(_repeated_keys(data, repeated))
        raise TournamentFileError(problems[:PROBLEMS_SHOWN], len(problems))
    return data


def _repeated_keys(data: Any, repeated: list[tuple[dict[str, Any], list[str]]]) -> Iterator[str]:
    """Each key given twice, at the place of its object, in the file's order."""
    twice = {id(found): keys for found, keys in repeated}
    # A loop, not recursion: a file may nest as deep as the JSON parser allows.
    todo: list[tuple[tuple[object, ...], Any]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, dict):
            for key in twice.get(id(value), ()):
                where = f"{json_path(path)}[{json_key(key)}]" if path else json_key(key)
                yield f"{where}: the key is given twice in one object; give it once"
            todo.extend(((*path, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            todo.extend(((*path, index), item) for index, item in reversed(list(enumerate(value))))


def _long_number(text: str) -> str:
    found = re.search(r"[0-9]{4301,}", text)
    if found is None:
        return "the file holds a number too long to read"
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - text.rfind("\n", 0, found.start())
    digits = len(found[0])
    return f"line {line}, column {column}: a number of {digits} digits is too long to read"


# Tournament settings stored under the same name in a file and on the model.
SETTINGS = (
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
PUBLIC_SETTINGS = (
    "published",
    "hold_back_rounds",
    "two_person_check",
    "seating_public",
    "round_minutes",
    "finished",
    "table_entry",
    "table_confirm",
)


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
