"""Digits written by hands of our own, for the photo benchmark (bench/photo.py).

Nothing here comes from the digit model's training data (scikit-learn's scans and cv2's
Hershey fonts): each digit is drawn from pen strokes through control points in a unit box,
in one of several forms (a 1 with or without a flag and a foot, an open or a closed 4, a
7 with or without a bar, a 9 with a straight or a curved tail...), and a *hand* writes
them its own way: its slant, size, width, pen, how shaky and how sloppily placed, which
forms it prefers, and whether it ticks or crosses a box.

Points are (x, y) with y downwards, in a box of width 1 and height 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

Stroke = tuple[tuple[float, float], ...]

# Each digit's forms; a form is its strokes, each drawn as a smooth curve through its
# points (a corner is a point given twice).
FORMS: dict[str, tuple[tuple[Stroke, ...], ...]] = {
    "0": (
        (
            (
                (0.5, 0.0),
                (0.12, 0.2),
                (0.05, 0.55),
                (0.25, 0.95),
                (0.6, 1.0),
                (0.92, 0.7),
                (0.9, 0.25),
                (0.62, 0.02),
                (0.45, 0.05),
            ),
        ),
        (
            (
                (0.55, 0.05),
                (0.2, 0.15),
                (0.15, 0.6),
                (0.4, 1.0),
                (0.8, 0.85),
                (0.85, 0.3),
                (0.5, 0.0),
            ),
        ),
    ),
    "1": (
        (((0.55, 0.0), (0.52, 0.5), (0.5, 1.0)),),
        (((0.25, 0.25), (0.58, 0.0), (0.58, 0.0), (0.56, 0.5), (0.55, 1.0)),),
        (
            ((0.25, 0.25), (0.55, 0.0), (0.55, 0.0), (0.55, 1.0)),
            ((0.25, 1.0), (0.85, 1.0)),
        ),
    ),
    "2": (
        (
            (
                (0.1, 0.25),
                (0.45, 0.0),
                (0.85, 0.2),
                (0.7, 0.55),
                (0.1, 1.0),
                (0.1, 1.0),
                (0.95, 0.98),
            ),
        ),
        (
            (
                (0.15, 0.2),
                (0.5, 0.0),
                (0.85, 0.25),
                (0.55, 0.65),
                (0.15, 0.95),
                (0.3, 0.8),
                (0.5, 0.95),
                (0.9, 0.95),
            ),
        ),
    ),
    "3": (
        (
            (
                (0.15, 0.12),
                (0.5, 0.0),
                (0.85, 0.2),
                (0.45, 0.47),
                (0.9, 0.7),
                (0.55, 1.0),
                (0.1, 0.88),
            ),
        ),
        (
            (
                (0.15, 0.02),
                (0.85, 0.02),
                (0.85, 0.02),
                (0.4, 0.42),
                (0.85, 0.6),
                (0.7, 0.95),
                (0.15, 0.9),
            ),
        ),
    ),
    "4": (
        (
            ((0.6, 0.0), (0.1, 0.68), (0.1, 0.68), (0.95, 0.68)),
            ((0.7, 0.3), (0.68, 1.0)),
        ),
        (
            ((0.2, 0.0), (0.12, 0.6), (0.12, 0.6), (0.9, 0.6)),
            ((0.72, 0.05), (0.7, 1.0)),
        ),
    ),
    "5": (
        (
            ((0.85, 0.02), (0.25, 0.02)),
            (
                (0.25, 0.02),
                (0.2, 0.45),
                (0.2, 0.45),
                (0.55, 0.38),
                (0.9, 0.65),
                (0.6, 1.0),
                (0.1, 0.88),
            ),
        ),
        (
            (
                (0.8, 0.0),
                (0.3, 0.0),
                (0.3, 0.0),
                (0.22, 0.42),
                (0.6, 0.4),
                (0.88, 0.7),
                (0.5, 1.0),
                (0.15, 0.85),
            ),
        ),
    ),
    "6": (
        (
            (
                (0.75, 0.0),
                (0.3, 0.3),
                (0.12, 0.7),
                (0.45, 1.0),
                (0.85, 0.75),
                (0.55, 0.45),
                (0.18, 0.65),
            ),
        ),
        (
            (
                (0.7, 0.05),
                (0.35, 0.15),
                (0.18, 0.55),
                (0.3, 0.95),
                (0.75, 0.9),
                (0.8, 0.6),
                (0.45, 0.5),
                (0.2, 0.7),
            ),
        ),
    ),
    "7": (
        (((0.08, 0.02), (0.92, 0.02), (0.92, 0.02), (0.35, 1.0)),),
        (
            ((0.08, 0.02), (0.92, 0.02), (0.92, 0.02), (0.4, 1.0)),
            ((0.35, 0.5), (0.85, 0.5)),
        ),
        (((0.1, 0.1), (0.9, 0.0), (0.9, 0.0), (0.6, 0.4), (0.45, 1.0)),),
    ),
    "8": (
        (
            (
                (0.55, 0.48),
                (0.85, 0.2),
                (0.5, 0.0),
                (0.15, 0.2),
                (0.5, 0.48),
                (0.9, 0.75),
                (0.5, 1.0),
                (0.1, 0.75),
                (0.5, 0.48),
            ),
        ),
        (
            ((0.5, 0.0), (0.2, 0.22), (0.5, 0.45), (0.8, 0.22), (0.5, 0.0)),
            ((0.5, 0.45), (0.12, 0.72), (0.5, 1.0), (0.88, 0.72), (0.5, 0.45)),
        ),
    ),
    "9": (
        (
            (
                (0.85, 0.3),
                (0.5, 0.5),
                (0.15, 0.3),
                (0.5, 0.0),
                (0.85, 0.25),
                (0.85, 0.25),
                (0.8, 1.0),
            ),
        ),
        (
            (
                (0.85, 0.25),
                (0.5, 0.5),
                (0.15, 0.28),
                (0.5, 0.0),
                (0.85, 0.22),
                (0.75, 0.7),
                (0.4, 1.0),
                (0.15, 0.9),
            ),
        ),
    ),
}


@dataclass(frozen=True)
class HandStyle:
    """How one person writes."""

    name: str
    slant: float  # shear: positive leans right
    height: float  # of the box's height
    width: float  # of the box's width
    pen_mm: float
    shake: float  # jitter of each control point, of the box
    sloppy: float  # how far from the box's centre a digit may land, of the box
    ink: int  # grey of the pen on paper
    forms: dict[str, int] = field(default_factory=dict)  # preferred form a digit; else any
    crosses: bool = False  # last in: a cross, not a tick
    left_aligned: bool = False  # a one-digit number in the left box
    padded: bool = False  # a one-digit number with a leading 0, as the sheet asks


HANDS = (
    HandStyle(
        "neat", 0.05, 0.72, 0.62, 0.45, 0.012, 0.05, 30, {"1": 0, "4": 0, "7": 0}, padded=True
    ),
    HandStyle("slanted", 0.32, 0.8, 0.6, 0.5, 0.02, 0.08, 45, {"1": 1, "4": 1, "9": 1}),
    HandStyle("small", -0.05, 0.52, 0.5, 0.35, 0.015, 0.12, 60, {"1": 2, "7": 1}, padded=True),
    HandStyle(
        "felt pen",
        0.12,
        0.82,
        0.72,
        0.85,
        0.02,
        0.06,
        20,
        {"4": 1, "7": 2},
        crosses=True,
        padded=True,
    ),
    HandStyle("hurried", 0.22, 0.8, 0.68, 0.55, 0.03, 0.07, 50, {}, left_aligned=True),
    HandStyle("backhand", -0.2, 0.75, 0.6, 0.5, 0.025, 0.1, 70, {"1": 1, "9": 0}, crosses=True),
)


def _curve(points: np.ndarray, steps: int = 10) -> np.ndarray:
    """A Catmull–Rom curve through ``points`` (a repeated point is a sharp corner)."""
    if len(points) < 3:
        return np.linspace(points[0], points[-1], steps)
    padded = np.vstack([points[0], points, points[-1]])
    out = []
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1], padded[i], padded[i + 1], padded[i + 2]
        for t in np.linspace(0, 1, steps, endpoint=False):
            out.append(
                0.5
                * (
                    2 * p1
                    + (-p0 + p2) * t
                    + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t * t
                    + (-p0 + 3 * p1 - 3 * p2 + p3) * t**3
                )
            )
    out.append(padded[-2])
    return np.array(out)


class Hand:
    """A hand writing with its own random habits: a callable for tests/photos.py ``fill``."""

    def __init__(self, style: HandStyle, px_per_mm: float, seed: int) -> None:
        self.style = style
        self.px_per_mm = px_per_mm
        self.rng = np.random.default_rng(seed)

    def __call__(self, image: np.ndarray, text: str, rect: tuple[int, int, int, int]) -> None:
        style, rng = self.style, self.rng
        x0, y0, x1, y1 = rect
        bw, bh = x1 - x0, y1 - y0
        forms = FORMS[text]
        preferred = style.forms.get(text)
        if preferred is not None and rng.random() < 0.85:
            form = forms[min(preferred, len(forms) - 1)]
        else:
            form = forms[int(rng.integers(len(forms)))]
        height = bh * style.height * rng.uniform(0.9, 1.1)
        width = min(bw * style.width * rng.uniform(0.9, 1.1), height * 0.85)
        slant = style.slant + rng.normal(0, 0.05)
        cx = x0 + bw / 2 + rng.normal(0, style.sloppy) * bw
        cy = y0 + bh / 2 + rng.normal(0, style.sloppy) * bh
        pen = max(1, round(style.pen_mm * self.px_per_mm * rng.uniform(0.85, 1.15)))
        for stroke in form:
            points = np.array(stroke, dtype=np.float64)
            points = points + rng.normal(0, style.shake, points.shape)
            curve = _curve(points)
            xs = (curve[:, 0] - 0.5) * width - (curve[:, 1] - 0.5) * height * slant
            ys = (curve[:, 1] - 0.5) * height
            line = np.stack([cx + xs, cy + ys], axis=1)
            cv2.polylines(
                image, [np.round(line * 4).astype(np.int32)], False, style.ink, pen, cv2.LINE_AA, 2
            )

    def tick(self, image: np.ndarray, rect: tuple[int, int, int, int]) -> None:
        """Last in: a tick, or a cross, across the box (and sometimes past its lines)."""
        rng = self.rng
        x0, y0, x1, y1 = rect
        w, h = x1 - x0, y1 - y0
        pen = max(1, round(self.style.pen_mm * self.px_per_mm))
        jitter = rng.normal(0, 0.06, (3, 2)) * [w, h]
        if self.style.crosses:
            strokes = [
                [(0.15, 0.15), (0.85, 0.85)],
                [(0.85, 0.15), (0.15, 0.85)],
            ]
        else:
            strokes = [[(0.1, 0.55), (0.4, 0.9), (1.05, -0.1)]]
        for stroke in strokes:
            pts = np.array(stroke) * [w, h] + [x0, y0] + jitter[: len(stroke)]
            cv2.polylines(
                image,
                [np.round(pts * 4).astype(np.int32)],
                False,
                self.style.ink,
                pen,
                cv2.LINE_AA,
                2,
            )
