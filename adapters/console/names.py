"""Who speaks at the console: a name is what a line ``NAME: ...`` starts with and what ``@NAME``
challenges, so it is a plain word; the first player is named by ``CONSOLE_NAME`` or else after
the OS user, so that every sentence about them reads as one about a person ("ann challenges
@bob"), never "you challenges @bob"."""

from __future__ import annotations

import getpass
import re

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")
NAME_RULE = "a letter, then letters, digits, _ . or - (up to 32 characters)"
FALLBACK_NAME = "player"
"""The first player's name when the OS user's cannot be read back in a line ``NAME: ...``."""


def is_name(text: str) -> bool:
    """Whether ``text`` can name a player at the console."""
    return NAME.fullmatch(text) is not None


def local_name() -> str:
    """The OS user's name (``getpass.getuser``: the login name from the environment, else the
    password database), or :data:`FALLBACK_NAME` when there is none or it is no console name
    (spaces, another script)."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no such variables and no pwd entry (a container)
        return FALLBACK_NAME
    return name if is_name(name) else FALLBACK_NAME


def console_name(configured: str | None) -> str:
    """The first player's name: ``configured`` (``CONSOLE_NAME``), else :func:`local_name`.

    Raises:
        ValueError: ``configured`` is no console name (the message names the setting).
    """
    if configured is None:
        return local_name()
    if not is_name(configured):
        raise ValueError(f"CONSOLE_NAME: {configured!r} is not a name: {NAME_RULE}")
    return configured
