"""The JSON Schema of tournament files, built from the same limits as the models and forms.

``docs/tournament-file.schema.json`` is this schema as printed by
``manage.py export_tournament --schema``; a test keeps the two equal.
"""

from __future__ import annotations

from typing import Any

from scoring.rules import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.systems import ScoringSystem
from scoring.tiebreaks import DEFAULT_TIEBREAKS, tiebreak_keys
from tournament.kernel import limits
from tournament.models import ByeScore, SheetStatus, TablePolicy
from tournament.tournament_file import schema_v3, schema_v4
from tournament.tournament_file.schema_v3 import FORMAT_3
from tournament.tournament_file.schema_v4 import FORMAT_4

FORMAT_1 = "lld-tournament/1"
FORMAT_2 = "lld-tournament/2"
FORMATS = (FORMAT_1, FORMAT_2, FORMAT_3, FORMAT_4)
# Django's own limit on user names.
USERNAME_MAX = 150

TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9:]+)$"
_TIME = {"type": "string", "pattern": TIME_PATTERN}
_TYPED_CELL = {"type": ["integer", "string", "null"]}
_USER = {"type": ["string", "null"], "maxLength": USERNAME_MAX}
# A phone of a table (``TablePhone.number``), as a positive small integer column holds it.
_PHONE = {"type": ["integer", "null"], "minimum": 1, "maximum": 32767}
# Database ids as PostgreSQL's integer primary keys hold them.
ID_MAX = 2**31 - 1


def kept_id(description: str) -> dict[str, Any]:
    """An id the installation gave a row, kept so that addresses built from it answer the
    same after a restore (``tournament_file.kept_ids``)."""
    return {"type": "integer", "minimum": 1, "maximum": ID_MAX, "description": description}


def _text(maximum: int, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "maxLength": maximum, **extra}


def _whole(allowed: limits.Range, **extra: Any) -> dict[str, Any]:
    return {"type": "integer", **allowed.schema(), **extra}


def _object(required: list[str], properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": properties,
        **extra,
    }


def _typed_row(description: str) -> dict[str, Any]:
    return _object(
        [],
        {
            "won": {"type": "array", "maxItems": MAX_TABLE_SIZE, "items": _TYPED_CELL},
            "last_in": _TYPED_CELL,
            "left_over": _TYPED_CELL,
            "derived": {"type": "array", "items": {"type": "string", "maxLength": 20}},
            "laid_down": schema_v4.typed_laid_down(),
        },
        description=description,
    )


def _sheet() -> dict[str, Any]:
    return _object(
        ["status"],
        {
            "status": {
                "enum": [status.value for status in SheetStatus],
                "description": "not_started; draft (being typed); entered (awaiting "
                "confirmation); confirmed (its facts are the table's deals).",
            },
            "stopped_early": {"type": "boolean", "default": False},
            "pending": {
                "type": "array",
                "items": _typed_row("A row as typed: blank cells are null."),
                "description": "The rows of a draft or of a sheet awaiting confirmation.",
            },
            "pending_left": schema_v3.leaves("Version 3: the leaves of ``pending``."),
            "entered_by": _USER,
            "confirmed_by": _USER,
            "entered_by_phone": {
                **_PHONE,
                "description": "Typed in at the table by this phone of it (phone 1, 2, …), "
                "not by a user.",
            },
            "confirmed_by_phone": {
                **_PHONE,
                "description": "Confirmed at the table by this phone of it.",
            },
            "history": {
                "type": "array",
                "items": _object(
                    ["number", "action", "status", "deals"],
                    {
                        "number": {"type": "integer", "minimum": 1},
                        "action": _text(20),
                        "status": {"enum": [status.value for status in SheetStatus]},
                        "deals": {"type": "array", "items": _typed_row("A row as saved.")},
                        "changes": {"type": "array", "items": {"type": "object"}},
                        "left": schema_v3.leaves("Version 3: this version's leaves."),
                        "by": _USER,
                        "phone": {**_PHONE, "description": "Saved by this phone of the table."},
                        "at": {
                            **_TIME,
                            "description": "When the version was saved (ISO 8601, with its "
                            "offset from UTC).",
                        },
                    },
                ),
                "description": "Every saved version of the sheet, oldest first.",
            },
        },
        description="Version 2: the table's score sheet as it stands and every version "
        "saved of it (absent for a sheet nobody has saved).",
    )


def _deal() -> dict[str, Any]:
    return _object(
        ["won", "last_in", "left_over"],
        {
            "won": {
                "type": "array",
                "items": {"type": ["integer", "null"], "minimum": 0, "multipleOf": 2},
                "description": "Cards each seat won, seat 1 first; even, never negative; "
                "(version 3) null for a seat that had left the table.",
            },
            "last_in": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_TABLE_SIZE,
                "description": "The seat still holding cards when play stopped.",
            },
            "left_over": {
                "type": "integer",
                "minimum": 2,
                "multipleOf": 2,
                "description": "Cards not won during play; sum(won) + left_over = 52.",
            },
            "laid_down": schema_v4.laid_down(),
        },
    )


def _round() -> dict[str, Any]:
    table = _object(
        ["number", "seats", "deals"],
        {
            "number": _whole(limits.TABLE_NUMBERS),
            "seats": {
                "type": "array",
                "minItems": MIN_TABLE_SIZE,
                "maxItems": MAX_TABLE_SIZE,
                "items": {"type": "string"},
                "description": "Player ids in seat order: seat 1 deals first, the deal "
                "passes to seat 2, and so on; as many as the rule set and the scoring seat.",
            },
            "deals": {"type": "array", "items": _deal()},
            "left": schema_v3.leaves(
                "Version 3: the seats that left the table after a deal, as its deals say."
            ),
            "sheet": _sheet(),
        },
    )
    return _object(
        ["number", "tables"],
        {
            "number": _whole(limits.ROUND_NUMBERS),
            "started": {
                "type": "boolean",
                "default": True,
                "description": "Version 2: false for a round seated as a draft.",
            },
            "released": {
                "type": "boolean",
                "default": False,
                "description": "Version 2: its confirmed results are public.",
            },
            "tables": {"type": "array", "items": table},
            "byes": {
                "type": "array",
                "items": {"type": "string"},
                "uniqueItems": True,
                "description": "Player ids sitting out this round (table policy byes); "
                "they score the bye score.",
            },
        },
    )


def _player() -> dict[str, Any]:
    return _object(
        ["id", "name"],
        {
            "id": _text(
                limits.PLAYER_ID_MAX,
                minLength=1,
                description="Any text, unique within the file; seats refer to players by it.",
            ),
            "key": kept_id(
                "Version 2: the player's number in the installation that wrote the file (its "
                "page is /t/SLUG/players/KEY/); an import gives it back when no other player "
                "has it, and a replacing import links the player to the person the player "
                "of that number was linked to."
            ),
            "name": _text(limits.NAME_MAX, minLength=1, pattern=r"\S"),
            "club": _text(limits.CLUB_MAX),
            "active": {
                "type": "boolean",
                "default": True,
                "description": "false once the player has dropped out: later rounds do "
                "not seat them.",
            },
            "checked_in": {
                "type": "boolean",
                "default": False,
                "description": "Format 2: the player has checked in at the door; once anyone "
                "has, rounds seat only those who have.",
            },
            "fixed_table": _whole(
                limits.FIXED_TABLE,
                description="Accessibility: the player always sits at this table number.",
            ),
            "member": _text(
                limits.MEMBER_MAX,
                minLength=1,
                description="The person's member number in the register of people (both "
                "formats): importing links the player to the person with this number, made "
                "from the player's name and club when there is none.",
            ),
        },
    )


def build_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": FORMAT_4,
        "title": "Laugh and Lie Down tournament file",
        "description": "A whole tournament: settings, players, seating and every deal's "
        "facts as written on the score sheets, and (version 2) what the public sees, who "
        "runs it and the sheets being typed, and (version 3) the seats that left a table "
        "and the penalties and awards, and (version 4) the rule set and the order the "
        "seats lay down. Scores are not stored: they are derived from "
        "the facts. Rules that need arithmetic (even counts, the checksum of 52, seats "
        "within the table, deals per round) are checked by the importer and explained in "
        "docs/tournament-file.md.",
        **_object(
            ["format", "name", "players", "rounds"],
            {
                "format": {
                    "enum": list(FORMATS),
                    "description": "The file format and its version.",
                },
                "name": _text(limits.NAME_MAX, minLength=1, pattern=r"\S"),
                "key": kept_id(
                    "Version 2: the tournament's number in the installation that wrote the "
                    "file; an import gives it back when no other tournament has it."
                ),
                "slug": _text(
                    limits.SLUG_MAX,
                    pattern=limits.SLUG_PATTERN,
                    **{"not": {"enum": list(limits.reserved_slugs())}},
                    description="The tournament's address in the app; derived from the "
                    "name when absent. Words the app's own addresses use are refused.",
                ),
                "date": {
                    "type": "string",
                    "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                    "description": "The day of the tournament, YYYY-MM-DD.",
                },
                "scoring": {
                    "enum": [system.value for system in ScoringSystem],
                    "default": ScoringSystem.WINNER_ADVANTAGE.value,
                    "description": "How a deal's facts become points; caidis (version 4) "
                    "needs each deal's lying-down order and tables of 3 to 5.",
                },
                "rule_set": schema_v4.rule_set(),
                "rotations_per_round": _whole(
                    limits.ROTATIONS,
                    default=1,
                    description="Each table plays rotations × table size deals per round.",
                ),
                "tiebreaks": {
                    "type": "array",
                    "items": {"enum": list(tiebreak_keys())},
                    "uniqueItems": True,
                    "default": list(DEFAULT_TIEBREAKS),
                    "description": "The tiebreak keys applied after points, in order.",
                },
                "venue": _text(limits.VENUE_MAX, description="Where the tournament is played."),
                "planned_rounds": _whole(
                    limits.PLANNED_ROUNDS,
                    description="The number of rounds the seating engine plans for.",
                ),
                "table_policy": {
                    "enum": [policy.value for policy in TablePolicy],
                    "default": TablePolicy.MIXED.value,
                    "description": "mixed: tables of five with tables of other allowed "
                    "sizes absorbing the remainder; byes: tables of five only, the "
                    "remainder sits out.",
                },
                "table_sizes": {
                    "type": "array",
                    "items": {
                        "type": "integer",
                        "minimum": MIN_TABLE_SIZE,
                        "maximum": MAX_TABLE_SIZE,
                    },
                    "minItems": 1,
                    "uniqueItems": True,
                    "default": [4, 5, 6],
                    "description": "Table sizes allowed under the mixed policy (3 only when "
                    "nothing else works), each one the rule set and the scoring seat; when "
                    "absent, those of the default they seat.",
                },
                "bye_score": {
                    "enum": [score.value for score in ByeScore],
                    "default": ByeScore.ZERO.value,
                    "description": "What a round sat out scores: 0, or the average of a "
                    "round (26 × rotations under winner-advantage scoring).",
                },
                "keep_clubs_apart_rounds": _whole(
                    limits.KEEP_CLUBS_APART_ROUNDS,
                    default=0,
                    description="Players of one club are kept apart in the first this many rounds.",
                ),
                "keep_apart": {
                    "type": "array",
                    "items": {
                        "type": "array",
                        "items": {"type": "string"},
                        "minItems": 2,
                        "maxItems": 2,
                    },
                    "description": "Pairs of player ids never seated at one table (family, "
                    "partners).",
                },
                "published": {
                    "type": "boolean",
                    "default": False,
                    "description": "Version 2: the public pages show the tournament.",
                },
                "hold_back_rounds": _whole(
                    limits.HOLD_BACK_ROUNDS,
                    default=0,
                    description="Version 2: the last rounds kept hidden until the final reveal.",
                ),
                "two_person_check": {
                    "type": "boolean",
                    "default": True,
                    "description": "Version 2: a sheet counts only once a second scorer "
                    "confirms it.",
                },
                "seating_public": {
                    "type": "boolean",
                    "default": True,
                    "description": "Version 2: a started round's seating is public before "
                    "its results are released.",
                },
                "round_minutes": _whole(
                    limits.ROUND_MINUTES,
                    default=45,
                    description="Version 2: the length of the round clock, in minutes.",
                ),
                "finished": {
                    "type": "boolean",
                    "default": False,
                    "description": "Version 2: the organiser marked the tournament finished, "
                    "so its standings are final.",
                },
                "table_entry": {
                    "type": "boolean",
                    "default": True,
                    "description": "Version 2: a phone at a table may type the table's "
                    "sheet in, opened by the table code printed on the sheet.",
                },
                "table_confirm": {
                    "type": "boolean",
                    "default": False,
                    "description": "Version 2: a second phone at the table may confirm a "
                    "sheet typed at the table, by re-typing it blind.",
                },
                "owner": {**_USER, "description": "Version 2: the organiser's user name."},
                "scorers": {
                    "type": "array",
                    "items": _text(USERNAME_MAX),
                    "uniqueItems": True,
                    "description": "Version 2: the scorers' user names.",
                },
                "players": {"type": "array", "items": _player()},
                "rounds": {"type": "array", "items": _round()},
                "adjustments": schema_v3.adjustments(_USER, _TIME, removed=False),
                "adjustments_removed": schema_v3.adjustments(_USER, _TIME, removed=True),
            },
        ),
    }
