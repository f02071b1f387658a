"""What one box of a photographed sheet holds: a digit 0–9 or nothing, with probabilities.

Terms:

- *crop*: the pixels inside one box of the rectified page (grey, paper light, ink dark),
  cut a little inside its printed lines.
- *ink*: how much darker than the paper a pixel is, 0 (paper) to 1 (a pen's full stroke),
  measured against the crop's own paper so that shade and light do not matter.
- *features*: what the model sees of a crop: its ink cut to the bounding box of the
  strokes, sheared upright, scaled to fit ``INNER`` pixels and centred by mass in a
  ``SIDE``-pixel square (the way handwritten-digit sets are normalised), plus four numbers
  about the ink as it sat in the box (how much, how tall, how wide, how far off centre)
  that tell a written box from a blank one with a speck or a stray line in it.
- *classes*: ``CLASSES``, the ten digits then ``BLANK``.

The model is a one-hidden-layer perceptron trained by ``train_digits`` (run as
``python -m scoring.sheet_reading.train_digits``) and stored beside this module as
``digits.npz``: weights only, read with ``allow_pickle=False``, nothing downloaded. Its
held-out figures are in ``digits.json``. Inference is numpy; cv2 is used here only to
find the strokes and resize them, and is imported by the modules that read photos alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

BLANK = 10
CLASSES = 11
SIDE = 16
INNER = 12
SCALARS = 4
FEATURES = SIDE * SIDE + SCALARS
MODEL_FILE = Path(__file__).with_name("digits.npz")

# Ink is measured against the paper, and a crop whose darkest pixel is barely darker
# than its paper is blank: dividing by at least this contrast (of 255) keeps a blank box's
# noise from being stretched into strokes.
MIN_CONTRAST = 60.0
# A pixel is a stroke's when its ink is past this; a blob of fewer than MIN_BLOB of the
# crop's pixels is a speck of dust or JPEG noise, not writing.
STROKE = 0.4
MIN_BLOB = 0.004
# A blob that touches the crop's edge and is this thin along it is a box line the crop
# caught, not a stroke.
LINE_THIN = 0.22
# A piece touching a side whose centre lies this close to it (of the width) came over
# from the next box.
NEIGHBOUR = 0.25
# Strokes are sheared upright by at most this (a slant of about 30 degrees).
MAX_SKEW = 0.6

Floats = NDArray[np.float32]


def ink_of(crop: NDArray[np.uint8]) -> Floats:
    """The crop's ink, 0 (paper) to 1, against the paper around each pixel: the paper is
    the crop's lightest shade nearby, so light falling unevenly across a box is not ink."""
    grey = crop.astype(np.float32)
    reach = max(3, min(crop.shape) // 3) | 1
    paper = cv2.dilate(grey, np.ones((reach, reach), np.uint8))
    paper = cv2.blur(paper, (reach, reach))
    darkness = paper - grey
    # The pen's darkness: the darkest 3x3 patch, so that one noisy pixel does not set it.
    contrast = max(float(cv2.blur(darkness, (3, 3)).max()), MIN_CONTRAST)
    return np.asarray(np.clip(darkness / (0.75 * contrast), 0.0, 1.0), dtype=np.float32)


def strokes(ink: Floats, *, neighbours: bool = True) -> NDArray[np.bool_]:
    """The pixels of the crop's writing: ink past ``STROKE``, without specks, without the
    pieces of box lines that reach in from the edge, and (``neighbours``) without the next
    box's figure."""
    mask = (ink > STROKE).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    height, width = mask.shape
    keep = np.zeros(count, dtype=bool)
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area < MIN_BLOB * height * width:
            continue
        on_edge = x == 0 or y == 0 or x + w == width or y + h == height
        line_like = (h <= LINE_THIN * height and w >= 0.45 * width) or (
            w <= LINE_THIN * width and h >= 0.45 * height
        )
        # A line piece is thin across and hugs the edge it came from.
        hugging = (h <= LINE_THIN * height and (y == 0 or y + h == height)) or (
            w <= LINE_THIN * width and (x == 0 or x + w == width)
        )
        if on_edge and line_like and hugging:
            continue
        keep[label] = True
    # A piece that comes in from the side and stays near it is the next box's figure
    # (slanted writing crosses the gap); dropped when a piece nearer the middle remains.
    centre_x = centroids[:, 0] / width
    middle = [label for label in range(1, count) if keep[label] and 0.3 <= centre_x[label] <= 0.7]
    if middle and neighbours:
        for label in range(1, count):
            x, _, w, _, _ = (int(v) for v in stats[label])
            from_left = x == 0 and centre_x[label] < NEIGHBOUR
            from_right = x + w == width and centre_x[label] > 1 - NEIGHBOUR
            if keep[label] and (from_left or from_right):
                keep[label] = False
    return np.asarray(keep[labels], dtype=np.bool_)


def features(crop: NDArray[np.uint8]) -> Floats:
    """The model's input for one crop (``FEATURES`` numbers)."""
    ink = ink_of(crop)
    return ink_features(ink, strokes(ink))


def ink_features(ink: Floats, mask: NDArray[np.bool_]) -> Floats:
    """The model's input for a box's ink, ``mask`` its strokes."""
    out = np.zeros(FEATURES, dtype=np.float32)
    if not mask.any():
        return out
    height, width = ink.shape
    ys, xs = np.nonzero(mask)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    piece = upright(np.where(mask, ink, 0.0)[top:bottom, left:right])
    h, w = piece.shape
    scale = INNER / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(piece, size, interpolation=cv2.INTER_AREA)
    total = float(small.sum())
    square = np.zeros((SIDE, SIDE), dtype=np.float32)
    if total > 0:
        cy = float((small.sum(axis=1) * np.arange(small.shape[0])).sum()) / total
        cx = float((small.sum(axis=0) * np.arange(small.shape[1])).sum()) / total
        oy = round(SIDE / 2 - cy - 0.5)
        ox = round(SIDE / 2 - cx - 0.5)
        oy = min(max(oy, 0), SIDE - small.shape[0])
        ox = min(max(ox, 0), SIDE - small.shape[1])
        square[oy : oy + small.shape[0], ox : ox + small.shape[1]] = small
        square /= max(float(square.max()), 1e-6)
    out[: SIDE * SIDE] = square.ravel()
    centre_y = (top + bottom) / 2 / height - 0.5
    centre_x = (left + right) / 2 / width - 0.5
    out[SIDE * SIDE :] = (
        float(mask.mean()) * 10,
        h / height,
        w / width,
        abs(centre_x) + abs(centre_y),
    )
    return out


def upright(piece: Floats) -> Floats:
    """The strokes sheared so that their main axis stands upright (a slanted hand's
    figures look like an upright hand's), cut to their new bounds."""
    moments = cv2.moments(piece)
    if moments["mu02"] < 1e-3:
        return piece
    skew = float(np.clip(moments["mu11"] / moments["mu02"], -MAX_SKEW, MAX_SKEW))
    h, w = piece.shape
    pad = int(np.ceil(abs(skew) * h / 2)) + 1
    centre = moments["m01"] / moments["m00"]
    shear = np.array([[1.0, -skew, pad + skew * centre], [0.0, 1.0, 0.0]], dtype=np.float32)
    out = cv2.warpAffine(piece, shear, (w + 2 * pad, h), flags=cv2.INTER_LINEAR)
    columns = np.nonzero(out.max(axis=0) > STROKE / 2)[0]
    if not len(columns):
        return piece
    return np.asarray(out[:, columns[0] : columns[-1] + 1], dtype=np.float32)


@dataclass(frozen=True)
class DigitModel:
    """A trained perceptron: standardise, one ReLU layer, softmax over ``CLASSES``."""

    mean: Floats
    scale: Floats
    hidden_weights: Floats
    hidden_bias: Floats
    out_weights: Floats
    out_bias: Floats
    temperature: float

    def probabilities(self, rows: Floats) -> Floats:
        """One row of ``CLASSES`` probabilities for each row of features."""
        x = (rows - self.mean) / self.scale
        hidden = np.maximum(x @ self.hidden_weights + self.hidden_bias, 0.0)
        logits = (hidden @ self.out_weights + self.out_bias) / self.temperature
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=1, keepdims=True), dtype=np.float32)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            mean=self.mean,
            scale=self.scale,
            hidden_weights=self.hidden_weights,
            hidden_bias=self.hidden_bias,
            out_weights=self.out_weights,
            out_bias=self.out_bias,
            temperature=np.array(self.temperature, dtype=np.float32),
        )


def load_model(path: Path) -> DigitModel:
    with np.load(path, allow_pickle=False) as data:
        return DigitModel(
            mean=data["mean"].astype(np.float32),
            scale=data["scale"].astype(np.float32),
            hidden_weights=data["hidden_weights"].astype(np.float32),
            hidden_bias=data["hidden_bias"].astype(np.float32),
            out_weights=data["out_weights"].astype(np.float32),
            out_bias=data["out_bias"].astype(np.float32),
            temperature=float(data["temperature"]),
        )


@cache
def model() -> DigitModel:
    """The committed model, read once."""
    return load_model(MODEL_FILE)


def classify(rows: list[Floats]) -> Floats:
    """``CLASSES`` probabilities for each box's features (digits 0–9, then blank)."""
    if not rows:
        return np.zeros((0, CLASSES), dtype=np.float32)
    return model().probabilities(np.asarray(np.stack(rows), dtype=np.float32))
