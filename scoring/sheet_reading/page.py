"""Finding the sheet in a photo: the file opened safely, the page straightened, its QR read.

Terms:

- *photo*: the bytes a scorer uploaded: JPEG, PNG or WebP. Its size in pixels is read from
  the file's header before any pixel is decoded; a JPEG larger than the cap is decoded at
  a half, a quarter or an eighth of its size (the JPEG decoder does that without building
  the full image), any other file larger than the cap is refused. The camera's EXIF
  orientation is applied.
- *markers*: the four ArUco squares printed at the sheet's corners (``markers``), ids 0–3
  clockwise from the top left, so the reader knows which way up the page is.
- *rectified page*: the sheet redrawn flat at ``PX_PER_MM`` pixels a millimetre by the
  homography from the markers' 16 corners to their printed places; every box is then at
  its layout's rectangle.
- *blur*: how far the markers' edges are spread, in the sheet's millimetres (the sigma of
  the Gaussian blur that makes an edge that steep for its black-to-white contrast), so it
  measures focus and not light; the squares print the same on every sheet, so it does not
  depend on what is written.

Every way this fails is a ``PhotoRefusal`` naming what to do.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.sheet_reading.identity import SheetIdentity, identity_from_qr
from scoring.sheet_reading.layout import Marker
from scoring.sheet_reading.refusals import PhotoRefusal

PX_PER_MM = 8
# Markers are looked for in a copy at most this long on its long side: enough for a
# marker of 10 mm to span 45 pixels on a page that fills the frame, and quick.
DETECT_SIDE = 1400
# Chosen on bench/photo.py: a photo whose edges are spread wider than this (the sigma of
# a Gaussian blur, in the sheet's millimetres) is refused as blurred: the benchmark read
# the photos under it at the targets, and fell apart past it.
BLUR_MM_AT_MOST = 0.3
# A sheet whose markers are found but whose QR code cannot be read is blurred past this
# (the benchmark's QR codes began to fail between 0.2 and 0.3 mm), not someone else's sheet.
QR_BLUR_MM = 0.2
# A photo without markers whose sharpest edges spread wider than this share of its long
# side is too blurred to find them: the tests' photos spread 0.0006 sharp, 0.0016 at a
# blur of 3 pixels (markers still found) and 0.002 at 4 (markers lost).
SPREAD_AT_MOST = 0.0018
# Paper darker than this (of 255), or markers with less contrast, is too dark to read.
PAPER_AT_LEAST = 60.0
CONTRAST_AT_LEAST = 40.0

# Grey pixels as OpenCV returns them (its stubs type every array loosely).
Grey = NDArray[Any]

# Where the printed sheet puts its markers and its QR code: the same on every sheet (the
# block is one size on A4 and Letter), so the page is found and its QR read before anyone
# knows which table's layout it is. The layout's own markers rectify it again if it ever
# moves them (``reader.read``); a test holds these to printing's layout
# (tests/scoring/test_sheet_reading_photos.py), which this package may not import.
SHEET_MM = (186.0, 255.0)
MARKER_MM = 10.0
STANDARD_MARKERS = tuple(
    Marker(marker_id, (x, y, MARKER_MM, MARKER_MM))
    for marker_id, (x, y) in enumerate(
        (
            (0.0, 0.0),
            (SHEET_MM[0] - MARKER_MM, 0.0),
            (SHEET_MM[0] - MARKER_MM, SHEET_MM[1] - MARKER_MM),
            (0.0, SHEET_MM[1] - MARKER_MM),
        )
    )
)
QR_MM = 28.0
STANDARD_QR = (SHEET_MM[0] - MARKER_MM - 2.0 - QR_MM, 0.0, QR_MM, QR_MM)

_TAKE_AGAIN = "Take the photo again"


@dataclass(frozen=True)
class FoundPage:
    """A sheet found in a photo: its rectified page, the homography from the photo to it,
    and the sheet its QR code names."""

    identity: SheetIdentity
    photo: Grey
    markers: dict[int, NDArray[np.float32]]  # each marker's corners in the photo
    page: Grey
    homography: NDArray[np.float64]
    blur_mm: float


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """The format (``jpeg``, ``png``, ``webp``) and size of a photo from its header, or None
    when it is none of these or its header is broken (a file cut short included)."""
    try:
        return _header_size(data)
    except struct.error:
        return None


def _header_size(data: bytes) -> tuple[str, int, int] | None:
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_size(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return "jpeg", width, height
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return "webp", width, height
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return "webp", width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return "webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _is_heif(data: bytes) -> bool:
    return data[4:8] == b"ftyp" and data[8:12] in (
        b"heic",
        b"heix",
        b"hevc",
        b"hevx",
        b"mif1",
        b"msf1",
        b"avif",
    )


def exif_orientation(data: bytes) -> int:
    """The EXIF orientation of a JPEG (1: as stored), from its APP1 segment."""
    try:
        return _app1_orientation(data)
    except struct.error:  # a file cut short in its headers: as stored
        return 1


def _app1_orientation(data: bytes) -> int:
    at = 2
    while at + 4 < len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker == 0xE1 and data[at + 4 : at + 10] == b"Exif\0\0":
            return _tiff_orientation(data[at + 10 : at + 2 + length])
        if marker in (0xDA, 0xD9):
            break
        at += 2 + length
    return 1


def _tiff_orientation(tiff: bytes) -> int:
    if tiff[:2] == b"II":
        order = "<"
    elif tiff[:2] == b"MM":
        order = ">"
    else:
        return 1
    try:
        first = struct.unpack(order + "I", tiff[4:8])[0]
        entries = struct.unpack(order + "H", tiff[first : first + 2])[0]
        for i in range(entries):
            at = first + 2 + 12 * i
            tag = struct.unpack(order + "H", tiff[at : at + 2])[0]
            if tag == 0x0112:
                value = int(struct.unpack(order + "H", tiff[at + 8 : at + 10])[0])
                return value if 1 <= value <= 8 else 1
    except struct.error:
        return 1
    return 1


def oriented(image: Grey, orientation: int) -> Grey:
    """The image as the camera held it (EXIF orientation 1–8 undone)."""
    if orientation in (2, 4, 5, 7):
        image = cv2.flip(image, 1 if orientation in (2, 7) else 0)
    turn = {3: cv2.ROTATE_180, 6: cv2.ROTATE_90_CLOCKWISE, 8: cv2.ROTATE_90_COUNTERCLOCKWISE}
    turn |= {5: cv2.ROTATE_90_CLOCKWISE, 7: cv2.ROTATE_90_CLOCKWISE}
    if orientation in (5, 7):
        image = cv2.flip(image, 0) if orientation == 5 else image
        image = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
        return cv2.flip(image, 0) if orientation == 5 else cv2.flip(image, 1)
    if orientation in turn:
        image = cv2.rotate(image, turn[orientation])
    return image


def open_photo(data: bytes, *, max_bytes: int, max_pixels: int) -> Grey | PhotoRefusal:
    """The photo as grey pixels the right way up, never decoding more than ``max_pixels``."""
    if len(data) > max_bytes:
        return PhotoRefusal(
            "too_large",
            f"The file is {len(data) / 1e6:.1f} MB, more than the {max_bytes / 1e6:.0f} MB a "
            "photo may be: send a smaller photo (a phone's ordinary photo is well under).",
        )
    if _is_heif(data):
        return PhotoRefusal(
            "unreadable_file",
            "This is a HEIC photo, which cannot be read here: send it as a JPEG (on an iPhone, "
            "Settings › Camera › Formats › Most Compatible, or share it as JPEG).",
        )
    found = image_size(data)
    if found is None:
        return PhotoRefusal(
            "unreadable_file",
            "This file is not a photo that can be read: send a JPEG, PNG or WebP photo of the "
            "score sheet.",
        )
    kind, width, height = found
    flags = cv2.IMREAD_GRAYSCALE | cv2.IMREAD_IGNORE_ORIENTATION
    if width * height > max_pixels:
        reduced = {2: cv2.IMREAD_REDUCED_GRAYSCALE_2, 4: cv2.IMREAD_REDUCED_GRAYSCALE_4}
        reduced[8] = cv2.IMREAD_REDUCED_GRAYSCALE_8
        factor = next((f for f in (2, 4, 8) if width * height / f / f <= max_pixels), None)
        if kind != "jpeg" or factor is None:
            return PhotoRefusal(
                "too_large",
                f"The photo is {width} × {height} pixels, more than can be read: send a "
                "smaller photo.",
            )
        flags = reduced[factor] | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    if image is None or image.size == 0:
        return PhotoRefusal(
            "unreadable_file",
            "The photo's file is damaged and cannot be read: take the photo again.",
        )
    if kind == "jpeg":
        image = oriented(image, exif_orientation(data))
    return image


def _detected(image: Grey) -> dict[int, NDArray[np.float32]]:
    """The corners of each of our markers found in the photo, in its pixels."""
    scale = min(1.0, DETECT_SIDE / max(image.shape))
    small = (
        image
        if scale == 1.0
        else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(small)
    found: dict[int, NDArray[np.float32]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, (int(i) for i in ids.ravel()), strict=True):
        points = quad.reshape(4, 2) / scale
        if scale < 1.0:
            # Found in the smaller copy; placed to a fraction of a pixel in the photo.
            points = cv2.cornerSubPix(
                image,
                points.astype(np.float32),
                (max(2, round(2 / scale)),) * 2,
                (-1, -1),
                (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05),
            )
        if 0 <= marker_id <= 3:
            area = cv2.contourArea(points.astype(np.float32))
            if marker_id not in found or area > cv2.contourArea(found[marker_id]):
                found[marker_id] = points.astype(np.float32)
    return found


def _qr(image: Grey) -> str | None:
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return text or None


def _qr_of(square: Grey) -> str | None:
    """The QR code in its square of the page: as it is, then sharpened, then larger, then
    in black and white (a soft focus or uneven light leaves its small modules grey)."""
    if not square.size:
        return None
    _, binary = cv2.threshold(square, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    tries = (
        lambda: square,
        lambda: cv2.addWeighted(square, 2.0, cv2.GaussianBlur(square, (0, 0), 2), -1.0, 0),
        lambda: cv2.resize(square, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC),
        lambda: binary,
    )
    for attempt in tries:
        text = _qr(attempt())
        if text is not None:
            return text
    return None


def _marker_quality(page: Grey, markers: tuple[Marker, ...]) -> tuple[float, float, float]:
    """The markers' blur (mm), their paper (white) level and their black-to-white contrast."""
    sharp, whites, blacks = [], [], []
    for marker in markers:
        x, y, w, h = (round(v * PX_PER_MM) for v in marker.rect)
        pad = PX_PER_MM
        patch = page[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad]
        inner = page[y : y + h, x : x + w].astype(np.float32)
        white = float(np.percentile(patch, 95))
        black = float(np.percentile(inner, 5))
        contrast = max(white - black, 1.0)
        gx = cv2.Sobel(patch.astype(np.float32), cv2.CV_32F, 1, 0) / 8
        gy = cv2.Sobel(patch.astype(np.float32), cv2.CV_32F, 0, 1) / 8
        steepest = max(float(np.percentile(np.hypot(gx, gy), 99.5)), 1e-6)
        # An edge blurred by a Gaussian of sigma s is at most contrast / (s sqrt(2 pi)) steep.
        sharp.append(contrast / (steepest * math.sqrt(2 * math.pi)) / PX_PER_MM)
        whites.append(white)
        blacks.append(black)
    return (
        float(np.median(sharp)),
        float(np.median(whites)),
        float(np.median(whites) - np.median(blacks)),
    )


def find_page(image: Grey) -> FoundPage | PhotoRefusal:
    """The sheet in ``image``: its markers, its rectified page, its QR code's sheet, its
    focus and light checked."""
    if float(np.percentile(image, 90)) < PAPER_AT_LEAST:
        return _dark()
    found = _detected(image)
    if len(found) < 4:
        return _without_markers(image, found)
    page, homography = rectified(image, found, STANDARD_MARKERS)
    blur_mm, paper, contrast = _marker_quality(page, STANDARD_MARKERS)
    if paper < PAPER_AT_LEAST or contrast < CONTRAST_AT_LEAST:
        return _dark()
    if blur_mm > BLUR_MM_AT_MOST:
        return _blurred()
    text = _qr_of(_qr_square(page)) or _qr(page) or _qr(image)
    if text is None and blur_mm > QR_BLUR_MM:
        return _blurred()
    if text is None:
        return PhotoRefusal(
            "not_our_sheet",
            "The sheet's QR code could not be read: photograph the whole sheet, flat, with the "
            "QR code in view and sharp.",
        )
    identity = identity_from_qr(text)
    if identity is None:
        return PhotoRefusal(
            "not_our_sheet",
            "This is not one of this tournament's printed score sheets: its QR code names no "
            "sheet. Print the round's sheets from the desk and photograph one of them.",
        )
    return FoundPage(identity, image, found, page, homography, blur_mm)


def rectified(
    image: Grey, found: dict[int, NDArray[np.float32]], markers: tuple[Marker, ...]
) -> tuple[Grey, NDArray[np.float64]]:
    """The sheet redrawn flat at ``PX_PER_MM`` by its markers' corners, and the homography
    from the photo's pixels to the page's."""
    source: list[NDArray[np.float32]] = []
    target: list[tuple[float, float]] = []
    for marker in markers:
        x, y, w, h = marker.rect
        source.extend(found[marker.id])
        target.extend([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    homography, _ = cv2.findHomography(
        np.array(source, dtype=np.float32), np.array(target, dtype=np.float32) * PX_PER_MM
    )
    width = max(x + w for x, _, w, _ in (m.rect for m in markers))
    height = max(y + h for _, y, _, h in (m.rect for m in markers))
    size = (round(width * PX_PER_MM), round(height * PX_PER_MM))
    page = cv2.warpPerspective(
        image, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return page, np.asarray(homography, dtype=np.float64)


def _qr_square(page: Grey) -> Grey:
    x, y, w, h = STANDARD_QR
    pad = 4
    top, left = max(0, round((y - pad) * PX_PER_MM)), max(0, round((x - pad) * PX_PER_MM))
    return page[top : round((y + h + pad) * PX_PER_MM), left : round((x + w + pad) * PX_PER_MM)]


def _edge_spread(image: Grey) -> float:
    """How far the photo's sharpest edges are spread, in its pixels (the sigma of the
    Gaussian blur that makes them that steep for the photo's contrast)."""
    grey = image.astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0) / 8
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1) / 8
    steepest = max(float(np.percentile(np.hypot(gx, gy), 99.9)), 1e-6)
    contrast = float(np.percentile(grey, 99) - np.percentile(grey, 1))
    return contrast / (steepest * math.sqrt(2 * math.pi))


def _without_markers(image: Grey, found: dict[int, NDArray[np.float32]]) -> PhotoRefusal:
    """Why fewer than four markers were found: blur, a corner cut off, or not our sheet."""
    scale = min(1.0, 1000 / max(image.shape))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if _edge_spread(small) > SPREAD_AT_MOST * max(small.shape):
        return _blurred()
    if found:
        corners = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}
        missing = ", ".join(corners[i] for i in range(4) if i not in found)
        return _cut_off(f"the corner squares at the {missing} are not in it")
    identity_text = _qr(small) or _qr(image)
    if identity_text is not None and identity_from_qr(identity_text) is not None:
        return _cut_off("the four corner squares are not in it")
    return PhotoRefusal(
        "not_our_sheet",
        "No printed score sheet was found in this photo: it has none of the four black "
        "corner squares our sheets carry. Photograph a sheet printed from the desk.",
    )


def _blurred() -> PhotoRefusal:
    return PhotoRefusal(
        "blurred",
        "The photo is too blurred to read the boxes: hold the phone still, let it focus on "
        "the sheet, and take the photo again.",
    )


def _cut_off(what: str) -> PhotoRefusal:
    return PhotoRefusal(
        "cut_off",
        f"The photo does not hold the whole sheet ({what}): {_TAKE_AGAIN.lower()} with all "
        "four corner squares in view.",
    )


def _dark() -> PhotoRefusal:
    return PhotoRefusal(
        "dark",
        "The photo is too dark to read: take it again in better light, or with the flash.",
    )
