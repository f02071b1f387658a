"""Cross-Origin-Opener-Policy only where the browser honours it.

Django's SecurityMiddleware sends ``Cross-Origin-Opener-Policy: same-origin`` on every
response. Browsers honour it only from a trustworthy origin (HTTPS, or localhost) and log
a console error for each page that sends it over plain HTTP, as a laptop serving the
pub's wifi at ``http://192.168.1.20:8000`` does. This middleware, first in the list so
that it sees the response last, takes the header off where it would be ignored.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

HEADER = "Cross-Origin-Opener-Policy"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


def trustworthy(request: HttpRequest) -> bool:
    """Whether the browser counts the page's origin as potentially trustworthy."""
    if request.is_secure():
        return True
    try:
        host = request.get_host().lower()
    except DisallowedHost:  # answered 400 already: nothing to honour
        return False
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return name in LOCAL_HOSTS or name.endswith(".localhost")


class OpenerPolicyWhereHonouredMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER in response and not trustworthy(request):
            del response[HEADER]
        return response
