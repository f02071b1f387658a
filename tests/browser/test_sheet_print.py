"""The printed score sheet as a camera sees it: ``manage.py print_sheets`` prints a round
(a table of eight at three rotations, 24 deals, and a table of four) on US Letter and A4
through Chromium; each page, drawn as pixels, has a drawn box wherever ``manage.py
sheet_layout`` says one is, its four corner markers where the layout puts them (found by
OpenCV's ArUco detector), and a QR code that names its tournament, round and table.

The sheets page on a phone's and a laptop's screen goes to artifacts/screenshots/sheets/.
"""

from __future__ import annotations

import json
from io import StringIO

import cv2
import numpy as np
import pypdfium2
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from scoring.sheet_reading.identity import SheetIdentity, identity_from_qr
from tests.browser.pages import fits, log_in
from tests.factories import TournamentFactory, play_round
from tournament.models import Player, Round, Table
from tournament.printing.layout import markers, page_offset

pytestmark = pytest.mark.browser

DPI = 200
PX_PER_MM = DPI / 25.4
NAMES = [
    "Bartholomew Fiske",
    "Joan Penhallow",
    "Wilhelmina Constance Pennyfeather",
    "Ann Smith",
    "Maximilian Alexander Worthington",
    "Lettice Knollys",
    "Zachary Leke",
    "Gervase Pinch",
    "Kit Marlowe",
    "Jo Li",
    "Ursula Wyatt",
    "Hester Lacy",
]


def _sheet_layout(table: int, paper: str) -> dict:
    out = StringIO()
    call_command("sheet_layout", "camera-night", "1", str(table), paper=paper, stdout=out)
    return json.loads(out.getvalue())


def _px(mm: float) -> int:
    return round(mm * PX_PER_MM)


def _box_drawn(image: np.ndarray, rect: list[float]) -> bool:
    """Whether a light line runs along each edge of ``rect`` (mm) and its inside is white:
    each edge is looked for within a third of a millimetre of where the layout puts it."""
    x, y, width, height = rect
    left, top, right, bottom = _px(x), _px(y), _px(x + width), _px(y + height)
    near = max(1, _px(0.33))
    edges = [
        image[top - near : top + near + 1, left + near : right - near],
        image[bottom - near : bottom + near + 1, left + near : right - near],
        image[top + near : bottom - near, left - near : left + near + 1],
        image[top + near : bottom - near, right - near : right + near + 1],
    ]
    # A line: along the edge, the darkest of the few pixels across it is grey, everywhere.
    lines = all(
        (edge.min(axis=0) if edge.shape[0] < edge.shape[1] else edge.min(axis=1)).max() < 215
        for edge in edges
    )
    inside = image[top + 2 * near : bottom - 2 * near, left + 2 * near : right - 2 * near]
    return lines and inside.min() > 235


def _check_page(pdf: pypdfium2.PdfDocument, layout: dict, paper: str, table: int) -> None:
    page = pdf[layout["page"]["index"] - 1]
    width_pt, height_pt = page.get_size()
    assert width_pt / 72 * 25.4 == pytest.approx(layout["page"]["width_mm"], abs=0.5)
    assert height_pt / 72 * 25.4 == pytest.approx(layout["page"]["height_mm"], abs=0.5)
    image = page.render(scale=DPI / 72, grayscale=True).to_numpy()

    missing = [box for box in layout["boxes"] if not _box_drawn(image, box["rect"])]
    assert not missing, f"{paper}, table {table}: no box drawn at {missing[:3]}"

    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(image)
    assert ids is not None
    found = {int(marker_id): quad[0] for marker_id, quad in zip(ids.ravel(), corners, strict=True)}
    assert sorted(found) == [0, 1, 2, 3], (paper, table)
    left, top = page_offset(paper)
    for marker in markers():
        x, y, size, _ = marker.rect
        square = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
        expected = np.add(square, (left, top))
        assert np.abs(found[marker.id] / PX_PER_MM - expected).max() < 0.5, (paper, marker.id)

    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert identity_from_qr(text) == SheetIdentity("camera-night", 1, table), text
    code = Table.objects.get(round__tournament__slug="camera-night", number=table).code
    assert f"/e/{code}/#sheet=camera-night/1/{table}" in text


def test_printed_sheets_put_every_box_marker_and_qr_code_where_the_layout_says(
    new_page, screenshot_dir, tmp_path
):
    olive = get_user_model().objects.create_user("olive", password="pw")
    tournament = TournamentFactory(
        name="Camera Night",
        slug="camera-night",
        owner=olive,
        rule_set="du-coeur",
        scoring="classic-stakes",
        rotations_per_round=3,
        table_sizes=[4, 8],
    )
    players = [
        Player.objects.create(tournament=tournament, ref=f"p{i + 1}", name=name)
        for i, name in enumerate(NAMES)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1, started=True)
    play_round(round_, [players[:8], players[8:]])

    for paper in ("letter", "a4"):
        path = tmp_path / f"sheets-{paper}.pdf"
        call_command("print_sheets", "camera-night", "1", str(path), paper=paper, stdout=StringIO())
        pdf = pypdfium2.PdfDocument(path)
        assert len(pdf) == 2, paper  # one page a table, 24 deals at eight seats included
        for table in (1, 2):
            layout = _sheet_layout(table, paper)
            assert layout["page"]["index"] == table
            assert len(layout["boxes"]) == (24 * (8 * 3 + 2) if table == 1 else 12 * (4 * 3 + 2))
            _check_page(pdf, layout, paper, table)
        pdf.close()

    shots = screenshot_dir("sheets")
    for width, height in ((360, 740), (1366, 900)):
        page = new_page(viewport={"width": width, "height": height})
        log_in(page, "olive", "/print/camera-night/r1/sheets/")
        expect(page.locator("article.score-sheet")).to_have_count(2)
        expect(page.locator("svg.camera-marks rect.box")).to_have_count(24 * 26 + 12 * 14)
        fits(page)
        # The notes end above the bottom markers' quiet zone, whole (none cut off).
        bodies = page.locator(".sheet-body")
        for index in range(bodies.count()):
            assert bodies.nth(index).evaluate("e => e.scrollHeight <= e.clientHeight + 1")
        page.screenshot(path=shots / f"sheets-{width}.png", full_page=True)
