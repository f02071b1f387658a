"""Tournament files: a whole tournament as JSON, to archive, move and restore.

The format is ``lld-tournament/1``, described by ``docs/tournament-file.schema.json`` and
``docs/tournament-file.md``. Checking a file happens in two layers:

- *structure*, by the JSON Schema: keys, types, required fields. These problems are
  located by JSON path with 0-based indexes, e.g. ``players[5].name``.
- *rules*, by ``scoring``: unique ids, seats that name known players once per round,
  deals per round, and every deal's own rules. These problems are located the way the
  score sheets are: ``round 2, table 3, deal 4``.

A file with any problem changes nothing; every problem is reported at once.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from django.conf import settings
from django.db import transaction
from django.utils.text import slugify

from scoring.errors import UserError
from scoring.rules import deals_per_round, validate_deal
from scoring.standings import DEFAULT_TIEBREAKS
from scoring.systems import ScoringSystem
from tournament.models import (
    Bye,
    Deal,
    DealResult,
    KeepApart,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    Table,
    Tournament,
)
from tournament.services.sheets import seat_sums

FORMAT = "lld-tournament/1"
# A real tournament file is a few hundred KB (200 players, 10 rounds of deals); anything
# this large is not one, and is refused before it is parsed.
MAX_BYTES = 20 * 1024 * 1024
SCHEMA_PATH = Path(settings.BASE_DIR) / "docs" / "tournament-file.schema.json"
# Deal values are checked by scoring.rules.validate_deal, which words problems for scorers.
_DEAL_FIELDS = {"won", "last_in", "left_over"}
_TYPE_WORDS = {
    "object": "an object {…}",
    "array": "a list […]",
    "string": "text",
    "integer": "a whole number",
}


class TournamentFileError(UserError):
    """A tournament file that cannot be imported; ``problems`` lists every problem."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(
            f"{count} problem{'s' if count != 1 else ''} in the tournament file:\n"
            + "\n".join(f"  - {p}" for p in self.problems)
        )


class TournamentExistsError(UserError):
    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(f"a tournament with the slug “{slug}” already exists")


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def parse(text: str | bytes) -> Any:
    if len(text) > MAX_BYTES:
        raise TournamentFileError(
            [f"the file is larger than {MAX_BYTES // 1024 // 1024} MB: is it a tournament file?"]
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
        raise TournamentFileError([_long_number(text)]) from None


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


def unstorable_text(data: object) -> list[str]:
    """Every string (or key) of a parsed file holding a character no database stores."""
    problems: list[str] = []
    # A loop, not recursion: a file may nest as deep as the JSON parser allows.
    todo: list[tuple[tuple[object, ...], object]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, str):
            if what := _unstorable(value):
                problems.append(f"{_json_path(path)}: contains {what}")
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                if what := _unstorable(str(key)):
                    problems.append(f"{_json_path(path)}: a key contains {what}")
                else:
                    todo.append(((*path, key), item))
        elif isinstance(value, list):
            todo.extend(((*path, index), item) for index, item in reversed(list(enumerate(value))))
    return problems


# Structure ------------------------------------------------------------------------------


def _short(text: str, limit: int = 40) -> str:
    """Text from the file quoted in a problem, cut short: a 10 MB name must not make a
    10 MB message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _json_path(path: Iterable[object]) -> str:
    text = ""
    for part in path:
        shown = _short(str(part))
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
            return (
                f"{words} {_short(json.dumps(value))}" if kind in ("string", "integer") else words
            )
    return _short(json.dumps(value))


def _schema_message(error: jsonschema.ValidationError) -> str:
    where = _json_path(error.absolute_path)
    value = error.instance
    match error.validator:
        case "type":
            return f"{where}: expected {_TYPE_WORDS.get(error.validator_value, error.validator_value)}, found {_describe(value)}"  # noqa: E501
        case "required":
            missing = [key for key in error.validator_value if key not in value]
            return f"{where}: “{missing[0]}” is missing"
        case "additionalProperties":
            known = set(error.schema.get("properties", {}))
            extra = sorted(key for key in value if key not in known)
            return f"{where}: unknown key{'s' if len(extra) > 1 else ''} " + ", ".join(
                f"“{_short(key)}”" for key in extra
            )
        case "const" | "enum":
            allowed = error.validator_value
            allowed = [allowed] if error.validator == "const" else allowed
            choices = ", ".join(json.dumps(a) for a in allowed)
            return f"{where}: {_short(json.dumps(value))} is not one of: {choices}"
        case "minLength" | "pattern" if error.absolute_path and error.absolute_path[-1] == "name":
            return f"{where}: a name must not be empty"
        case "pattern" if error.absolute_path and error.absolute_path[-1] == "date":
            return f"{where}: “{_short(value)}” is not a date written YYYY-MM-DD"
        case "pattern" if error.absolute_path and error.absolute_path[-1] == "slug":
            return (
                f"{where}: “{_short(value)}” is not a valid slug "
                "(lower-case letters, digits and single hyphens)"
            )
        case "minimum":
            return f"{where}: {_short(str(value))} is less than {error.validator_value}"
        case "maximum":
            return f"{where}: {_short(str(value))} is more than {error.validator_value}"
        case "minItems" | "maxItems" if error.absolute_path[-1] == "seats":
            return f"{where}: {len(value)} seats — a table seats 3 to 6 players"
        case "uniqueItems":
            return f"{where}: a key is listed twice"
        case "maxLength":
            return f"{where}: longer than {error.validator_value} characters"
    return f"{where}: {_short(error.message, 200)}"


def _inside_a_deal(path: tuple[object, ...]) -> bool:
    return len(path) >= 7 and path[4] == "deals" and path[6] in _DEAL_FIELDS


def structure_problems(data: object) -> list[str]:
    validator = _Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [
        _schema_message(error) for error in errors if not _inside_a_deal(tuple(error.absolute_path))
    ]


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
    return slugify(name)[:100].strip("-") if isinstance(name, str) else ""


def rule_problems(data: object) -> list[str]:
    if not isinstance(data, dict):
        return []
    problems: list[str] = []
    name = data.get("name")
    if isinstance(name, str) and name.strip() and "slug" not in data and not slug_for(data):
        problems.append("name: no slug can be made from this name; give a “slug”")
    date = data.get("date")
    if isinstance(date, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            problems.append(f"date: “{date}” is not a real day")
    rotations = data.get("rotations_per_round", 1)
    if not isinstance(rotations, int) or isinstance(rotations, bool) or rotations < 1:
        rotations = None

    # Seats are checked against the players only when the players list is readable.
    players_readable = isinstance(data.get("players"), list)
    players: dict[str, str] = {}
    for index, player in _dicts(data.get("players")):
        player_id = player.get("id")
        if not isinstance(player_id, str):
            continue
        if player_id in players:
            problems.append(f"players[{index}]: id “{_short(player_id)}” is used twice")
        players[player_id] = _short(str(player.get("name", player_id)))

    round_numbers: set[int] = set()
    for round_index, round_ in _dicts(data.get("rounds")):
        round_number = _number(round_, round_index + 1)
        if round_number in round_numbers:
            problems.append(f"rounds[{round_index}]: round {round_number} appears twice")
        round_numbers.add(round_number)
        seated_at: dict[str, int] = {}
        table_numbers: set[int] = set()
        byes = round_.get("byes")
        for table_index, table in _dicts(round_.get("tables")):
            table_number = _number(table, table_index + 1)
            where = f"round {round_number}, table {table_number}"
            if table_number in table_numbers:
                problems.append(f"{where}: table {table_number} appears twice in this round")
            table_numbers.add(table_number)
            seats = table.get("seats")
            seats = seats if isinstance(seats, list) else []
            for position, player_id in enumerate(seats, start=1):
                if not isinstance(player_id, str) or not players_readable:
                    continue
                if player_id not in players:
                    problems.append(
                        f"{where}, seat {position}: unknown player id “{_short(player_id)}”"
                    )
                elif player_id in seated_at:
                    problems.append(
                        f"{where}, seat {position}: {players[player_id]} (“{_short(player_id)}”) "
                        f"is already seated at table {seated_at[player_id]} in this round"
                    )
                else:
                    seated_at[player_id] = table_number
            size = len(seats)
            deals = table.get("deals")
            if not 3 <= size <= 6 or not isinstance(deals, list):
                continue
            if rotations is not None and len(deals) > deals_per_round(size, rotations):
                plural = "s" if rotations > 1 else ""
                problems.append(
                    f"{where}: {len(deals)} deals, but a table of {size} plays at most "
                    f"{deals_per_round(size, rotations)} in a round ({rotations} rotation{plural})"
                )
            for deal_index, deal in _dicts(deals):
                won = deal.get("won")
                if "won" in deal and not isinstance(won, list):
                    # The schema's own message about it is dropped with the deal's others.
                    problems.append(
                        f"{where}, deal {deal_index + 1}: cards won: expected a list of counts, "
                        f"one per seat, found {_describe(won)}"
                    )
                if not isinstance(won, list):
                    continue
                for problem in validate_deal(won, deal.get("last_in"), deal.get("left_over"), size):
                    problems.append(f"{where}, deal {deal_index + 1}: {problem}")
        if isinstance(byes, list) and players_readable:
            problems.extend(_bye_problems(round_number, byes, players, seated_at))
    if players_readable:
        problems.extend(_keep_apart_problems(data.get("keep_apart"), players))
    return problems


def _bye_problems(
    round_number: int, byes: list[object], players: dict[str, str], seated_at: dict[str, int]
) -> Iterator[str]:
    for index, player_id in enumerate(byes):
        if not isinstance(player_id, str):
            continue
        where = f"round {round_number}, byes[{index}]"
        if player_id not in players:
            yield f"{where}: unknown player id “{_short(player_id)}”"
        elif player_id in seated_at:
            yield (
                f"{where}: {players[player_id]} (“{_short(player_id)}”) sits out this round but "
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
            yield f"{where}: unknown player id “{_short(unknown[0])}”"
        elif pair[0] == pair[1]:
            yield f"{where}: a player cannot be kept apart from themselves"
        elif frozenset(pair) in seen:
            yield f"{where}: this pair is listed twice"
        seen.add(frozenset(pair))


def check(data: object) -> list[str]:
    """Every problem of a parsed tournament file, structure first."""
    unstorable = unstorable_text(data)
    if unstorable:
        # Alone: the other checks would quote these characters back in their messages.
        return unstorable
    return structure_problems(data) + rule_problems(data)


# Import and export ----------------------------------------------------------------------


@dataclass(frozen=True)
class ImportSummary:
    tournament: Tournament
    players: int
    rounds: int
    deals: int
    replaced: bool


def import_tournament(data: object, *, replace: bool = False) -> ImportSummary:
    """Store a whole tournament file, all or nothing.

    Raises ``TournamentFileError`` listing every problem, or ``TournamentExistsError``
    when the slug is taken and ``replace`` is false; the database is then unchanged.
    """
    problems = check(data)
    if problems:
        raise TournamentFileError(problems)
    assert isinstance(data, dict)
    slug = slug_for(data)
    with transaction.atomic():
        existing = Tournament.objects.select_for_update().filter(slug=slug).first()
        if existing is not None and not replace:
            raise TournamentExistsError(slug)
        if existing is not None:
            _delete(existing)
        summary = _create(data, slug)
    return ImportSummary(replaced=existing is not None, **summary)


def _delete(tournament: Tournament) -> None:
    # Seats protect players from deletion, so remove the rounds (and with them seats,
    # deals and results) before the tournament.
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


def _create(data: dict[str, Any], slug: str) -> dict[str, Any]:
    date = data.get("date")
    tournament = Tournament.objects.create(
        name=data["name"],
        slug=slug,
        date=datetime.date.fromisoformat(date) if date else None,
        scoring=data.get("scoring", ScoringSystem.WINNER_ADVANTAGE.value),
        rotations_per_round=data.get("rotations_per_round", 1),
        tiebreaks=list(data.get("tiebreaks", DEFAULT_TIEBREAKS)),
        **{key: data[key] for key in _SETTINGS if key in data},
    )
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            ref=p["id"],
            name=p["name"],
            club=p.get("club", ""),
            active=p.get("active", True),
            fixed_table=p.get("fixed_table"),
        )
        for p in data["players"]
    )
    player_by_ref = {player.ref: player for player in players}
    KeepApart.objects.bulk_create(
        KeepApart(tournament=tournament, first=player_by_ref[a], second=player_by_ref[b])
        for a, b in data.get("keep_apart", [])
    )
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=r["number"], started=True, released=True)
        for r in data["rounds"]
    )
    # Flatten the file's tree into (round, table data) and (table, deal data) lists so
    # that each level is one bulk insert.
    round_tables = [
        (round_, t) for round_, r in zip(rounds, data["rounds"], strict=True) for t in r["tables"]
    ]
    tables = Table.objects.bulk_create(
        Table(round=round_, number=t["number"]) for round_, t in round_tables
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
        for position, (ref, sums) in enumerate(
            zip(t["seats"], seat_sums(t["deals"], len(t["seats"])), strict=True), start=1
        )
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
    )
    # A file holds official facts: its sheets are confirmed.
    Sheet.objects.bulk_create(
        Sheet(
            table=table,
            status=SheetStatus.CONFIRMED if t["deals"] else SheetStatus.NOT_STARTED,
            stopped_early=0
            < len(t["deals"])
            < deals_per_round(len(t["seats"]), tournament.rotations_per_round),
        )
        for table, (_, t) in zip(tables, round_tables, strict=True)
    )
    return {
        "tournament": tournament,
        "players": len(players),
        "rounds": len(rounds),
        "deals": len(deals),
    }


def export_tournament(tournament: Tournament, *, released_only: bool = False) -> dict[str, Any]:
    """The tournament as a file of its confirmed facts; importing it and exporting again
    gives the same file. ``released_only`` keeps only the rounds released to the public,
    and leaves out what is private to the organiser (players kept apart, fixed tables)."""
    rounds: dict[str, object] = {"released": True} if released_only else {}

    def on(path: str) -> dict[str, object]:
        return {f"{path}{key}": value for key, value in rounds.items()}

    players = list(
        Player.objects.filter(tournament=tournament).values_list(
            "pk", "ref", "name", "club", "active", "fixed_table"
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
    results: dict[int, list[int]] = {}
    for deal_id, won in (
        DealResult.objects.filter(
            deal__table__round__tournament=tournament, **on("deal__table__round__")
        )
        .values_list("deal_id", "won")
        .order_by("deal_id", "seat")
    ):
        results.setdefault(deal_id, []).append(won)
    deals: dict[int, list[dict[str, Any]]] = {}
    for deal_id, table_id, last_in, left_over in (
        Deal.objects.filter(table__round__tournament=tournament, **on("table__round__"))
        .values_list("pk", "table_id", "last_in", "left_over")
        .order_by("table_id", "number")
    ):
        deals.setdefault(table_id, []).append(
            {"won": results.get(deal_id, []), "last_in": last_in, "left_over": left_over}
        )
    tables: dict[int, list[dict[str, Any]]] = {}
    for table_id, round_id, number in (
        Table.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("pk", "round_id", "number")
        .order_by("round_id", "number")
    ):
        tables.setdefault(round_id, []).append(
            {"number": number, "seats": seats.get(table_id, []), "deals": deals.get(table_id, [])}
        )
    return {
        "format": FORMAT,
        "name": tournament.name,
        "slug": tournament.slug,
        **({"date": tournament.date.isoformat()} if tournament.date else {}),
        "scoring": tournament.scoring,
        "rotations_per_round": tournament.rotations_per_round,
        "tiebreaks": list(tournament.tiebreaks),
        **{key: getattr(tournament, key) for key in _SETTINGS},
        **({} if released_only else {"keep_apart": _keep_apart_refs(tournament, refs)}),
        "players": [
            {
                "id": ref,
                "name": name,
                "club": club,
                **({} if active else {"active": False}),
                **({"fixed_table": fixed} if fixed and not released_only else {}),
            }
            for _, ref, name, club, active, fixed in players
        ],
        "rounds": [
            {
                "number": number,
                "tables": tables.get(round_id, []),
                **({"byes": byes[round_id]} if round_id in byes else {}),
            }
            for round_id, number in Round.objects.filter(tournament=tournament, **rounds)
            .values_list("pk", "number")
            .order_by("number")
        ],
    }


def _keep_apart_refs(tournament: Tournament, refs: dict[int, str]) -> list[list[str]]:
    return [
        [refs[first], refs[second]]
        for first, second in KeepApart.objects.filter(tournament=tournament)
        .values_list("first_id", "second_id")
        .order_by("pk")
    ]


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
