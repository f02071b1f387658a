"""The organiser's page of one player: editing their name, club and fixed table, and their
penalties and awards (given, removed, and the history of both).

Every view fetches the tournament through ``permissions.get_tournament_for_organiser``
(404 for outsiders, 403 for the tournament's scorers: a penalty is the organiser's
ruling, see ``players.adjustments``); writes go through ``players.services`` and
``players.adjustments``. Without JavaScript each form posts and the page comes back at
the section; a refusal shows the page again with the problem in its error summary.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from tournament.models import Player, Tournament
from tournament.players import adjustments
from tournament.players import services as player_service
from tournament.players.forms import REASONS_LIST, AdjustmentForm, PlayerForm, RemoveAdjustmentForm
from tournament.shared.permissions import get_tournament_for_organiser, may_keep_people

SECTION = "adjustments"


def _page(
    request: HttpRequest,
    tournament: Tournament,
    player: Player,
    *,
    form: PlayerForm | None = None,
    adjustment_form: AdjustmentForm | None = None,
    failed: Form | None = None,
    status: int = 200,
) -> HttpResponse:
    given = adjustments.player_adjustments(player)
    return render(
        request,
        "players/player_form.html",
        {
            "tournament": tournament,
            "player": player,
            "form": form or PlayerForm(instance=player),
            "adjustment_form": adjustment_form or AdjustmentForm(tournament=tournament),
            # The form whose problems the error summary lists.
            "failed": failed if failed is not None else form,
            "current": [each for each in given if each.removed_at is None],
            "history": given,
            "reasons_list": REASONS_LIST,
            # Whether the person linked is a link to the register, and "Link to people"
            # offered (``permissions.may_keep_people``).
            "keeps_people": may_keep_people(request.user),
        },
        status=status,
    )


def _back_to_section(slug: str, player: Player) -> HttpResponse:
    return redirect(reverse("organiser:player_edit", args=[slug, player.pk]) + f"#{SECTION}")


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        warning = player_service.duplicate_warning(tournament, form.cleaned_data["name"], player.pk)
        form.save()
        messages.success(request, f"Saved {player.name}.")
        if warning:
            messages.warning(request, warning)
        return redirect("organiser:players", slug)
    return _page(request, tournament, player, form=form)


@login_required
@require_POST
def adjustment_add(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    form = AdjustmentForm(request.POST, tournament=tournament)
    if form.is_valid():
        given = adjustments.NewAdjustment(
            player.pk,
            form.cleaned_data["round"],
            form.cleaned_data["points"],
            form.cleaned_data["reason"],
        )
        try:
            done = adjustments.add_adjustment(tournament, given, request.user)
        except adjustments.AdjustmentError as error:
            form.add_error(
                error.field if error.field in form.fields else None,
                capfirst_sentence(error.message),
            )
        else:
            added = done.adjustment
            what = f"{adjustments.described(added)} for {player.name} in round {added.round.number}"
            if done.repeated:
                messages.info(request, f"The {what} was recorded a moment ago; it counts once.")
            else:
                article = "an" if what.startswith("award") else "a"
                messages.success(request, f"Recorded {article} {what}.")
            return _back_to_section(slug, player)
    return _page(request, tournament, player, adjustment_form=form, failed=form, status=422)


@login_required
@require_POST
def adjustment_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    form = RemoveAdjustmentForm(request.POST)
    if not form.is_valid():
        form.add_error(None, "Choose the penalty or award to remove.")
        return _page(request, tournament, player, failed=form, status=422)
    chosen = form.cleaned_data["adjustment"]
    if not player.adjustments.filter(pk=chosen).exists():
        form.add_error(None, f"{player.name} has no such penalty or award.")
        return _page(request, tournament, player, failed=form, status=422)
    try:
        done = adjustments.remove_adjustment(tournament, chosen, request.user)
    except adjustments.AdjustmentError as error:
        form.add_error(None, capfirst_sentence(error.message))
        return _page(request, tournament, player, failed=form, status=409)
    removed = done.adjustment
    what = f"{adjustments.described(removed)} for {player.name} in round {removed.round.number}"
    if done.repeated:
        messages.info(request, f"The {what} was removed a moment ago.")
    else:
        messages.success(request, f"Removed the {what}; the history keeps it.")
    return _back_to_section(slug, player)


def capfirst_sentence(message: str) -> str:
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
