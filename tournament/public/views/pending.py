"""A public page whose tournament's view is not worked out yet says so, rather than
working it out in the visitor's request: "being worked out", and the page follows the
evening until it is (``public.results.BeingWorkedOut``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.public.results import BeingWorkedOut


def shows_being_worked_out(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except BeingWorkedOut as pending:
            context = {"tournament": pending.tournament}
            return render(request, "public/being_worked_out.html", context)

    return wrapper
