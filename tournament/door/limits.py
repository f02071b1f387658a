"""How often a door may be used from one network: searches, and taps (check-in and Undo
together), each counted per door address and network address together (a new door
address, or another network, starts afresh), with django-ratelimit's windows.

The numbers let a crowd of 1,000 arrive in half an hour through one pub's wifi (one
network address for every tablet and phone there); a script looping a photographed door
address is held to them.
"""

from __future__ import annotations

from enum import StrEnum

from django.http import HttpRequest
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited

from tournament.door.services import AtDoor

# Searches one door address may take from one network address. The tablet searches as a
# name is typed (after each pause of 0.3 s): about five searches an arrival, up to ten
# for a long name typed slowly. 1,000 arrivals in half an hour is 33 a minute on
# average; arrivals come in bursts (a coach, a room let out), the busiest minute about
# three times that: 100 arrivals, up to 1,000 searches at ten each, so 1,200 a minute.
# The hour: 1,000 arrivals at about five searches, twice over for second looks: 12,000.
# A script guessing whole words (``names_as_typed``) off a photographed door address is
# held to that; a private room's names are as safe as its door address.
SEARCH_RATES = (("door-search-minute", "1200/m"), ("door-search-hour", "12000/h"))
# Taps (check-in and Undo together) one door address may take from one network address:
# counted per door and network together, so a new door address, or another network,
# starts afresh. A crowd of 1,000 arriving in half an hour through one pub's wifi (one
# address for every tablet and phone) is 33 arrivals a minute on average, one tap each;
# arrivals come in bursts (a coach, a room let out), say the busiest minute at three
# times the average, and a few of them tap Undo and their name again: about 110 a
# minute, so 150. In the hour they arrive, the 1,000 tap about 1,100 times (more if some
# look at their table again); 3,000 leaves room for that twice over. A script looping
# check-in and Undo off a photographed QR code is held to 150 a minute, and stops for the
# rest of the hour after 20 minutes at that pace.
TAP_RATES = (("door-tap-minute", "150/m"), ("door-tap-hour", "3000/h"))
_WAIT = {"m": "Wait a minute", "h": "Wait a while (up to an hour)"}


def search_limit(request: HttpRequest, at: AtDoor) -> str | None:
    """Why the door at ``at`` may not take this search from the network address of
    ``request`` now (it has searched too often lately), None when it may; this search
    counts either way."""
    for group, rate in SEARCH_RATES:
        if is_ratelimited(
            request,
            group=f"{group}:{at.door.token}",
            key="ip",
            rate=rate,
            method=ALL,
            increment=True,
        ):
            period = rate[-1]
            return (
                "This door has had too many searches from this network lately. "
                f"{_WAIT[period]}, then type your name again, or ask the organiser at the "
                "desk to check you in."
            )
    return None


class Tap(StrEnum):
    """What a tap at the door asks for, as the refusal of one too many says it."""

    CHECK_IN = "check-in"
    UNDO = "undo"


def tap_limit(request: HttpRequest, at: AtDoor, tap: Tap) -> str | None:
    """Why the door at ``at`` may not take this tap (check-in or Undo) from the network
    address of ``request`` now (``TAP_RATES``: counted per door address and network
    address together), in words for the tablet; None when it may. This tap counts
    either way."""
    for group, rate in TAP_RATES:
        if is_ratelimited(
            request,
            group=f"{group}:{at.door.token}",
            key="ip",
            rate=rate,
            method=ALL,
            increment=True,
        ):
            wait = _WAIT[rate[-1]]
            if tap is Tap.UNDO:
                return (
                    "This door has had too many taps from this network lately, so the check-in "
                    "was not undone. Please tell the organiser at the desk, who can check the "
                    f"player out. ({wait} before tapping here again.)"
                )
            return (
                f"This door has had too many taps from this network lately. {wait}, then "
                "tap your name again, or ask the organiser at the desk to check you in."
            )
    return None


# At the door -----------------------------------------------------------------------
