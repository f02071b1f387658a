"""Writing a tournament to a file: ``export_tournament`` reads the database into the
current format (``file_format.FORMAT``), read inside ``consistent_read`` so that a sheet
confirmed meanwhile is never half in it.

Importing a file and exporting again gives the same file; ``released_only`` writes the
public one, without what is private to the organiser.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

from tournament.models import (
    Bye,
    Deal,
    DealResult,
    KeepApart,
    Player,
    Round,
    Seat,
    Sheet,
    SheetStatus,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.sheets.rows import Row
from tournament.tournament_file import leaves_adjustments as version_3
from tournament.tournament_file import rule_sets as version_4
from tournament.tournament_file.file_format import FORMAT, PUBLIC_SETTINGS, SETTINGS


@contextmanager
def consistent_read() -> Iterator[None]:
    """A read-only transaction whose queries all see the database at one moment: an
    export read inside it never holds half of a sheet confirmed meanwhile."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        # PostgreSQL's default READ COMMITTED gives each query its own moment; SQLite's
        # transactions already read one moment. Inside an outer transaction (tests) the
        # isolation level can no longer be changed.
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def export_tournament(tournament: Tournament, *, released_only: bool = False) -> dict[str, Any]:
    """The tournament as a file: its confirmed facts, what the public sees and who runs
    it, and its sheets as they stand; importing it and exporting again gives the same
    file. ``released_only`` keeps only the rounds released to the public, and leaves out
    what is private to the organiser (players kept apart, fixed tables, the organiser and
    scorers, sheets)."""
    rounds: dict[str, object] = {"released": True} if released_only else {}

    def on(path: str) -> dict[str, object]:
        return {f"{path}{key}": value for key, value in rounds.items()}

    players = list(
        Player.objects.filter(tournament=tournament).values_list(
            "pk", "ref", "name", "club", "active", "checked_in", "fixed_table", "person__member"
        )
    )
    refs = {pk: ref for pk, ref, *_ in players}
    byes: dict[int, list[str]] = {}
    for round_id, player_id in (
        Bye.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("round_id", "player_id")
        .order_by("round_id", "player_id")
    ):
        byes.setdefault(round_id, []).append(refs[player_id])
    seats: dict[int, list[str]] = {}
    for table_id, player_id in (
        Seat.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("table_id", "player_id")
        .order_by("table_id", "position")
    ):
        seats.setdefault(table_id, []).append(refs[player_id])
    results: dict[int, dict[int, int]] = {}
    for deal_id, seat, won in DealResult.objects.filter(
        deal__table__round__tournament=tournament, **on("deal__table__round__")
    ).values_list("deal_id", "seat", "won"):
        results.setdefault(deal_id, {})[seat] = won
    deals: dict[int, list[Row]] = {}
    for deal_id, table_id, last_in, left_over, laid_down in (
        Deal.objects.filter(table__round__tournament=tournament, **on("table__round__"))
        .values_list("pk", "table_id", "last_in", "left_over", "laid_down")
        .order_by("table_id", "number")
    ):
        # A seat that had left the table has no count: null.
        counts = results.get(deal_id, {})
        cells: list[int | str | None] = [
            counts.get(seat) for seat in range(1, len(seats.get(table_id, [])) + 1)
        ]
        row = Row(won=cells, last_in=last_in, left_over=left_over)
        if laid_down:
            row["laid_down"] = laid_down
        deals.setdefault(table_id, []).append(row)
    sheets = {} if released_only else _sheets(tournament)
    tables: dict[int, list[dict[str, Any]]] = {}
    for table_id, round_id, number, left in (
        Table.objects.filter(round__tournament=tournament, **on("round__"))
        .values_list("pk", "round_id", "number", "left")
        .order_by("round_id", "number")
    ):
        tables.setdefault(round_id, []).append(
            {
                "number": number,
                "seats": seats.get(table_id, []),
                "deals": deals.get(table_id, []),
                **({"left": left} if left else {}),
                **({"sheet": sheets[table_id]} if table_id in sheets else {}),
            }
        )
    return {
        "format": FORMAT,
        "name": tournament.name,
        **({} if released_only else {"key": tournament.pk}),
        "slug": tournament.slug,
        **({"date": tournament.date.isoformat()} if tournament.date else {}),
        "scoring": tournament.scoring,
        **version_4.exported(tournament),
        "rotations_per_round": tournament.rotations_per_round,
        "tiebreaks": list(tournament.tiebreaks),
        **{key: getattr(tournament, key) for key in (*SETTINGS, *PUBLIC_SETTINGS)},
        **({} if released_only else _people(tournament)),
        **({} if released_only else {"keep_apart": _keep_apart_refs(tournament, refs)}),
        "players": [
            {
                "id": ref,
                **({} if released_only else {"key": pk}),
                "name": name,
                "club": club,
                **({} if active else {"active": False}),
                # Who is here tonight decides who the next round seats; not public.
                **({"checked_in": True} if checked_in and not released_only else {}),
                **({"fixed_table": fixed} if fixed and not released_only else {}),
                **({"member": member} if member else {}),
            }
            for pk, ref, name, club, active, checked_in, fixed, member in players
        ],
        "rounds": [
            {
                "number": number,
                "started": started,
                "released": released,
                "tables": tables.get(round_id, []),
                **({"byes": byes[round_id]} if round_id in byes else {}),
            }
            for round_id, number, started, released in Round.objects.filter(
                tournament=tournament, **rounds
            )
            .values_list("pk", "number", "started", "released")
            .order_by("number")
        ],
        **version_3.export_adjustments(tournament, refs, released_only=released_only),
    }


def _people(tournament: Tournament) -> dict[str, Any]:
    return {
        "owner": tournament.owner.get_username() if tournament.owner else None,
        "scorers": sorted(user.get_username() for user in tournament.scorers.all()),
    }


def _sheets(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """The sheets someone has saved, by table id, each with its history."""
    history: dict[int, list[dict[str, Any]]] = {}
    for sheet_id, number, action, status, rows, changes, left, by, phone, at in (
        SheetVersion.objects.filter(sheet__table__round__tournament=tournament)
        .values_list(
            "sheet_id",
            "number",
            "action",
            "status",
            "deals",
            "changes",
            "left",
            "by__username",
            "phone",
            "at",
        )
        .order_by("sheet_id", "number")
    ):
        history.setdefault(sheet_id, []).append(
            {
                "number": number,
                "action": action,
                "status": status,
                "deals": rows,
                "changes": changes,
                **({"left": left} if left else {}),
                "by": by,
                **_phone("phone", phone),
                "at": at.isoformat(),
            }
        )
    sheets = {}
    for (
        sheet_id,
        table_id,
        status,
        pending,
        pending_left,
        stopped_early,
        entered_by,
        confirmed_by,
        entered_by_phone,
        confirmed_by_phone,
    ) in (
        Sheet.objects.filter(table__round__tournament=tournament)
        .filter(Q(version__gt=0) | Q(status__in=[SheetStatus.DRAFT, SheetStatus.ENTERED]))
        .values_list(
            "pk",
            "table_id",
            "status",
            "pending",
            "pending_left",
            "stopped_early",
            "entered_by__username",
            "confirmed_by__username",
            "entered_by_phone",
            "confirmed_by_phone",
        )
    ):
        sheets[table_id] = {
            "status": status,
            "stopped_early": stopped_early,
            "pending": pending,
            **({"pending_left": pending_left} if pending_left else {}),
            "entered_by": entered_by,
            "confirmed_by": confirmed_by,
            # Saved at the table, not by a user: "table 4, phone 2" in the history.
            **_phone("entered_by_phone", entered_by_phone),
            **_phone("confirmed_by_phone", confirmed_by_phone),
            "history": history.get(sheet_id, []),
        }
    return sheets


def _phone(key: str, number: int | None) -> dict[str, int]:
    return {} if number is None else {key: number}


def _keep_apart_refs(tournament: Tournament, refs: dict[int, str]) -> list[list[str]]:
    return [
        [refs[first], refs[second]]
        for first, second in KeepApart.objects.filter(tournament=tournament)
        .values_list("first_id", "second_id")
        .order_by("pk")
    ]
