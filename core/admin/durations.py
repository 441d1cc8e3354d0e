"""Durations as people type them (``60s``, ``2m``, ``1h``, ``1d``) and the bounds of a move clock:
the one parser that the ``clock`` settings and a start command's clock option share.

Pure and linear in its input: one regular expression without nesting, anchored at both ends.
"""

from __future__ import annotations

import re

MINUTE = 60
HOUR = 3600
DAY = 86400

CLOCK_MIN = 10.0
"""The shortest move clock: seconds to find a move and press it."""

CLOCK_MAX = float(7 * DAY)
"""The longest move clock: a week per move, a slow correspondence game."""

_UNITS: dict[str, int] = {
    "s": 1,
    "sec": 1,
    "m": MINUTE,
    "min": MINUTE,
    "h": HOUR,
    "d": DAY,
}
_SHOWN = (("d", DAY), ("h", HOUR), ("m", MINUTE))
# At most 7 digits: 9,999,999 days is far out of every bound and int() stays cheap.
_DURATION = re.compile(r"([0-9]{1,7})([a-z]{1,3})", re.ASCII)


def parse_duration(text: str) -> float | None:
    """Seconds for a duration written as a whole number and a unit (``90s``, ``5m``, ``5min``,
    ``2h``, ``1d``; any case), or None for text of any other shape (``5 minutes``, ``99y``,
    ``1.5h``). Bounds are the caller's: ``0s`` is 0.0."""
    found = _DURATION.fullmatch(text.strip().lower())
    if found is None or found.group(2) not in _UNITS:
        return None
    return float(int(found.group(1)) * _UNITS[found.group(2)])


def show_duration(seconds: float) -> str:
    """``seconds`` as :func:`parse_duration` reads it back, in the largest whole unit
    (``300.0`` -> ``5m``, ``86400.0`` -> ``1d``, ``90.0`` -> ``90s``); a fraction of a second
    as plain seconds (``12.5``), which the settings read back as they read every time."""
    whole = round(seconds)
    if whole != seconds or whole <= 0:
        return repr(float(seconds))
    for unit, size in _SHOWN:
        if whole % size == 0:
            return f"{whole // size}{unit}"
    return f"{whole}s"


def looks_like_duration(token: str) -> bool:
    """An attempt at a duration (good or bad): digits, then letters alone (``60s``, ``0s``,
    ``99y``, ``5min``), as opposed to a number, a size (``6x7``, ``6y7``) or a word."""
    unit = token.lstrip("0123456789")
    return unit != token and unit.isascii() and unit.isalpha()
