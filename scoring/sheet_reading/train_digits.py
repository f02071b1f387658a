"""Training the digit model of ``digits``: boxes drawn from data that ships inside packages.

Run from the repository root (it takes a few minutes on two cores)::

    .venv/bin/python -m scoring.sheet_reading.train_digits

It writes ``digits.npz`` (the weights) and ``digits.json`` (what it was trained on and its
held-out figures) beside ``digits``. The app never imports this module: scikit-learn is a
development dependency, and the app reads the weights with numpy alone.

The boxes are made the way a photographed box looks after rectifying: a glyph placed in a
crop of paper (anywhere from small and off centre to filling it), slanted, turned,
thickened or thinned, blurred, under uneven light, with noise, sometimes with a piece of
the box's line or of the next box's writing at the edge, sometimes JPEG-compressed. The
glyphs come from

- scikit-learn's handwritten digits (``load_digits``: 1,797 scans, 8×8, from 43 people),
  upsampled; the last fifth of the scans is kept apart for the held-out figures;
- every Hershey font of cv2 (upright and italic), at several pen widths;
- nothing at all (a blank box), with specks and line pieces.

The held-out figures use glyphs, pens and placements the model never saw.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from sklearn.datasets import load_digits  # type: ignore[import-untyped]
from sklearn.neural_network import MLPClassifier  # type: ignore[import-untyped]

from scoring.sheet_reading.digits import BLANK, CLASSES, MODEL_FILE, DigitModel, features

FIGURES_FILE = MODEL_FILE.with_suffix(".json")
HIDDEN = 128
SEED = 38
PER_DIGIT = {"handwritten": 2000, "font": 1200}
BLANKS = 4000
HELD_OUT = {"handwritten": 250, "font": 150, "blank": 500}
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
)

Image = NDArray[Any]
Rng = np.random.Generator


def _scanned_glyphs() -> tuple[list[tuple[Image, int]], list[tuple[Image, int]]]:
    """load_digits' scans as ink (0..1) at 32×32: the first four fifths, and the rest."""
    data = load_digits()
    glyphs = []
    for image, label in zip(data.images, data.target, strict=True):
        big = cv2.resize((image / 16.0).astype(np.float32), (32, 32), interpolation=cv2.INTER_CUBIC)
        glyphs.append((np.clip((big - 0.15) * 1.4, 0.0, 1.0).astype(np.float32), int(label)))
    cut = len(glyphs) * 4 // 5
    return glyphs[:cut], glyphs[cut:]


def _font_glyph(rng: Rng, digit: int) -> Image:
    """``digit`` in a random Hershey font and pen, as ink cut to its strokes."""
    font = int(rng.choice(FONTS)) | (cv2.FONT_ITALIC if rng.random() < 0.3 else 0)
    canvas = np.zeros((96, 96), dtype=np.uint8)
    thickness = int(rng.integers(1, 6))
    cv2.putText(canvas, str(digit), (18, 72), font, 2.0, 255, thickness, cv2.LINE_AA)
    return _trimmed(canvas.astype(np.float32) / 255.0)


def _trimmed(ink: Image) -> Image:
    ys, xs = np.nonzero(ink > 0.2)
    return ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _pen(rng: Rng, glyph: Image) -> Image:
    """The glyph drawn with a thicker or thinner pen."""
    roll = rng.random()
    kernel = np.ones((2, 2), np.uint8)
    if roll < 0.25:
        return cv2.dilate(glyph, kernel).astype(np.float32)
    if roll < 0.4 and min(glyph.shape) > 24:
        return cv2.erode(glyph, kernel).astype(np.float32)
    return glyph


def _placed(rng: Rng, glyph: Image, height: int, width: int) -> Image:
    """The glyph slanted, turned and scaled into a crop of ``height`` × ``width``."""
    h, w = glyph.shape
    pad = max(h, w)
    big = np.zeros((h + 2 * pad, w + 2 * pad), dtype=np.float32)
    big[pad : pad + h, pad : pad + w] = glyph
    target = rng.uniform(0.45, 0.92) * height
    scale = target / h
    aspect = rng.uniform(0.75, 1.25)
    angle = np.deg2rad(rng.uniform(-12, 12))
    shear = rng.uniform(-0.35, 0.25)
    cx, cy = big.shape[1] / 2, big.shape[0] / 2
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    linear = turn @ np.array([[1.0, shear], [0.0, 1.0]]) @ np.diag([scale * aspect, scale])
    slack_x = max(0.0, (width - w * scale * aspect) / 2)
    slack_y = max(0.0, (height - target) / 2)
    centre = np.array(
        [
            width / 2 + rng.uniform(-slack_x - 2, slack_x + 2),
            height / 2 + rng.uniform(-slack_y - 2, slack_y + 2),
        ]
    )
    offset = centre - linear @ np.array([cx, cy])
    matrix = np.hstack([linear, offset[:, None]]).astype(np.float32)
    return cv2.warpAffine(big, matrix, (width, height), flags=cv2.INTER_LINEAR)


def _edge_clutter(rng: Rng, ink: Image) -> None:
    """Pieces of the box's own lines, and of the next box's writing, at the edges."""
    height, width = ink.shape
    if rng.random() < 0.45:
        side = int(rng.integers(4))
        thick = int(rng.integers(1, 4))
        level = rng.uniform(0.3, 1.0)
        start = int(rng.integers(0, max(1, width // 2)))
        if side == 0:
            ink[:thick, start:] = np.maximum(ink[:thick, start:], level)
        elif side == 1:
            ink[-thick:, start:] = np.maximum(ink[-thick:, start:], level)
        elif side == 2:
            ink[start % height :, :thick] = np.maximum(ink[start % height :, :thick], level)
        else:
            ink[start % height :, -thick:] = np.maximum(ink[start % height :, -thick:], level)
    if rng.random() < 0.12:
        x = 0 if rng.random() < 0.5 else width - 1
        y0 = int(rng.integers(0, height // 2))
        y1 = int(rng.integers(height // 2, height))
        tip = x + (4 if x == 0 else -4)
        cv2.line(ink, (x, y0), (tip, y1), 1.0, int(rng.integers(1, 3)), cv2.LINE_AA)


def _specks(rng: Rng, ink: Image) -> None:
    height, width = ink.shape
    for _ in range(int(rng.integers(0, 3))):
        y, x = int(rng.integers(height)), int(rng.integers(width))
        ink[y : y + 2, x : x + 2] = np.maximum(ink[y : y + 2, x : x + 2], rng.uniform(0.2, 0.8))


def _photographed(rng: Rng, ink: Image) -> NDArray[np.uint8]:
    """Ink as grey pixels of a photographed page: paper and pen shades, light, blur, noise."""
    height, width = ink.shape
    if rng.random() < 0.6:
        ink = cv2.GaussianBlur(ink, (0, 0), rng.uniform(0.3, 1.3))
    paper = rng.uniform(120, 250)
    pen = rng.uniform(0, 0.55) * paper
    grey = paper - np.clip(ink, 0, 1) * (paper - pen)
    ramp = np.linspace(-1, 1, width)[None, :] * rng.uniform(-12, 12)
    ramp = ramp + np.linspace(-1, 1, height)[:, None] * rng.uniform(-12, 12)
    grey = grey + ramp + rng.normal(0, rng.uniform(1, 7), grey.shape)
    out = np.clip(grey, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        quality = int(rng.integers(35, 90))
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        out = np.asarray(cv2.imdecode(data, cv2.IMREAD_GRAYSCALE), dtype=np.uint8)
    return out


def _neighbour(rng: Rng, ink: Image, glyph: Image) -> None:
    """Part of the next box's figure, come over the gap from one side."""
    height, width = ink.shape
    wide = _placed(rng, _pen(rng, glyph), height, width)
    shift = int(width * rng.uniform(0.7, 1.0)) * (1 if rng.random() < 0.5 else -1)
    moved = np.zeros_like(wide)
    if shift > 0:
        moved[:, shift:] = wide[:, : width - shift]
    else:
        moved[:, :shift] = wide[:, -shift:]
    np.maximum(ink, moved, out=ink)


def box(
    rng: Rng, glyph: Image | None, other: Callable[[], Image] | None = None
) -> NDArray[np.uint8]:
    """One box's crop holding ``glyph`` (None: a blank box); ``other`` draws a glyph for
    the next box, whose edge sometimes comes in."""
    height = int(rng.integers(28, 58))
    width = int(height * rng.uniform(0.6, 1.1))
    if glyph is None:
        ink = np.zeros((height, width), dtype=np.float32)
        _specks(rng, ink)
    else:
        ink = _placed(rng, _pen(rng, glyph), height, width)
    if other is not None and rng.random() < 0.3:
        _neighbour(rng, ink, other())
    _edge_clutter(rng, ink)
    return _photographed(rng, ink)


def _examples(
    rng: Rng,
    scans: list[tuple[Image, int]],
    per_digit: dict[str, int],
    blanks: int,
) -> tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.str_]]:
    rows: list[NDArray[np.float32]] = []
    labels: list[int] = []
    sources: list[str] = []

    def other() -> Image:
        if rng.random() < 0.5:
            return scans[int(rng.integers(len(scans)))][0]
        return _font_glyph(rng, int(rng.integers(10)))

    def add(glyph: Image | None, label: int, source: str) -> None:
        rows.append(features(box(rng, glyph, other)))
        labels.append(label)
        sources.append(source)

    for _ in range(per_digit["handwritten"] * 10):
        glyph, label = scans[int(rng.integers(len(scans)))]
        add(glyph, label, "handwritten")
    for _ in range(per_digit["font"]):
        for digit in range(10):
            add(_font_glyph(rng, digit), digit, "font")
    for _ in range(blanks):
        add(None, BLANK, "blank")
    return np.stack(rows), np.array(labels), np.array(sources)


def _temperature(
    probabilities: Callable[[float], NDArray[np.float32]], y: NDArray[np.int64]
) -> float:
    """The softmax temperature that best fits the held-out boxes (least log loss)."""
    best, best_loss = 1.0, float("inf")
    for temperature in np.linspace(0.6, 3.0, 25):
        p = probabilities(float(temperature))
        loss = -float(np.mean(np.log(np.maximum(p[np.arange(len(y)), y], 1e-9))))
        if loss < best_loss:
            best, best_loss = float(temperature), loss
    return best


def main() -> None:
    started = time.perf_counter()
    rng = np.random.default_rng(SEED)
    scans, held_scans = _scanned_glyphs()
    x, y, _ = _examples(rng, scans, PER_DIGIT, BLANKS)
    hx, hy, hsource = _examples(
        np.random.default_rng(SEED + 1),
        held_scans,
        {"handwritten": HELD_OUT["handwritten"], "font": HELD_OUT["font"]},
        HELD_OUT["blank"],
    )
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    classifier = MLPClassifier(
        hidden_layer_sizes=(HIDDEN,),
        alpha=1e-3,
        batch_size=256,
        learning_rate_init=2e-3,
        max_iter=80,
        early_stopping=True,
        n_iter_no_change=6,
        random_state=SEED,
    )
    classifier.fit((x - mean) / scale, y)
    assert list(classifier.classes_) == list(range(CLASSES))

    def fitted(temperature: float) -> DigitModel:
        return DigitModel(
            mean=mean.astype(np.float32),
            scale=scale.astype(np.float32),
            hidden_weights=classifier.coefs_[0].astype(np.float32),
            hidden_bias=classifier.intercepts_[0].astype(np.float32),
            out_weights=classifier.coefs_[1].astype(np.float32),
            out_bias=classifier.intercepts_[1].astype(np.float32),
            temperature=temperature,
        )

    temperature = _temperature(lambda t: fitted(t).probabilities(hx), hy)
    model = fitted(temperature)
    model.save(MODEL_FILE)
    guesses = model.probabilities(hx).argmax(axis=1)
    figures = {
        "model": f"one hidden layer of {HIDDEN} ReLU units, softmax over 0-9 and blank",
        "inputs": "16x16 normalised ink + 4 numbers about the ink in the box",
        "trained_on": {
            "handwritten (load_digits, first 4/5 of the scans)": int(PER_DIGIT["handwritten"] * 10),
            "font (cv2 Hershey, upright and italic)": PER_DIGIT["font"] * 10,
            "blank": BLANKS,
        },
        "temperature": round(temperature, 2),
        "held_out_accuracy": {
            source: round(float(np.mean(guesses[hsource == source] == hy[hsource == source])), 4)
            for source in ("handwritten", "font", "blank")
        },
        "held_out_boxes": len(hy),
        "seconds_to_train": round(time.perf_counter() - started),
        "command": "python -m scoring.sheet_reading.train_digits",
    }
    FIGURES_FILE.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
