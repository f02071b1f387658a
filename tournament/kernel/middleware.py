"""Responses to logged-in users are theirs alone.

A logged-in page carries its user's name, their tournaments and a CSRF token, so no
shared cache (a proxy, the pub's wifi box) may keep it, and the browser should not keep
it on disk either: ``Cache-Control: private, no-store``. Anonymous visitors' responses
are left as the views made them, so the public pages stay cacheable, except a page a
view marked private (``keep_private``: a rehearsal's, opened by its private link), which
is kept by no cache, the phones' offline copy included, and indexed by no search engine.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


def keep_private(request: HttpRequest) -> None:
    """Mark this request's response private: no cache keeps it, no search engine lists it."""
    request.kept_private = True  # type: ignore[attr-defined]


class PrivateWhenLoggedInMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            # Whatever else a view set (a max-age, say) is kept, but made private.
            patch_cache_control(response, private=True, no_store=True)
        if getattr(request, "kept_private", False):
            patch_cache_control(response, private=True, no_store=True)
            response["X-Robots-Tag"] = "noindex, nofollow"
        return response
