"""The seating plan: the rounds still to come, seated at once and kept on the tournament.

Terms:

- *plan*: the engine seats all the rounds still to come at once (the tournament knows
  its planned number of rounds), which gives the same quality round by round as planning
  the whole tournament. The plan is stored on the tournament with a fingerprint of what
  it was made from: the roster, the seating history and the constraints (club pairs and
  how many rounds keep clubs apart included). The next round is taken from the plan while
  the fingerprint still matches; when any of these changed (a late arrival, a drop, a hand
  swap, an edited club), or the organiser gives a seed, the remaining rounds are planned
  again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from scoring.seating import Method, Quality, RoundSeating, SeatingRequest
from tournament.models import Tournament
from tournament.rounds.seating_request import seating_request


def _fingerprint(request: SeatingRequest) -> str:
    """What a plan depends on, besides how many rounds it covers and the seed it was made
    with (a new round without a seed continues the plan; a given seed re-plans)."""
    facts = replace(request, rounds=0, seed=0)
    return hashlib.sha256(repr(facts).encode()).hexdigest()


def _after(request: SeatingRequest, seated: RoundSeating) -> SeatingRequest:
    """The request as it will look once ``seated`` is in the history."""
    early_rounds = max(0, request.early_rounds - 1)
    return replace(
        request,
        history=(*request.history, *seated.tables),
        past_byes=tuple(sorted((*request.past_byes, *seated.byes))),
        keep_apart_early=request.keep_apart_early if early_rounds else (),
        early_rounds=early_rounds,
    )


def _as_json(seating: RoundSeating) -> dict[str, Any]:
    return {"tables": [list(t) for t in seating.tables], "byes": list(seating.byes)}


def _from_json(data: dict[str, Any]) -> RoundSeating:
    return RoundSeating(tuple(tuple(t) for t in data["tables"]), tuple(data["byes"]))


def planned_round(
    tournament: Tournament,
    number: int,
    seed: int,
    split: tuple[int, ...] | None,
    replan: bool,
    method: Method,
) -> RoundSeating:
    """Round ``number`` taken from the stored plan, or from a new plan when the stored one
    no longer fits (or ``replan``); the plan keeps the rounds after it."""
    remaining = max(1, tournament.planned_rounds - (number - 1))
    request = seating_request(tournament, rounds=remaining, seed=seed, before=number, split=split)
    stored = tournament.seating_plan or {}
    if not replan and stored.get("fingerprint") == _fingerprint(request) and stored.get("rounds"):
        upcoming = [_from_json(r) for r in stored["rounds"]]
    else:
        upcoming = list(method.seat(request, request.players))
    seated, rest = upcoming[0], upcoming[1:]
    tournament.seating_plan = {
        "fingerprint": _fingerprint(_after(request, seated)),
        "rounds": [_as_json(r) for r in rest],
    }
    tournament.save(update_fields=["seating_plan"])
    return seated


def plan_json(
    players: int, seating: Sequence[RoundSeating], figures: Quality, byes: bool
) -> dict[str, Any]:
    """The ``plan_seating`` command's output: the data contract in the seating issue."""
    rounds: list[Any] = []
    for seated in seating:
        tables = [list(table) for table in seated.tables]
        rounds.append({"tables": tables, "byes": list(seated.byes)} if byes else tables)
    return {
        "players": players,
        "rounds": rounds,
        "quality": {
            "repeat_meetings": figures.repeat_meetings,
            "max_meetings": figures.max_meetings,
            "lower_bound": figures.lower_bound,
        },
    }
