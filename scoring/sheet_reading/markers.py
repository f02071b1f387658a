"""The four corner markers of a printed sheet, as bits, so printing needs no OpenCV.

A *marker* is an ArUco square of the 4×4 dictionary with 50 ids (``DICT_4X4_50``): a black
border one cell wide around 4×4 cells, where a 1 bit is a white cell. Id 0 sits at the top
left of the sheet, 1 top right, 2 bottom right, 3 bottom left, so the reader knows which
way up the photo is. The patterns are copied here (and checked against OpenCV's dictionary
by a test) because the printed page draws them as SVG and must not import OpenCV.
"""

# Rows top to bottom, "1" = white. Width in cells with the border: MARKER_CELLS.
MARKER_BITS: dict[int, tuple[str, str, str, str]] = {
    0: ("1011", "0101", "0011", "0010"),
    1: ("0000", "1111", "1001", "1010"),
    2: ("0011", "0011", "0010", "1101"),
    3: ("1001", "1001", "0100", "0110"),
}
MARKER_CELLS = 6  # 4 bits and a black border cell each side


def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The marker as MARKER_CELLS × MARKER_CELLS cells, True for black, border included."""
    bits = MARKER_BITS[marker_id]
    edge = (True,) * MARKER_CELLS
    inner = tuple((True, *(bit == "0" for bit in row), True) for row in bits)
    return (edge, *inner, edge)


def marker_svg(marker_id: int, rect: tuple[float, float, float, float] | None = None) -> str:
    """The marker as an SVG drawing one unit a cell: sized by its container, or placed at
    ``rect`` (x, y, width, height in the enclosing SVG's units) when it is drawn inside
    another SVG.

    Black cells are drawn as one path of unit squares on a white ground, so the quiet
    white inside the border prints white even where the page is shaded.
    """
    squares = "".join(
        f"M{x} {y}h1v1h-1z"
        for y, row in enumerate(marker_cells(marker_id))
        for x, black in enumerate(row)
        if black
    )
    size = MARKER_CELLS
    place = ""
    if rect is not None:
        x, y, width, height = rect
        place = f'x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" '
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {place}viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" aria-hidden="true" data-marker="{marker_id}">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{squares}" fill="#000"/></svg>'
    )
