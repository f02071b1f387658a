"""QR codes: a page's address drawn as an SVG, and whether that address only works on
this computer (a loopback address), which the printouts and the door warn about."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, rect: tuple[float, float, float, float] | None = None) -> SafeString:
    """An inline SVG QR code for ``url``, its quiet zone of four modules included: sized
    by CSS (no width/height of its own), or placed at ``rect`` (x, y, width, height in the
    enclosing SVG's units) when it is drawn inside another SVG.

    ``make_qr`` because ``make`` picks a Micro QR for short data, which many phones
    cannot read.
    """
    svg = segno.make_qr(url, error="m").svg_inline(
        scale=1, border=4, omitsize=True, svgclass="qr-code", lineclass=None
    )
    if rect is not None:
        x, y, width, height = rect
        svg = svg.replace(
            "<svg ", f'<svg x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" ', 1
        )
    return mark_safe(svg)  # segno's own markup; the URL is encoded, not embedded


def points_at_this_computer_only(url: str) -> bool:
    """Whether ``url`` names this computer alone (127.0.0.1, localhost, [::1]), which a
    scorer's phone scanning the code cannot reach."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
