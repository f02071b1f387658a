"""Photos of filled score sheets, made in software for the reader's tests and benchmark.

``synthetic_photo`` draws a sheet from its layout (the markers' bits, the QR code's
modules from segno, the boxes' light lines), writes a table's deals in its boxes (in a
Hershey font, or by any ``hand``: a function drawing a digit into a rectangle), then
photographs the paper with a software camera: turned, in perspective, blurred, under
uneven light, darkened, cut, and saved as a JPEG. ``fill`` and ``photograph`` are its two
halves, for a page that was drawn elsewhere (bench/photo.py fills the app's own printed
page).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import segno

from scoring.sheet_reading.decode import DealReading
from scoring.sheet_reading.identity import SheetIdentity, qr_text
from scoring.sheet_reading.layout import Box, SheetLayout
from scoring.sheet_reading.markers import marker_cells

# A hand draws ``text`` (one character) into the pixel rectangle (x0, y0, x1, y1).
Hand = Callable[[np.ndarray, str, tuple[int, int, int, int]], None]

PX_PER_MM = 6.0
PAPER_MM = (210.0, 297.0)
INK = 35
LINE = 165


def example_layout(seats: int, deals: int, *, order_needed: bool = False) -> SheetLayout:
    """A sheet's layout as printing lays one out (the block, markers and QR code where the
    printed page puts them; a row a deal, two digit boxes a count, a tick box a seat for
    last in), for tests that need no tournament."""
    from scoring.sheet_reading.page import SHEET_MM, STANDARD_MARKERS, STANDARD_QR

    row = min(9.0, 170.0 / deals)
    column = (SHEET_MM[0] - 18.0 - 14.0) / seats
    digit = min(7.0, row - 1.4)
    if column < 17.5 + 6.2 * order_needed:
        raise ValueError(f"no room for the boxes of {seats} seats")
    boxes: list[Box] = []
    for deal in range(1, deals + 1):
        top = 45.0 + (deal - 1) * row + (row - digit) / 2
        for seat in range(1, seats + 1):
            x = 18.0 + (seat - 1) * column + 1.0
            for place in (0, 1):
                boxes.append(Box(deal, "won", seat, place, (x + place * 5.6, top, 5.0, digit)))
            x += 11.8
            if order_needed:
                boxes.append(Box(deal, "laid_down", seat, 0, (x, top, 5.0, digit)))
                x += 6.2
            boxes.append(Box(deal, "last_in", seat, None, (x, top + (digit - 4.0) / 2, 4.0, 4.0)))
        for place in (0, 1):
            x = SHEET_MM[0] - 13.0 + place * 5.6
            boxes.append(Box(deal, "left_over", None, place, (x, top, 5.0, digit)))
    return SheetLayout(
        width_mm=SHEET_MM[0],
        height_mm=SHEET_MM[1],
        seats=seats,
        deals=deals,
        last_in_ticks=True,
        laid_down=order_needed,
        markers=STANDARD_MARKERS,
        qr=STANDARD_QR,
        boxes=tuple(boxes),
    )


def font_hand(image: np.ndarray, text: str, rect: tuple[int, int, int, int]) -> None:
    """A digit in cv2's plain Hershey font, centred, three quarters of the box high."""
    x0, y0, x1, y1 = rect
    height = y1 - y0
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, int(height * 0.62), 2)
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    origin = ((x0 + x1 - w) // 2, (y0 + y1 + h) // 2)
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, INK, 2, cv2.LINE_AA)


def tick(image: np.ndarray, rect: tuple[int, int, int, int]) -> None:
    """A check mark across a tick box."""
    x0, y0, x1, y1 = rect
    w, h = x1 - x0, y1 - y0
    points = np.array(
        [
            (x0 + 0.15 * w, y0 + 0.55 * h),
            (x0 + 0.4 * w, y0 + 0.85 * h),
            (x0 + 0.9 * w, y0 + 0.1 * h),
        ]
    ).astype(np.int32)
    cv2.polylines(image, [points], False, INK, max(2, round(w / 12)), cv2.LINE_AA)


@functools.lru_cache(maxsize=16)
def _qr_modules(text: str) -> np.ndarray:
    return np.array(list(segno.make_qr(text, error="m").matrix_iter(border=4)), dtype=np.uint8)


def draw_sheet(
    layout: SheetLayout, text: str, origin: tuple[float, float] = (12.0, 12.0)
) -> np.ndarray:
    """A white paper (A4) with the sheet block drawn at ``origin`` mm: markers, QR code,
    the boxes' light lines and the rows' rules."""
    scale = PX_PER_MM
    paper = np.full((round(PAPER_MM[1] * scale), round(PAPER_MM[0] * scale)), 250, np.uint8)
    ox, oy = origin

    def px(x: float, y: float) -> tuple[int, int]:
        return round((ox + x) * scale), round((oy + y) * scale)

    for marker in layout.markers:
        x, y, w, _ = marker.rect
        cells = marker_cells(marker.id)
        cell = w / len(cells)
        for row, line in enumerate(cells):
            for column, black in enumerate(line):
                if black:
                    cv2.rectangle(
                        paper,
                        px(x + column * cell, y + row * cell),
                        px(x + (column + 1) * cell, y + (row + 1) * cell),
                        0,
                        -1,
                    )
    matrix = _qr_modules(text)
    x, y, w, _ = layout.qr
    size = round(w * scale)
    modules = cv2.resize((1 - matrix) * 250, (size, size), interpolation=cv2.INTER_NEAREST)
    left, top = px(x, y)
    paper[top : top + size, left : left + size] = modules
    rows = sorted({box.rect[1] for box in layout.boxes if box.field == "won"})
    for box in layout.boxes:
        bx, by, bw, bh = box.rect
        cv2.rectangle(paper, px(bx, by), px(bx + bw, by + bh), LINE, 1)
    for top_mm in rows:
        cv2.line(paper, px(0, top_mm - 1.0), px(layout.width_mm, top_mm - 1.0), 200, 1)
    return paper


def fill(
    image: np.ndarray,
    layout: SheetLayout,
    deals: Sequence[DealReading],
    *,
    px_per_mm: float = PX_PER_MM,
    origin: tuple[float, float] = (12.0, 12.0),
    hand: Hand = font_hand,
    ticker: Callable[[np.ndarray, tuple[int, int, int, int]], None] | None = None,
    left_aligned: bool = False,
    padded: bool = False,
) -> None:
    """Write ``deals`` into the boxes of the sheet drawn on ``image``: numbers right-aligned
    in their boxes (``left_aligned``: a one-digit number in the left box; ``padded``: with
    a leading 0, as the printed sheet asks), a tick for last
    in (``ticker`` draws it), each seat's place in the lying-down order."""
    ticker = ticker or tick
    ox, oy = origin
    by_cell: dict[tuple[int, str, int | None], list] = {}
    for box in layout.boxes:
        by_cell.setdefault((box.deal, box.field, box.seat), []).append(box)

    def rect_px(rect: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        x, y, w, h = rect
        return (
            round((ox + x) * px_per_mm),
            round((oy + y) * px_per_mm),
            round((ox + x + w) * px_per_mm),
            round((oy + y + h) * px_per_mm),
        )

    def write(key: tuple[int, str, int | None], value: int | None) -> None:
        if value is None or key not in by_cell:
            return
        boxes = sorted(by_cell[key], key=lambda b: b.digit or 0)
        text = str(value).zfill(len(boxes)) if padded else str(value)
        start = 0 if left_aligned else len(boxes) - len(text)
        for box, char in zip(boxes[start:], text, strict=False):
            hand(image, char, rect_px(box.rect))

    for number, deal in enumerate(deals, start=1):
        for seat, won in enumerate(deal.won, start=1):
            write((number, "won", seat), won)
        write((number, "left_over", None), deal.left_over)
        if deal.last_in is not None:
            if layout.last_in_ticks:
                for box in by_cell.get((number, "last_in", deal.last_in), []):
                    ticker(image, rect_px(box.rect))
            else:
                write((number, "last_in", None), deal.last_in)
        for place, seat in enumerate(deal.laid_down or (), start=1):
            write((number, "laid_down", seat), place)


def photograph(
    paper: np.ndarray,
    *,
    rotate: float = 0,
    perspective: float = 0,
    blur: float = 0,
    dark: bool = False,
    crop: tuple[float, float, float, float] | None = None,
    seed: int = 0,
    long_side: int = 2000,
    quality: int = 85,
) -> bytes:
    """A JPEG of ``paper`` lying on a table: turned by ``rotate`` degrees, seen at a slant
    (``perspective`` 0..1), blurred by ``blur`` pixels, lit unevenly, ``dark`` as in a dim
    room, and cut to ``crop`` (left, top, right, bottom as fractions of the frame)."""
    rng = np.random.default_rng(seed)
    h, w = paper.shape
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    # The slant: the far edge shrinks as a camera held at an angle sees it.
    squeeze = perspective * 0.18 * w
    tilted = corners + np.array([[squeeze, 0], [-squeeze, 0], [0, 0], [0, 0]])
    tilted += rng.normal(0, 0.01 * w * (perspective + 0.2), tilted.shape)
    angle = np.deg2rad(rotate)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = (tilted - [w / 2, h / 2]) @ turn.T
    span = placed.max(axis=0) - placed.min(axis=0)
    frame = (
        (long_side, round(long_side * 0.75))
        if span[0] > span[1]
        else (round(long_side * 0.75), long_side)
    )
    fit = 0.9 * min(frame[0] / span[0], frame[1] / span[1])
    placed = placed * fit + [frame[0] / 2, frame[1] / 2]
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), placed.astype(np.float32))
    photo = cv2.warpPerspective(paper, homography, frame, flags=cv2.INTER_LINEAR, borderValue=70)
    across = np.linspace(rng.uniform(0.72, 0.85), 1.0, frame[0], dtype=np.float32)[None, :]
    down = np.linspace(1.0, rng.uniform(0.85, 1.0), frame[1], dtype=np.float32)[:, None]
    light = across * down * (0.12 if dark else 1.0)
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    noise = np.empty(photo.shape, np.float32)
    cv2.randn(noise, 0.0, 2.0)
    out = cv2.convertScaleAbs(cv2.add(cv2.multiply(photo, light, dtype=cv2.CV_32F), noise))
    if crop is not None:
        left, top, right, bottom = crop
        out = out[
            round(top * frame[1]) : round(bottom * frame[1]),
            round(left * frame[0]) : round(right * frame[0]),
        ]
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def synthetic_photo(
    layout: SheetLayout,
    identity: SheetIdentity,
    entry_url: str,
    deals: Sequence[DealReading],
    *,
    rotate: float = 0,
    perspective: float = 0,
    blur: float = 0,
    dark: bool = False,
    crop: tuple[float, float, float, float] | None = None,
    hand: str | Hand = "font",
    seed: int = 0,
) -> bytes:
    """JPEG bytes of ``layout``'s sheet for ``identity`` filled with ``deals`` and
    photographed (``photograph``'s arguments)."""
    paper = draw_sheet(layout, qr_text(entry_url, identity))
    fill(paper, layout, deals, hand=font_hand if hand == "font" else hand)  # type: ignore[arg-type]
    return photograph(
        paper, rotate=rotate, perspective=perspective, blur=blur, dark=dark, crop=crop, seed=seed
    )
