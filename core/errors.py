"""Whose fault it is: the player's mistakes, the operator's settings, and ours.

A :class:`UserError` is shown to the player, rendered in their language from a message key; an
:class:`OperatorError` ends the program with one line telling whoever runs it what to change;
any other exception is the system's, logged and answered with a short apology (h11's split
between local and remote protocol errors, applied to people).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.i18n import Param


ECHO_LIMIT = 100
"""The most characters of a player's input that a message quotes back."""


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` as a message quotes it: whole up to ``limit`` characters, else its start and
    an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


OWN_WORDS = frozenset({"keys", "usage", "help", "expected", "reason"})
"""Parameters of error messages that are our words (lists of keys, syntax), never input."""


class UserError(ValueError):
    """A mistake by the player (bad text, wrong turn, occupied cell...), shown to them.

    Args:
        key: the message key in the i18n catalogues (``core/i18n/messages``).
        params: values for the message's ``{placeholders}``. Text that quotes the player's input
            is cut to :data:`ECHO_LIMIT` characters (:func:`echo`): a Discord option may be
            thousands of characters long, and a message cut to fit its platform must keep the
            explanation rather than the echo. Our own words (:data:`OWN_WORDS`) are kept whole.
    """

    def __init__(self, key: str, **params: Param) -> None:
        self.key = key
        self.params: dict[str, Param] = {
            name: echo(value) if isinstance(value, str) and name not in OWN_WORDS else value
            for name, value in params.items()
        }
        super().__init__(self.english())

    def english(self) -> str:
        """The message in English, for logs and ``str()``."""
        from core.i18n import render  # late: i18n is pure, but keep errors importable alone

        return render(self.key, "en", **self.params)


class OperatorError(Exception):
    """Something the operator set up is refused (a platform's token, say): not a bug, so no
    traceback. The message is one line naming the setting and what to do about it; the
    application logs it as it is and exits with the code of a bad setting."""
