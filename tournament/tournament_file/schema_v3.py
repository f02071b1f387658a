"""What version 3 of the tournament file adds to its JSON Schema (``tournament_file.schema``
builds the whole): the seats that left a table after a deal, and the penalties and
awards the organiser gave.

Terms: a *leave* is ``{"seat": 3, "after_deal": 7}`` (``scoring.rules.Leave``); an
*adjustment* is ``{"player": "p3", "round": 2, "points": -2, "reason": "misdeal"}``
(``models.Adjustment``), its points in the tournament's scoring system. The rules that
need arithmetic (a seat of the table, at least three players left, a deal the round
has, points not zero) are the importer's (``leaves_adjustments``).
"""

from __future__ import annotations

from typing import Any

from tournament.kernel import limits

FORMAT_3 = "lld-tournament/3"


def leaves(description: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["seat", "after_deal"],
            "additionalProperties": False,
            "properties": {
                "seat": {"type": "integer", "description": "The seat that left, 1 first."},
                "after_deal": {
                    "type": "integer",
                    "description": "The last deal it took part in: it has no count in the "
                    "deals after this one, and its later turns to deal are skipped.",
                },
            },
        },
        "description": description,
    }


def adjustments(user: dict[str, Any], time: dict[str, Any], *, removed: bool) -> dict[str, Any]:
    """The adjustments in force or, ``removed``, those taken back (kept for their
    history): who gave each and when, and who took it back and when."""
    properties: dict[str, Any] = {
        "player": {
            "type": "string",
            "maxLength": limits.PLAYER_ID_MAX,
            "description": "The player's id in this file.",
        },
        "round": {
            "type": "integer",
            "minimum": limits.ROUND_NUMBERS.low,
            "maximum": limits.ROUND_NUMBERS.high,
            "description": "The number of the round whose total it changes.",
        },
        "points": {
            "type": "integer",
            "minimum": -limits.ADJUSTMENT_MAX,
            "maximum": limits.ADJUSTMENT_MAX,
            "description": "Points in the tournament's scoring system, added to the "
            "player's total for that round: negative for a penalty; never 0.",
        },
        "reason": {"type": "string", "maxLength": limits.REASON_MAX},
        "by": {**user, "description": "The user name of the organiser who gave it."},
        "at": {**time, "description": "When it was given."},
    }
    required = ["player", "round", "points", "reason"]
    if removed:
        properties["removed_by"] = {**user, "description": "Who took it back."}
        properties["removed_at"] = {**time, "description": "When it was taken back."}
        required.append("removed_at")
    description = (
        "Version 3: adjustments taken back; they count nowhere, and are kept so that the "
        "history says who gave and who removed each."
        if removed
        else "Version 3: the penalties and awards in force."
    )
    return {
        "type": "array",
        "items": {
            "type": "object",
            "required": required,
            "additionalProperties": False,
            "properties": properties,
        },
        "description": description,
    }
