"""Logging in: the lockout page, and password reset only where email can be sent.

Django's own account views do the work; these wrap them. Password reset by email is
offered only when ``EMAIL_URL`` is set (``settings.PASSWORD_RESET_BY_EMAIL``): without
it the reset pages would promise an email that never comes, so they say whom to ask.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.helpers import get_client_ip_address, get_client_username
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils import timezone

from tournament.accounts.forms import LoginForm
from tournament.accounts.services import lockout_ends


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """django-axes' lockout response (``AXES_LOCKOUT_CALLABLE``), saying how long is left."""
    username = get_client_username(request, credentials) or ""
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    now = timezone.now()
    ends = lockout_ends(username, address, now)
    minutes_left = math.ceil((ends - now).total_seconds() / 60) if ends else None
    context = {
        "username": username,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "ends": ends,
        "minutes_left": minutes_left,
        "password_reset_by_email": settings.PASSWORD_RESET_BY_EMAIL,
    }
    return render(
        request,
        "registration/locked_out.html",
        context,
        status=getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429),
    )


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(
            password_reset_by_email=settings.PASSWORD_RESET_BY_EMAIL, **kwargs
        )


def needs_email(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Show whom to ask for a new password instead of ``view`` while no email is set up."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET_BY_EMAIL:
            return render(request, "registration/password_reset_unavailable.html")
        return view(request, *args, **kwargs)

    return wrapper


password_reset = needs_email(auth_views.PasswordResetView.as_view())
password_reset_done = needs_email(auth_views.PasswordResetDoneView.as_view())
password_reset_confirm = needs_email(auth_views.PasswordResetConfirmView.as_view())
password_reset_complete = needs_email(auth_views.PasswordResetCompleteView.as_view())
