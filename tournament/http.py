"""The request type of the views (Django's, with what django-htmx's middleware adds), and
the answer to a saved form."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def saved_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Where a page goes once its form is saved. A form that static/js/keep.js submits
    (it sends ``HX-Request``) is told the address instead of being redirected, so that
    the script forgets the cells it kept, then goes there itself; the messages the save
    left are shown there, not spent on a redirect the script followed unseen."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)
