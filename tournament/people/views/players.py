"""Linking a tournament's players to the register of people (its Players page's "Link to
people"): the automatic links, then each player left with the people they might be, to
accept, change (search for someone else) or make a new person from.

The organiser's pages (``permissions.get_tournament_for_organiser``), for an organiser
who may keep the register (``permissions.check_people_keeper``, as the register's own
pages: a 403 saying why for one who may not); every row's form
works without JavaScript (it posts and comes back to the page) and with htmx swaps just
that player's row. Writes go through ``people.services``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import UserError
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Person, Player, Tournament
from tournament.people import review
from tournament.people import services as people
from tournament.shared.permissions import check_people_keeper, get_tournament_for_organiser

PAGE = "people/players_people.html"


def _tournament(request: HtmxHttpRequest, slug: str) -> Tournament:
    """The tournament, for its organiser who may also keep the register."""
    tournament = get_tournament_for_organiser(request, slug)
    check_people_keeper(request)
    return tournament


@login_required
@require_GET
def players_people(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The review page; ``?player=PK&q=TEXT`` searches the register for that player."""
    tournament = _tournament(request, slug)
    query = request.GET.get("q", "").strip()
    searched = request.GET.get("player", "")
    if not (searched.isascii() and searched.isdigit()):
        searched = ""
    if searched:
        player = get_object_or_404(Player, tournament=tournament, pk=int(searched))
        if request.htmx:
            return _row(request, tournament, player, query=query)
    linked = list(
        Player.objects.filter(tournament=tournament)
        .exclude(person=None)
        .select_related("person")
        .order_by("name")
    )
    proposals = review.proposals(tournament)
    if searched:
        proposals = [
            review.proposal_for(p.player, query) if p.player.pk == int(searched) else p
            for p in proposals
        ]
    context = {
        "tournament": tournament,
        "linked": linked,
        "proposals": proposals,
        "searched": int(searched) if searched else None,
        "query": query,
    }
    return render(request, PAGE, context)


def _row(
    request: HtmxHttpRequest,
    tournament: Tournament,
    player: Player,
    *,
    query: str = "",
    error: str = "",
) -> HttpResponse:
    player.refresh_from_db()
    context = {
        "tournament": tournament,
        "player": player,
        "proposal": None if player.person_id else review.proposal_for(player, query),
        "searched": player.pk if query else None,
        "query": query,
        "error": error,
    }
    return render(request, f"{PAGE}#row", context)


def _done(
    request: HtmxHttpRequest, tournament: Tournament, player: Player, message: str, error: str
) -> HttpResponse:
    if request.htmx:
        return _row(request, tournament, player, error=error)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, message)
    return redirect("organiser:players_people", tournament.slug)


@login_required
@require_POST
def players_people_auto(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    done = review.link_automatically(tournament)
    count = len(done.linked)
    messages.success(
        request,
        f"Linked {count} player{'s' if count != 1 else ''} to the person with the same name "
        "and club."
        if count
        else "No player has the same name and club as one person in the register: choose below.",
    )
    for player in done.left:
        messages.warning(
            request,
            f"{player.name} has the same name and club as several people: choose below.",
        )
    return redirect("organiser:players_people", slug)


@login_required
@require_POST
def player_person(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    chosen = request.POST.get("person", "")
    known = chosen.isascii() and chosen.isdigit()
    if not known:
        return _done(request, tournament, player, "", "Choose a person from the register.")
    person = Person.objects.filter(pk=int(chosen)).first()
    if person is None:
        # Only a merge takes a person out of the register: chosen on a page shown before.
        gone = "That person is no longer in the register: merged into another person meanwhile"
        return _done(request, tournament, player, "", f"{gone}; choose again.")
    try:
        people.link(player, person)
    except UserError as refused:
        return _done(request, tournament, player, "", f"{refused}.")
    return _done(request, tournament, player, f"{player.name} is {person.name}.", "")


@login_required
@require_POST
def player_new_person(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    try:
        person = people.create_for(player, request.POST.get("member", ""))
    except UserError as refused:
        return _done(request, tournament, player, "", f"{refused}.")
    return _done(
        request, tournament, player, f"{person.name} is new in the register of people.", ""
    )


@login_required
@require_POST
def player_unlink(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    people.unlink(player)
    return _done(request, tournament, player, f"{player.name} is no longer linked.", "")
