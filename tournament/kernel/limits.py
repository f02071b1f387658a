"""The limits of what a tournament may hold, in one place.

The model fields (and so the forms built from them) and the tournament file's JSON
Schema are both built from these, so that whatever the web accepts exports to a file
that imports again, and a file that imports can be edited on the web.

- *range*: the smallest and largest whole number a setting takes, both allowed.
- *slug*: a tournament's address, ``/t/SLUG/``: lower-case ASCII letters and digits in
  words joined by single hyphens, and not a word the app's own addresses use where a
  slug could stand (``/manage/new/`` is the new-tournament page, so no tournament may
  be called ``new``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.utils.text import slugify


@dataclass(frozen=True)
class Range:
    low: int
    high: int
    # What is counted, for the message: "Between 1 and 10 rotations a round."
    unit: str
    # The whole message, where "Between … and …" does not read well.
    words: str = ""

    @property
    def message(self) -> str:
        return self.words or f"Between {self.low} and {self.high} {self.unit}."

    def validators(self) -> list[MinValueValidator | MaxValueValidator]:
        return [
            MinValueValidator(self.low, self.message),
            MaxValueValidator(self.high, self.message),
        ]

    def schema(self) -> dict[str, int]:
        return {"minimum": self.low, "maximum": self.high}


NAME_MAX = 200
VENUE_MAX = 200
CLUB_MAX = 200
PLAYER_ID_MAX = 50
# A member number (a guild's or league's own, "M0123"): unique on the installation.
MEMBER_MAX = 30
# The reason given for a penalty or an award ("misdeal", "slow play").
REASON_MAX = 120
# An adjustment's points, either way: far beyond any round's score, short of nonsense.
ADJUSTMENT_MAX = 1000
SLUG_MAX = 100
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

# Ten rotations of a table of six is 60 deals, a long evening already.
ROTATIONS = Range(1, 10, "rotations a round")
# The seating engine plans every remaining round at once; beyond 50 a plan is slow to
# make and no evening or league needs more.
PLANNED_ROUNDS = Range(1, 50, "rounds")
KEEP_CLUBS_APART_ROUNDS = Range(0, PLANNED_ROUNDS.high, "rounds")
HOLD_BACK_ROUNDS = Range(0, PLANNED_ROUNDS.high, "rounds")
# A club night has a handful of tables; a thousand is already a festival.
TABLE_NUMBERS = Range(1, 1000, "")
# A round of a table of six at ten rotations is a long evening; five minutes is a test.
ROUND_MINUTES = Range(5, 600, "minutes")
ROUND_NUMBERS = Range(1, 1000, "")
FIXED_TABLE = Range(
    TABLE_NUMBERS.low,
    TABLE_NUMBERS.high,
    "",
    f"A table number from {TABLE_NUMBERS.low} to {TABLE_NUMBERS.high}, or empty.",
)


def slug_validators() -> list[Callable[[str], None]]:
    return [
        RegexValidator(
            re.compile(SLUG_PATTERN),
            "Lower-case letters, digits and single hyphens between them, as in “red-lion-2026”.",
            code="invalid_slug",
        ),
        validate_not_reserved,
    ]


def slug_from_name(name: str) -> str:
    """The slug a tournament gets from its name when none is given ("" when the name
    has no letter or digit that a slug can hold)."""
    words = re.split(r"[-_]+", slugify(name))
    return "-".join(word for word in words if word)[:SLUG_MAX].strip("-")


def _url_words() -> set[str]:
    """The fixed words of the app's addresses that stand where a slug can stand: for
    every address with a ``<slug:…>`` part, the fixed first parts of the other addresses
    under the same prefix."""
    from django.urls import URLPattern, URLResolver, get_resolver

    routes: list[str] = []

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            routes.append(route)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)

    walk(get_resolver().url_patterns, "")
    prefixes = {route.split("<slug:", 1)[0] for route in routes if "<slug:" in route}
    words = set()
    for prefix in prefixes:
        for route in routes:
            if route.startswith(prefix) and "<" not in (rest := route[len(prefix) :]):
                word = rest.split("/", 1)[0]
                if re.fullmatch(SLUG_PATTERN, word):
                    words.add(word)
    return words


@cache
def reserved_slugs() -> tuple[str, ...]:
    return tuple(sorted(_url_words()))


def validate_not_reserved(slug: str) -> None:
    if slug in reserved_slugs():
        raise ValidationError(
            "“%(slug)s” is the name of one of the app's own pages; choose another address.",
            code="reserved_slug",
            params={"slug": slug},
        )
