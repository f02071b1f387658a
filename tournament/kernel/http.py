"""The request type of the views (Django's, with what django-htmx's middleware adds), whether
a request wants a fragment, the answer to a saved form, and a CSV file to download."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from tournament.kernel.csv_export import csv_download


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def saved_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Where a page goes once its form is saved. A form that static/js/keep.js submits
    through htmx (which sends ``HX-Request``) is told the address (``HX-Redirect``)
    instead of being redirected, so that the script forgets the cells it kept before
    htmx goes there; the messages the save left are shown there, not spent on a redirect
    followed unseen."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


# The header static/js/keep.js adds to a save it sends again by itself, the network having
# dropped an earlier try (or the page having been closed while it waited).
RESENT_HEADER = "Keep-Resent"


def resent(request: HttpRequest) -> bool:
    """Whether this save was sent again by static/js/keep.js once the network was back, so
    that the page it leads to can say the save went through after all."""
    return request.headers.get(RESENT_HEADER) == "1"


def csv_attachment(text: str, filename: str) -> HttpResponse:
    """``text`` as a CSV file to download (``csv_export.csv_download``: readable by Excel as
    well as by programs), named ``filename``."""
    response = HttpResponse(csv_download(text), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request for the region it swaps; restoring a pushed URL from history asks
    for the whole page. From the headers, as django-htmx reads them, for the middleware."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )
