"""Small line charts drawn on the server as inline SVG (``templates/public/_line_chart.html``,
no script): a player's rank after each round, a person's rating after each tournament.

- *point*: one value plotted, with the words shown over its dot (``label``);
- *tick*: a labelled value on an axis;
- coordinates are in the SVG's own units; the SVG scales to its container.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class ChartTick:
    position: float
    label: str


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: tuple[ChartPoint, ...]
    x_ticks: tuple[ChartTick, ...]
    y_ticks: tuple[ChartTick, ...]
    # Every point in words, for those who cannot see the chart.
    description: str

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:g},{p.y:g}" for p in self.points)

    @property
    def mid_x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def mid_y(self) -> float:
        return (self.top + self.bottom) / 2
