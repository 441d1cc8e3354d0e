"""What a setting's value is (:class:`Kind`: parser, bounds and display), the error a parser
raises, and the whole numbers settings take; the kinds themselves are in ``core.admin.keys``
(and the daily post's in ``core.admin.daily``)."""

from __future__ import annotations

from typing import Generic, TypeVar

from core.i18n import Text

T = TypeVar("T")


class _Bad(ValueError):
    """A value does not fit its kind; :meth:`core.admin.keys.Key.parse` names the key."""

    def __init__(self, expected: Text) -> None:
        super().__init__(expected.key)
        self.expected = expected


class Kind(Generic[T]):
    """What a setting's value is: how text becomes a value (``read``, raising ``_Bad`` with what
    was expected) and a value text again (``show``: text that ``read`` turns back into the same
    value)."""

    def read(self, text: str) -> T:
        raise NotImplementedError

    def show(self, value: T) -> str:
        return str(value)

    @property
    def bounds(self) -> tuple[float, float] | None:
        """The lowest and highest number it takes, inclusive; None for values that are not
        numbers."""
        return None


def whole(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, else None."""
    # The length test first: int() refuses numbers of thousands of digits with its own error.
    if text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high:
        return int(text)
    return None
