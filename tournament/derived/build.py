"""Working out a tournament's views once per change, and storing them.

Terms (``models.derived`` and ``shared.derived`` have the rest):

- *working out* (``work_out_views``): load what each view is made from (the standings'
  facts: five queries a view), take its fingerprint, and only where the fingerprint is
  not the stored one, compute the standings (``standings.services.standings_from``), each
  player's rank after each round (public view), the tables each player waits for, and
  each round's tables, then store them with the standings version they were made for.
- It runs right after the commit of the change that moved the standings version, in
  that process (``derived.refresh``), by the task ``derive_views`` when a page found a
  view missing or the worker's sweep found one behind, and by import and restore. It is
  the cheap part: tens of milliseconds at 1,000 players. The chances it only asks for.

Two processes may work out the same tournament at once: each stores only over an older
version, so the newest wins.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.rules import deals_in_round
from scoring.standings import ranks_after_each_round
from scoring.systems import points_from_sums
from tournament.derived.chances import chances_key
from tournament.models import DerivedView, PodiumChances, Tournament
from tournament.shared import public_changes
from tournament.shared.derived import (
    FORMAT,
    ORGANISER,
    PUBLIC,
    PlayerInfo,
    encode_row,
)
from tournament.standings.services import (
    StandingsFacts,
    bye_points,
    standings_facts,
    standings_from,
)
from tournament.webhooks.services import standings_moved


def _settings(tournament: Tournament) -> tuple[Any, ...]:
    return (
        tournament.scoring,
        tournament.rules.as_data(),
        tournament.rotations_per_round,
        list(tournament.tiebreaks),
        tournament.bye_score,
    )


def fingerprint(tournament: Tournament, kind: str, facts: StandingsFacts) -> str:
    """A digest of everything a view is made from: its facts and the settings that score
    and rank them."""
    made_of = (
        FORMAT,
        kind,
        _settings(tournament),
        sorted(facts.players.items()),
        facts.plays,
        facts.incomplete_tables,
        sorted(facts.round_numbers),
        sorted(facts.byes),
        facts.tables,
        sorted(facts.adjustments, key=repr),
    )
    return hashlib.sha256(repr(made_of).encode()).hexdigest()


@dataclass(frozen=True)
class Worked:
    """What ``work_out_views`` did: whether the public view changed (the pages must be
    made again) and whether its chances are to be worked out."""

    public_changed: bool = False
    chances_wanted: bool = False


def _data(tournament: Tournament, kind: str, facts: StandingsFacts) -> tuple[dict, dict]:
    standings = standings_from(tournament, facts).standings
    history: dict[str, list[list[Any]]] = {}
    if kind == PUBLIC:
        ranks = ranks_after_each_round(
            facts.entrants,
            facts.plays,
            tournament.scoring_system,
            tournament.tiebreaks,
            facts.round_numbers,
            facts.byes,
            bye_points(tournament),
            facts.adjustments,
        )
        history = {
            str(pk): [[rank.rank, rank.shared, rank.points] for rank in ranks[pk]]
            for pk in facts.players
        }
    sat_out: dict[int, list[int]] = {}
    for number, pk in facts.byes:
        sat_out.setdefault(pk, []).append(number)
    waits: dict[int, list[list[int]]] = {}
    for table in facts.tables:
        if table.deals == 0:
            for pk in table.players:
                waits.setdefault(pk, []).append([table.round_number, table.number])
    standings_json = {
        "format": FORMAT,
        "system": standings.system.value,
        "tiebreaks": list(standings.tiebreaks),
        "round_numbers": list(standings.round_numbers),
        "players": {str(pk): _player(info) for pk, info in facts.players.items()},
        "rows": [encode_row(row) for row in standings.rows],
        "incomplete": [[t.round, t.table, t.deals, t.expected] for t in facts.incomplete_tables],
        "ranks": history,
        "byes": {str(pk): sorted(numbers) for pk, numbers in sat_out.items()},
        "waits": {str(pk): sorted(pairs) for pk, pairs in waits.items()},
    }
    return standings_json, _round_tables(tournament, facts)


def _player(info: PlayerInfo) -> list[str]:
    return [info.ref, info.name, info.club, info.person]


def _round_tables(tournament: Tournament, facts: StandingsFacts) -> dict[str, Any]:
    system, rules = tournament.scoring_system, tournament.rules
    tables: dict[int, list[list[Any]]] = {}
    for table in facts.tables:
        seats = [
            [
                pk,
                facts.players[pk].name,
                points_from_sums(sums, system, rules),
                sums.won,
                sums.last_in,
            ]
            for pk, sums in zip(table.players, table.sums, strict=True)
        ]
        expected = deals_in_round(len(table.players), tournament.rotations_per_round, table.leaves)
        left = [[leave.seat, leave.after_deal] for leave in table.leaves]
        tables.setdefault(table.round_number, []).append(
            [table.number, table.deals, expected, seats, left]
        )
    byes: dict[int, list[list[Any]]] = {}
    for number, pk in facts.byes:
        byes.setdefault(number, []).append([number, pk, facts.players[pk].name])
    return {
        f"r{number}": {
            "tables": sorted(tables.get(number, [])),
            "byes": sorted(byes.get(number, []), key=lambda bye: (bye[2], bye[1])),
        }
        for number in facts.round_numbers
    }


def work_out_views(tournament_id: int, *, move_generation: bool = True) -> Worked:
    """Work out and store both views of the tournament for its present standings
    version (nothing for a tournament deleted meanwhile), moving its page generation when
    the public view changed (a restore, which puts the generations back as they were,
    does not); say whether the chances are wanted. Outside any transaction of the
    change: after its commit."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return Worked()
    version = tournament.standings_version
    stored = {
        kind: (made_for, fingerprint_, chances_key)
        for kind, made_for, fingerprint_, chances_key in DerivedView.objects.filter(
            tournament=tournament
        ).values_list("kind", "made_for", "fingerprint", "chances_key")
    }
    public_changed = False
    chances_wanted = False
    for kind in (ORGANISER, PUBLIC):
        facts = standings_facts(tournament, released_only=kind == PUBLIC)
        digest = fingerprint(tournament, kind, facts)
        before = stored.get(kind)
        if before is not None and before[1] == digest:
            standings_json = tables = None
        else:
            standings_json, tables = _data(tournament, kind, facts)
        key = ""
        if kind == PUBLIC:
            key = chances_key(
                tournament,
                digest,
                max(facts.round_numbers, default=0),
                any(table.deals == 0 for table in facts.incomplete_tables),
            )
        if before is not None and before[1:] == (digest, key):
            if before[0] < version:
                DerivedView.objects.filter(
                    tournament=tournament, kind=kind, made_for__lt=version
                ).update(made_for=version)
        elif _store(tournament, kind, version, digest, key, standings_json, tables):
            public_changed |= kind == PUBLIC
        if kind == PUBLIC and key:
            chances_wanted = not PodiumChances.objects.filter(
                tournament=tournament, fingerprint=key
            ).exists()
    if public_changed and move_generation:
        public_changes.mark_page_changed(tournament.pk)
        # Not a restore's: the public standings moved, which webhooks may be told.
        standings_moved(tournament.pk)
    return Worked(public_changed, chances_wanted)


def _store(
    tournament: Tournament,
    kind: str,
    version: int,
    digest: str,
    key: str,
    standings_json: dict | None,
    tables: dict | None,
) -> bool:
    """Store the view over an older version; False when a newer one is stored."""
    values: dict[str, Any] = {
        "made_for": version,
        "fingerprint": digest,
        "chances_key": key,
        "made_at": timezone.now(),
    }
    if standings_json is not None:
        values["standings"] = standings_json
        values["tables"] = tables
    with transaction.atomic():
        if DerivedView.objects.filter(
            tournament=tournament, kind=kind, made_for__lte=version
        ).update(**values):
            return True
        if DerivedView.objects.filter(tournament=tournament, kind=kind).exists():
            return False  # a newer version is stored
        if standings_json is None:
            return False
        try:
            with transaction.atomic():
                DerivedView.objects.create(tournament=tournament, kind=kind, **values)
        except IntegrityError:
            return False  # made at the same moment by another process
    return True
