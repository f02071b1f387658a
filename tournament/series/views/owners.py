"""The organiser's series pages: their series, a series' settings and tournaments, and the
requests of other organisers to put one of the user's tournaments in their series.

Every view of one series fetches it through ``series.owners.get_series_for_owner`` (a 404
for anyone but its owner or a superuser); writes go through ``series.owners``.
Creating a series is for those who may organise (``permissions.may_organise``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.errors import UserError
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Series
from tournament.series import owners
from tournament.series.forms import AddTournamentForm, EntryForm, SeriesForm
from tournament.shared.permissions import check_may_organise, may_organise


@login_required
@require_GET
def series_list(request: HtmxHttpRequest) -> HttpResponse:
    context = {
        "series_list": owners.series_for(request.user).select_related("owner"),
        "requests": owners.requests_for(request.user),
        "may_organise": may_organise(request.user),
    }
    return render(request, "series/series_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def series_create(request: HtmxHttpRequest) -> HttpResponse:
    check_may_organise(request)
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        series = owners.create_series(form.save(commit=False), request.user)
        messages.success(request, f"Created “{series.name}”. Now add its tournaments.")
        return redirect("organiser:series_detail", series.slug)
    return render(request, "series/series_form.html", {"form": form, "creating": True})


@login_required
@require_http_methods(["GET", "POST"])
def series_detail(request: HtmxHttpRequest, series: str) -> HttpResponse:
    """A series' settings and its tournaments."""
    found = owners.get_series_for_owner(request, series)
    form = SeriesForm(request.POST or None, instance=found)
    if request.method == "POST" and form.is_valid():
        found = owners.save_series(form.save(commit=False))
        messages.success(request, "Series settings saved.")
        return redirect("organiser:series_detail", found.slug)
    return _detail_page(request, found, form, AddTournamentForm())


def _detail_page(
    request: HtmxHttpRequest, series: Series, form: SeriesForm, add_form: AddTournamentForm
) -> HttpResponse:
    # As stored: a refused form has changed the instance it was given.
    stored = Series.objects.get(pk=series.pk)
    entries = stored.entries.select_related("tournament", "tournament__owner").order_by(
        "tournament__date", "tournament__slug"
    )
    context = {"series": stored, "form": form, "add_form": add_form, "entries": entries}
    return render(request, "series/series_form.html", context)


@login_required
@require_POST
def series_tournament_add(request: HtmxHttpRequest, series: str) -> HttpResponse:
    found = owners.get_series_for_owner(request, series)
    add_form = AddTournamentForm(request.POST)
    if add_form.is_valid():
        try:
            entry = owners.add_tournament(found, add_form.cleaned_data["tournament"], request.user)
        except UserError as refused:
            add_form.add_error("tournament", str(refused))
        else:
            if entry.accepted:
                messages.success(request, f"“{entry.tournament.name}” is in the series.")
            else:
                messages.success(
                    request,
                    f"Asked the organiser of “{entry.tournament.name}”: it counts once they "
                    "accept.",
                )
            return redirect("organiser:series_detail", found.slug)
    return _detail_page(request, found, SeriesForm(instance=found), add_form)


@login_required
@require_POST
def series_tournament_remove(request: HtmxHttpRequest, series: str) -> HttpResponse:
    found = owners.get_series_for_owner(request, series)
    form = EntryForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That change was not understood.")
    else:
        try:
            tournament = owners.remove_entry(found, form.cleaned_data["entry"])
        except UserError as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, f"“{tournament.name}” is no longer in the series.")
    return redirect("organiser:series_detail", found.slug)


@login_required
@require_POST
def series_request_accept(request: HtmxHttpRequest, series: str) -> HttpResponse:
    form = EntryForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That answer was not understood.")
    else:
        try:
            entry = owners.accept_request(request.user, series, form.cleaned_data["entry"])
        except UserError as refused:
            messages.error(request, str(refused))
        else:
            messages.success(
                request, f"“{entry.tournament.name}” now counts in “{entry.series.name}”."
            )
    return redirect("organiser:series_list")


@login_required
@require_POST
def series_request_decline(request: HtmxHttpRequest, series: str) -> HttpResponse:
    form = EntryForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That answer was not understood.")
    else:
        try:
            entry = owners.decline_request(request.user, series, form.cleaned_data["entry"])
        except UserError as refused:
            messages.error(request, str(refused))
        else:
            messages.success(
                request, f"Declined: “{entry.tournament.name}” is not in “{entry.series.name}”."
            )
    return redirect("organiser:series_list")
