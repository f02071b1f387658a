"""The organiser's players page: registering players one by one or from a list, checking
them in, dropping them out and bringing them back, and keeping pairs apart (a player's
own page, editing them and their penalties and awards: ``players.views.player``).

Checking in happens where the player is on the page: htmx swaps the player's row and
the count of who is in; without JavaScript the page comes back at that row.

Every view fetches the tournament through ``permissions.get_tournament_for_organiser``
(404 for outsiders, 403 for the tournament's scorers); writes go through
``players.services``. What reaches the register of people (finding a name in it, linking
a new player to a person, making people from a list's member numbers) is only for an
organiser who may keep the register (``permissions.may_keep_people``); the page tells
anyone else so, and their players are registered without people.
"""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import Context
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils.text import capfirst
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import UserError
from tournament.kernel.forms import form_errors
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import KeepApart, Player, Tournament
from tournament.people import services as people
from tournament.players import lists as player_lists
from tournament.players import services as player_service
from tournament.players.adjustments import with_adjustments
from tournament.players.forms import (
    AddPlayerForm,
    CheckInEveryoneForm,
    CsvImportForm,
    KeepApartForm,
    RemoveKeepApartForm,
)
from tournament.players.tables import PlayersTable
from tournament.shared.permissions import get_tournament_for_organiser, may_keep_people


def _duplicates(names: list[tuple[int, str]], shown: list[Player]) -> set[int]:
    """The players of ``shown`` whose name another player of ``names`` (id, name) has."""
    count = Counter(name.casefold() for _, name in names)
    return {player.pk for player in shown if count[player.name.casefold()] > 1}


def _players_page(
    request: HttpRequest,
    tournament: Tournament,
    form: AddPlayerForm,
    *,
    keeps_people: bool,
    **extra: object,
) -> HttpResponse:
    players = list(
        with_adjustments(Player.objects.filter(tournament=tournament))
        .select_related("person")
        .order_by("name")
    )
    duplicates = _duplicates([(player.pk, player.name) for player in players], players)
    table = PlayersTable(players, duplicates=duplicates, slug=tournament.slug)
    pairs = KeepApart.objects.filter(tournament=tournament).select_related("first", "second")
    context = {
        "tournament": tournament,
        "form": form,
        "table": table,
        "count": player_service.check_in_count(tournament),
        "keep_apart_form": KeepApartForm(tournament=tournament),
        "keep_apart": pairs,
        "import_form": CsvImportForm(),
        "keeps_people": keeps_people,
        **extra,
    }
    return render(request, "players/players.html", context)


def _player_row(request: HtmxHttpRequest, tournament: Tournament, player: Player) -> HttpResponse:
    """The player's row of the players page alone, and the page's count of who is in:
    what htmx swaps after a check-in."""
    names = list(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    table = PlayersTable([player], duplicates=_duplicates(names, [player]), slug=tournament.slug)
    # The row's cells see the table and the request (their forms' CSRF token) as
    # ``render_table`` gives them on the page.
    table.context = Context({"table": table})
    table.request = request
    context = {
        "tournament": tournament,
        "table": table,
        "row": table.rows[0],
        "count": player_service.check_in_count(tournament),
    }
    return render(request, "players/players.html#player-row-swap", context)


@login_required
@require_http_methods(["GET", "POST"])
def players(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The players page; adding a player. ``?name=`` (typed into the add form, or its
    "Find in the register" button) lists the people it might be; htmx asks for that list
    alone. Only for an organiser who may keep the register: for anyone else the register
    is not searched, and the page says why."""
    tournament = get_tournament_for_organiser(request, slug)
    keeps_people = may_keep_people(request.user)
    typed = request.GET.get("name", "") if request.method == "GET" else request.POST.get("name", "")
    matches = people.search(typed) if keeps_people and typed.strip() else []
    if request.method == "GET" and request.htmx and "name" in request.GET:
        return render(
            request,
            "players/players.html#person-matches",
            {"tournament": tournament, "person_matches": matches, "chosen": ""},
        )
    if request.method == "GET":
        fields = ("name", "club", "member") if keeps_people else ("name", "club")
        form = AddPlayerForm(
            initial={key: request.GET[key] for key in fields if key in request.GET},
            keeps_people=keeps_people,
        )
        # After "Add player" the next name is typed straight away.
        focus_name = "added" in request.GET
    else:
        focus_name = False
        form = AddPlayerForm(request.POST, keeps_people=keeps_people)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        warning = player_service.duplicate_warning(tournament, data["name"])
        try:
            player = player_service.add_player(
                tournament,
                data["name"],
                data["club"],
                fixed_table=data.get("fixed_table"),
                person=data["person"],
                member=data["member"],
            )
        except UserError as refused:
            form.add_error(None, f"Not added: {refused}.")
        else:
            linked = f", linked to {player.person.name}" if player.person else ""
            messages.success(request, f"Registered {player.name}{linked}.")
            if warning:
                messages.warning(request, warning)
            # No #fragment: a browser moves no focus to an autofocus field then.
            return redirect(reverse("organiser:players", args=[slug]) + "?added")
    return _players_page(
        request,
        tournament,
        form,
        keeps_people=keeps_people,
        person_matches=matches,
        chosen=request.POST.get("person", ""),
        focus_name=focus_name,
    )


def _player_status(
    request: HttpRequest, slug: str, pk: int, message: str, **changes: bool
) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    warning = player_service.set_status(player, **changes)
    messages.success(request, message.format(player.name))
    if warning:
        messages.warning(request, capfirst(warning) + ".")
    return redirect("organiser:players", slug)


def _check_in(request: HtmxHttpRequest, slug: str, pk: int, checked_in: bool) -> HttpResponse:
    """Check a player in or out where they are on the page: htmx swaps their row; without
    JavaScript the page comes back at their row, not at the top of the list."""
    tournament = get_tournament_for_organiser(request, slug)
    player = get_object_or_404(
        with_adjustments(Player.objects.select_related("person")), tournament=tournament, pk=pk
    )
    player_service.set_status(player, checked_in=checked_in)
    if request.htmx:
        return _player_row(request, tournament, player)
    said = "is checked in" if checked_in else "is no longer checked in"
    messages.success(request, f"{player.name} {said}.")
    return redirect(reverse("organiser:players", args=[slug]) + f"#player-{player.pk}")


@login_required
@require_POST
def player_check_in(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    return _check_in(request, slug, pk, checked_in=True)


@login_required
@require_POST
def player_check_out(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    return _check_in(request, slug, pk, checked_in=False)


@login_required
@require_http_methods(["GET", "POST"])
def players_check_in_everyone(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Check in everyone not yet in": a page naming them, whose button checks in those
    named (``players.services.check_in_everyone``), all at once."""
    tournament = get_tournament_for_organiser(request, slug)
    if request.method == "POST":
        form = CheckInEveryoneForm(request.POST)
        if not form.is_valid():
            messages.error(request, form_errors(form))
            return redirect("organiser:players_check_in_everyone", slug)
        checked = player_service.check_in_everyone(tournament, form.cleaned_data["players"])
        if checked:
            messages.success(request, f"Checked in {checked} player{pluralize(checked)}.")
        else:
            messages.info(request, "Nobody was checked in: they were all in already.")
        return redirect("organiser:players", slug)
    waiting = player_service.not_checked_in(tournament)
    form = CheckInEveryoneForm(initial={"players": ",".join(str(p.pk) for p in waiting)})
    return render(
        request,
        "players/players_check_in_everyone.html",
        {
            "tournament": tournament,
            "waiting": waiting,
            "form": form,
            "count": player_service.check_in_count(tournament),
        },
    )


@login_required
@require_POST
def player_drop(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _player_status(
        request, slug, pk, "{} has dropped out: later rounds will not seat them.", active=False
    )


@login_required
@require_POST
def player_return(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _player_status(
        request, slug, pk, "{} is back: the next round will seat them.", active=True
    )


@login_required
@require_POST
def players_import(request: HttpRequest, slug: str) -> HttpResponse:
    """A pasted or uploaded list: previewed first, imported only from the preview's
    button (``confirm``), which posts the same text back. Its member numbers link players
    to people only for an organiser who may keep the register (``player_lists``)."""
    tournament = get_tournament_for_organiser(request, slug)
    keeps_people = may_keep_people(request.user)

    def page(**extra: object) -> HttpResponse:
        blank = AddPlayerForm(keeps_people=keeps_people)
        return _players_page(request, tournament, blank, keeps_people=keeps_people, **extra)

    form = CsvImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return page(import_form=form)
    text = form.cleaned_data["text"]
    try:
        check = player_lists.check_csv(tournament, text, link_people=keeps_people)
    except UserError as refused:
        # The list as a whole cannot be read (too long, a quote never closed).
        form.add_error(None, f"Nothing was imported: {refused}.")
        return page(import_form=form)
    skip_bad = form.cleaned_data["skip_bad"]
    if not form.cleaned_data["confirm"] or (check.errors and not skip_bad):
        # No ids: its hidden copies of the fields would take the ids that the labels of
        # the import form below point to.
        confirm = CsvImportForm(
            initial={"text": text, "skip_bad": bool(check.errors), "confirm": True},
            auto_id=False,
        )
        return page(
            import_check=check,
            # An uploaded file's text lands in the box, to be corrected there; pasted
            # text stays as it was typed.
            import_form=CsvImportForm(initial={"text": text})
            if form.cleaned_data["file"]
            else form,
            confirm_form=confirm,
        )
    added = player_lists.import_csv(tournament, text, skip_bad=skip_bad, link_people=keeps_people)
    messages.success(request, f"Imported {len(added)} player{'s' if len(added) != 1 else ''}.")
    if check.members_note:
        messages.warning(request, check.members_note)
    if check.errors:
        messages.warning(
            request, f"Skipped {len(check.errors)} bad line(s): " + "; ".join(check.errors)
        )
    for warning in check.warnings:
        messages.warning(request, warning)
    return redirect("organiser:players", slug)


@login_required
@require_POST
def keep_apart(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = KeepApartForm(request.POST, tournament=tournament)
    if form.is_valid():
        first, second = player_service.keep_apart(
            tournament, form.cleaned_data["first"], form.cleaned_data["second"]
        )
        messages.success(request, f"{first.name} and {second.name} will never share a table.")
    else:
        messages.error(request, form_errors(form))
    return redirect("organiser:players", slug)


@login_required
@require_POST
def keep_apart_remove(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = RemoveKeepApartForm(request.POST, tournament=tournament)
    if form.is_valid():
        pair = form.cleaned_data["pair"]
        player_service.allow_together(pair)
        messages.success(
            request, f"{pair.first.name} and {pair.second.name} may now share a table."
        )
    else:
        messages.error(request, form_errors(form))
    return redirect("organiser:players", slug)
