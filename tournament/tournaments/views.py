"""Pages for organisers: their tournaments, settings, tiebreak order, publishing and
standings. Players are in ``views.players``, rounds and seating in ``views.rounds``,
scorers and their invitations in ``views.scorers``.

Every view fetches the tournament through ``permissions.get_tournament_for_organiser``
(404 for outsiders, 403 for the tournament's scorers); writes go through services.
Creating a tournament is for those who may organise (``permissions.may_organise``: a
403 page for others).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.errors import UserError
from scoring.rulesets import RULE_SETS, STANDARD, balance
from scoring.simulation.advisor import (
    BREAK_MINUTES,
    MINUTES_PER_DEAL,
    TOURNAMENTS,
    AdvisorError,
)
from scoring.systems import ScoringSystem
from scoring.tiebreaks import TIEBREAKS, order_in_words
from tournament.kernel import limits
from tournament.kernel.http import HtmxHttpRequest
from tournament.kernel.queue import queue_status
from tournament.models import SheetStatus, Tournament
from tournament.public import room
from tournament.public.embed import publishing
from tournament.rehearsals.services import MAX_REHEARSALS, rehearsals_of
from tournament.rounds import services as round_service
from tournament.rounds.forms import ReleaseRoundForm
from tournament.series import owners as series_admin
from tournament.shared.permissions import (
    check_may_organise,
    get_tournament_for_organiser,
    may_keep_people,
    may_organise,
    tournaments_for,
)
from tournament.tournaments import services as tournaments
from tournament.tournaments.advisor import Question, advised_initial, ask, format_query
from tournament.tournaments.forms import (
    AdvisorForm,
    HouseRulesForm,
    TiebreakForm,
    TournamentForm,
)


@login_required
@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    tournaments = tournaments_for(request.user).select_related("owner")
    context = {
        "tournaments": tournaments,
        "series_requests": list(series_admin.requests_for(request.user)),
        "may_organise": may_organise(request.user),
        "may_keep_people": may_keep_people(request.user),
    }
    return render(request, "tournaments/home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HtmxHttpRequest) -> HttpResponse:
    check_may_organise(request)
    advised = advised_initial(request.GET)
    form = TournamentForm(request.POST or None, initial=advised)
    if request.method == "POST" and form.is_valid():
        tournament = tournaments.create_tournament(form.save(commit=False), request.user)
        messages.success(request, f"Created “{tournament.name}”. Now register its players.")
        return redirect("organiser:players", tournament.slug)
    context = {
        "form": form,
        "creating": True,
        "advised": bool(advised),
        # Rehearsing one of the organiser's own tournaments (``rehearsals``).
        "rehearse_choices": Tournament.objects.filter(
            owner=request.user.pk, rehearsal_token="", players__active=True
        )
        .distinct()
        .order_by("-created", "-pk"),
        "rehearsals": rehearsals_of(request.user),
        "max_rehearsals": MAX_REHEARSALS,
    }
    return render(request, "tournaments/tournament_form.html", context)


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _dashboard(request, get_tournament_for_organiser(request, slug))


def _dashboard(
    request: HtmxHttpRequest, tournament: Tournament, confirm_reveal: UserError | None = None
) -> HttpResponse:
    """The tournament's overview; ``confirm_reveal`` asks before revealing the final
    results while tables have no confirmed sheet."""
    counts = tournament.players.aggregate(
        registered=Count("pk"),
        playing=Count("pk", filter=Q(active=True)),
        present=Count("pk", filter=Q(checked_in=True, active=True)),
    )
    # Each round's progress in the one query: tables, and tables with a confirmed sheet.
    rounds = list(
        tournament.rounds.annotate(
            tables_total=Count("tables", distinct=True),
            tables_confirmed=Count(
                "tables", filter=Q(tables__sheet__status=SheetStatus.CONFIRMED), distinct=True
            ),
        ).order_by("number")
    )
    context = {
        "tournament": tournament,
        "counts": counts,
        "rounds": rounds,
        "tiebreak_chain": order_in_words(tournament.tiebreaks),
        "progress": room.progress(tournament, [r.number for r in rounds if r.released]),
        "confirm_reveal": confirm_reveal,
        # Tasks waiting with no worker taking them: the chances are not being worked out.
        "queue": queue_status(),
    }
    return render(request, "tournaments/dashboard.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    advised = advised_initial(request.GET)
    form = TournamentForm(request.POST or None, instance=tournament, initial=advised)
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
        "tournaments/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "advised": bool(advised),
            **_tiebreak_context(tournament.tiebreaks),
            "rehearsals": list(tournament.rehearsals.order_by("-created", "-pk")),
            "max_rehearsals": MAX_REHEARSALS,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def rules(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The rule set's numbers at each table size, and the house rules made from them
    (or from the preset ``?from=`` names)."""
    tournament = get_tournament_for_organiser(request, slug)
    start = RULE_SETS.get(request.GET.get("from", ""), tournament.rules)
    form = HouseRulesForm(start, request.POST or None)
    if request.method == "POST" and form.is_valid():
        sizes = list(tournament.table_sizes)
        try:
            tournaments.set_house_rules(tournament, form.rule_set)
        except tournaments.SettingsRefusedError as refused:
            form.add_error(None, refused.message)
            # Nothing was saved: the page shows the rules in force.
            tournament.refresh_from_db()
        else:
            messages.success(
                request, "House rules saved; whatever was already recorded is scored by them."
            )
            dropped = [size for size in sizes if size not in tournament.table_sizes]
            if dropped:
                named = ", ".join(str(size) for size in dropped)
                messages.warning(
                    request,
                    f"Tables of {named} are no longer among the sizes the seating may use: "
                    "the house rules do not seat them (Settings lists the sizes).",
                )
            return redirect("organiser:rules", tournament.slug)
    rule_set = tournament.rules
    return render(
        request,
        "tournaments/rules.html",
        {
            "tournament": tournament,
            "rule_set": rule_set,
            "rows": [(params, balance(params)) for params in rule_set.tables],
            "sizes": tournament.sizes_allowed,
            "presets": RULE_SETS.values(),
            "start": start,
            "form": form,
        },
    )


# The advisor's question before the organiser asks one: a pub's evening.
ADVISOR_DEFAULT_PLAYERS = 20
ADVISOR_DEFAULT_MINUTES = 180


@login_required
@require_GET
def advisor(request: HtmxHttpRequest) -> HttpResponse:
    """The format advisor: the formats that fit the time and how fairly each picks out the
    strongest player. ``?tournament=`` takes that tournament's players, scoring, rules and
    table sizes (its organiser only)."""
    check_may_organise(request)
    slug = request.GET.get("tournament")
    if slug and not re.fullmatch(limits.SLUG_PATTERN, slug):
        # No tournament has such an address: as any unknown one (never a database error).
        raise Http404("No such tournament")
    tournament = get_tournament_for_organiser(request, slug) if slug else None
    initial: dict[str, object] = {
        "players": ADVISOR_DEFAULT_PLAYERS,
        "minutes": ADVISOR_DEFAULT_MINUTES,
        "minutes_per_deal": MINUTES_PER_DEAL,
        "scoring": ScoringSystem.WINNER_ADVANTAGE.value,
        "rule_set": STANDARD.key,
    }
    if tournament is not None:
        registered = tournament.players.filter(active=True).count()
        initial["players"] = registered if registered >= 2 else ADVISOR_DEFAULT_PLAYERS
    form = AdvisorForm({**initial, **request.GET.dict()})
    advice = pending = question = None
    if form.is_valid():
        data = form.cleaned_data
        # A tournament's own scoring and rules (house rules too) stand for the choices.
        if tournament is not None:
            system, rules = tournament.scoring_system, tournament.rules
            sizes: tuple[int, ...] | None = tuple(tournament.table_sizes)
        else:
            system, rules, sizes = ScoringSystem(data["scoring"]), RULE_SETS[data["rule_set"]], None
        question = Question.of(
            data["players"], data["minutes"], data["minutes_per_deal"], system, rules, sizes
        )
        try:
            asked = ask(question, request.user)
            advice, pending = asked.advice, asked.pending
        except AdvisorError as refused:
            form.add_error(None, str(refused))
    # Each format with the query that fills the tournament form with it ("Use this format").
    rows = (
        [(each, format_query(each, advice, question)) for each in advice.formats]
        if advice is not None and question is not None
        else []
    )
    use = next((query for each, query in rows if each == advice.recommended), "") if advice else ""
    context = {
        "form": form,
        "advice": advice,
        "rows": rows,
        "use_query": use,
        # A large question the task worker is working out: the page follows it.
        "pending": pending,
        "tournament": tournament,
        "break_minutes": BREAK_MINUTES,
        "tournaments": TOURNAMENTS,
    }
    template = "tournaments/advisor.html#advice" if request.htmx else "tournaments/advisor.html"
    return render(request, template, context)


def _tiebreak_context(order: list[str]) -> dict[str, object]:
    return {
        "tiebreak_order": [(key, TIEBREAKS[key].label) for key in order],
        "tiebreak_unused": [(key, tb.label) for key, tb in TIEBREAKS.items() if key not in order],
    }


def _tiebreak_step(
    request: HtmxHttpRequest, slug: str, step: Callable[[Tournament, str], list[str]]
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
            "tournaments/tournament_form.html#tiebreaks",
            {"tournament": tournament, **_tiebreak_context(tournament.tiebreaks)},
        )
    return redirect("organiser:edit", tournament.slug)


@login_required
@require_POST
def tiebreak_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.add_tiebreak)


@login_required
@require_POST
def tiebreak_remove(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.remove_tiebreak)


@login_required
@require_POST
def tiebreak_up(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.move_tiebreak_up)


@login_required
@require_POST
def tiebreak_down(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _tiebreak_step(request, slug, tournaments.move_tiebreak_down)


@login_required
@require_http_methods(["GET", "POST"])
def publish(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The Publish page: whether the public sees the tournament, and the snippets that put
    its standings on a guild's own site and on a stream (``public.embed``); a POST
    publishes it."""
    tournament = get_tournament_for_organiser(request, slug)
    if request.method == "GET":
        return render(request, "tournaments/publish.html", publishing(request, tournament))
    back = _back_to(request)
    try:
        tournaments.set_published(tournament, True)
    except UserError as refused:
        messages.error(request, str(refused))
        return redirect(back, slug)
    messages.success(request, "The tournament is public: released rounds can be seen by all.")
    return redirect(back, slug)


@login_required
@require_POST
def unpublish(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    tournaments.set_published(tournament, False)
    messages.success(request, "The tournament is private again.")
    return redirect(_back_to(request), slug)


def _back_to(request: HtmxHttpRequest) -> str:
    """The page a publishing button was pressed on: the Publish page or the Overview."""
    return "organiser:publish" if request.POST.get("back") == "publish" else "organiser:dashboard"


@login_required
@require_POST
def finish(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    try:
        tournaments.set_finished(tournament, True)
    except tournaments.TablesStillToScore as refused:
        messages.error(request, f"Not finished: {refused}")
        return redirect("organiser:dashboard", slug)
    messages.success(
        request, "The tournament is finished: the public pages show the final results."
    )
    return redirect("organiser:dashboard", slug)


@login_required
@require_POST
def unfinish(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    tournaments.set_finished(tournament, False)
    messages.success(request, "The tournament is under way again: its standings are provisional.")
    return redirect("organiser:dashboard", slug)


@login_required
@require_POST
def reveal(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Release every started round, the ones held back for the final reveal too."""
    tournament = get_tournament_for_organiser(request, slug)
    form = ReleaseRoundForm(request.POST)
    confirmed = form.is_valid() and form.cleaned_data["confirm"]
    try:
        count = round_service.reveal_final_results(tournament, despite_missing=confirmed)
    except round_service.RoundsWithoutResult as missing:
        return _dashboard(request, tournament, confirm_reveal=missing)
    messages.success(
        request, f"Revealed the final results ({count} round{'s' if count != 1 else ''})."
    )
    return redirect("organiser:dashboard", slug)
