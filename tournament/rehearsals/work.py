"""The work of a rehearsal that a large field makes slow, done by the task worker
(``rehearsals.tasks``) after the commit of the organiser's click:

- *filling the copy*: the players of the tournament rehearsed (name, club, whether they
  play, a fixed table, its ref) and the pairs it keeps apart, then round 1 seated by the
  seating engine as the organiser would seat it;
- *playing a round*: each table of a started round whose sheet nobody has begun gets the
  simulator's deals (``scoring.simulation``), saved as a phone at that table would send
  them (``sheets.saving.save_sheet`` by ``AtTable``): entered, awaiting confirmation.

Each player's skill (a strategy and an oversight rate) and each table's deals come from
seeds of the rehearsal, its player and its round, so that a rehearsal played again the
same way deals the same cards. Both clear ``Tournament.rehearsal_work`` when done,
whatever happened, so the pages stop saying "being worked out".
"""

from __future__ import annotations

import logging
import random
import zlib

from django.db import transaction

from scoring.errors import UserError
from scoring.simulation import SimulatedPlayer, player, simulate
from tournament.models import KeepApart, Player, Round, SheetStatus, Table, Tournament
from tournament.rounds.seating import seat_next_round
from tournament.sheets.authors import AtTable
from tournament.sheets.saving import save_sheet
from tournament.tournament_file.file_format import deal_entry

logger = logging.getLogger(__name__)

# As the demo evening's room: about a third take any legal capture, each overlooks a
# capture up to this often, so that the stronger players win more often.
NAIVE_SHARE = 0.35
MAX_OVERSIGHT = 0.25


def fill_copy(rehearsal_id: int) -> str:
    """Copy the players of the tournament rehearsed into the rehearsal and seat round 1."""
    try:
        rehearsal = Tournament.objects.filter(pk=rehearsal_id).first()
        if rehearsal is None or not rehearsal.is_rehearsal:
            return "no such rehearsal"
        if not Player.objects.filter(tournament=rehearsal).exists():
            _copy_players(rehearsal)
        if not Round.objects.filter(tournament=rehearsal).exists():
            try:
                seat_next_round(rehearsal)
            except UserError as refused:
                # The organiser seats it on the Rounds page, which says why not.
                logger.warning("rehearsal %s: round 1 not seated: %s", rehearsal.slug, refused)
                return "copied, not seated"
        return "copied"
    finally:
        _done(rehearsal_id)


def _copy_players(rehearsal: Tournament) -> None:
    original_id = rehearsal.rehearsal_of_id
    if original_id is None:
        # The tournament rehearsed was removed before its players could be copied.
        return
    with transaction.atomic():
        original = list(Player.objects.filter(tournament_id=original_id))
        copies = Player.objects.bulk_create(
            Player(
                tournament=rehearsal,
                ref=each.ref,
                name=each.name,
                club=each.club,
                active=each.active,
                fixed_table=each.fixed_table,
            )
            for each in original
        )
        by_ref = {copy.ref: copy for copy in copies}
        refs = {each.pk: each.ref for each in original}
        KeepApart.objects.bulk_create(
            KeepApart(
                tournament=rehearsal,
                first=by_ref[refs[pair.first_id]],
                second=by_ref[refs[pair.second_id]],
            )
            for pair in KeepApart.objects.filter(tournament_id=original_id)
        )


def play_round(rehearsal_id: int, number: int) -> str:
    """Fill every sheet of round ``number`` nobody has begun with simulated deals, as
    entered at the table; how many were filled, in words."""
    try:
        round_ = (
            Round.objects.select_related("tournament")
            .filter(tournament_id=rehearsal_id, number=number, tournament__rehearsal_token__gt="")
            .first()
        )
        if round_ is None:
            return "no such round"
        filled = sum(_play_table(table, round_.tournament) for table in _tables(round_))
        return f"{filled} table{'s' if filled != 1 else ''} played"
    finally:
        _done(rehearsal_id)


def _tables(round_: Round) -> list[Table]:
    return list(
        Table.objects.filter(round=round_, sheet__status=SheetStatus.NOT_STARTED)
        .select_related("round__tournament", "sheet")
        .prefetch_related("seats__player")
        .order_by("number")
    )


def _play_table(table: Table, tournament: Tournament) -> bool:
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    skill = [player_skill(tournament.pk, seat.player.ref) for seat in seats]
    count = len(seats) * tournament.rotations_per_round
    system = tournament.scoring_system
    seed = table_seed(tournament.pk, table.round.number, table.number)
    try:
        rows = [
            deal_entry(deal.facts, system.needs_order)
            for deal in simulate(tournament.rules, system, skill, count, seed)
        ]
        save_sheet(
            table,
            AtTable(f"rehearsal-{table.pk}"),
            rows,  # type: ignore[arg-type]
            expected_version=table.sheet.version,
            final=True,
        )
    except UserError as refused:
        # Typed meanwhile by someone at the desk or a phone (theirs stands), or a table the
        # rules seat no longer (the organiser types it at the desk).
        logger.info("rehearsal %s, table %s left as typed: %s", tournament.slug, table, refused)
        return False
    return True


def player_skill(rehearsal_id: int, ref: str) -> SimulatedPlayer:
    rng = random.Random(zlib.crc32(f"{rehearsal_id}:{ref}".encode()))
    strategy = "naive" if rng.random() < NAIVE_SHARE else "willughby"
    return player(strategy, round(rng.uniform(0.0, MAX_OVERSIGHT), 3))


def table_seed(rehearsal_id: int, round_number: int, table_number: int) -> int:
    return rehearsal_id * 1_000_000 + round_number * 1_000 + table_number


def _done(rehearsal_id: int) -> None:
    Tournament.objects.filter(pk=rehearsal_id).update(rehearsal_work="")
