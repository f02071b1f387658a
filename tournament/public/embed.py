"""What a guild's own site and a stream show of a published tournament: the standings
widget (``embed``) and the broadcast overlay (``overlay``).

Terms:

- *embed*: the standings, compact, for an ``<iframe>`` on another site (the only address
  of the site any other site may frame). It follows the evening as the standings page
  does, from the stored public view: a result missing, a table stopped early (a player
  gone), a penalty or an award, "being worked out" while the view is not made.
- *overlay*: large type on a transparent page, for streaming software's browser source
  (OBS): the top ``top`` rows of the standings (``show=standings``), or one table's
  seating in a round (``show=table&round=R&table=T``), with its scores once the round
  is released. A ``round`` left out is the round being played.
- *clamp*: every number the overlay reads is brought into its range (``TOP``,
  ``limits.ROUND_NUMBERS``, ``limits.TABLE_NUMBERS``) before the page is looked up, so
  ``top=500`` and ``top=30`` are one page and one cache entry; what is no number at all
  (``top=many``) is left out, and the page without it is shown (``public.cache``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import escape

from scoring.rules import dealer_of
from scoring.standings import StandingRow
from tournament.kernel import limits
from tournament.kernel.limits import Range
from tournament.models import Round, Tournament
from tournament.public import room
from tournament.public.results import public_results, public_round_results
from tournament.shared.results import PLACES, TournamentStandings, rank_label

# How many rows of the standings the overlay shows: a screen's corner holds about ten in
# large type, a full-screen overlay thirty.
TOP = Range(1, 30, "rows")
TOP_DEFAULT = 10

SHOW_STANDINGS = "standings"
SHOW_TABLE = "table"
SHOWS = (SHOW_STANDINGS, SHOW_TABLE)

_DIGITS = re.compile(r"[0-9]+")


def clamped(within: Range, default: int | None = None) -> Callable[[str], str | None]:
    """A normaliser (``public.cache.Normaliser``) of a whole number brought into
    ``within``: "" for none given (or ``default`` itself), None for what is not a whole
    number."""

    def normalise(value: str) -> str | None:
        value = value.strip()
        if not value:
            return ""
        if not _DIGITS.fullmatch(value):
            return None
        digits = value.lstrip("0") or "0"
        # Beyond the range (and short of Python's limit on reading digits).
        number = within.high if len(digits) > len(str(within.high)) else int(digits)
        number = min(max(number, within.low), within.high)
        return "" if number == default else str(number)

    return normalise


def show_choice(value: str) -> str | None:
    """ "table", "" for the standings (the default), None for what names neither."""
    value = value.strip().lower()
    if value in ("", SHOW_STANDINGS):
        return ""
    return SHOW_TABLE if value == SHOW_TABLE else None


top_rows = clamped(TOP, TOP_DEFAULT)
round_number = clamped(limits.ROUND_NUMBERS)
table_number = clamped(limits.TABLE_NUMBERS)


@dataclass(frozen=True)
class Line:
    """One row of the standings as the widget and the overlay show it."""

    row: StandingRow
    club: str
    # "Leader", or "Winner", "Runner-up", "Third" once the standings are final.
    honour: str
    # "No result yet for round 3 (table 2)", or "".
    waiting: str

    @property
    def rank(self) -> str:
        return rank_label(self.row)

    @property
    def scored(self) -> bool:
        """Whether the points are shown: every released round the player sat has its
        result (and one has); otherwise "–", not 0."""
        return self.row.has_result and not self.row.waiting

    @property
    def adjusted(self) -> str:
        """ "penalty", "award" or "adjusted" when the points include one, else ""."""
        adjustments = self.row.tally.adjustments
        if not adjustments:
            return ""
        total = sum(each.points for each in adjustments)
        return "penalty" if total < 0 else "award" if total > 0 else "adjusted"


def standings_context(tournament: Tournament, top: int | None = None) -> dict[str, Any]:
    """The standings as the public view holds them (``BeingWorkedOut`` while it holds
    none): every row, or the first ``top``."""
    results = public_results(tournament)
    result = results.tournament_standings(tournament)
    standings = result.standings
    progress = room.progress(tournament, standings.round_numbers)
    rows = standings.rows if top is None else standings.rows[:top]
    lines = [_line(result, row, progress) for row in rows]
    return {
        "tournament": tournament,
        "progress": progress,
        "lead": room.lead(standings),
        "lines": lines,
        "field": len(standings.rows),
        "missing": result.missing_words,
        "partial": result.partial_tables,
        "adjusted": [(line.row, each) for line in lines for each in line.row.tally.adjustments],
        # Before any result counts: the round being played, if one is.
        "playing": None if progress.started else room.current_round(tournament),
    }


def _line(result: TournamentStandings, row: StandingRow, progress: room.Progress) -> Line:
    honour = ""
    if progress.started and progress.final:
        honour = PLACES.get(row.rank or 0, "")
    elif progress.started and row.rank == 1:
        honour = "Leader"
    return Line(row, result.info(row).club, honour, result.waiting_words(row))


class NoSuchTable(Exception):
    """The round or table named is none this tournament has or can have: the overlay says
    which (a 404, never stored)."""


@dataclass(frozen=True)
class TableSeat:
    position: int
    name: str
    first: bool
    # Once the round is released: the seat's points, whether it won the table, and the
    # deal after which its player left ("" when they stayed); None before.
    points: int | None = None
    winner: bool = False
    left_after: int | None = None


def table_context(tournament: Tournament, number: int | None, table: int) -> dict[str, Any]:
    """Table ``table`` of round ``number`` (the round being played when None): its seats
    in order and who deals first, and its scores once the round is released; "not public
    yet" for a round to come or whose seating is kept private. ``NoSuchTable`` for a
    round past the planned ones or a table past the round's (or the field's) last."""
    if number is None:
        current = room.current_round(tournament)
        if current is None:
            return {"table_number": table, "waiting": "No round has started yet."}
        number = current.number
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None and number > tournament.planned_rounds:
        raise NoSuchTable(
            f"There is no round {number}: {tournament.name} plans "
            f"{tournament.planned_rounds} round{'s' if tournament.planned_rounds != 1 else ''}."
        )
    context: dict[str, Any] = {"round_number": number, "table_number": table}
    if round_ is None or not room.seating_is_public(tournament, round_):
        players = tournament.players.count()
        if table > max(players, 1):
            raise NoSuchTable(f"There is no table {table}: {players} players play here.")
        return {**context, "waiting": f"Round {number}’s seating is not public yet."}
    if round_.released:
        played = {t.number: t for t in public_round_results(tournament, number).tables}
        found = played.get(table)
        if found is None:
            raise NoSuchTable(_no_table(number, table, len(played)))
        first = dealer_of(1, len(found.results))
        seats = [
            TableSeat(
                result.seat.position,
                result.seat.name,
                result.seat.position == first,
                None if found.without_result else result.points,
                result.winner and not found.without_result,
                result.left_after,
            )
            for result in found.results
        ]
        return {**context, "seats": seats, "released": True, "no_result": found.without_result}
    seated = room.seated_round(tournament, round_)
    tables = {t.number: t for t in seated.tables}
    at = tables.get(table)
    if at is None:
        raise NoSuchTable(_no_table(number, table, len(tables)))
    dealer = at.first_dealer
    seats = [TableSeat(seat.position, seat.name, seat == dealer) for seat in at.seats]
    return {**context, "seats": seats, "released": False}


def _no_table(number: int, table: int, count: int) -> str:
    tables = f"{count} table{'s' if count != 1 else ''}"
    return f"There is no table {table} in round {number}: it has {tables}."


# The widget's frame on the guild's site: as wide as its column, tall enough for a dozen
# rows (it scrolls inside for more).
FRAME_HEIGHT = 480


def publishing(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The Publish page's context: the widget's ``<iframe>`` snippet and the overlay's
    addresses, absolute, to copy: at ``PUBLIC_BASE_URL`` when it is set (the address the
    public reaches, as on the printed sheets' QR codes), else as the organiser reached
    this installation."""
    base = settings.PUBLIC_BASE_URL

    def absolute(path: str) -> str:
        return base + path if base else request.build_absolute_uri(path)

    embed_url = absolute(reverse("embed", args=[tournament.slug]))
    overlay_url = absolute(reverse("overlay", args=[tournament.slug]))
    snippet = (
        f'<iframe src="{embed_url}" title="{escape(tournament.name)} standings" '
        f'width="100%" height="{FRAME_HEIGHT}" loading="lazy" '
        'style="border:0;max-width:40rem"></iframe>'
    )
    return {
        "tournament": tournament,
        "embed_url": embed_url,
        "snippet": snippet,
        "overlay_url": overlay_url,
        "overlay_top_url": f"{overlay_url}?show=standings&top=5",
        "overlay_table_url": f"{overlay_url}?show=table&table=1",
        "top": TOP,
        "top_default": TOP_DEFAULT,
        "secure": embed_url.startswith("https://"),
        "rehearsal": tournament.is_rehearsal,
        "frame_height": FRAME_HEIGHT,
    }
