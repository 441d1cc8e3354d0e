"""A rating chart's geometry, pure: ratings in, the points of an SVG polyline out. The page
draws it on the server, so it shows without JavaScript."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 600, 200
"""The chart's drawing box, in SVG user units (the page scales it to the screen's width)."""
_MARGIN = 10


@dataclass(frozen=True, slots=True)
class Chart:
    """A rating chart: ``points`` for ``<polyline points=...>`` in a ``width`` x ``height``
    box, the rounded lowest and highest rating drawn (the axis' labels), and how many
    ratings it joins."""

    points: str
    low: int
    high: int
    count: int
    width: int = WIDTH
    height: int = HEIGHT


def chart(ratings: Sequence[float], width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """The chart of ``ratings`` in the order they were held (oldest first); None for fewer
    than two (a line needs two points). A flat series is drawn in the middle."""
    if len(ratings) < 2:
        return None
    low, high = min(ratings), max(ratings)
    span = high - low
    inner_w, inner_h = width - 2 * _MARGIN, height - 2 * _MARGIN
    step = inner_w / (len(ratings) - 1)
    points = []
    for i, rating in enumerate(ratings):
        x = _MARGIN + i * step
        share = 0.5 if span == 0 else (rating - low) / span
        y = _MARGIN + (1 - share) * inner_h
        points.append(f"{x:.1f},{y:.1f}")
    return Chart(" ".join(points), math.floor(low), math.ceil(high), len(ratings), width, height)
