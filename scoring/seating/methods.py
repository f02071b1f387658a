"""The seating methods an organiser chooses from, by key: one registry for the service,
the form and the commands.

A method seats the next round from a request (and the players in standings order, for
the methods that want them). ``plans_ahead`` marks the method that seats every remaining
round at once, so that the service can keep the plan and seat round by round from it.
Adding a method is one function and one entry in ``METHODS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoring.seating.at_random import seat_randomly
from scoring.seating.balanced import plan
from scoring.seating.by_standings import seat_by_standings
from scoring.seating.request import PlayerId, RoundSeating, SeatingError, SeatingRequest

Seat = Callable[[SeatingRequest, Sequence[PlayerId]], tuple[RoundSeating, ...]]


@dataclass(frozen=True)
class Method:
    key: str
    label: str
    seat: Seat
    plans_ahead: bool = False
    wants_ranking: bool = False


def _balanced(request: SeatingRequest, ranked: Sequence[PlayerId]) -> tuple[RoundSeating, ...]:
    return plan(request).rounds


def _by_standings(request: SeatingRequest, ranked: Sequence[PlayerId]) -> tuple[RoundSeating, ...]:
    return (seat_by_standings(ranked, request),)


def _at_random(request: SeatingRequest, ranked: Sequence[PlayerId]) -> tuple[RoundSeating, ...]:
    return (seat_randomly(request),)


METHODS: tuple[Method, ...] = (
    Method("balanced", "Balanced: fewest repeat opponents", _balanced, plans_ahead=True),
    Method("standings", "By standings: leaders together", _by_standings, wants_ranking=True),
    Method("random", "Random", _at_random),
)


def method_keys() -> list[str]:
    return [method.key for method in METHODS]


def method_choices() -> list[tuple[str, str]]:
    """(key, label) of every method, for a form's choices."""
    return [(method.key, method.label) for method in METHODS]


def method_named(key: str) -> Method:
    for method in METHODS:
        if method.key == key:
            return method
    raise SeatingError(f"unknown seating method “{key}” (use one of: {', '.join(method_keys())})")
