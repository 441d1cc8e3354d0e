"""A display name as a page shows it: the characters that can change how the text around it
reads taken out, and cut to a length a line can hold. Escaping is the HTML's job (the
templates escape everything); this is what escaping cannot do."""

from __future__ import annotations

import unicodedata

from core.i18n import Param, Text

NAME_LENGTH = 32
"""Characters of a name a page shows, at most (Discord allows 32; Matrix names have no bound)."""

_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Control and format characters (the bidirectional overrides such as U+202E, zero-width
spaces and joiners), private use, unassigned, and line breaks: none is a visible letter, and
the overrides would turn the rest of the line around."""


def shown_name(name: str) -> str:
    """``name`` without invisible characters, spaces collapsed, cut to :data:`NAME_LENGTH`
    characters (an ellipsis ending a cut one); ``?`` when nothing visible is left."""
    visible = "".join(c for c in name if unicodedata.category(c) not in _HIDDEN)
    visible = " ".join(visible.split())
    if len(visible) > NAME_LENGTH:
        visible = visible[: NAME_LENGTH - 1].rstrip() + "…"
    return visible or "?"


ANONYMOUS = "anonymous"
"""How every page names a player who hid themselves (``/hide``): on a ladder (keeping the
place), a game, a live game and an event."""


def named(name: str) -> Param:
    """A name as a parameter of a page's text: a hidden player's is ``page.anonymous``, said
    in the reader's language."""
    return Text("page.anonymous") if name == ANONYMOUS else name
