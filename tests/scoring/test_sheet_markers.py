"""The corner markers printed as SVG are OpenCV's ArUco markers, bit for bit."""

import cv2
import pytest

from scoring.sheet_reading.markers import MARKER_BITS, MARKER_CELLS, marker_cells, marker_svg


@pytest.mark.parametrize("marker_id", [0, 1, 2, 3])
def test_marker_cells_equal_opencvs_dictionary(marker_id):
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, MARKER_CELLS, borderBits=1)
    expected = tuple(tuple(bool(value == 0) for value in row) for row in image)
    assert marker_cells(marker_id) == expected


def test_the_four_markers_differ():
    assert len({MARKER_BITS[i] for i in range(4)}) == 4


def test_svg_draws_one_square_per_black_cell():
    cells = marker_cells(2)
    black = sum(cell for row in cells for cell in row)
    assert marker_svg(2).count("h1v1h-1z") == black
