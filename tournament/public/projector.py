"""What the projector shows across the room (``public.views.standings.projector``).

Terms:

- *seating board*: while the current round is started, its results not released and its
  seating public (``public.room``), every seated player alphabetically with their
  table and seat and who deals first, and the round clock;
- *standings board*: otherwise (a round released, or none started): the released
  standings with the provisional wording of ``room.progress``, the tiebreak value that
  placed each row highlighted as on the standings page, the leader's margin in words
  (``room.lead``, as the standings page says it), and before the last round each
  player's chances of winning and of the top three (``public.chances``).

Both are cut into pages of ``ROWS``; the page shows one at a time (static/js/projector.js
turns them, a reload does without JavaScript).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.standings import StandingRow, Standings
from scoring.tiebreaks import Column, decided_column, standings_columns
from tournament.models import Tournament
from tournament.public import room
from tournament.public.chances import PlayerChances, chances_view, percent
from tournament.public.results import public_results
from tournament.rounds.clock import clock_state

ROWS = 12
# How long each page stays up; a release shows within live.js's poll whatever the page.
SECONDS = 15


def _pages(items: list[Any]) -> list[list[Any]]:
    return [items[i : i + ROWS] for i in range(0, len(items), ROWS)] or [[]]


def board(tournament: Tournament, page: int) -> dict[str, Any]:
    """The projector's context: the seating board while a round is played, else the
    standings board. ``page`` (from 1) is the one shown first; out of range is clamped."""
    seating = room.public_seating(tournament)
    if seating is not None and not seating.round.released:
        context = _seating_board(seating)
    else:
        context = _standings_board(tournament)
    count = len(context["pages"])
    current = min(max(page, 1), count)
    return {
        **context,
        "tournament": tournament,
        "page": current,
        "page_count": count,
        "next_page": current % count + 1,
        "seconds": SECONDS,
    }


def _seating_board(seating: room.SeatedRound) -> dict[str, Any]:
    rows = [
        {
            "name": p.player.name,
            "table": p.table.number,
            "seat": p.player.position,
            "deals": room.deals_in_words(p.deals_in_turn),
            "first": p.deals_in_turn == 1,
        }
        for p in seating.placements()
    ]
    return {
        "mode": "seating",
        "round_number": seating.number,
        "clock": clock_state(seating.round),
        "pages": _pages(rows),
        "byes": [bye.name for bye in seating.byes],
    }


@dataclass(frozen=True)
class BoardRow:
    row: StandingRow
    club: str
    cells: list[tuple[Any, bool]]  # (value, decided)
    honour: str  # "Leader", "Winner", "Runner-up" or ""
    # "31 % · 78 %": the chance of winning and of the top three, while chances are shown.
    chances: str = ""


def _standings_board(tournament: Tournament) -> dict[str, Any]:
    results = public_results(tournament)
    result = results.tournament_standings(tournament)
    standings = result.standings
    progress = room.progress(tournament, standings.round_numbers)
    columns = standings_columns(standings.tiebreaks, standings.round_numbers)
    chances = chances_view(tournament, progress.after_round, results.chances)
    odds = chances.stored.players if chances.stored else {}
    rows = [
        BoardRow(
            row=row,
            club=result.info(row).club,
            cells=_cells(row, above, standings, columns),
            honour=_honour(row, progress),
            chances=_chances(odds.get(row.key)),  # type: ignore[call-overload]
        )
        for row, above in zip(standings.rows, (None, *standings.rows), strict=False)
    ]
    return {
        "mode": "standings",
        "progress": progress,
        "columns": columns,
        "pages": _pages(rows),
        "lead": room.lead(standings),
        "chances": chances,
        # "Table 3 of round 3 has no result yet", one sentence per round.
        "missing": result.missing_words,
    }


def _cells(
    row: StandingRow, above: StandingRow | None, standings: Standings, columns: list[Column]
) -> list[tuple[Any, bool]]:
    decided = decided_column(row, above, standings.round_numbers)
    waiting = {f"round_{number}" for number in row.waiting}
    cells: list[tuple[Any, bool]] = []
    for column in columns:
        if column.name in waiting:
            # The name says "no result yet": a cell across the room has no room for it.
            cells.append(("–", False))
            continue
        value = column.figure(row.tally)
        cells.append(("–" if value is None else value, column.name == decided))
    return cells


def _chances(odds: PlayerChances | None) -> str:
    return f"{percent(odds.win)}\u00a0· {percent(odds.top3)}" if odds else ""


def _honour(row: StandingRow, progress: room.Progress) -> str:
    if not progress.started:
        return ""
    if progress.final:
        return {1: "Winner", 2: "Runner-up", 3: "Runner-up"}.get(row.rank or 0, "")
    return "Leader" if row.rank == 1 else ""
