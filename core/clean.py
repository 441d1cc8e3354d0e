"""Text from outside, made storable: one rule for every store, applied where requests come in.

Platforms hand over what people typed, and people (or their clients) can type a NUL (U+0000)
or a lone UTF-16 surrogate (``"\\ud800"``, from a broken client or a JSON escape on its own).
SQLite stores both; PostgreSQL refuses a NUL in text, and no store can encode a lone surrogate
as UTF-8, so the same request would work on one store and fail on the other. The service
cleans what it is given at its entry points (:class:`core.sessions.GameService`), so the rest
of core never sees either: a NUL is dropped (it is never meaningful in chat text), a lone
surrogate becomes U+FFFD, the replacement character (what a decoder shows for broken text).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["clean", "clean_text"]

T = TypeVar("T")


def clean_text(text: str) -> str:
    """``text`` without NUL characters, each lone surrogate replaced by U+FFFD.

    A surrogate pair that stands for one character (``"\\ud83d\\ude00"``) becomes that
    character, as a UTF-16 decoder would read it.
    """
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Only surrogates fail to encode; decoding as UTF-16 joins the pairs and replaces the
        # lone ones, the way a client would have read them.
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def clean(value: T) -> T:
    """``value`` with :func:`clean_text` applied to every string in it.

    Strings, tuples and frozen dataclasses (an :class:`~core.replies.Actor`, a
    :class:`~core.commands.Command`, a receipt) are walked; anything else (numbers, enums,
    None) is returned as it is. A value that needs no cleaning is returned itself (the same
    object), so the common case costs a scan and no copy.
    """
    return _clean(value)  # type: ignore[no-any-return]


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        cleaned = tuple(_clean(item) for item in value)
        return value if cleaned == value else cleaned
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for field in dataclasses.fields(value):
            if not field.init:
                continue
            old = getattr(value, field.name)
            new = _clean(old)
            if new is not old:
                changes[field.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value
