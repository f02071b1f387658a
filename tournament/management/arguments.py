"""Argument types the management commands share (argparse ``type=`` callables): a bad
value is an argument error naming it, as argparse reports its own."""

from argparse import ArgumentTypeError

from scoring.errors import UserError
from scoring.rulesets import RuleSet, rule_set


def table_sizes(text: str) -> tuple[int, ...]:
    """``4,5,6`` as the table sizes (4, 5, 6)."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ArgumentTypeError(f"{text!r}: give table sizes like 4,5,6") from None


def rule_set_named(key: str) -> RuleSet:
    """The preset rule set ``key`` (``scoring.rulesets.RULE_SETS``)."""
    try:
        return rule_set(key)
    except UserError as error:
        raise ArgumentTypeError(str(error)) from None
