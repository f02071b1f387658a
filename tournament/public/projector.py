"""What the projector shows across the room (``public.views.standings.projector``).

Terms:

- *seating board*: while the current round is started, its results not released and its
  seating public (``public.room``), every seated player alphabetically with their
  table and seat and who deals first, and the round clock;
- *standings board*: otherwise (a round released, or none started): the released
  standings with the provisional wording of ``room.progress``, the tiebreak value that
  placed each row highlighted as on the standings page, the leader's margin in words
  (``room.lead``, as the standings page says it), and before the last round each
  player's chances of winning and of the top three (from the public view).

*Layout* (``layout``): a screen holds up to ``MOST`` rows, in up to ``COLUMNS`` columns
side by side (one table each) read down one column then the next; a board longer than a
screen, or whose rows would need too small a type to fit, is cut into pages. Rows are
shared evenly between the pages and between the columns of a page (61 rows: 31 and 30,
never 60 and 1). The type size is worked out here for a 16:9 screen (``size``, in tenths
of a screen unit, static/css/projector.css's ``--u``): as large as lets the fullest
column fit the screen's height and each column its width. This is the layout without
JavaScript; static/js/projector.js measures the real screen and lays the page shown out
again (one to four columns, the largest type at which every name is whole). The page
shows one page at a time (projector.js turns them, a reload does without JavaScript).

*Unscored*: on the standings board, a player whose table has no confirmed result yet in
a released round, or with no result at all, shows "–" for points and totals, not 0;
the foot says what the mark means.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.standings import StandingRow, Standings
from scoring.tiebreaks import Column, decided_column, standings_columns
from tournament.kernel.numbers import shown
from tournament.models import Tournament
from tournament.public import room
from tournament.public.results import public_results
from tournament.rounds.clock import clock_state
from tournament.shared.derived import PlayerChances, percent
from tournament.shared.results import PLACES

# The most rows one screen shows, and in how many columns at most.
MOST = 60
COLUMNS = 3
# How long each page stays up; a release shows within live.js's poll whatever the page.
SECONDS = 15

# The screen in units of 1 % of its height at 16:9 (``--u`` in projector.css): what the
# rows of a column may take below the heading and above the foot, the width of the board
# (94vw) and the gap between two columns.
HEIGHT = 74.0
WIDTH = 167.0
GAP = 3.6
# A row and a column's header row in ems of the board's type.
ROW_EMS = 1.3
HEAD_EMS = 2.3
# Type sizes, in tenths of a unit: the largest (as for twelve rows on a screen), the
# smallest before a board takes another page, and the least a board takes fewer columns
# for.
LARGEST = 34
SMALLEST = 14
READABLE = 28
# Each board's fixed columns in ems (projector.css's widths, padding included), and the
# least the name keeps.
NAME_EMS = 8.5
SEATING_EMS = 2.9 + 2.2 + 4.4
RANK_EMS, POINTS_EMS, TIEBREAK_EMS, CHANCES_EMS = 2.6, 3.0, 2.4, 6.2


@dataclass(frozen=True)
class Layout:
    """A board cut into pages, each of ``columns`` lists of rows, in type ``size``."""

    pages: list[list[list[Any]]]
    columns: int
    size: int


def split(items: Sequence[Any], parts: int) -> list[list[Any]]:
    """``items`` in ``parts`` runs in order, the longest first, none longer than another
    by more than one."""
    size, extra = divmod(len(items), parts)
    runs, start = [], 0
    for part in range(parts):
        end = start + size + (part < extra)
        runs.append(list(items[start:end]))
        start = end
    return runs


def type_size(rows: int, columns: int, ems: float) -> int:
    """The largest type (tenths of a unit) for ``rows`` in each of ``columns`` columns each
    ``ems`` wide: the column's rows fit the height, the columns the width."""
    tall = HEIGHT / (rows * ROW_EMS + HEAD_EMS)
    wide = (WIDTH - (columns - 1) * GAP) / columns / ems
    return min(LARGEST, math.floor(min(tall, wide) * 10 + 1e-9))


def layout(rows: Sequence[Any], ems: float) -> Layout:
    """``rows`` on as few pages as hold them at a readable size, each page in the fewest
    columns that keep the type ``READABLE`` (else in the columns that give it the largest
    type); ``ems`` is the width of a column's fixed cells."""
    width = ems + NAME_EMS
    pages = max(1, math.ceil(len(rows) / MOST))
    while True:
        fullest = math.ceil(len(rows) / pages)
        sizes = {
            columns: type_size(math.ceil(fullest / columns), columns, width)
            for columns in range(1, min(COLUMNS, max(fullest, 1)) + 1)
        }
        fit = [columns for columns, size in sizes.items() if size >= READABLE]
        columns = fit[0] if fit else max(sizes, key=lambda c: (sizes[c], -c))
        if sizes[columns] >= SMALLEST or fullest <= 1:
            break
        pages += 1
    cut = [[column for column in split(page, columns) if column] for page in split(rows, pages)]
    return Layout([page or [[]] for page in cut], columns, max(SMALLEST, sizes[columns]))


def board(tournament: Tournament, page: int) -> dict[str, Any]:
    """The projector's context: the seating board while a round is played, else the
    standings board. ``page`` (from 1) is the one shown first; out of range is clamped."""
    seating = room.public_seating(tournament)
    if seating is not None and not seating.round.released:
        context = _seating_board(seating)
    else:
        context = _standings_board(tournament)
    count = len(context["layout"].pages)
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
            "deals": room.turn_in_words(p.deals_in_turn),
            "first": p.deals_in_turn == 1,
        }
        for p in seating.placements()
    ]
    return {
        "mode": "seating",
        "round_number": seating.number,
        "clock": clock_state(seating.round),
        "layout": layout(rows, SEATING_EMS),
        "byes": [bye.name for bye in seating.byes],
    }


@dataclass(frozen=True)
class BoardRow:
    row: StandingRow
    club: str
    cells: list[tuple[Any, bool]]  # (value, decided)
    honour: str  # "Leader", "Winner", "Runner-up", "Third" or ""
    # "31 % · 78 %": the chance of winning and of the top three, while chances are shown.
    chances: str = ""

    @property
    def scored(self) -> bool:
        """Whether every released round the player sat has its result (and one has):
        else the points and totals are not shown, only "–"."""
        return self.row.has_result and not self.row.waiting


def _standings_board(tournament: Tournament) -> dict[str, Any]:
    results = public_results(tournament)
    result = results.tournament_standings(tournament)
    standings = result.standings
    progress = room.progress(tournament, standings.round_numbers)
    columns = standings_columns(standings.tiebreaks, standings.round_numbers)
    chances = results.chances_view
    odds = chances.stored.players if chances.stored else {}
    ems = RANK_EMS + POINTS_EMS + TIEBREAK_EMS * len(columns)
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
        "layout": layout(rows, ems + (CHANCES_EMS if chances.shown else 0)),
        "lead": room.lead(standings),
        # Whether a row shows "–" for a result not in yet, which the foot then explains.
        "unscored": any(not line.scored for line in rows),
        "chances": chances,
        # "Table 3 of round 3 has no result yet", one sentence per round.
        "missing": result.missing_words,
    }


def _cells(
    row: StandingRow, above: StandingRow | None, standings: Standings, columns: list[Column]
) -> list[tuple[Any, bool]]:
    decided = decided_column(row, above, standings.round_numbers)
    waiting = {f"round_{number}" for number in row.waiting}
    rounds = {f"round_{number}" for number in standings.round_numbers}
    # Without every result, a total (deals last in, table wins, …) would count a round
    # not in yet as nothing: only the rounds that have their result show a figure.
    unscored = not row.has_result or bool(row.waiting)
    cells: list[tuple[Any, bool]] = []
    for column in columns:
        if column.name in waiting or (unscored and column.name not in rounds):
            # The name says "no result yet": a cell across the room has no room for it.
            cells.append(("–", False))
            continue
        value = column.figure(row.tally)
        cells.append(("–" if value is None else shown(value), column.name == decided))
    return cells


def _chances(odds: PlayerChances | None) -> str:
    if odds is None:
        return ""
    return (
        f"{percent(odds.win, odds.win_reachable)}\u00a0· {percent(odds.top3, odds.top3_reachable)}"
    )


def _honour(row: StandingRow, progress: room.Progress) -> str:
    if not progress.started:
        return ""
    if progress.final:
        return PLACES.get(row.rank or 0, "")
    return "Leader" if row.rank == 1 else ""
