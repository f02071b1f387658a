"""What a camera reads on a printed score sheet, drawn as one SVG over the sheet block.

The SVG's user unit is the millimetre and its viewport is the whole block, so every box,
corner marker and the QR code is drawn exactly at the millimetres the layout gives
(``printing.layout``): the browser lays out nothing of it that could move it. The grid a
pen follows (the table, the names, the shading of the dealer's cell) is HTML under it.
"""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from scoring.sheet_reading.markers import marker_svg
from tournament.printing.layout import QR_RECT, SHEET_HEIGHT_MM, SHEET_WIDTH_MM, SheetGrid, markers
from tournament.printing.qr import qr_svg

_BOX_CLASSES = {"won": "box digit", "left_over": "box digit", "laid_down": "box digit order"}


def overlay_svg(grid: SheetGrid, qr_text: str, *, with_markers: bool) -> SafeString:
    """The boxes of ``grid``'s deals, the QR code of ``qr_text`` and, on a sheet a photo
    can be read from, the four corner markers."""
    boxes = format_html_join(
        "",
        '<rect class="{}" x="{}" y="{}" width="{}" height="{}" '
        'data-deal="{}" data-field="{}" data-seat="{}"/>',
        (
            (
                _BOX_CLASSES[box.field] if box.digit is not None else "box tick",
                *(f"{measure:g}" for measure in box.rect),
                box.deal,
                box.field,
                "" if box.seat is None else box.seat,
            )
            for box in grid.boxes()
        ),
    )
    corners = (
        mark_safe("".join(marker_svg(marker.id, marker.rect) for marker in markers()))
        if with_markers
        else ""
    )
    return format_html(
        '<svg class="camera-marks" xmlns="http://www.w3.org/2000/svg" '
        'viewBox="0 0 {} {}" aria-hidden="true" focusable="false">{}{}{}</svg>',
        f"{SHEET_WIDTH_MM:g}",
        f"{SHEET_HEIGHT_MM:g}",
        corners,
        qr_svg(qr_text, QR_RECT),
        boxes,
    )
