"""Public pages beyond the standings: a player's tournament, a round's tables, and the
printable final results; and where a player sits in the round being played ("Find my
seat").

Like every public page they show published tournaments only (``can_see``), count only
released rounds and confirmed sheets (``public.results``), and are served from the cache
to anonymous visitors (``public.cache``). Of an unreleased round only its seating shows,
once it has started and unless the tournament keeps seating private (``public.room``):
its page is then the seating with no scores, and none of its sheets appears. The page of
a round the public cannot see (or of no round at all) redirects to the nearest one it
can, so that no such number is ever a page of its own in the cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from scoring.standings import StandingRow, Standings
from scoring.tiebreaks import Column, decided_column, order_in_words, standings_columns
from tournament.kernel.charts import ChartPoint, ChartTick, LineChart
from tournament.kernel.http import HtmxHttpRequest, wants_fragment
from tournament.models import Player, Round, Tournament
from tournament.public import room
from tournament.public.cache import cached_public_page
from tournament.public.player import player_rounds
from tournament.public.results import (
    BeingWorkedOut,
    podium,
    public_results,
    public_round_results,
    released_round_numbers,
)
from tournament.public.views.pending import shows_being_worked_out
from tournament.shared.derived import NO_RESULT_YET, RoundRank, need_words, percent, rank_label
from tournament.shared.permissions import get_public_tournament

# The rank chart ---------------------------------------------------------------------


_STEP = 56
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_TOP, _MARGIN_BOTTOM = 52, 20, 14, 42
_PLOT_HEIGHT = 150


def rank_chart(history: list[RoundRank], field_size: int) -> LineChart | None:
    """The player's rank after each round, rank 1 at the top."""
    if not history:
        return None
    lowest = max(field_size, 1)
    left, top = _MARGIN_LEFT, _MARGIN_TOP
    right = left + _STEP * max(len(history) - 1, 1)
    bottom = top + _PLOT_HEIGHT

    def x_of(index: int) -> float:
        if len(history) == 1:
            return (left + right) / 2
        return left + _STEP * index

    def y_of(rank: int) -> float:
        if lowest == 1:
            return top
        return round(top + (rank - 1) * _PLOT_HEIGHT / (lowest - 1), 1)

    ranks = sorted({1, lowest, *(-(-lowest * k // 4) for k in (1, 2, 3))})
    return LineChart(
        width=right + _MARGIN_RIGHT,
        height=bottom + _MARGIN_BOTTOM,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        # No point for a round after which the player had no rank (a result not in).
        points=tuple(
            ChartPoint(x_of(i), y_of(r.rank), f"After round {r.round_number}: rank {r.label}")
            for i, r in enumerate(history)
            if r.rank is not None
        ),
        x_ticks=tuple(ChartTick(x_of(i), str(r.round_number)) for i, r in enumerate(history)),
        y_ticks=tuple(ChartTick(y_of(rank), str(rank)) for rank in ranks),
        description="; ".join(
            f"after round {r.round_number}: {r.label} of {lowest}"
            if r.rank is not None
            else f"after round {r.round_number}: {r.label}"
            for r in history
        ),
    )


# Views ------------------------------------------------------------------------------


def _player_summary(tournament: Tournament, pk: int) -> dict[str, Any]:
    """What the player page and the player's card both show of player ``pk``, read from
    the public view: where they are in the round being played, their rank or the results
    they wait for, their points, and their podium chances."""
    results = public_results(tournament)
    info = results.players.get(pk)
    if info is None:
        if not Player.objects.filter(tournament=tournament, pk=pk).exists():
            raise Http404("No such player")
        # Added since the view was worked out: it is being worked out again.
        raise BeingWorkedOut(tournament)
    standing = results.standing_of(pk)
    now = room.now_playing(tournament, pk)
    progress = room.progress(tournament, results.round_numbers)
    chances = results.chances_view
    mine = chances.of(pk)
    return {
        "tournament": tournament,
        "results": results,
        "public_rounds": results.round_numbers,
        "progress": progress,
        "chances": chances,
        "win": percent(mine.win, mine.win_reachable) if mine else "",
        "top3": percent(mine.top3, mine.top3_reachable) if mine else "",
        "need": need_words(chances.stored, pk, results.players[chances.stored.leader].name)
        if chances.stored and mine
        else "",
        "player": info,
        "player_pk": pk,
        "row": standing.row,
        "standing": standing,
        "rank": standing.rank_label,
        "field_size": results.field_size,
        "system": tournament.scoring_system,
        "now": now,
        "seated_number": now.round_number if now else None,
    }


@require_safe
@cached_public_page
@shows_being_worked_out
def player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    context = _player_summary(tournament, pk)
    rounds = player_rounds(tournament, pk, context["results"])
    context["rounds"] = rounds
    context["chart"] = rank_chart([r.rank_after for r in rounds], context["field_size"])
    return render(request, "public/player.html", context)


@require_safe
@cached_public_page
def player_card(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The card a player who said "This is me" sees at the top of every page of the
    tournament (static/js/me.js fetches it and polls it): their table while a round is
    played, their rank and points, their chances; its ``data-state`` says what is new
    ("seated-3", "released-2"), for the nudge."""
    tournament = get_public_tournament(request, slug)
    try:
        context = _player_summary(tournament, pk)
    except BeingWorkedOut:
        context = {"tournament": tournament, "player_pk": pk, "pending": True}
        return render(request, "public/_my_card.html", context)
    context["state"] = card_state(context["now"], context["progress"])
    # A player who left the tournament (dropped) is told so rather than to ask.
    context["left"] = not Player.objects.filter(pk=pk, active=True).exists()
    return render(request, "public/_my_card.html", context)


def card_state(now: room.NowPlaying | None, progress: room.Progress) -> str:
    """What the card shows, as a word the phone compares with what it last saw: the
    round, table and seat the player is seated at ("seated-3-t4s2"), the round they sit
    out ("bye-3") or are not in
    ("out-3"), else the last released round ("released-2", "final-4") or "waiting"."""
    if now is not None and now.placement is not None:
        # The table and seat too: a player moved to another seat is told again.
        place = now.placement
        return f"seated-{now.round_number}-t{place.table.number}s{place.player.position}"
    if now is not None:
        return f"{'bye' if now.bye else 'out'}-{now.round_number}"
    if progress.started:
        return f"{'final' if progress.final else 'released'}-{progress.after_round}"
    return "waiting"


@require_safe
@cached_public_page
@shows_being_worked_out
def public_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    # One query, so that a round being played shows its seating without the results.
    public_rounds = released_round_numbers(tournament)
    played = public_round_results(tournament, number) if number in public_rounds else None
    if played is None:
        seating = room.public_seating(tournament)
        if seating is None or seating.number != number:
            return _nearest_round(tournament, public_rounds, seating, number)
        return _seating_page(request, tournament, public_rounds, seating)
    context = {
        "tournament": tournament,
        "public_rounds": public_rounds,
        "progress": room.progress(tournament, public_rounds),
        "number": number,
        "tables": played.tables,
        "byes": played.byes,
        # The round's penalties and awards: counted in the standings, not at the tables.
        "adjusted": [
            (row, each)
            for row in public_results(tournament).standings.rows
            for each in row.tally.adjustments
            if each.round_number == number
        ],
        "system": tournament.scoring_system,
        # A released round's play is over: no clock to look up.
        "released": True,
    }
    return render(request, "public/round.html", context)


def _seating_page(
    request: HttpRequest,
    tournament: Tournament,
    public_rounds: list[int],
    seating: room.SeatedRound,
) -> HttpResponse:
    """A started round not yet released: its seating, when the public may see it."""
    context = {
        "tournament": tournament,
        "public_rounds": public_rounds,
        "number": seating.number,
        "seating": seating,
        "seated_number": seating.number,
        "round": seating.round,
    }
    return render(request, "public/round.html", context)


def _nearest_round(
    tournament: Tournament,
    public_rounds: list[int],
    seating: room.SeatedRound | None,
    number: int,
) -> HttpResponse:
    """A round the public cannot see (not played, not released, its seating private, or
    no such round): the page of the nearest round it can (the earlier of two as near),
    else the standings. The same answer for any such number, so it tells nothing of a
    round kept private."""
    shown = {*public_rounds, *([seating.number] if seating else [])} - {number}
    if not shown:
        return redirect("standings", tournament.slug)
    nearest = min(shown, key=lambda shown_number: (abs(shown_number - number), shown_number))
    return redirect("public_round", tournament.slug, nearest)


# Part of a name is typed: a hundred characters is more than anyone types, and keeps
# the cache key of the answer short.
SEAT_QUERY_MAX = 100


def seat_query(value: str) -> str:
    """The name typed into "Find my seat", its spaces normalised; one character past
    the longest text that is searched, so that the page can say it is too long."""
    return room.single_spaced(value)[: SEAT_QUERY_MAX + 1]


@require_safe
@cached_public_page(reads={"q": seat_query})
def find_seat(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Where the players whose name holds the typed text sit in the current round."""
    tournament = get_public_tournament(request, slug)
    query = request.GET.get("q", "")
    round_ = room.current_round(tournament)
    seating = None
    if round_ is not None and room.seating_is_public(tournament, round_):
        seating = room.seated_round(tournament, round_)
    context = {
        "tournament": tournament,
        "public_rounds": released_round_numbers(tournament),
        "seated_number": round_.number if seating and round_ and not round_.released else None,
        "seat_search": _seat_search(query, round_, seating),
    }
    if wants_fragment(request):
        return render(request, "public/find_seat.html#results", context)
    return render(request, "public/find_seat.html", context)


@dataclass(frozen=True)
class SeatSearch:
    query: str
    round_number: int | None
    released: bool
    found: tuple[room.Placement, ...]
    byes: tuple[room.SeatedPlayer, ...]
    # Why nothing is listed, in words for the player; empty when something is.
    message: str

    @property
    def count(self) -> int:
        return len(self.found) + len(self.byes)


def _seat_search(query: str, round_: Round | None, seating: room.SeatedRound | None) -> SeatSearch:
    def answer(
        message: str,
        found: Sequence[room.Placement] = (),
        byes: Sequence[room.SeatedPlayer] = (),
    ) -> SeatSearch:
        return SeatSearch(
            query=query[:SEAT_QUERY_MAX],
            round_number=round_.number if round_ else None,
            released=bool(round_ and round_.released),
            found=tuple(found),
            byes=tuple(byes),
            message=message,
        )

    if round_ is None:
        return answer("No round has started yet: seats show here as soon as round 1 starts.")
    if seating is None:
        return answer(
            f"The seating of round {round_.number} is not published here: see the seating "
            "list in the room, or ask the organiser."
        )
    if not query:
        return answer("Type part of your name to find your seat.")
    if len(query) > SEAT_QUERY_MAX:
        return answer(
            f"That is too long to look up ({SEAT_QUERY_MAX} characters at most): type part "
            "of your name."
        )
    byes = [bye for bye in seating.byes if room.name_holds(bye.name, query)]
    found = seating.find(query)
    if not found and not byes:
        return answer(
            f"Nobody in round {round_.number} has “{query}” in their name: check the "
            "spelling, or type less of it."
        )
    return answer("", found, byes)


def _final_cells(
    row: StandingRow, above: StandingRow | None, standings: Standings, columns: list[Column]
) -> list[dict[str, object]]:
    """The row's values for ``columns``; the value that placed it below ``above`` is
    marked ``decided`` (for countback, the first round total that differs)."""
    decided = decided_column(row, above, standings.round_numbers)
    waiting = {f"round_{number}" for number in row.waiting}
    cells: list[dict[str, object]] = []
    for column in columns:
        value = column.figure(row.tally)
        cells.append(
            {
                "label": column.label,
                "value": NO_RESULT_YET
                if column.name in waiting
                else "–"
                if value is None
                else value,
                "decided": column.name == decided,
            }
        )
    return cells


@require_safe
@cached_public_page
@shows_being_worked_out
def final(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_public_tournament(request, slug)
    result = public_results(tournament).tournament_standings(tournament)
    standings = result.standings
    columns = standings_columns(standings.tiebreaks, standings.round_numbers)
    progress = room.progress(tournament, standings.round_numbers)
    context = {
        "tournament": tournament,
        "public_rounds": standings.round_numbers,
        "progress": progress,
        "lead": room.lead(standings),
        "result": result,
        # No winner and runners-up until the standings are final.
        "podium": podium(standings.rows) if progress.final else [],
        "columns": columns,
        "rows": [
            {
                "rank": rank_label(row),
                "row": row,
                "club": result.info(row).club,
                "cells": _final_cells(row, above, standings, columns),
            }
            for row, above in zip(standings.rows, (None, *standings.rows), strict=False)
        ],
        "chain": order_in_words(standings.tiebreaks),
    }
    return render(request, "public/final.html", context)
