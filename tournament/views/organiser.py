"""Pages for organisers: their tournaments, settings, scorers, players, rounds and seating.

Every view fetches the tournament through ``permissions.get_tournament_for_organiser``
(404 for outsiders, 403 for the tournament's scorers); writes go through services.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.errors import UserError
from scoring.standings import TIEBREAK_KEYS, TIEBREAK_LABELS
from tournament.forms import (
    CsvImportForm,
    KeepApartForm,
    PlayerForm,
    RemoveKeepApartForm,
    RemoveScorerForm,
    ScorerForm,
    SeatRoundForm,
    StartRoundForm,
    SwapForm,
    TiebreakForm,
    TournamentForm,
    UnlockScorerForm,
    form_errors,
    player_label,
    shared_names,
)
from tournament.models import Bye, KeepApart, Player, Round, Seat, Sheet, SheetStatus, Tournament
from tournament.permissions import get_round, get_tournament_for_organiser, tournaments_for
from tournament.services import accounts as account_service
from tournament.services import players as player_service
from tournament.services import rounds as round_service
from tournament.services import scorer_access, seating, tournaments
from tournament.services.standings import tournament_standings
from tournament.tables import PlayersTable, standings_table


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = tournaments_for(request.user).select_related("owner")
    return render(request, "organiser/home.html", {"tournaments": tournaments})


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = tournaments.create_tournament(form.save(commit=False), request.user)
        messages.success(request, f"Created “{tournament.name}”. Now register its players.")
        return redirect("organiser:players", tournament.slug)
    return render(request, "organiser/tournament_form.html", {"form": form, "creating": True})


@login_required
@require_GET
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    counts = tournament.players.aggregate(
        registered=Count("pk"),
        playing=Count("pk", filter=Q(active=True)),
        present=Count("pk", filter=Q(checked_in=True, active=True)),
    )
    rounds = list(tournament.rounds.order_by("number"))
    context = {
        "tournament": tournament,
        "counts": counts,
        "rounds": rounds,
        "tiebreak_chain": ", then ".join(
            TIEBREAK_LABELS[key] for key in ("points", *tournament.tiebreaks)
        ),
    }
    return render(request, "organiser/dashboard.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournaments.save_settings(form.instance, form.Meta.fields)
        except tournaments.SettingsRefusedError as refused:
            form.add_error(refused.field, refused.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("organiser:dashboard", tournament.slug)
    return render(
        request,
        "organiser/tournament_form.html",
        {"form": form, "tournament": tournament, **_tiebreak_context(tournament.tiebreaks)},
    )


def _tiebreak_context(order: list[str]) -> dict[str, object]:
    return {
        "tiebreak_order": [(key, TIEBREAK_LABELS[key]) for key in order],
        "tiebreak_unused": [
            (key, TIEBREAK_LABELS[key]) for key in TIEBREAK_KEYS if key not in order
        ],
    }


def _tiebreak_step(
    request: HttpRequest, slug: str, step: Callable[[Tournament, str], list[str]]
) -> HttpResponse:
    """One step of reordering the tiebreaks, then the order as it now stands."""
    tournament = get_tournament_for_organiser(request, slug)
    form = TiebreakForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That tiebreak change was not understood.")
    else:
        try:
            step(tournament, form.cleaned_data["key"])
        except UserError as refused:
            messages.error(request, f"That tiebreak change was not made: {refused}.")
    tournament.refresh_from_db(fields=["tiebreaks"])
    if request.htmx:
        return render(
            request,
            "organiser/tournament_form.html#tiebreaks",
            {"tournament": tournament, **_tiebreak_context(tournament.tiebreaks)},
        )
    return redirect("organiser:edit", tournament.slug)


@login_required
@require_POST
def tiebreak_add(request: HttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.add_tiebreak)


@login_required
@require_POST
def tiebreak_remove(request: HttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.remove_tiebreak)


@login_required
@require_POST
def tiebreak_up(request: HttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.move_tiebreak_up)


@login_required
@require_POST
def tiebreak_down(request: HttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.move_tiebreak_down)


@login_required
@require_http_methods(["GET", "POST"])
def scorers(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = ScorerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = form.cleaned_data["username"].strip()
        try:
            scorer_access.add_scorer(tournament, username)
        except UserError as refused:
            form.add_error("username", str(refused))
        else:
            messages.success(request, f"{username} may now enter and confirm sheets.")
            return redirect("organiser:scorers", slug)
    context = {
        "tournament": tournament,
        "form": form,
        "scorers": tournament.scorers.order_by("username"),
        "locked_out": account_service.locked_out_scorers(tournament),
    }
    return render(request, "organiser/scorers.html", context)


@login_required
@require_POST
def scorer_unlock(request: HttpRequest, slug: str) -> HttpResponse:
    """Let a scorer who typed the wrong password too often log in again at once."""
    tournament = get_tournament_for_organiser(request, slug)
    form = UnlockScorerForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["scorer"]))
        return redirect("organiser:scorers", slug)
    scorer = form.cleaned_data["scorer"]
    try:
        account_service.unlock_scorer(tournament, scorer)
    except UserError as refused:  # removed as a scorer meanwhile
        messages.error(request, str(refused))
    else:
        messages.success(request, f"{scorer.get_username()} may log in again now.")
    return redirect("organiser:scorers", slug)


@login_required
@require_POST
def scorer_remove(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = RemoveScorerForm(request.POST, tournament=tournament)
    if form.is_valid():
        user = form.cleaned_data["user"]
        scorer_access.remove_scorer(tournament, user)
        messages.success(request, f"{user.get_username()} is no longer a scorer.")
    else:
        messages.error(request, form_errors(form))
    return redirect("organiser:scorers", slug)


# Players ------------------------------------------------------------------------------


def _players_page(
    request: HttpRequest, tournament: object, form: PlayerForm, **extra: object
) -> HttpResponse:
    players = list(Player.objects.filter(tournament=tournament).order_by("name"))
    names = Counter(player.name.casefold() for player in players)
    duplicates = {player.pk for player in players if names[player.name.casefold()] > 1}
    table = PlayersTable(players, duplicates=duplicates, slug=tournament.slug)  # type: ignore[attr-defined]
    pairs = KeepApart.objects.filter(tournament=tournament).select_related("first", "second")
    context = {
        "tournament": tournament,
        "form": form,
        "table": table,
        "keep_apart_form": KeepApartForm(tournament=tournament),
        "keep_apart": pairs,
        "import_form": CsvImportForm(),
        **extra,
    }
    return render(request, "organiser/players.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name, club = form.cleaned_data["name"], form.cleaned_data["club"]
        warning = player_service.duplicate_warning(tournament, name)
        player = player_service.add_player(
            tournament, name, club, fixed_table=form.cleaned_data.get("fixed_table")
        )
        messages.success(request, f"Registered {player.name}.")
        if warning:
            messages.warning(request, warning)
        return redirect("organiser:players", slug)
    return _players_page(request, tournament, form)


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
    return render(
        request,
        "organiser/player_form.html",
        {"tournament": tournament, "form": form, "player": player},
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


@login_required
@require_POST
def player_check_in(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _player_status(request, slug, pk, "{} is checked in.", checked_in=True)


@login_required
@require_POST
def player_check_out(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _player_status(request, slug, pk, "{} is no longer checked in.", checked_in=False)


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
    button (``confirm``), which posts the same text back."""
    tournament = get_tournament_for_organiser(request, slug)
    form = CsvImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _players_page(request, tournament, PlayerForm(), import_form=form)
    text = form.cleaned_data["text"]
    try:
        check = player_service.check_csv(tournament, text)
    except UserError as refused:
        # The list as a whole cannot be read (too long, a quote never closed).
        form.add_error(None, f"Nothing was imported: {refused}.")
        return _players_page(request, tournament, PlayerForm(), import_form=form)
    skip_bad = form.cleaned_data["skip_bad"]
    if not form.cleaned_data["confirm"] or (check.errors and not skip_bad):
        # No ids: its hidden copies of the fields would take the ids that the labels of
        # the import form below point to.
        confirm = CsvImportForm(
            initial={"text": text, "skip_bad": bool(check.errors), "confirm": True},
            auto_id=False,
        )
        return _players_page(
            request,
            tournament,
            PlayerForm(),
            import_check=check,
            # An uploaded file's text lands in the box, to be corrected there; pasted
            # text stays as it was typed.
            import_form=CsvImportForm(initial={"text": text})
            if form.cleaned_data["file"]
            else form,
            confirm_form=confirm,
        )
    added = player_service.import_csv(tournament, text, skip_bad=skip_bad)
    messages.success(request, f"Imported {len(added)} player{'s' if len(added) != 1 else ''}.")
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


# Rounds and seating -------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def rounds(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = SeatRoundForm(request.POST or None, splits=seating.splits_for(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            round_ = seating.seat_next_round(
                tournament,
                method=form.cleaned_data["method"],
                seed=form.cleaned_data["seed"],
                split=form.cleaned_data["split"],
            )
        except UserError as error:
            messages.error(request, f"Could not seat the next round: {error}")
        else:
            messages.success(request, f"Round {round_.number} is seated. Check it, then start it.")
            return redirect("organiser:round", slug, round_.number)
    context = {
        "tournament": tournament,
        "form": form,
        "rounds": tournament.rounds.annotate(tables_count=Count("tables")).order_by("number"),
        "active_players": tournament.players.filter(active=True).count(),
    }
    return render(request, "organiser/rounds.html", context)


def _round_context(tournament: object, round_: Round, **extra: object) -> dict[str, object]:
    everyone = Player.objects.filter(tournament=tournament).values_list("pk", "name", "club")
    shared = shared_names([name for _, name, _ in everyone])
    names = {
        pk: player_label(name, club) if name.casefold() in shared else name
        for pk, name, club in everyone
    }
    tables: dict[int, dict[str, object]] = {}
    for table_number, table_id, position, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "table_id", "position", "player_id")
    ):
        entry = tables.setdefault(
            table_number, {"number": table_number, "id": table_id, "seats": []}
        )
        entry["seats"].append((position, names[player_id]))  # type: ignore[attr-defined]
    statuses = dict(Sheet.objects.filter(table__round=round_).values_list("table_id", "status"))
    for entry in tables.values():
        entry["status"] = SheetStatus(statuses.get(entry["id"], SheetStatus.NOT_STARTED)).label
        entry["has_scores"] = (
            statuses.get(entry["id"], SheetStatus.NOT_STARTED) != SheetStatus.NOT_STARTED
        )
    byes = [
        names[pk] for pk in Bye.objects.filter(round=round_).values_list("player_id", flat=True)
    ]
    in_round = (
        Player.objects.filter(Q(seats__round=round_) | Q(byes__round=round_), tournament=tournament)
        .order_by("name")
        .distinct()
    )
    return {
        "tournament": tournament,
        "round": round_,
        "tables": list(tables.values()),
        "byes": sorted(byes),
        "quality": seating.round_quality(round_),
        "held_back": round_service.held_back(round_),
        "regenerate_form": SeatRoundForm(
            initial={"seed": round_.seed + 1},
            splits=seating.splits_for(tournament),  # type: ignore[arg-type]
        ),
        "swap_form": SwapForm(players=in_round),
        "seating_token": seating.seating_token(round_),
        **extra,
    }


@login_required
@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    return render(request, "organiser/round.html", _round_context(tournament, round_))


def _about_round(number: int, error: str) -> str:
    """``error`` as a sentence that names the round once."""
    if error.casefold().startswith(f"round {number} "):
        return capfirst(error) + "."
    return f"Round {number}: {error}."


def _round_change(
    request: HttpRequest, slug: str, number: int, change: Callable[[Tournament, Round], str]
) -> HttpResponse:
    """Make one change to the round (``change`` says what was done, or raises a
    ``UserError`` naming what was not), then show the round as it now stands."""
    tournament = get_tournament_for_organiser(request, slug)
    round_ = get_round(tournament, number)
    extra: dict[str, object] = {}
    try:
        messages.success(request, change(tournament, round_))
    except UserError as error:
        messages.error(request, _about_round(number, str(error)))
        extra["failed"] = True
    round_.refresh_from_db()
    if request.htmx:
        return render(
            request, "organiser/round.html#seating", _round_context(tournament, round_, **extra)
        )
    return redirect("organiser:round", slug, number)


@login_required
@require_POST
def round_regenerate(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat a draft round again, by another method, seed or table split."""

    def regenerate(tournament: Tournament, round_: Round) -> str:
        form = SeatRoundForm(request.POST, splits=seating.splits_for(tournament))
        if not form.is_valid():
            raise UserError("choose a seating method and a seed (a whole number)")
        seed = form.cleaned_data["seed"]
        seating.regenerate_round(
            round_,
            method=form.cleaned_data["method"],
            seed=seed if seed is not None else round_.seed + 1,
            split=form.cleaned_data["split"],
        )
        return f"Round {number} seated again."

    return _round_change(request, slug, number, regenerate)


@login_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Swap two players of a draft round, or re-seat a started round's table."""

    def swap(tournament: Tournament, round_: Round) -> str:
        form = SwapForm(request.POST, players=Player.objects.filter(tournament=tournament))
        if not form.is_valid():
            raise UserError("choose the two players to swap")
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        seating.swap_players(
            round_, first, second, reseat=form.cleaned_data["reseat"], by=request.user
        )
        return f"Swapped {first.name} and {second.name}."

    return _round_change(request, slug, number, swap)


@login_required
@require_POST
def round_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def start(tournament: Tournament, round_: Round) -> str:
        form = StartRoundForm(request.POST)
        if not form.is_valid():
            raise UserError("the seating on your page could not be read: reload the page")
        round_service.start_round(round_, seating=form.cleaned_data["seating"] or None)
        return f"Round {number} has started: print the score sheets."

    return _round_change(request, slug, number, start)


@login_required
@require_POST
def round_release(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def release(tournament: Tournament, round_: Round) -> str:
        round_service.release_round(round_)
        return f"Round {number}'s confirmed results are now public."

    return _round_change(request, slug, number, release)


@login_required
@require_POST
def round_withhold(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def withhold(tournament: Tournament, round_: Round) -> str:
        round_service.withhold_round(round_)
        return f"Round {number}'s results are hidden from the public."

    return _round_change(request, slug, number, withhold)


@login_required
@require_POST
def publish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    tournaments.set_published(tournament, True)
    messages.success(request, "The tournament is public: released rounds can be seen by all.")
    return redirect("organiser:dashboard", slug)


@login_required
@require_POST
def unpublish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    tournaments.set_published(tournament, False)
    messages.success(request, "The tournament is private again.")
    return redirect("organiser:dashboard", slug)


@login_required
@require_POST
def reveal(request: HttpRequest, slug: str) -> HttpResponse:
    """Release every started round, the ones held back for the final reveal too."""
    tournament = get_tournament_for_organiser(request, slug)
    count = round_service.reveal_final_results(tournament)
    messages.success(
        request, f"Revealed the final results ({count} round{'s' if count != 1 else ''})."
    )
    return redirect("organiser:dashboard", slug)


@login_required
@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's standings, counting sheets that await confirmation too."""
    tournament = get_tournament_for_organiser(request, slug)
    result = tournament_standings(tournament, include_unconfirmed=True)
    context = {
        "tournament": tournament,
        "result": result,
        "table": standings_table(result),
        "chain": ", then ".join(
            TIEBREAK_LABELS[key] for key in ("points", *result.standings.tiebreaks)
        ),
        "rounds_played": len(result.standings.round_numbers),
        "incomplete_tables": result.incomplete_tables,
        "private": True,
        "public_url": reverse("standings", args=[slug]),
    }
    return render(request, "standings.html", context)
