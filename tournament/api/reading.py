"""What the read API answers, read from what the public pages read: nothing here works out
a rank, points, chances or a rating; it gathers the stored public view (``public.results``),
the room's public seating (``public.room``), a player's released rounds
(``public.player``), the standings file's rows (``standings.files``) and the series' and
careers' cached figures (``series.services``, ``series.export``) into plain data that the
serializers (``api.serializers``) render.

Terms:

- *public tournament*: published (a rehearsal never is), as the public pages ask
  (``shared.permissions.can_see`` for a visitor with no part in it). Anything else is a
  404, as for a tournament that does not exist.
- *visible round*: a released round (its seating and results), or the current round
  while it is played, when the tournament shows its seating publicly (seating only).
  A round held back is not released, so it is not visible; nor are its sheets.
- *id* of a player: the number in their public page's address (``/t/SLUG/players/ID/``);
  the standings file and ``manage.py standings`` name a player by the organiser's own
  reference instead (``player_id`` there, ``ref`` here): every row carries both.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import Max, Q
from django.http import Http404, HttpRequest
from django.urls import reverse

from tournament.api.pagination import Keyed
from tournament.models import Player, Series, Tournament
from tournament.public import room
from tournament.public.player import player_rounds
from tournament.public.results import (
    BeingWorkedOut,
    public_results,
    public_round_results,
    released_round_numbers,
)
from tournament.shared.derived import ChancesView, DerivedState, PublicSeat
from tournament.standings import files as standings_files
from tournament.standings.services import bye_points

Data = dict[str, Any]


def public_tournament(slug: str) -> Tournament:
    """The published tournament of ``slug``; 404 otherwise, as for no tournament."""
    tournament = Tournament.objects.filter(slug=slug, published=True, rehearsal_token="").first()
    if tournament is None:
        raise Http404(f"No published tournament has the address “{slug}”.")
    return tournament


def absolute(request: HttpRequest, name: str, *args: Any) -> str:
    return request.build_absolute_uri(reverse(name, args=args))


# Tournaments -------------------------------------------------------------------------


def _progress(tournament: Tournament, released: list[int] | tuple[int, ...]) -> Data:
    progress = room.progress(tournament, released)
    return {
        "after_round": progress.after_round,
        "planned_rounds": progress.planned_rounds,
        "final": progress.final,
        "label": progress.label,
    }


def _summary(request: HttpRequest, tournament: Tournament, released: list[int]) -> Data:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date,
        "venue": tournament.venue,
        "scoring": tournament.scoring_system.value,
        "scoring_label": tournament.scoring_system.label,
        "rule_set": tournament.rules.key,
        "planned_rounds": tournament.planned_rounds,
        "progress": _progress(tournament, released),
        "url": absolute(request, "api:tournament", tournament.slug),
        "page": absolute(request, "standings", tournament.slug),
    }


def tournament_order(tournament: Tournament) -> tuple[int, int, str, int]:
    """The list's order, as the home page's: newest date first, those without a date
    last, then by name; the id keeps it total (a cursor names a place in it)."""
    dated = tournament.date
    return (0 if dated else 1, -dated.toordinal() if dated else 0, tournament.name, tournament.pk)


def tournaments(request: HttpRequest) -> Keyed:
    """Every public tournament in the list's order, with its key: one query."""
    found = (
        Tournament.objects.filter(published=True, rehearsal_token="")
        .annotate(last_released=Max("rounds__number", filter=Q(rounds__released=True)))
        .order_by()
    )
    listed = []
    for tournament in sorted(found, key=tournament_order):
        last = getattr(tournament, "last_released", None)
        # Released rounds are numbered from 1 up, so the highest says how far it got.
        released = [last] if last else []
        listed.append((tournament_order(tournament), _summary(request, tournament, released)))
    return listed


def tournament(request: HttpRequest, slug: str) -> Data:
    found = public_tournament(slug)
    released = released_round_numbers(found)
    seated = room.seated_round_number(found)
    data = _summary(request, found, released)
    data |= {
        "rotations_per_round": found.rotations_per_round,
        "tiebreaks": list(found.tiebreaks),
        "finished": found.finished,
        "seating_public": found.seating_public,
        "rounds": [_round_link(request, found, number, "released") for number in released]
        + ([_round_link(request, found, seated, "seating")] if seated is not None else []),
        "standings": absolute(request, "api:standings", found.slug),
        "players": absolute(request, "api:players", found.slug),
        "series": [
            {
                "slug": series.slug,
                "name": series.name,
                "url": absolute(request, "api:series", series.slug),
            }
            for series in Series.objects.filter(
                entries__tournament=found, entries__accepted=True
            ).order_by("name", "pk")
        ],
    }
    return data


def _round_link(request: HttpRequest, tournament: Tournament, number: int, state: str) -> Data:
    return {
        "number": number,
        "state": state,
        "url": absolute(request, "api:round", tournament.slug, number),
    }


# Standings ---------------------------------------------------------------------------


def _chances_of(chances: ChancesView, player_id: int) -> Data | None:
    mine = chances.of(player_id)
    if mine is None:
        return None
    return {
        "win": mine.win,
        "win_reachable": mine.win_reachable,
        "top3": mine.top3,
        "top3_reachable": mine.top3_reachable,
        "need": mine.need,
    }


def _chances(chances: ChancesView) -> Data:
    """Whether the podium chances are shown, as the standings page says it: "shown" with
    their figures, "being worked out", or "none" (none apply: no round left, or the
    tournament is final)."""
    stored = chances.stored
    if stored is None:
        return {"state": "being worked out" if chances.pending else "none"}
    return {
        "state": "shown",
        "after_round": stored.after_round,
        "rounds_left": stored.rounds_left,
        "finishes": stored.finishes,
        "ratings_of": stored.ratings_of,
        "method": chances.method,
    }


def standings(request: HttpRequest, slug: str) -> Data:
    """The standings file of the public view (``manage.py standings SLUG --public
    --format json``), every row with the player's id, address, and podium chances
    where shown; with the progress and the chances' state."""
    found = public_tournament(slug)
    state = public_results(found)
    result = state.tournament_standings(found)
    data = standings_files.as_json(result)
    chances = state.chances_view
    for row, standing in zip(data["rows"], result.standings.rows, strict=True):
        player_id = standing.key
        assert isinstance(player_id, int)
        row["id"] = player_id
        row["url"] = absolute(request, "api:player", found.slug, player_id)
        row["chances"] = _chances_of(chances, player_id)
    data["progress"] = _progress(found, state.round_numbers)
    data["chances"] = _chances(chances)
    return data


# Rounds ------------------------------------------------------------------------------


def round_(request: HttpRequest, slug: str, number: int) -> Data:
    """A visible round: a released one with its tables' results, its byes and its
    penalties and awards; the current round, while played, with its seating only. 404
    for any other number, which tells nothing of a round kept private."""
    found = public_tournament(slug)
    released = released_round_numbers(found)
    if number in released:
        return _released_round(request, found, number)
    seating = room.public_seating(found)
    if seating is None or seating.number != number or seating.round.released:
        raise Http404(f"{found.name} shows no round {number} publicly.")
    return {
        "number": number,
        "state": "seating",
        "tables": [
            {
                "number": table.number,
                "seats": [
                    {
                        "position": seat.position,
                        "player": _player_ref(request, found, seat.player_id, seat.name),
                        "club": seat.club,
                    }
                    for seat in table.seats
                ],
                "result": None,
            }
            for table in seating.tables
        ],
        "byes": [
            _player_ref(request, found, bye.player_id, bye.name) | {"points": None}
            for bye in seating.byes
        ],
        "adjustments": [],
    }


def _player_ref(request: HttpRequest, tournament: Tournament, player_id: int, name: str) -> Data:
    return {
        "id": player_id,
        "name": name,
        "url": absolute(request, "api:player", tournament.slug, player_id),
    }


def _released_round(request: HttpRequest, tournament: Tournament, number: int) -> Data:
    played = public_round_results(tournament, number)
    state = public_results(tournament)
    points_for_bye = bye_points(tournament)
    return {
        "number": number,
        "state": "released",
        "tables": [
            {
                "number": table.number,
                "seats": [
                    {
                        "position": seat.position,
                        "player": _player_ref(request, tournament, seat.player_id, seat.name),
                        "club": state.players[seat.player_id].club
                        if seat.player_id in state.players
                        else "",
                    }
                    for seat in table.seats
                ],
                "result": None
                if table.without_result
                else {
                    "deals_played": table.deals_played,
                    "expected_deals": table.expected_deals,
                    "stopped_early": table.stopped_early,
                    "seats": [
                        {
                            "position": each.seat.position,
                            "points": each.points,
                            "cards_won": each.cards_won,
                            "last_in": each.last_in,
                            "winner": each.winner,
                            "left_after_deal": each.left_after,
                        }
                        for each in table.results
                    ],
                },
            }
            for table in played.tables
        ],
        "byes": [
            _player_ref(request, tournament, bye.player_id, bye.name) | {"points": points_for_bye}
            for bye in played.byes
        ],
        "adjustments": [
            {
                "player": _player_ref(request, tournament, row.key, row.name),  # type: ignore[arg-type]
                "points": each.points,
                "reason": each.reason,
            }
            for row in state.standings.rows
            for each in row.tally.adjustments
            if each.round_number == number
        ],
    }


# Players -----------------------------------------------------------------------------


def players(request: HttpRequest, slug: str) -> Keyed:
    """The players of the public view, by name, each with its key: who the public
    standings list (a player added since is there once the view is worked out again)."""
    found = public_tournament(slug)
    state = public_results(found)
    listed = [
        ((info.name.casefold(), pk), _player(request, found, state, pk))
        for pk, info in state.players.items()
    ]
    return sorted(listed, key=lambda pair: pair[0])


def _player(request: HttpRequest, tournament: Tournament, state: DerivedState, pk: int) -> Data:
    info = state.players[pk]
    standing = state.standing_of(pk)
    return {
        "id": pk,
        "ref": info.ref,
        "name": info.name,
        "club": info.club,
        "person": _person_link(request, info.person),
        "rank": standing.rank,
        "shared": standing.row.shared,
        "points": standing.points,
        "no_result_yet": [{"round": number, "table": table} for number, table in standing.waits],
        "url": absolute(request, "api:player", tournament.slug, pk),
        "page": absolute(request, "player", tournament.slug, pk),
    }


def _person_link(request: HttpRequest, identifier: str) -> Data | None:
    if not identifier:
        return None
    return {"identifier": identifier, "url": absolute(request, "api:career", identifier)}


def player(request: HttpRequest, slug: str, pk: int) -> Data:
    """A player of the public view with their part in each released round, as their
    public page shows it: their table and seat, opponents, the round's points, cards,
    deals last in and table win, each deal, a bye's points, penalties and awards, and
    their rank after the round."""
    found = public_tournament(slug)
    state = public_results(found)
    if pk not in state.players:
        if not Player.objects.filter(tournament=found, pk=pk).exists():
            raise Http404(f"{found.name} has no player {pk}.")
        # Added since the view was worked out: it is being worked out again.
        raise BeingWorkedOut(found)
    data = _player(request, found, state, pk)
    data["chances"] = _chances_of(state.chances_view, pk)
    data["rounds"] = [
        {
            "round": each.round_number,
            "rank_after": each.rank_after.rank,
            "shared_after": each.rank_after.shared,
            "points_after": each.rank_after.points,
            "table": None if each.table is None else each.table.number,
            "seat": None if each.seat is None else each.seat.position,
            "opponents": [
                _player_ref(request, found, seat.player_id, seat.name) for seat in each.opponents
            ],
            "result": None
            if each.result is None
            else {
                "points": each.result.points,
                "cards_won": each.result.cards_won,
                "last_in": each.result.last_in,
                "winner": each.result.winner,
                "left_after_deal": each.result.left_after,
            },
            "bye_points": each.bye_points,
            "adjustments": [
                {"points": adjusted.points, "reason": adjusted.reason}
                for adjusted in each.adjustments
            ],
            "total": each.standings_total,
            "deals": [
                {
                    "number": deal["number"],
                    "dealer": cast(PublicSeat, deal["dealer"]).position,
                    "won": deal["won"],
                    "left": deal["left"],
                    "last_in": deal["last_in"],
                    "out": deal["out"],
                    "points": deal["points"],
                }
                for deal in each.deals
            ],
        }
        for each in player_rounds(found, pk, state)
    ]
    return data
