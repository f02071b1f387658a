"""What older versions of the app let into an installation and this one refuses in a new
file, read back by a restore as this version keeps it. Every change is told (a *note*,
printed by ``manage.py restore``); what cannot be read back is refused, naming the file,
the tournament and the place.

- *house-rule table sizes*: the keys of a tournament's ``rule_set.tables`` are the sizes
  ``"3"`` to ``"8"`` in plain digits (``scoring.rulesets.size_of_key``). An older version
  read other decimal digits as a size too (``"05"``, ``"٥"``, an Arabic-Indic five): they
  are read back as that size (``older_size``). A key it could never read (``"²"``), or
  two keys of one size (``"5"`` and ``"05"``: which numbers were played cannot be told),
  stop the restore.
- *names*: a tournament's, a series', a player's and a person's, and clubs, follow the one
  rule for names (``kernel.names.text_problem``). One an older version let through, with
  a direction override or a zero-width space in it, is read back without the characters
  the rule refuses (``kernel.names.without_hidden``); one left with nothing visible stops
  the restore.

A tournament file imported on its own (``import_tournament``) is a new file: it is checked
as it stands, and these are refused there (docs/tournament-file.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scoring.rulesets import older_size, size_of_key
from tournament.kernel.names import text_problem, without_hidden
from tournament.tournament_file.problems import json_key, short


@dataclass
class ReadBack:
    """What reading a file back changed (``notes``) and what it could not (``problems``),
    each naming its place in the file."""

    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _dicts(value: object) -> Iterator[tuple[int, dict[str, Any]]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item


def _name(item: dict[str, Any], key: str, where: str, read: ReadBack) -> None:
    """``item[key]``, a name or a club, read back under the one rule for names."""
    value = item.get(key)
    if not isinstance(value, str):
        return
    kept = without_hidden(value)
    if kept == value:
        return
    # A club may be left empty; a name may not.
    if (key == "name" and not kept) or text_problem(kept, key):
        read.problems.append(
            f"{where}: “{short(value)}” has nothing visible once its invisible characters "
            "are taken out; give it a name in the file"
        )
        return
    item[key] = kept
    read.notes.append(
        f"{where}: “{short(value)}” is read back as “{short(kept)}”, without its invisible or "
        "direction-changing characters, which names may no longer hold"
    )


def tournament_file(data: object) -> ReadBack:
    """A parsed tournament file of a backup, changed in place to what this version keeps
    (its names, then its house-rule table sizes)."""
    read = ReadBack()
    if not isinstance(data, dict):
        return read
    _name(data, "name", "name", read)
    for index, player in _dicts(data.get("players")):
        for key in ("name", "club"):
            _name(player, key, f"players[{index}].{key}", read)
    name = data.get("name")
    called = f"“{short(name)}”, " if isinstance(name, str) else ""
    rule_set = data.get("rule_set")
    if isinstance(rule_set, dict) and isinstance(rule_set.get("tables"), dict):
        _table_sizes(rule_set, called, read)
    return read


def _table_sizes(rule_set: dict[str, Any], called: str, read: ReadBack) -> None:
    """House-rule keys an older version read as a size, written as this one writes it."""
    tables: dict[str, Any] = rule_set["tables"]
    sizes: dict[str, str] = {}  # the key each key is read back as
    unread = []
    for key in tables:
        if size_of_key(key) is not None:
            sizes[key] = key
        elif (size := older_size(key)) is not None:
            sizes[key] = str(size)
        else:
            unread.append(key)
    for key in unread:
        read.problems.append(
            f"{called}rule_set.tables[{json_key(key)}]: “{short(key)}” cannot be read as a "
            "table size (no version of the app read it as one), so its numbers belong to "
            "no table; correct the key in the file"
        )
    for written in dict.fromkeys(sizes.values()):
        keys = [key for key, read_as in sizes.items() if read_as == written]
        if len(keys) > 1:
            named = " and ".join(f"“{short(key)}”" for key in keys)
            read.problems.append(
                f"{called}rule_set.tables[{json_key(keys[-1])}]: the keys {named} are all "
                f"tables of {written}, and which numbers were played cannot be told; keep "
                "one in the file"
            )
    if read.problems:
        return
    for key, written in sizes.items():
        if key != written:
            read.notes.append(
                f"{called}rule_set.tables[{json_key(key)}]: read as the table size "
                f"“{written}”, as the version that wrote it read it"
            )
    rule_set["tables"] = {sizes[key]: numbers for key, numbers in tables.items()}


def installation_file(data: object) -> ReadBack:
    """A parsed installation file, changed in place to what this version keeps (the names
    of its people and series, people's clubs)."""
    read = ReadBack()
    if not isinstance(data, dict):
        return read
    for index, person in _dicts(data.get("people")):
        for key in ("name", "club"):
            _name(person, key, f"people[{index}].{key}", read)
    for index, series in _dicts(data.get("series")):
        _name(series, "name", f"series[{index}].name", read)
    return read
