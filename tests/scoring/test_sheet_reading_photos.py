"""Reading photos of printed sheets: the page found and straightened whichever way it lies,
the boxes read, and every photo that cannot be read refused with the reason named."""

import struct
import subprocess
import sys

import cv2
import numpy as np
import pytest

from scoring.sheet_reading import page, reader
from scoring.sheet_reading.boxes import box_crop, tick_probability, tick_ratio
from scoring.sheet_reading.decode import DealReading, SheetRules
from scoring.sheet_reading.digits import BLANK, classify, features
from scoring.sheet_reading.identity import SheetIdentity
from tests.photos import draw_sheet, example_layout, font_hand, photograph, synthetic_photo

IDENTITY = SheetIdentity("red-lion-open", 3, 5)
ENTRY = "https://scores.example.org/t/RL7Q/"
LAYOUT = example_layout(4, 8, order_needed=True)
RULES = SheetRules(seats=4, deals=8, order_needed=True, absent=(frozenset(),) * 8)
CAPS = {"max_bytes": 20_000_000, "max_pixels": 40_000_000}
DEALS = [
    DealReading((10, 8, 6, 14), 2, 14, (3, 1, 4)),
    DealReading((20, 0, 12, 16), 4, 4, (2, 1, 3)),
    DealReading((2, 24, 8, 12), 1, 6, (4, 2, 3)),
    DealReading((14, 14, 4, 2), 3, 18, (1, 4, 2)),
    DealReading((6, 30, 10, 4), 2, 2, (3, 4, 1)),
    DealReading((None,) * 4, None, None, None),
    DealReading((None,) * 4, None, None, None),
    DealReading((None,) * 4, None, None, None),
]


def located(data: bytes) -> reader.Located:
    found = reader.locate(data, **CAPS)
    assert isinstance(found, reader.Located), found
    return found


def corner_error_mm(found: reader.Located) -> float:
    """How far, in mm, the markers' corners land from where the layout prints them."""
    worst = 0.0
    for marker in LAYOUT.markers:
        x, y, w, h = marker.rect
        expected = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        corners = np.asarray(found.markers[marker.id], dtype=np.float64)[None]
        mapped = cv2.perspectiveTransform(corners, found.homography)[0] / found.px_per_mm
        worst = max(worst, float(np.abs(mapped - expected).max()))
    return worst


@pytest.mark.parametrize(
    ("rotate", "perspective"),
    [(0, 0), (90, 0), (180, 0), (270, 0.2), (17, 0.4), (-25, 0.3), (200, 0.5)],
)
def test_the_markers_are_found_and_the_page_straightened_whichever_way_it_lies(rotate, perspective):
    data = synthetic_photo(
        LAYOUT, IDENTITY, ENTRY, DEALS, rotate=rotate, perspective=perspective, seed=abs(rotate)
    )
    found = located(data)
    assert found.identity == IDENTITY
    assert corner_error_mm(found) < 0.5


@pytest.mark.parametrize(("rotate", "perspective", "blur"), [(8, 0.3, 0.8), (183, 0.1, 0)])
def test_a_sheet_written_in_a_plain_hand_reads_back_as_written(rotate, perspective, blur):
    data = synthetic_photo(
        LAYOUT, IDENTITY, ENTRY, DEALS, rotate=rotate, perspective=perspective, blur=blur
    )
    reading = reader.read(located(data), LAYOUT, RULES)
    assert list(reading.deals) == DEALS
    assert reading.doubtful == ()
    shaped = reader.as_json(reading)
    assert (shaped["tournament"], shaped["round"], shaped["table"]) == ("red-lion-open", 3, 5)
    assert shaped["deals"][0] == {
        "deal": 1,
        "won": [10, 8, 6, 14],
        "last_in": 2,
        "left_over": 14,
        "laid_down": [3, 1, 4],
    }
    assert shaped["deals"][6] == {
        "deal": 7,
        "won": [None] * 4,
        "last_in": None,
        "left_over": None,
        "laid_down": None,
    }
    assert shaped["doubtful"] == []


def test_a_crop_is_the_straightened_photo_of_the_cell():
    found = located(synthetic_photo(LAYOUT, IDENTITY, ENTRY, DEALS, rotate=90))
    box = next(b for b in LAYOUT.boxes if (b.deal, b.field, b.seat, b.digit) == (1, "won", 1, 0))
    png = reader.crop(found, box.rect, scale=10)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image.shape == (round(box.rect[3] * 10), round(box.rect[2] * 10))
    # The tens of 10 is written in that box: some ink, some paper.
    assert image.min() < 120 < image.max()


def test_the_model_reads_digits_in_a_font_and_tells_a_blank_box():
    crops = []
    for digit in [*range(10), None]:
        box = np.full((56, 40), 235, np.uint8)
        if digit is not None:
            font_hand(box, str(digit), (0, 0, 40, 56))
        crops.append(features(box))
    assert list(classify(crops).argmax(axis=1)) == [*range(10), BLANK]


def test_a_ticked_box_is_told_from_an_empty_one():
    found = located(synthetic_photo(LAYOUT, IDENTITY, ENTRY, DEALS, rotate=5))
    ticked = {
        b.seat: tick_probability(tick_ratio(box_crop(found.page, b.rect, found.px_per_mm, 0.5)))
        for b in LAYOUT.boxes
        if b.deal == 1 and b.field == "last_in"
    }
    assert ticked[2] > 0.9
    assert max(ticked[1], ticked[3], ticked[4]) < 0.1


# The refusals: each names what is wrong.


def refusal(data: bytes, **caps: int) -> reader.PhotoRefusal:
    found = reader.locate(data, **{**CAPS, **caps})
    assert isinstance(found, reader.PhotoRefusal), found
    assert found.words
    return found


def test_a_photo_of_something_else_is_not_our_sheet():
    paper = np.full((1400, 1000), 240, np.uint8)
    cv2.putText(paper, "SHOPPING: milk, eggs", (80, 300), cv2.FONT_HERSHEY_SIMPLEX, 2, 20, 4)
    assert refusal(photograph(paper)).reason == "not_our_sheet"


def test_a_sheet_whose_qr_code_names_no_sheet_is_not_ours():
    paper = draw_sheet(LAYOUT, "https://scores.example.org/t/RL7Q/")
    found = refusal(photograph(paper))
    assert found.reason == "not_our_sheet"
    assert "QR code" in found.words


def test_a_blurred_photo_is_refused_as_blurred():
    assert refusal(synthetic_photo(LAYOUT, IDENTITY, ENTRY, DEALS, blur=6)).reason == "blurred"


def test_a_dark_photo_is_refused_as_dark():
    assert refusal(synthetic_photo(LAYOUT, IDENTITY, ENTRY, DEALS, dark=True)).reason == "dark"


@pytest.mark.parametrize("crop", [(0, 0, 1, 0.75), (0.2, 0, 1, 1)])
def test_a_photo_without_a_corner_is_cut_off_and_names_the_corner(crop):
    found = refusal(synthetic_photo(LAYOUT, IDENTITY, ENTRY, DEALS, crop=crop))
    assert found.reason == "cut_off"
    assert "corner" in found.words


def test_heic_is_refused_in_words():
    heic = struct.pack(">I", 24) + b"ftypheic" + b"\0" * 100
    found = refusal(heic)
    assert found.reason == "unreadable_file"
    assert "HEIC" in found.words
    assert "JPEG" in found.words


def test_a_file_that_is_no_photo_is_unreadable():
    assert refusal(b"%PDF-1.7 not a photo").reason == "unreadable_file"


@pytest.mark.parametrize(
    "cut",
    [
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0",  # a PNG cut short in its size
        b"\xff\xd8\xff\xe1\0",  # a JPEG cut short in its first segment
        b"\xff\xd8\xff\xe1\0\x20Exif\0\0MM\0\x2a\0\0",  # ...and in its EXIF
    ],
)
def test_a_file_cut_short_in_its_header_is_unreadable_not_an_error(cut):
    assert refusal(cut).reason == "unreadable_file"


def test_a_file_over_the_byte_cap_is_too_large_before_it_is_opened():
    assert refusal(b"\xff\xd8\xff" + b"\0" * 2000, max_bytes=1000).reason == "too_large"


def test_a_png_over_the_pixel_cap_is_refused_from_its_header_alone():
    # The header says 30000 x 30000; the pixels are never decoded (there are none).
    header = (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 30000, 30000)
    )
    assert refusal(header + b"\0" * 64).reason == "too_large"


def test_a_jpeg_over_the_pixel_cap_is_read_at_a_smaller_size():
    data = synthetic_photo(LAYOUT, IDENTITY, ENTRY, DEALS)
    image = page.open_photo(data, max_bytes=CAPS["max_bytes"], max_pixels=1_000_000)
    assert not isinstance(image, reader.PhotoRefusal)
    assert image.size <= 1_000_000
    assert isinstance(
        reader.locate(data, max_bytes=CAPS["max_bytes"], max_pixels=1_000_000), reader.Located
    )


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF segment giving its orientation."""
    tiff = b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHII", 0x0112, 3, 1, orientation) + struct.pack("<I", 0)
    body = b"Exif\0\0" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def test_the_cameras_exif_orientation_is_applied():
    image = np.zeros((30, 60), np.uint8)
    image[:, :10] = 255  # a white band at the left as stored
    ok, jpeg = cv2.imencode(".jpg", image)
    assert ok
    # 6: the camera was turned; the picture is shown turned a quarter clockwise.
    upright = page.open_photo(with_orientation(jpeg.tobytes(), 6), **CAPS)
    assert not isinstance(upright, reader.PhotoRefusal)
    assert upright.shape == (60, 30)
    assert upright[:10].mean() > 200  # the band is now at the top


def test_importing_the_reader_loads_no_opencv():
    code = "import sys, scoring.sheet_reading.reader; print('cv2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_reader_finds_the_markers_and_qr_code_where_printing_puts_them():
    # The page is straightened and its QR read before anyone knows which table's layout it
    # is, by the geometry every printed sheet shares.
    from tournament.printing.layout import QR_RECT, SHEET_HEIGHT_MM, SHEET_WIDTH_MM, markers

    assert page.SHEET_MM == (SHEET_WIDTH_MM, SHEET_HEIGHT_MM)
    assert markers() == page.STANDARD_MARKERS
    assert page.STANDARD_QR == QR_RECT
