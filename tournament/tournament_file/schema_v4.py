"""What version 4 of the tournament file adds to its JSON Schema (``tournament_file.schema``
builds the whole): the rule set the tournament plays under, and each deal's lying-down
order.

Terms: the *rule set* (``scoring.rulesets``) is a preset's key (``"du-coeur"``) or the
house-rule numbers, table size by table size, in the shape ``RuleSet.as_data`` gives:
``{"left_over_to": "dealer", "tables": {"4": {"cards_each": 10, …}}}``. The *lying-down
order* (``laid_down``) is the seats of a deal in the order they lay down, first out
first; the last in never lies down (``scoring.rules.DealFacts``). The rules that need
arithmetic (52 cards dealt at each size, a seat lying down once) are the importer's
(``rule_sets``).
"""

from __future__ import annotations

from typing import Any

from scoring.rules import MAX_TABLE_SIZE
from scoring.rulesets import HOUSE_FIELDS, RULE_SETS, SIZE_KEYS, STANDARD, LeftOverTo

FORMAT_4 = "lld-tournament/4"
# What each of the house-rule numbers (``scoring.rulesets.HOUSE_FIELDS``) is.
_NUMBERS = {
    "cards_each": "The cards dealt to each player.",
    "table_cards": "The cards laid in the middle.",
    "dealer_stake": "What the dealer puts into the pot.",
    "other_stake": "What each other player puts into the pot.",
    "last_in_prize": "What the last in takes from the pot.",
    "break_even": "The cards a player ends a deal with to win and lose nothing.",
}


def house_rules() -> dict[str, Any]:
    """The house-rule numbers, as the keywords of an object (they say nothing of any other
    kind of value, so that ``rule_set`` states its own type once)."""
    numbers = {name: {"type": "integer", "description": _NUMBERS[name]} for name in HOUSE_FIELDS}
    return {
        "required": ["tables"],
        "additionalProperties": False,
        "properties": {
            "left_over_to": {
                "enum": [choice.value for choice in LeftOverTo],
                "default": LeftOverTo.DEALER.value,
                "description": "Who takes the cards left over under stakes scoring: the "
                "dealer, as the sources have it, or the last in.",
            },
            "tables": {
                "type": "object",
                "minProperties": 1,
                # Plain digits only: "05" or "٥" would be a second key for one size.
                "propertyNames": {"enum": list(SIZE_KEYS)},
                "additionalProperties": {
                    "type": "object",
                    "required": list(HOUSE_FIELDS),
                    "additionalProperties": False,
                    "properties": numbers,
                },
                "description": "One entry per table size allowed, its key the size as text, "
                '"3" to "8" in plain digits (not "05"), each once: the cards each player is '
                "dealt and the cards in the middle (52 in all), the dealer's and the others' "
                "stakes, the last-in prize and the break-even.",
            },
        },
    }


def rule_set() -> dict[str, Any]:
    return {
        "type": ["string", "object"],
        "if": {"type": "string"},
        "then": {"enum": list(RULE_SETS)},
        "else": house_rules(),
        "default": STANDARD.key,
        "description": "Version 4: the table of deals and stakes the tournament plays "
        "under: a preset's key, or the house-rule numbers of each table size allowed. "
        "Older versions play under the standard one.",
    }


def laid_down() -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "integer"},
        "description": "Version 4: the seats in the order they lay down, first out first; "
        "every seat playing the deal but the last in, once. Every deal has it under Caidis "
        "scoring; under the others it may be given, and is then checked and kept.",
    }


def typed_laid_down() -> dict[str, Any]:
    return {
        "type": "array",
        "maxItems": MAX_TABLE_SIZE,
        "items": {"type": ["integer", "string", "null"]},
        "description": "Version 4: the lying-down order as typed.",
    }
