"""The geometry of a person's rating chart on their career page: a small inline SVG line of
their rating after each tournament they played in a series, drawn on the server (no
script), with a text description and a table beside it for those who cannot see it.

- *point*: the person's displayed rating (``mu − 3 × sigma``) after their last rated
  match of one tournament;
- *tick*: a labelled value on an axis: every tournament along the bottom (numbered
  1, 2, 3… as the table below the chart numbers them), a few ratings up the side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tournament.kernel.charts import ChartPoint, ChartTick, LineChart

# Narrow enough for a phone at 360 px with twelve tournaments; more squeeze the step.
_WIDTH = 320
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_TOP, _MARGIN_BOTTOM = 48, 14, 12, 40
_PLOT_HEIGHT = 140
_TICKS = 4


def shown(rating: float) -> str:
    return f"{rating:.1f}"


def _nice_step(span: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``_TICKS`` ticks."""
    raw = span / _TICKS
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def rating_chart(history: Sequence[tuple[str, float]]) -> LineChart | None:
    """The chart of ``history``: (tournament name, rating after it), in order."""
    if not history:
        return None
    ratings = [rating for _, rating in history]
    span = max(max(ratings) - min(ratings), 1.0)
    step = _nice_step(span)
    low = math.floor(min(ratings) / step) * step
    high = max(math.ceil(max(ratings) / step) * step, low + step)
    left, top = _MARGIN_LEFT, _MARGIN_TOP
    right = _WIDTH - _MARGIN_RIGHT
    bottom = top + _PLOT_HEIGHT

    def x_of(index: int) -> float:
        if len(history) == 1:
            return (left + right) / 2
        return round(left + (right - left) * index / (len(history) - 1), 1)

    def y_of(rating: float) -> float:
        return round(bottom - (rating - low) * _PLOT_HEIGHT / (high - low), 1)

    count = round((high - low) / step)
    ticks = [low + k * step for k in range(count + 1)]
    return LineChart(
        width=_WIDTH,
        height=bottom + _MARGIN_BOTTOM,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        points=tuple(
            ChartPoint(x_of(i), y_of(rating), f"{name}: {shown(rating)}")
            for i, (name, rating) in enumerate(history)
        ),
        x_ticks=tuple(ChartTick(x_of(i), str(i + 1)) for i in range(len(history))),
        y_ticks=tuple(ChartTick(y_of(value), f"{value:g}") for value in ticks),
        description="; ".join(
            f"after tournament {i} ({name}): {shown(rating)}"
            for i, (name, rating) in enumerate(history, start=1)
        ),
    )
