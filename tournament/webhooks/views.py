"""The organiser's Webhooks page: the tournament's endpoints with their recent
deliveries, adding one (its secret shown this once), a new secret, switching one off or
on, removing it, and sending a ping. Only the tournament's organiser sees it
(``permissions.get_tournament_for_organiser``: 404 for outsiders, 403 for its scorers).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import UserError
from tournament.kernel.forms import form_errors
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.shared.permissions import get_tournament_for_organiser
from tournament.webhooks import services
from tournament.webhooks.delivery import TRIES, schedule_in_words
from tournament.webhooks.forms import EndpointForm, SwitchForm, WebhookForm
from tournament.webhooks.messages import EVENT_KEYS
from tournament.webhooks.tasks import STANDINGS_DEBOUNCE


def _page(
    request: HtmxHttpRequest,
    tournament: Tournament,
    form: WebhookForm | None = None,
    shown: services.Made | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "endpoints": services.endpoints_of(tournament),
        "form": form or WebhookForm(initial={"events": list(EVENT_KEYS)}),
        "shown": shown,
        "tries": TRIES,
        "schedule": schedule_in_words(),
        "debounce": int(STANDINGS_DEBOUNCE.total_seconds()),
        "max_endpoints": services.MAX_ENDPOINTS,
    }
    return render(request, "webhooks/webhooks.html", context, status=status)


def _site(request: HtmxHttpRequest) -> str:
    return settings.PUBLIC_BASE_URL or request.build_absolute_uri("/").rstrip("/")


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    if request.method != "POST":
        return _page(request, tournament)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, form, status=422)
    try:
        made = services.add_endpoint(
            tournament,
            form.cleaned_data["url"],
            form.cleaned_data["events"],
            form.cleaned_data["format"],
            site=_site(request),
        )
    except UserError as refused:
        form.add_error("url", f"Not added: {refused}.")
        return _page(request, tournament, form, status=422)
    return _page(request, tournament, shown=made)


def _chosen(request: HtmxHttpRequest, tournament: Tournament, form: EndpointForm):
    """The endpoint the valid ``form`` names; None, with the message, otherwise."""
    if not form.is_valid():
        messages.error(request, f"Nothing was changed: {form_errors(form)}")
        return None
    try:
        return services.endpoint_of(tournament, form.cleaned_data["endpoint"])
    except UserError as refused:
        messages.error(request, f"Nothing was changed: {refused}.")
        return None


@login_required
@require_POST
def rotate(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    endpoint = _chosen(request, tournament, EndpointForm(request.POST))
    if endpoint is None:
        return redirect("organiser:webhooks", slug)
    return _page(request, tournament, shown=services.rotate_secret(endpoint))


@login_required
@require_POST
def switch(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = SwitchForm(request.POST)
    endpoint = _chosen(request, tournament, form)
    if endpoint is not None:
        on = form.cleaned_data["on"]
        services.switch(endpoint, on)
        messages.success(
            request,
            f"Webhook {endpoint.pk} is switched on."
            if on
            else f"Webhook {endpoint.pk} is switched off: nothing is sent to it.",
        )
    return redirect("organiser:webhooks", slug)


@login_required
@require_POST
def remove(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    endpoint = _chosen(request, tournament, EndpointForm(request.POST))
    if endpoint is not None:
        number = endpoint.pk
        services.remove(endpoint)
        messages.success(request, f"Webhook {number} is removed.")
    return redirect("organiser:webhooks", slug)


@login_required
@require_POST
def ping(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    endpoint = _chosen(request, tournament, EndpointForm(request.POST))
    if endpoint is not None:
        try:
            services.ping(endpoint)
        except UserError as refused:
            messages.error(request, f"No ping was sent: {refused}.")
        else:
            messages.success(
                request,
                f"A ping to webhook {endpoint.pk} is queued: the task worker sends it in a "
                "moment; reload to see how it went.",
            )
    return redirect("organiser:webhooks", slug)
