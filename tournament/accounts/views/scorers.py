"""A tournament's scorers: the organiser's Scorers page (adding an existing account by
user name, inviting a new scorer by a one-time link, unlocking and removing scorers), and
the invited scorer's page where the link is used (``accounts.invitations``).

The organiser's views fetch the tournament through
``permissions.get_tournament_for_organiser`` (404 for outsiders, 403 for its scorers).
The invitation's page needs no login: its link's secret is the key, and a link that no
longer works gets a page saying why (404 unknown, 410 used, withdrawn or expired).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import UserError
from tournament.accounts import invitations
from tournament.accounts import services as account_service
from tournament.accounts.forms import (
    ChoosePasswordForm,
    InvitationChoiceForm,
    InviteForm,
    RemoveScorerForm,
    ScorerForm,
    UnlockScorerForm,
)
from tournament.accounts.scorers import add_scorer, remove_scorer
from tournament.kernel.forms import form_errors
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.printing.qr import points_at_this_computer_only, qr_svg
from tournament.shared.permissions import get_tournament_for_organiser

# The organiser's side ---------------------------------------------------------------


def _scorers_page(
    request: HtmxHttpRequest,
    tournament: Tournament,
    *,
    form: Form | None = None,
    invite_form: Form | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {
        "tournament": tournament,
        "form": form or ScorerForm(),
        "invite_form": invite_form or InviteForm(),
        "scorers": tournament.scorers.order_by("username"),
        "invitations": invitations.open_invitations(tournament),
        "locked_out": account_service.locked_out_scorers(tournament),
        "hours": invitations.INVITATION_HOURS,
        "now": timezone.now(),
    }
    return render(request, "accounts/scorers.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def scorers(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = ScorerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = add_scorer(tournament, form.cleaned_data["username"])
        except UserError as refused:
            form.add_error("username", str(refused))
        else:
            messages.success(request, f"{user.get_username()} may now enter and confirm sheets.")
            return redirect("organiser:scorers", slug)
    return _scorers_page(request, tournament, form=form)


def _link_page(
    request: HtmxHttpRequest, tournament: Tournament, link: invitations.NewLink
) -> HttpResponse:
    """The new link, shown this once: only its hash is kept."""
    path = reverse("invitation", args=[link.secret])
    # The address a phone reaches, as on the printed sheets' QR codes.
    base = settings.PUBLIC_BASE_URL
    address = base + path if base else request.build_absolute_uri(path)
    context = {
        "tournament": tournament,
        "invitation": link.invitation,
        "address": address,
        "qr": qr_svg(address),
        "this_computer_only": points_at_this_computer_only(address),
        "hours": invitations.INVITATION_HOURS,
    }
    return render(request, "accounts/invitation.html", context)


@never_cache
@login_required
@require_POST
def scorer_invite(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            link = invitations.invite_scorer(
                tournament, form.cleaned_data["username"], request.user
            )
        except UserError as refused:
            form.add_error("username", str(refused))
        else:
            return _link_page(request, tournament, link)
    return _scorers_page(request, tournament, invite_form=form)


@never_cache
@login_required
@require_POST
def invitation_renew(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = InvitationChoiceForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return redirect("organiser:scorers", slug)
    try:
        link = invitations.renew_invitation(tournament, form.cleaned_data["invitation"])
    except UserError as refused:
        messages.error(request, str(refused))
        return redirect("organiser:scorers", slug)
    return _link_page(request, tournament, link)


@login_required
@require_POST
def invitation_withdraw(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = InvitationChoiceForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors(form))
        return redirect("organiser:scorers", slug)
    try:
        invitation = invitations.withdraw_invitation(tournament, form.cleaned_data["invitation"])
    except UserError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(
            request,
            f"The invitation of {invitation.username} is withdrawn: its link no longer works.",
        )
    return redirect("organiser:scorers", slug)


@login_required
@require_POST
def scorer_unlock(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Let a scorer who typed the wrong password too often log in again at once."""
    tournament = get_tournament_for_organiser(request, slug)
    form = UnlockScorerForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(request, form_errors(form))
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
def scorer_remove(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_organiser(request, slug)
    form = RemoveScorerForm(request.POST, tournament=tournament)
    if form.is_valid():
        user = form.cleaned_data["user"]
        remove_scorer(tournament, user)
        messages.success(request, f"{user.get_username()} is no longer a scorer.")
    else:
        messages.error(request, form_errors(form))
    return redirect("organiser:scorers", slug)


# The invited scorer's side -------------------------------------------------------------


def _closed(request: HtmxHttpRequest, closed: invitations.InvitationClosed) -> HttpResponse:
    status = 404 if closed.reason is invitations.Closed.UNKNOWN else 410
    context = {"closed": closed, "invitation": closed.invitation}
    return render(request, "accounts/closed.html", context, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def accept(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    try:
        invitation = invitations.open_link(secret)
    except invitations.InvitationClosed as closed:
        return _closed(request, closed)
    form = ChoosePasswordForm(request.POST or None, username=invitation.username)
    if request.method == "POST" and form.is_valid():
        try:
            user = invitations.accept(secret, form.cleaned_data["password1"])
        except invitations.InvitationClosed as closed:
            return _closed(request, closed)
        except UserError as refused:  # the user name was taken meanwhile
            form.add_error(None, str(refused))
        except ValidationError as problems:
            form.add_error("password1", problems)
        else:
            # Only the model backend logs in: axes' counts wrong passwords, of which
            # there are none here.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                f"Welcome, {user.get_username()}: you score {invitation.tournament.name}. "
                "Log in with this user name and password next time.",
            )
            return redirect("scorer:home", invitation.tournament.slug)
    context = {"invitation": invitation, "form": form}
    return render(request, "accounts/accept.html", context)
