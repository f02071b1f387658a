"""``{% live_updates "#region" %}``: a page opts into prompt updates with this one line.

The page then polls its own address every ``POLL_SECONDS`` with the ``ETag`` it was
served with (``static/js/live.js``); the server answers ``304 Not Modified`` until the
page changes (``public.cache``), and then the region is swapped for the new page's.
"""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

# A change shows on every screen within this, plus a request's time.
POLL_SECONDS = 4


@register.inclusion_tag("public/_live.html", takes_context=True)
def live_updates(context: dict[str, Any], region: str) -> dict[str, Any]:
    request = context.get("request")
    return {
        "region": region,
        "etag": getattr(request, "public_etag", ""),
        "seconds": POLL_SECONDS,
    }


@register.simple_tag
def poll_seconds() -> int:
    """How often a screen asks for what changed (static/js/me.js's card too)."""
    return POLL_SECONDS
